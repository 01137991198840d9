"""Inconsistent shapes raise MXNetError: FC weight, elemwise mismatch, Concat mismatch, Conv
channel mismatch, a __shape__ hint contradicted by inference."""
from _common import err


def run(mx):
    data = mx.sym.Variable("data")
    a = mx.sym.Variable("a")
    b = mx.sym.Variable("b")
    fc = mx.sym.FullyConnected(data, num_hidden=128, name="fc1")
    conv = mx.sym.Convolution(data, kernel=(3, 3), num_filter=4, name="cv")
    hinted = mx.sym.Variable("h", shape=(3, 3)) + a
    return {
        "fc_weight": err(mx, fc.infer_shape, data=(10, 100), fc1_weight=(128, 64)),
        "fc_bias": err(mx, fc.infer_shape, data=(10, 100), fc1_bias=(64,)),
        "elemwise": err(mx, (a + b).infer_shape, a=(2, 3), b=(3, 2)),
        "elemwise_rank": err(mx, (a * b).infer_shape, a=(2, 3), b=(2, 3, 1)),
        "concat": err(mx, mx.sym.Concat(a, b, dim=1).infer_shape, a=(2, 3), b=(3, 2)),
        "conv_channels": err(mx, conv.infer_shape, data=(1, 3, 8, 8), cv_weight=(4, 2, 3, 3)),
        "hint_conflict": err(mx, hinted.infer_shape, a=(2, 2)),
        "partial_also_raises": err(mx, (a + b).infer_shape_partial, a=(2, 3), b=(3, 2)),
        "deep_conflict": err(mx, ((a + b) * (a - b)).infer_shape, a=(2, 3), b=(2, 4)),
    }
