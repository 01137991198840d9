"""Under mx.np_shape(True) inference reports in NumPy's convention: an unknown size is -1, a
wholly unknown shape None; a -1 given is unknown in both conventions (MXNet's own
test_infer_shape cases: dot, batch_dot, embedding, pick, where, transpose, slice)."""


def _partial(sym, **shapes):
    args, outs, aux = sym.infer_shape_partial(**shapes)
    return {"args": args, "outs": outs, "aux": aux}


def run(mx):
    x, y = mx.sym.Variable("x"), mx.sym.Variable("y")
    cases = {
        "dot": (mx.sym.dot(x, y), {"x": (-1, 3, 4), "y": (4, 5)}),
        "batch_dot": (mx.sym.batch_dot(x, y), {"x": (-1, 3, 4), "y": (-1, -1, 5)}),
        "transpose": (mx.sym.transpose(x, axes=(1, 0, 2)), {"x": (-1, 3, 4)}),
        "fc": (mx.sym.FullyConnected(x, num_hidden=4, name="fc"), {"x": (-1, 3)}),
        "sin_unknown": (mx.sym.sin(x), {}),
    }
    found = {"default": mx.is_np_shape()}
    for name, (sym, shapes) in cases.items():
        found[f"legacy_{name}"] = _partial(sym, **shapes)
        with mx.np_shape(True):
            found[f"np_{name}"] = _partial(sym, **shapes)
            found["inside"] = mx.is_np_shape()
    found["after"] = mx.is_np_shape()
    found["set_returns"] = [mx.set_np_shape(True), mx.is_np_shape(), mx.set_np_shape(False)]

    @mx.use_np_shape
    def decorated():
        return mx.is_np_shape()
    found["decorated"] = [decorated(), mx.is_np_shape()]
    with mx.np_shape(True):
        var = mx.sym.var("data", shape=(-1, 20))
        found["np_slice"] = _partial(mx.sym.slice(var, begin=(None, None), end=(None, 10)))
        found["np_complete"] = mx.sym.FullyConnected(var, num_hidden=2, name="f").infer_shape(
            data=(4, 20))
    return found
