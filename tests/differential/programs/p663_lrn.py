"""LRN: the window of nsize channels centred on each, alpha / nsize, knorm, beta; the hidden
output tmp_norm (not listed, not in get_internals); forward and backward values; errors."""
from _common import err
from _image import describe, dtypes, run_symbol, seeded, shapes


def run(mx):
    x = mx.sym.Variable("x")
    res = {}
    cases = {
        "defaults": (dict(nsize=3), (2, 5, 2, 2), 1.0),
        "strong": (dict(nsize=5, alpha=0.5, beta=0.6, knorm=1.0), (1, 4, 2, 3), 2.0),
        "window_1": (dict(nsize=1, alpha=2.0, beta=1.0, knorm=0.5), (1, 3, 2, 2), 1.0),
        "wide_window": (dict(nsize=7, alpha=1.0, beta=0.75), (1, 3, 3, 2), 3.0),
        "even_2": (dict(nsize=2, alpha=1.0), (1, 4, 2, 2), 1.5),
        "even_4": (dict(nsize=4, alpha=2.0, beta=0.5), (2, 5, 1, 2), 1.5),
    }
    for i, (case, (params, shape, scale)) in enumerate(cases.items()):
        sym = mx.sym.LRN(x, name="n", **params)
        data = seeded(shape, i, -scale, scale)
        res[case] = {"symbol": describe(sym), "shapes": shapes(sym.infer_shape(x=shape)),
                     "run": run_symbol(mx, sym, {"x": data}, seed=i)}
        if case == "strong":
            res[case]["add"] = run_symbol(mx, sym, {"x": data}, seed=i, grad_req="add",
                                          repeat=2)
    lrn = mx.sym.LRN(x, nsize=3)
    res["auto_name"] = lrn.name
    res["partial"] = {"batch_unknown": shapes(lrn.infer_shape_partial(x=(0, 5, 3, 3))),
                      "two_d": shapes(lrn.infer_shape(x=(2, 5)))}
    res["types"] = dtypes(lrn.infer_type(x="float32"))
    res["nd"] = mx.nd.LRN(mx.nd.array(seeded((1, 3, 1, 2), 7)), nsize=3, alpha=1.0).asnumpy()
    res["errors"] = {
        "no_nsize": err(mx, mx.sym.LRN, x),
        "bad_alpha": err(mx, mx.sym.LRN, x, nsize=3, alpha="big"),
    }
    return res
