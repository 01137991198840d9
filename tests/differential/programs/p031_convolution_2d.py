"""2-D Convolution with stride, pad, dilate, num_group, no_bias: listings, attrs, shapes."""
from _common import err, names, types


def run(mx):
    data = mx.sym.Variable("data")
    c1 = mx.sym.Convolution(data, kernel=(3, 3), stride=(2, 2), pad=(1, 1), num_filter=8,
                            name="c1")
    c2 = mx.sym.Convolution(data, kernel=(3, 3), dilate=(2, 2), num_group=2, num_filter=8,
                            no_bias=True, name="c2")
    c3 = mx.sym.Convolution(data, kernel=(5, 3), stride=(1, 2), pad=(2, 0), num_filter=6,
                            workspace=512, name="c3")
    c4 = mx.sym.Convolution(data, kernel=(1, 1), num_filter=4, layout="NCHW", name="c4")
    return {
        "c1": names(c1),
        "c1_attr_dict": c1.attr_dict(),
        "c1_shape": c1.infer_shape(data=(2, 3, 7, 7)),
        "c1_tojson": c1.tojson(),
        "c2": names(c2),
        "c2_shape": c2.infer_shape(data=(2, 4, 9, 9)),
        "c2_tojson": c2.tojson(),
        "c3_shape": c3.infer_shape(data=(1, 3, 10, 11)),
        "c3_attrs": c3.list_attr(),
        "c4_shape": c4.infer_shape(data=(2, 5, 3, 3)),
        "c4_attrs": c4.list_attr(),
        "c1_type": types(c1.infer_type(data="float64")),
        "missing_kernel": err(mx, mx.sym.Convolution, data, num_filter=3),
        "missing_num_filter": err(mx, mx.sym.Convolution, data, kernel=(3, 3)),
        "group_mismatch": err(mx, c2.infer_shape, data=(2, 3, 9, 9)),
        "kernel_fits_thanks_to_pad": c1.infer_shape(data=(1, 3, 1, 1)),
        "kernel_too_big": err(mx, c3.infer_shape, data=(1, 3, 1, 1)),
    }
