"""Auto-naming: hint = lower-cased Python function name + a per-hint counter.

Explicit names and Variables use no counter; a nested NameManager starts fresh counters.
"""


def run(mx):
    data = mx.sym.Variable("data")
    fc0 = mx.sym.FullyConnected(data, num_hidden=8)
    act0 = mx.sym.Activation(fc0, act_type="relu")
    fc_named = mx.sym.FullyConnected(act0, num_hidden=4, name="fc_named")
    act1 = mx.sym.Activation(fc_named, act_type="tanh")
    fc1 = mx.sym.FullyConnected(act1, num_hidden=2)
    sm = mx.sym.SoftmaxOutput(fc1)
    names = [s.name for s in [fc0, act0, fc_named, act1, fc1, sm]]
    others = [
        mx.sym.softmax(data).name,
        mx.sym.make_loss(data).name,
        mx.sym.MakeLoss(data).name,
        mx.sym.BlockGrad(data).name,
        mx.sym.stop_gradient(data).name,
        mx.sym.elemwise_add(data, data).name,
        mx.sym.broadcast_mul(data, data).name,
        mx.sym.Convolution(data, kernel=(3,), num_filter=2).name,
        mx.sym.BatchNorm(data).name,
        mx.sym.relu(data).name,
        mx.sym.Reshape(data, shape=(-1,)).name,
        mx.sym.reshape(data, shape=(-1,)).name,
        mx.sym.Flatten(data).name,
        mx.sym.flatten(data).name,
        mx.sym.Concat(data, data).name,
        mx.sym.concat(data, data).name,
        mx.sym.SliceChannel(data, num_outputs=2).name,
        mx.sym.split(data, num_outputs=2).name,
        mx.sym.sum(data).name,
        mx.sym.Variable("Var_Not_Counted").name,
    ]
    with mx.name.NameManager():
        fresh = [mx.sym.FullyConnected(data, num_hidden=1).name,
                 mx.sym.Activation(data, act_type="relu").name]
    after = [mx.sym.FullyConnected(data, num_hidden=1).name,
             mx.sym.Activation(data, act_type="relu").name]
    return {
        "names": names,
        "net_arguments": sm.list_arguments(),
        "net_outputs": sm.list_outputs(),
        "others": others,
        "fresh_manager": fresh,
        "after_fresh_manager": after,
    }
