"""UpSampling: nearest with one input and several (concat / sum, each input scaled to the
first's size times scale), bilinear as a per-channel Deconvolution whose weight is an argument
initialised '["bilinear", {}]'; listings, JSON, shapes, forward / backward values, errors."""
from _common import err
from _image import describe, dtypes, run_symbol, seeded, shapes


def run(mx):
    x, y, z = mx.sym.Variable("x"), mx.sym.Variable("y"), mx.sym.Variable("z")
    res = {}
    cases = {
        "nearest": (mx.sym.UpSampling(x, scale=2, sample_type="nearest"),
                    {"x": (2, 2, 2, 3)}),
        "nearest_scale3": (mx.sym.UpSampling(x, scale=3, sample_type="nearest", name="up3"),
                           {"x": (1, 1, 2, 2)}),
        "concat": (mx.sym.UpSampling(x, y, z, scale=2, sample_type="nearest", name="cat"),
                   {"x": (1, 2, 2, 2), "y": (1, 1, 4, 4), "z": (1, 2, 1, 1)}),
        "sum": (mx.sym.UpSampling(x, y, scale=2, sample_type="nearest",
                                  multi_input_mode="sum", name="sum"),
                {"x": (1, 2, 2, 2), "y": (1, 2, 1, 1)}),
        "bilinear": (mx.sym.UpSampling(x, scale=2, sample_type="bilinear", num_filter=2,
                                       name="bil"), {"x": (1, 2, 3, 3)}),
        "bilinear_scale3": (mx.sym.UpSampling(x, scale=3, sample_type="bilinear", num_filter=1,
                                              name="bil3"), {"x": (2, 1, 2, 3)}),
        "bilinear_weight_given": (mx.sym.UpSampling(x, y, scale=2, sample_type="bilinear",
                                                    num_filter=1, name="bilw"),
                                  {"x": (1, 1, 2, 2)}),
    }
    for i, (case, (sym, given)) in enumerate(cases.items()):
        arg_shapes, _, _ = sym.infer_shape(**given)
        inputs = {name: seeded(s, 10 * i + j)
                  for j, (name, s) in enumerate(zip(sym.list_arguments(), arg_shapes))}
        res[case] = {"symbol": describe(sym), "shapes": shapes(sym.infer_shape(**given)),
                     "run": run_symbol(mx, sym, inputs, seed=i)}
        if case in ("concat", "bilinear"):
            res[case]["add"] = run_symbol(mx, sym, inputs, seed=i, grad_req="add", repeat=2)
    near = mx.sym.UpSampling(x, scale=2, sample_type="nearest", name="n")
    bil = mx.sym.UpSampling(x, scale=2, sample_type="bilinear", num_filter=3, name="b")
    res["partial"] = {"nearest_batch_unknown": shapes(near.infer_shape_partial(x=(0, 3, 4, 5))),
                      "bilinear_batch_unknown": shapes(bil.infer_shape_partial(x=(0, 3, 4, 4)))}
    res["types"] = dtypes(bil.infer_type(x="float64"))
    res["bilinear_ignores_sum"] = shapes(mx.sym.UpSampling(
        x, scale=2, sample_type="bilinear", num_filter=1, multi_input_mode="sum").infer_shape(
        x=(1, 1, 2, 2)))
    res["auto_names"] = [mx.sym.UpSampling(x, scale=2, sample_type="nearest").name,
                         mx.sym.UpSampling(x, scale=2, sample_type="bilinear",
                                           num_filter=1).list_arguments()]
    res["nd"] = mx.nd.UpSampling(mx.nd.array(seeded((1, 1, 2, 2), 3)), scale=2,
                                 sample_type="nearest").asnumpy()
    res["errors"] = {
        "data_rank": err(mx, near.infer_shape, x=(1, 3, 4)),
        "not_divisible": err(mx, mx.sym.UpSampling(x, y, scale=2, sample_type="nearest")
                             .infer_shape, x=(1, 3, 4, 4), y=(1, 2, 3, 3)),
        "sum_channels": err(mx, mx.sym.UpSampling(x, y, scale=2, sample_type="nearest",
                                                  multi_input_mode="sum").infer_shape,
                            x=(1, 3, 4, 4), y=(1, 2, 2, 2)),
        "no_sample_type": err(mx, mx.sym.UpSampling, x, scale=2),
        "scale_zero": err(mx, mx.sym.UpSampling, x, scale=0, sample_type="nearest"),
        "bad_sample_type": err(mx, mx.sym.UpSampling, x, scale=2, sample_type="cubic"),
        "bilinear_three_inputs": err(mx, mx.sym.UpSampling, x, y, z, scale=2,
                                     sample_type="bilinear", num_filter=1),
    }
    return res
