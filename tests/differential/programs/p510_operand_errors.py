"""NDArray and Symbol arithmetic with operands that are not numbers: which exception each
raises (TypeError; AssertionError for a reflected - / ** % on an NDArray; MXNetError for None
on the left), what is accepted (NumPy scalars, bool; Decimal on a Symbol), and that the
advice of the message works: float('3') multiplies, mx.nd.array wraps a NumPy array."""
import decimal

import numpy as np
from _common import err


def _nd_cases(mx, a):
    operands = {"str": "3", "none": None, "list": [1.0, 2.0, 3.0], "tuple": (1.0,),
                "numpy": np.ones(3, dtype=np.float32), "numpy_0d": np.array(2.0),
                "complex": 1j, "decimal": decimal.Decimal(2), "symbol": mx.sym.Variable("s")}
    out = {}
    for name, value in operands.items():
        out[name] = {
            "mul": err(mx, lambda: a * value), "rmul": err(mx, lambda: a.__rmul__(value)),
            "add": err(mx, lambda: a + value), "radd": err(mx, lambda: a.__radd__(value)),
            "sub": err(mx, lambda: a - value), "rsub": err(mx, lambda: a.__rsub__(value)),
            "truediv": err(mx, lambda: a / value),
            "rtruediv": err(mx, lambda: a.__rtruediv__(value)),
            "pow": err(mx, lambda: a ** value), "rpow": err(mx, lambda: a.__rpow__(value)),
            "mod": err(mx, lambda: a % value), "rmod": err(mx, lambda: a.__rmod__(value)),
            "eq": err(mx, lambda: a == value), "gt": err(mx, lambda: a > value),
        }
    return out


def _nd_inplace(mx, a):
    out = {}
    for name, value in {"str": "3", "none": None, "list": [1.0]}.items():
        for op in ("iadd", "isub", "imul", "itruediv"):
            out[f"{op}_{name}"] = err(mx, lambda: getattr(a.copy(), f"__{op}__")(value))
    return out


def _sym_cases(mx, x):
    operands = {"str": "3", "none": None, "list": [1.0], "numpy": np.ones(3),
                "ndarray": mx.nd.ones((3,)), "numpy_bool": np.bool_(True),
                "decimal": decimal.Decimal(2), "complex": 1j}
    out = {}
    for name, value in operands.items():
        out[name] = {
            "mul": err(mx, lambda: x * value), "rmul": err(mx, lambda: x.__rmul__(value)),
            "sub": err(mx, lambda: x - value), "rsub": err(mx, lambda: x.__rsub__(value)),
            "rtruediv": err(mx, lambda: x.__rtruediv__(value)),
            "pow": err(mx, lambda: x ** value), "gt": err(mx, lambda: x > value),
            "eq": err(mx, lambda: x == value), "le": err(mx, lambda: x <= value),
        }
    return out


def run(mx):
    a = mx.nd.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    x = mx.sym.Variable("x")
    scale = "3"  # a custom operator's keyword argument arrives as text
    return {
        "ndarray": _nd_cases(mx, a),
        "ndarray_inplace": _nd_inplace(mx, a),
        "symbol": _sym_cases(mx, x),
        "shapes_that_do_not_broadcast": err(mx, lambda: a * mx.nd.ones((3, 2))),
        "inplace_that_would_grow": err(mx, lambda: mx.nd.ones((1, 3)).__iadd__(a)),
        "fixed_float": (a * float(scale)).asnumpy(),
        "fixed_rsub": (float(scale) - a).asnumpy(),
        "fixed_wrapped_numpy": (a * mx.nd.array(np.array([1.0, 0.5, 2.0]))).asnumpy(),
        "numpy_scalars": [(a * np.float32(2)).asnumpy(), (a + np.int64(1)).asnumpy(),
                          (a * np.bool_(True)).asnumpy(), (a * True).asnumpy()],
        "broadcast_ndarrays": (a * mx.nd.array([[10.0], [100.0]])).asnumpy(),
        "symbol_decimal": (x * decimal.Decimal(2)).list_attr(),
        "symbol_fixed_float": (x * float(scale)).list_attr(),
        "symbol_numpy_scalar": (x * np.float32(2)).list_attr(),
    }
