"""mx.nd.add, subtract, ..., lesser_equal, logical_and / or / xor: two NDArrays broadcast, an NDArray and a number
(the number cast to the array's dtype: int32 data and 2.5 use 2), two numbers give a Python
number; and the exception classes MXNet 1.9.1 raises for bad operands."""
import numpy as np

from _common import err

NAMES = ["add", "subtract", "multiply", "divide", "true_divide", "modulo", "power", "maximum",
         "minimum", "equal", "not_equal", "greater", "greater_equal", "lesser", "lesser_equal",
         "logical_and", "logical_or", "logical_xor"]


def _value(r):
    if isinstance(r, (int, float)):
        return {"python": type(r).__name__, "value": r}
    return {"value": r.asnumpy(), "dtype": np.dtype(r.dtype).name, "type": type(r).__name__}


def run(mx):
    a = mx.nd.array([[1, 2, 3], [4, 5, 6]])
    b, c = mx.nd.array([[2], [3]]), mx.nd.array([3, 2, 1])
    i = mx.nd.array([[1, 2, 3], [4, 5, 6]], dtype="int32")
    d64 = mx.nd.array([[1, 2, 3], [4, 5, 6]], dtype="float64")
    res = {}
    for name in NAMES:
        f = getattr(mx.nd, name)
        res[name] = {
            "numbers": _value(f(2, 3)), "float_numbers": _value(f(2.5, 3)),
            "array_number": _value(f(a, 2)), "number_array": _value(f(2, a)),
            "arrays": _value(f(a, a)), "broadcast_column": _value(f(a, b)),
            "broadcast_row": _value(f(a, c)), "int_array_float": _value(f(i, 2.5)),
            "float_int_array": _value(f(2.5, i)), "float64": _value(f(d64, 2)),
            "numpy_scalar": _value(f(a, np.float32(2))), "bool": _value(f(a, True)),
            "errors": {
                "array_numpy": err(mx, f, a, np.ones((2, 3))),
                "numpy_array": err(mx, f, np.ones((2, 3)), a),
                "number_numpy": err(mx, f, 2, np.ones((2, 3))),
                "dtypes_differ": err(mx, f, a, d64), "int_and_float": err(mx, f, a, i),
                "shapes_do_not_broadcast": err(mx, f, a, mx.nd.ones((3, 2))),
                "array_string": err(mx, f, a, "2"), "string_array": err(mx, f, "2", a),
                "array_none": err(mx, f, a, None), "strings": err(mx, f, "2", "3"),
            },
        }
    return res
