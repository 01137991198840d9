"""mx.name.Prefix prepends to every op name (generated or given), not to Variables."""


def run(mx):
    with mx.name.Prefix("net_"):
        data = mx.sym.Variable("data")
        fc = mx.sym.FullyConnected(data, num_hidden=3)
        fc1 = mx.sym.FullyConnected(fc, num_hidden=2, name="fc1")
        act = mx.sym.Activation(fc1, act_type="relu")
        plus = act + 1
    with mx.name.Prefix("outer_"):
        outer = mx.sym.FullyConnected(mx.sym.Variable("x"), num_hidden=1)
    return {
        "names": [data.name, fc.name, fc1.name, act.name, plus.name, outer.name],
        "arguments": plus.list_arguments(),
        "outputs": plus.list_outputs(),
        "internals": plus.get_internals().list_outputs(),
        "outer_arguments": outer.list_arguments(),
        "unprefixed_after": mx.sym.FullyConnected(data, num_hidden=1).name,
    }
