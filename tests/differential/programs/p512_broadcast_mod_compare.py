"""broadcast_mod and the broadcast comparisons: names, values, gradients (mod: 1 and
-floor(l/r) summed; comparisons: 0), and backward() without head gradients (comparisons need
none, broadcast_mod raises)."""
import numpy as np
from _common import err


def run(mx):
    a = mx.sym.Variable("a")
    b = mx.sym.Variable("b")
    lhs = np.array([[5.0, -3.0, 7.0], [2.0, 4.0, -6.0]], dtype=np.float32)
    rhs = np.array([[2.0], [-4.0]], dtype=np.float32)
    out = {}
    for name in ("broadcast_mod", "broadcast_equal", "broadcast_not_equal",
                 "broadcast_greater", "broadcast_greater_equal", "broadcast_lesser",
                 "broadcast_lesser_equal"):
        sym = getattr(mx.sym, name)(a, b)
        ex = sym.simple_bind(mx.cpu(), a=(2, 3), b=(2, 1))
        ex.arg_dict["a"][:] = lhs
        ex.arg_dict["b"][:] = rhs
        ex.forward(is_train=True)
        value = ex.outputs[0].asnumpy()
        no_head = err(mx, ex.backward)
        ex.backward(mx.nd.array(np.arange(6.0).reshape(2, 3)))
        out[name] = {"name": sym.name, "outputs": sym.list_outputs(), "value": value,
                     "backward_without_head": no_head,
                     "grad_a": ex.grad_dict["a"].asnumpy(), "grad_b": ex.grad_dict["b"].asnumpy()}
    return out
