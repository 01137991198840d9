"""BatchNorm with every parameter non-default: eps, momentum, fix_gamma, use_global_stats,
output_mean_var, axis (incl. -1): listings, aux, attrs, JSON, shapes, types."""
from _common import err, names, types


def run(mx):
    data = mx.sym.Variable("data")
    bn = mx.sym.BatchNorm(data, eps=1e-5, momentum=0.8, fix_gamma=False, use_global_stats=True,
                          output_mean_var=True, axis=-1, name="bn")
    bn_ax2 = mx.sym.BatchNorm(data, axis=2, name="bn2")
    bn_cudnn = mx.sym.BatchNorm(data, cudnn_off=True, name="bn3")
    return {
        "names": names(bn),
        "len": len(bn),
        "attr_dict": bn.attr_dict(),
        "tojson": bn.tojson(),
        "shape_last_axis": bn.infer_shape(data=(2, 3, 4, 5)),
        "type_f64": types(bn.infer_type(data="float64")),
        "type_f16": types(bn.infer_type(data="float16")),
        "axis2_names": names(bn_ax2),
        "axis2_shape": bn_ax2.infer_shape(data=(2, 3, 4, 5)),
        "axis2_len": len(bn_ax2),
        "cudnn_off_attrs": bn_cudnn.list_attr(),
        "default_shape_2d": bn_cudnn.infer_shape(data=(6, 7)),
        "from_gamma_only": bn_ax2.infer_shape_partial(bn2_gamma=(4,)),
        "bad_axis_value": err(mx, mx.sym.BatchNorm, data, axis="x"),
        "axis_out_of_range": err(mx, bn_ax2.infer_shape, data=(2, 3)),
    }
