"""Pad: constant (with constant_value), edge and reflect on 4-D and 5-D data; only the spatial
axes may be padded; forward and backward values (also under grad_req='add'); errors."""
from _common import err
from _image import describe, dtypes, run_symbol, seeded, shapes


def run(mx):
    x = mx.sym.Variable("x")
    res = {}
    cases = {
        "constant": (dict(mode="constant", pad_width=(0, 0, 0, 0, 1, 2, 2, 1),
                          constant_value=1.5), (1, 2, 3, 3)),
        "constant_default": (dict(mode="constant", pad_width=(0, 0, 0, 0, 0, 1, 1, 0)),
                             (2, 1, 2, 3)),
        "edge": (dict(mode="edge", pad_width=(0, 0, 0, 0, 2, 1, 1, 3)), (1, 2, 3, 4)),
        "reflect": (dict(mode="reflect", pad_width=(0, 0, 0, 0, 2, 1, 1, 3)), (1, 2, 3, 4)),
        "edge_5d": (dict(mode="edge", pad_width=(0, 0, 0, 0, 1, 0, 0, 2, 1, 1)),
                    (1, 1, 2, 3, 2)),
        "reflect_5d": (dict(mode="reflect", pad_width=(0, 0, 0, 0, 1, 1, 1, 0, 0, 1)),
                       (1, 2, 2, 3, 2)),
        "constant_5d": (dict(mode="constant", pad_width=(0, 0, 0, 0, 1, 0, 0, 1, 2, 0),
                             constant_value=-2.0), (1, 1, 2, 2, 2)),
    }
    for i, (case, (params, shape)) in enumerate(cases.items()):
        sym = mx.sym.Pad(x, name="p", **params)
        res[case] = {"symbol": describe(sym), "shapes": shapes(sym.infer_shape(x=shape)),
                     "run": run_symbol(mx, sym, {"x": seeded(shape, i)}, seed=i)}
        if case in ("edge", "reflect"):
            res[case]["add"] = run_symbol(mx, sym, {"x": seeded(shape, i)}, seed=i,
                                          grad_req="add", repeat=2)
    p = mx.sym.pad(x, mode="constant", pad_width=(0, 0, 0, 0, 1, 2, 3, 4))
    res["alias"] = describe(p)
    res["partial"] = shapes(p.infer_shape_partial(x=(0, 2, 3, 4)))
    res["types"] = dtypes(p.infer_type(x="float64"))
    res["nd"] = mx.nd.Pad(mx.nd.array(seeded((1, 1, 2, 2), 9)), mode="edge",
                          pad_width=(0, 0, 0, 0, 1, 1, 1, 1)).asnumpy()
    bad = lambda **kw: mx.sym.Pad(x, **kw).infer_shape  # noqa: E731
    res["errors"] = {
        "rank_3": err(mx, bad(mode="constant", pad_width=(0, 0, 0, 0, 1, 1)), x=(1, 2, 3)),
        "batch_or_channel": err(mx, bad(mode="constant", pad_width=(0, 0, 1, 0, 1, 1, 1, 1)),
                                x=(1, 2, 3, 3)),
        "width_length": err(mx, bad(mode="constant", pad_width=(0, 0, 0, 0, 1, 1)),
                            x=(1, 2, 3, 3)),
        "reflect_too_wide": err(mx, bad(mode="reflect", pad_width=(0, 0, 0, 0, 3, 1, 1, 1)),
                                x=(1, 2, 3, 3)),
        "no_mode": err(mx, mx.sym.Pad, x, pad_width=(0, 0, 0, 0, 1, 1, 1, 1)),
        "bad_mode": err(mx, mx.sym.Pad, x, mode="wrap", pad_width=(0, 0, 0, 0, 1, 1, 1, 1)),
        "no_pad_width": err(mx, mx.sym.Pad, x, mode="edge"),
    }
    return res
