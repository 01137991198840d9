"""Deconvolution: no_bias defaults to True, the weight is (C, num_filter/num_group, *kernel),
output sizes with stride / pad / adj / dilate / target_shape, 1-D, 2-D and 3-D, groups; forward and
backward values (also under grad_req='add'); shapes flow forward only; errors."""
from _common import err
from _image import describe, dtypes, run_symbol, seeded, shapes


def run(mx):
    x = mx.sym.Variable("x")
    res = {}
    cases = {
        "plain": (dict(kernel=(3, 3), num_filter=2), (1, 3, 3, 4)),
        "stride_pad_adj": (dict(kernel=(3, 3), num_filter=2, stride=(2, 2), pad=(1, 1),
                                adj=(1, 0)), (2, 2, 3, 3)),
        "bias": (dict(kernel=(2, 3), num_filter=3, no_bias=False), (1, 2, 3, 3)),
        "groups": (dict(kernel=(2, 2), num_filter=4, num_group=2, stride=(2, 1)),
                   (1, 4, 2, 3)),
        "target_shape": (dict(kernel=(4, 4), num_filter=2, stride=(2, 2),
                              target_shape=(10, 10)), (1, 2, 4, 4)),
        "one_d": (dict(kernel=(3,), num_filter=2, stride=(2,), pad=(1,), no_bias=False),
                  (2, 3, 5)),
        "three_d": (dict(kernel=(2, 2, 2), num_filter=2, stride=(2, 1, 1), pad=(0, 0, 1)),
                    (1, 2, 2, 3, 3)),
    }
    for i, (case, (params, shape)) in enumerate(cases.items()):
        sym = mx.sym.Deconvolution(x, name="d", **params)
        arg_shapes, _, _ = sym.infer_shape(x=shape)
        inputs = {name: seeded(s, 10 * i + j)
                  for j, (name, s) in enumerate(zip(sym.list_arguments(), arg_shapes))}
        res[case] = {"symbol": describe(sym), "shapes": shapes(sym.infer_shape(x=shape)),
                     "run": run_symbol(mx, sym, inputs, seed=i)}
        if case in ("stride_pad_adj", "bias"):
            res[case]["add"] = run_symbol(mx, sym, inputs, seed=i, grad_req="add", repeat=2)
    res["auto_name"] = mx.sym.Deconvolution(x, kernel=(2, 2), num_filter=1).name
    d = mx.sym.Deconvolution(x, kernel=(3, 3), num_filter=4, stride=(2, 2), pad=(1, 1),
                             adj=(1, 1), name="dec")
    res["partial"] = {
        "batch_unknown": shapes(d.infer_shape_partial(x=(0, 3, 5, 5))),
        "spatial_unknown": shapes(d.infer_shape_partial(x=(2, 3, 0, 5))),
        "weight_only": shapes(d.infer_shape_partial(dec_weight=(3, 4, 3, 3))),
    }
    # MXNet 1.9.1's CPU (MKLDNN) deconvolution cannot run a dilated kernel, nor a
    # target_shape that needs padding ("could not create a descriptor"); their shapes it can
    res["target_shapes"] = {str(t): shapes(mx.sym.Deconvolution(
        x, kernel=(4, 4), num_filter=2, stride=(2, 2), target_shape=t).infer_shape(
        x=(1, 2, 4, 4))) for t in [(7, 8), (9, 9), (8, 10)]}
    res["dilate_shapes"] = shapes(mx.sym.Deconvolution(
        x, kernel=(2, 3), num_filter=3, dilate=(2, 2), stride=(2, 1)).infer_shape(x=(1, 2, 3, 3)))
    res["types"] = dtypes(d.infer_type(x="float64"))
    res["nd"] = mx.nd.Deconvolution(mx.nd.array(seeded((1, 1, 2, 2), 5)),
                                    mx.nd.array(seeded((1, 1, 2, 2), 6)), kernel=(2, 2),
                                    num_filter=1, stride=(2, 2)).asnumpy()
    res["errors"] = {
        "target_too_big": err(mx, mx.sym.Deconvolution(
            x, kernel=(4, 4), num_filter=2, stride=(2, 2), target_shape=(10, 10)).infer_shape,
            x=(1, 3, 3, 3)),
        "adj_not_below_stride": err(mx, mx.sym.Deconvolution(
            x, kernel=(3, 3), num_filter=4, adj=(1, 1)).infer_shape, x=(1, 3, 5, 5)),
        "group_channels": err(mx, mx.sym.Deconvolution(
            x, kernel=(3, 3), num_filter=4, num_group=2).infer_shape, x=(1, 3, 5, 5)),
        "stride_length": err(mx, mx.sym.Deconvolution, x, kernel=(3, 3), num_filter=4,
                             stride=(2,)),
        "data_rank": err(mx, mx.sym.Deconvolution(x, kernel=(3, 3), num_filter=4).infer_shape,
                         x=(1, 3, 5)),
        "num_filter_zero": err(mx, mx.sym.Deconvolution, x, kernel=(3, 3), num_filter=0),
        "missing_kernel": err(mx, mx.sym.Deconvolution, x, num_filter=2),
        "output_too_small": err(mx, mx.sym.Deconvolution(
            x, kernel=(1, 1), num_filter=4, pad=(3, 3)).infer_shape, x=(1, 3, 2, 2)),
    }
    return res
