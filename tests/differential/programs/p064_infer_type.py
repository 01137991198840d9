"""infer_type / infer_type_partial with float64, float16, int32 inputs; numpy type classes
(converted to names); insufficient information gives (None, None, None) and a warning."""
import numpy as np

from _common import err, types


def run(mx):
    data = mx.sym.Variable("data")
    net = mx.sym.FullyConnected(data, num_hidden=4, name="fc")
    net = mx.sym.BatchNorm(net, name="bn")
    net = mx.sym.SoftmaxOutput(net, name="sm")
    a = mx.sym.Variable("a")
    b = mx.sym.Variable("b")
    prev = mx.sym.Variable("prev")
    two = mx.sym.FullyConnected(data, num_hidden=3, name="fc1") + \
        mx.sym.FullyConnected(prev, num_hidden=3, name="fc2")
    hinted = mx.sym.Variable("h", dtype="float64") * 2
    raw = net.infer_type(data="float64")
    return {
        "net_f64": types(raw),
        "returns_type_classes": [t is np.float64 for t in raw[0]],
        "net_f16": types(net.infer_type(data=np.float16)),
        "net_i32_bn_rejects": err(mx, net.infer_type, data="int32"),
        "fc_i32": types(mx.sym.FullyConnected(data, num_hidden=2, name="f").infer_type(data="int32")),
        "plus_i32": types((a + b).infer_type(a="int32")),
        "plus_backward": types((a + b).infer_type(b="float16")),
        "nothing": types(net.infer_type()),
        "partial_nothing": types(two.infer_type_partial()),
        "partial_half": types(two.infer_type_partial(data="float64")),
        "insufficient_half": types(mx.sym.Group([a * 2, b * 2]).infer_type(a="float16")),
        "conflict": err(mx, (a + b).infer_type, a="float32", b="int32"),
        "var_dtype_hint": types(hinted.infer_type()),
        "var_dtype_hint_overridden": types(hinted.infer_type(h="float16")),
        "bogus_type": err(mx, net.infer_type, data="bogus"),
    }
