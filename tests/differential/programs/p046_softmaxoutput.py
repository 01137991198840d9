"""SoftmaxOutput: label shapes for 2-D data, multi_output, preserve_shape, and >=3-D default;
non-default grad_scale/ignore_label/use_ignore/normalization/smooth_alpha stored as attrs."""
from _common import err, names, types


def run(mx):
    data = mx.sym.Variable("data")
    sm = mx.sym.SoftmaxOutput(data, name="sm", grad_scale=2.0, ignore_label=0, use_ignore=True,
                              normalization="valid", smooth_alpha=0.1, out_grad=True)
    mo = mx.sym.SoftmaxOutput(data, multi_output=True, name="mo")
    ps = mx.sym.SoftmaxOutput(data, preserve_shape=True, name="ps")
    label = mx.sym.Variable("lab")
    given = mx.sym.SoftmaxOutput(data, label, name="given")
    return {
        "names": names(sm),
        "attr_dict": sm.attr_dict(),
        "tojson": sm.tojson(),
        "shape_2d": sm.infer_shape(data=(4, 10)),
        "shape_3d_default": sm.infer_shape(data=(2, 3, 4)),
        "multi_output_3d": mo.infer_shape(data=(2, 3, 4)),
        "multi_output_4d": mo.infer_shape(data=(2, 3, 4, 5)),
        "multi_output_flat_label": mo.infer_shape(data=(2, 3, 4, 5), mo_label=(2, 20)),
        "preserve_shape": ps.infer_shape(data=(2, 3, 4)),
        "probability_label": given.infer_shape(data=(4, 10), lab=(4, 10)),
        "explicit_label_names": names(given),
        "types": types(sm.infer_type(data="float64")),
        "label_from_data_only_partial": mo.infer_shape_partial(mo_label=(2, 4)),
        "bad_normalization": err(mx, mx.sym.SoftmaxOutput, data, normalization="mean"),
        "bad_label_shape": err(mx, sm.infer_shape, data=(4, 10), sm_label=(5,)),
    }
