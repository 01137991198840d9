"""A 3,000-operator chain (alternating '+ 1' and Activation): listing, naming, inference and
serialization must not hit recursion limits."""


def run(mx):
    x = mx.sym.Variable("x")
    for i in range(3000):
        if i % 2 == 0:
            x = x + 1
        else:
            x = mx.sym.Activation(x, act_type="relu")
    text = x.tojson()
    internals = x.get_internals()
    return {
        "n_arguments": len(x.list_arguments()),
        "arguments": x.list_arguments(),
        "head_name": x.name,
        "outputs": x.list_outputs(),
        "infer_shape": x.infer_shape(x=(2, 3)),
        "infer_type": [[t.__name__ for t in part] for part in x.infer_type(x="float64")],
        "tojson_len": len(text),
        "n_internals": len(internals.list_outputs()),
        "last_internals": internals.list_outputs()[-3:],
        "roundtrip": mx.sym.load_json(text).tojson() == text,
    }
