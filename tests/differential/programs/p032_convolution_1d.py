"""1-D Convolution with stride, pad, dilate, num_group and no_bias."""
from _common import err, names


def run(mx):
    data = mx.sym.Variable("data")
    c = mx.sym.Convolution(data, kernel=(3,), stride=(2,), pad=(1,), dilate=(2,), num_filter=6,
                           num_group=3, name="c1d")
    c_nb = mx.sym.Convolution(data, kernel=(5,), num_filter=2, no_bias=True, name="c1nb")
    return {
        "names": names(c),
        "attr_dict": c.attr_dict(),
        "tojson": c.tojson(),
        "shape": c.infer_shape(data=(2, 3, 20)),
        "shape_odd": c.infer_shape(data=(1, 6, 9)),
        "no_bias_names": names(c_nb),
        "no_bias_shape": c_nb.infer_shape(data=(4, 1, 5)),
        "bad_group": err(mx, c.infer_shape, data=(2, 4, 20)),
        "kernel_rank_mismatch": err(mx, c.infer_shape, data=(2, 3, 20, 20)),
    }
