"""argmax / argmin: indices in the data's dtype, the first one on ties, axis=None over the
flattened data ((1,), or all 1s with keepdims), a zero gradient without a head gradient."""
import numpy as np

from _common import err


def run(mx):
    a = mx.nd.array([[1, 5, 3], [4, 2, 6]])
    nd = mx.nd
    res = {
        "argmax_none": nd.argmax(a).asnumpy(), "argmax_axis1": nd.argmax(a, axis=1).asnumpy(),
        "argmax_axis0_keepdims": nd.argmax(a, axis=0, keepdims=True).asnumpy(),
        "argmax_none_keepdims": nd.argmax(a, keepdims=True).asnumpy(),
        "argmax_negative_axis": nd.argmax(a, axis=-1).asnumpy(),
        "argmax_3d_none": nd.argmax(nd.array(np.arange(24.0).reshape(2, 3, 4) % 7)).asnumpy(),
        "argmax_1d_axis0": nd.argmax(nd.array([3, 9, 1]), axis=0).asnumpy(),
        "argmax_int32": nd.argmax(nd.array([[1, 5, 3]], dtype="int32"), axis=1).asnumpy(),
        "argmin_axis1": nd.argmin(a, axis=1).asnumpy(), "argmin_none": nd.argmin(a).asnumpy(),
        "argmax_ties": nd.argmax(nd.array([[1, 3, 3], [2, 2, 1]]), axis=1).asnumpy(),
        "argmin_ties": nd.argmin(nd.array([[1, 3, 1], [2, 2, 1]]), axis=1).asnumpy(),
        "argmax_nan": nd.argmax(nd.array([[1, np.nan, 3]]), axis=1).asnumpy(),
    }
    x = mx.sym.Variable("x")
    for name in ("argmax", "argmin"):
        s = getattr(mx.sym, name)(x, axis=1)
        ex = s.simple_bind(mx.cpu(), x=(2, 3))
        ex.arg_dict["x"][:] = a
        ex.forward(is_train=True)
        ex.backward()
        res[name + "_symbol"] = {"name": s.name, "attrs": s.list_attr(),
                                 "shapes": s.infer_shape(x=(2, 3)),
                                 "type": np.dtype(s.infer_type(x="float64")[1][0]).name,
                                 "out": ex.outputs[0].asnumpy(),
                                 "grad_without_head": ex.grad_dict["x"].asnumpy()}
    res["errors"] = {
        "axis_out_of_range": err(mx, nd.argmax, a, axis=2),
        "axis_tuple": err(mx, nd.argmax, a, axis=(0,)),
        "symbol_axis_out_of_range": err(mx, lambda: mx.sym.argmax(x, axis=2).infer_shape(
            x=(2, 3))),
    }
    return res
