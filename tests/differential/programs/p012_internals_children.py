"""get_internals (every node's visible outputs, DFS post-order) and get_children."""


def run(mx):
    data = mx.sym.Variable("data")
    net = mx.sym.FullyConnected(data, num_hidden=10)
    net = mx.sym.Activation(net, act_type="relu")
    net = mx.sym.FullyConnected(net, num_hidden=3, name="fc1")
    net = mx.sym.SoftmaxOutput(net, name="softmax")
    internals = net.get_internals()
    fc1 = internals["fc1_output"]
    children = net.get_children()
    bn = mx.sym.BatchNorm(data, name="bn", output_mean_var=True)
    drop = mx.sym.Dropout(data, name="drop")
    return {
        "internals": internals.list_outputs(),
        "internals_len": len(internals),
        "fc1_name": fc1.name,
        "fc1_arguments": fc1.list_arguments(),
        "fc1_outputs": fc1.list_outputs(),
        "children": children.list_outputs(),
        "children_of_fc1": fc1.get_children().list_outputs(),
        "children_of_variable": data.get_children() is None,
        "bn_internals": bn.get_internals().list_outputs(),
        "bn_children": bn.get_children().list_outputs(),
        "dropout_internals": drop.get_internals().list_outputs(),
        "internals_of_internals": internals.get_internals().list_outputs(),
        "group_children": mx.sym.Group([data + 1, data * 2]).get_children().list_outputs(),
    }
