"""Symbol.eval(ctx=None, **kwargs): bind with the arrays given by name, forward (is_train=False),
return the list of output NDArrays; and what it raises when an array is missing or not an
NDArray."""
import numpy as np

from _common import err


def run(mx):
    x, y = mx.sym.Variable("x"), mx.sym.Variable("y")
    ones = mx.nd.ones((2, 3))
    res = {
        "plus": [o.asnumpy() for o in (x + y).eval(ctx=mx.cpu(), x=ones, y=ones * 2)],
        "no_ctx": [o.asnumpy() for o in (x * 2).eval(x=ones)],
        "positional_ctx": [o.asnumpy() for o in (x * 2).eval(mx.cpu(), x=ones)],
        "group": [o.asnumpy() for o in mx.sym.Group([x * 2, x + y]).eval(x=ones, y=ones)],
        "dropout_is_test_mode": [o.asnumpy() for o in mx.sym.Dropout(x, p=0.5).eval(x=ones)],
        "extra_array_ignored": [o.asnumpy() for o in (x * 2).eval(x=ones, z=ones)],
        "fluent": [o.asnumpy() for o in x.sum(axis=1).eval(x=mx.nd.array(np.arange(6.0)
                                                                     .reshape(2, 3)))],
    }
    res["returns_list"] = type((x * 2).eval(x=ones)).__name__
    res["errors"] = {
        "missing": err(mx, lambda: (x + y).eval(x=ones)),
        "aux_missing": err(mx, lambda: mx.sym.BatchNorm(x, name="bn").eval(
            x=ones, bn_gamma=mx.nd.ones(3), bn_beta=mx.nd.zeros(3))),
        "numpy_array": err(mx, lambda: (x * 2).eval(x=np.ones((2, 3)))),
    }
    return res
