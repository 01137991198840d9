"""one_hot: depth, on_value / off_value, dtype; indices out of range (a row of off_value) and
fractional (truncated); names, attrs, JSON; shapes (unknown indices give nothing); dtypes;
a zero gradient for the indices; errors by category."""
import numpy as np

from _common import err, f32, names, node_ops, types
from _partial import inferred


def run(mx):
    idx = mx.nd.array([0, 2, -1, 4, 1.7])
    i = mx.sym.Variable("i")
    res = {
        "default": mx.nd.one_hot(idx, 4).asnumpy(),
        "values_int32": mx.nd.one_hot(idx, 4, on_value=3, off_value=-2, dtype="int32").asnumpy(),
        "float64_2d": mx.nd.one_hot(mx.nd.array([[1, 0], [2, 2]]), depth=3, on_value=0.5,
                                    dtype="float64").asnumpy(),
        "dtype": np.dtype(mx.nd.one_hot(idx, 4, dtype="int32").dtype).name,
    }
    s = mx.sym.one_hot(i, depth=4, on_value=2.5, off_value=-1, dtype="int32", name="oh")
    res["symbol"] = {"names": names(s), "attrs": s.list_attr(), "json": node_ops(s),
                     "shape": s.infer_shape(i=(2, 3)), "types": types(s.infer_type(i="float32"))}
    res["auto_name"] = mx.sym.one_hot(i, depth=2).name
    ex = mx.sym.one_hot(i, depth=3).simple_bind(mx.cpu(), i=(2,))
    ex.arg_dict["i"][:] = f32([0, 2])
    ex.forward(is_train=True)
    ex.backward(mx.nd.ones((2, 3)))
    res["run"] = {"out": ex.outputs[0].asnumpy(), "grad_i": ex.grad_dict["i"].asnumpy()}
    res["partial"] = {"unknown_size": inferred(mx, mx.sym.one_hot(i, depth=4), i=(0, 3))}
    res["errors"] = {
        "negative_depth": err(mx, lambda: mx.sym.one_hot(i, depth=-1).infer_shape(i=(2,))),
        "missing_depth": err(mx, mx.sym.one_hot, i),
        "index_type_unknown": err(mx, mx.sym.one_hot(i, depth=2).infer_type),
    }
    return res
