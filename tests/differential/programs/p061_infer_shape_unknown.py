"""Unknown shapes: 0 inside a shape means unknown, giving (None, None, None) and a warning;
None is not accepted by keyword; calling with nothing."""
from _common import err


def run(mx):
    data = mx.sym.Variable("data")
    fc = mx.sym.FullyConnected(data, num_hidden=128, name="fc1")
    return {
        "zero_batch": fc.infer_shape(data=(0, 64)),
        "zero_feature_fc_raises": err(mx, fc.infer_shape, data=(10, 0)),
        "zero_feature_elemwise": (data * 2).infer_shape(data=(10, 0)),
        "nothing": fc.infer_shape(),
        "none_keyword": err(mx, fc.infer_shape, data=None),
        "plus_nothing": (mx.sym.Variable("a") + mx.sym.Variable("b")).infer_shape(),
        "partial_zero_batch": fc.infer_shape_partial(data=(0, 64)),
    }
