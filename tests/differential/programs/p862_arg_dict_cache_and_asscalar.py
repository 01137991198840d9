"""Executor.arg_dict / grad_dict / aux_dict / output_dict are made once and kept (the same dict
object each time, a key added to it stays, its arrays are the executor's own), and
NDArray.asscalar of every shape and dtype MXNet's tests use (a numpy scalar for shape (1,);
for (1, 1) the array itself; a ValueError otherwise)."""
import warnings

import numpy as np
from _common import err


def run(mx):
    data = mx.sym.Variable("data")
    net = mx.sym.BatchNorm(mx.sym.FullyConnected(data, num_hidden=2, name="fc"), name="bn")
    ex = net.simple_bind(mx.cpu(), data=(3, 4))
    found = {}
    for name in ("arg_dict", "grad_dict", "aux_dict", "output_dict"):
        first, second = getattr(ex, name), getattr(ex, name)
        found[name] = {"same_object": first is second, "keys": sorted(first),
                       "arrays_are_executors": all(
                           a is b for a, b in zip(first.values(), second.values()))}
    with warnings.catch_warnings():  # minisym warns: the executor never reads a new entry
        warnings.simplefilter("ignore")
        ex.arg_dict["extra"] = mx.nd.ones((1,))
    found["added_key_stays"] = "extra" in ex.arg_dict
    found["arg_arrays_are_dict_values"] = all(
        ex.arg_dict[n] is a for n, a in zip(net.list_arguments(), ex.arg_arrays))
    ex.arg_dict["data"][:] = 2
    found["write_through_dict"] = ex.arg_arrays[0].asnumpy().tolist()
    values = {}
    for dtype in ("float32", "float64", "int32", "uint8", "float16"):
        one = mx.nd.array([7], dtype=dtype).asscalar()
        values[dtype] = [str(type(one).__name__), float(one)]
    found["scalars"] = values
    square = mx.nd.array([[3.5]]).asscalar()
    found["square"] = [type(square).__name__, np.asarray(square).shape, float(np.asarray(square).ravel()[0])]
    found["not_scalar"] = err(mx, lambda: mx.nd.array([1, 2]).asscalar())
    found["sum_scalar"] = float(mx.nd.array([1, 2, 3]).sum().asscalar())
    return found
