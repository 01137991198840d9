"""The math functions of MXNet's unit tests (test_operator's test_special_functions_using_scipy,
test_reciprocal_op, test_round_ceil_floor, test_hypot...): values and gradients of each through
an executor, and hypot with two symbols, a scalar and broadcasting."""
import numpy as np

from _common import fwd_bwd

UNIT = np.array([[-0.7, -0.2, 0.1, 0.6]], dtype=np.float32)
POSITIVE = np.array([[0.4, 1.3, 2.2, 3.7]], dtype=np.float32)
ANY = np.array([[-1.6, -0.4, 0.3, 1.8]], dtype=np.float32)
ROUNDING = np.array([[-1.5, -0.5, 0.5, 2.7]], dtype=np.float32)
FUNCTIONS = {
    "reciprocal": ANY, "ceil": ROUNDING, "floor": ROUNDING, "fix": ROUNDING, "tan": UNIT,
    "arcsin": UNIT, "arccos": UNIT, "arctan": ANY, "sinh": ANY, "cosh": ANY, "arcsinh": ANY,
    "arccosh": POSITIVE + 1, "arctanh": UNIT, "degrees": ANY, "radians": ANY, "log2": POSITIVE,
    "log10": POSITIVE, "log1p": POSITIVE, "expm1": ANY, "cbrt": ANY, "rcbrt": ANY,
    "gamma": POSITIVE, "gammaln": POSITIVE, "erf": ANY,
}


def run(mx):
    x, y = mx.sym.Variable("x"), mx.sym.Variable("y")
    head = np.array([[1.0, 2.0, -1.0, 0.5]], dtype=np.float32)
    found = {name: fwd_bwd(mx, getattr(mx.sym, name)(x), {"x": values}, [head])
             for name, values in FUNCTIONS.items()}
    found["nd"] = {name: getattr(mx.nd, name)(mx.nd.array(values)).asnumpy()
                   for name, values in FUNCTIONS.items()}
    lhs, rhs = np.array([[3.0, -5.0, 1.0]], np.float32), np.array([[4.0, 12.0, -1.0]], np.float32)
    ones = [np.ones((1, 3), np.float32)]
    found["hypot"] = fwd_bwd(mx, mx.sym.hypot(x, y), {"x": lhs, "y": rhs}, ones)
    found["hypot_scalar"] = fwd_bwd(mx, mx.sym.hypot(x, 4.0), {"x": lhs}, ones)
    found["hypot_rscalar"] = fwd_bwd(mx, mx.sym.hypot(4.0, x), {"x": lhs}, ones)
    found["hypot_numbers"] = mx.sym.hypot(3.0, 4.0)
    found["broadcast_hypot"] = fwd_bwd(mx, mx.sym.broadcast_hypot(x, y),
                                       {"x": lhs.reshape(3, 1), "y": rhs},
                                       [np.ones((3, 3), np.float32)])
    found["nd_broadcast_hypot"] = mx.nd.broadcast_hypot(mx.nd.array(lhs.reshape(3, 1)),
                                                        mx.nd.array(rhs)).asnumpy()
    found["ops"] = [mx.sym.hypot(x, y).tojson().count('"_hypot"'),
                    mx.sym.hypot(x, 2).tojson().count('"_hypot_scalar"')]
    return found
