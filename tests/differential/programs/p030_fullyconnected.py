"""FullyConnected with no_bias and flatten=False: listings, attrs, JSON, shapes, types, errors."""
from _common import err, names, types


def run(mx):
    data = mx.sym.Variable("data")
    fc = mx.sym.FullyConnected(data, num_hidden=5, no_bias=True, name="fc")
    fc_nf = mx.sym.FullyConnected(data, num_hidden=5, flatten=False, name="fcnf")
    fc_both = mx.sym.FullyConnected(data, num_hidden=6, flatten=False, no_bias=True, name="fcb")
    return {
        "no_bias": names(fc),
        "no_bias_attr_dict": fc.attr_dict(),
        "no_bias_tojson": fc.tojson(),
        "no_bias_shape": fc.infer_shape(data=(2, 3, 4)),
        "flatten_false": names(fc_nf),
        "flatten_false_attrs": fc_nf.list_attr(),
        "flatten_false_shape": fc_nf.infer_shape(data=(2, 3, 4)),
        "flatten_false_shape_4d": fc_nf.infer_shape(data=(2, 3, 4, 7)),
        "flatten_true_4d": fc.infer_shape(data=(2, 3, 4, 7)),
        "both_shape": fc_both.infer_shape(data=(8, 3)),
        "both_tojson": fc_both.tojson(),
        "type_f64": types(fc_nf.infer_type(data="float64")),
        "type_f16": types(fc.infer_type(data="float16")),
        "missing_num_hidden": err(mx, mx.sym.FullyConnected, data),
        "num_hidden_zero": err(mx, mx.sym.FullyConnected, data, num_hidden=0),
        "unknown_param": err(mx, mx.sym.FullyConnected, data, num_hidden=3, foo=2),
        "bad_bool": err(mx, mx.sym.FullyConnected, data, num_hidden=3, no_bias="maybe"),
    }
