"""Argument errors of infer_shape / infer_type: unknown keyword (MXNetError), non-tuple
shape (TypeError), positional mixed with keyword (ValueError, raised before any inference)."""
from _common import err


def run(mx):
    data = mx.sym.Variable("data")
    fc = mx.sym.FullyConnected(data, num_hidden=3, name="fc1")
    return {
        "unknown_keyword": err(mx, fc.infer_shape, foo=(2, 3)),
        "unknown_keyword_with_known": err(mx, fc.infer_shape, data=(2, 3), foo=(2, 3)),
        "unknown_keyword_partial": err(mx, fc.infer_shape_partial, foo=(2, 3)),
        "unknown_keyword_type": err(mx, fc.infer_type, foo="float32"),
        "list_shape": err(mx, fc.infer_shape, data=[2, 3]),
        "int_shape": err(mx, fc.infer_shape, data=5),
        "list_shape_partial": err(mx, fc.infer_shape_partial, data=[2, 3]),
        "mixed_positional_keyword": err(mx, fc.infer_shape, (2, 3), fc1_weight=(3, 3)),
        "mixed_positional_keyword_partial": err(mx, fc.infer_shape_partial, (2, 3),
                                                fc1_weight=(3, 3)),
        "mixed_types": err(mx, fc.infer_type, "float32", fc1_weight="float32"),
    }
