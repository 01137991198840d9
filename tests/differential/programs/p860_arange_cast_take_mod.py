"""mx.sym.arange (_arange: stop None, repeat, negative steps, infer_range, float start and step
cast to the dtype first) and mx.nd.arange with the same values, mx.nd.contrib.arange_like,
simple_bind keeping a Variable's own dtype (MXNet's test_cast), simple_bind ignoring keywords
that are no shapes (test_take passes axis=-1), and integer mod's gradient (0 where MXNet's
test_binary_op expects it, never -2147483648)."""
import warnings

import numpy as np
from _common import err


def run(mx):
    found = {}
    configs = {"stop_none": dict(start=10), "repeat": dict(start=1.3, stop=10, step=1.3, repeat=2),
               "negative": dict(start=50, stop=-50, step=-2), "fraction": dict(start=0.5, stop=3.2,
                                                                            step=0.7)}
    for name, cfg in configs.items():
        for dtype in ("float32", "int32", "uint8"):
            sym = mx.sym.arange(**cfg, dtype=dtype)
            found[f"{name}_{dtype}_sym"] = sym.bind(mx.cpu(), {}).forward()[0].asnumpy()
            found[f"{name}_{dtype}_nd"] = mx.nd.arange(**cfg, dtype=dtype).asnumpy()
    inferred = mx.sym.arange(start=2, stop=None, step=3, infer_range=True, name="ar")
    found["infer_range"] = (inferred + mx.sym.zeros(shape=[4])).bind(mx.cpu(), {}).forward()[
        0].asnumpy()
    found["json"] = inferred.tojson()
    found["partial"] = inferred.infer_shape_partial()
    x = mx.nd.array(np.arange(6).reshape(2, 3))
    found["like"] = mx.nd.contrib.arange_like(x).asnumpy()
    found["like_axis"] = mx.nd.contrib.arange_like(x, start=1, step=2, axis=-1).asnumpy()
    found["like_repeat"] = mx.nd.contrib.arange_like(x, start=1, step=2, repeat=2).asnumpy()
    found["like_int"] = str(mx.nd.contrib.arange_like(mx.nd.ones((2, 3), dtype="int32")).dtype)
    for src in ("int32", "float16"):
        y = mx.sym.Cast(mx.sym.Variable("x", dtype=src), dtype="float32")
        exe = y.simple_bind(mx.cpu(), x=(2, 2))
        found[f"cast_{src}"] = [str(exe.arg_arrays[0].dtype), str(exe.outputs[0].dtype)]
    a, idx = mx.sym.Variable("a"), mx.sym.Variable("indices")
    with warnings.catch_warnings():  # minisym warns that the two keywords do nothing
        warnings.simplefilter("ignore")
        exe = mx.sym.take(a, idx, axis=-1).simple_bind(mx.cpu(), a=(3, 4), indices=(2,),
                                                       axis=-1, mode="clip")
    found["take_shape"] = exe.outputs[0].shape
    found["take_bad_shape"] = err(mx, lambda: mx.sym.take(a, idx).simple_bind(
        mx.cpu(), a=3, indices=(2,)))
    lhs, rhs = mx.sym.Variable("a"), mx.sym.Variable("b")
    mod = mx.sym.cast(lhs, dtype="int32") % mx.sym.cast(rhs, dtype="int32")
    grads = [mx.nd.empty((1, 6)), mx.nd.empty((1, 6))]
    exe = mod.bind(mx.cpu(), {"a": mx.nd.array([[5, -5, 3, 7, 8, -9]]),
                              "b": mx.nd.array([[0, 3, -2, 0, 3, 4]])}, args_grad=grads)
    found["mod_int"] = exe.forward(is_train=True)[0].asnumpy()
    exe.backward([mx.nd.array([[0.3, 0.9, 0.5, 0.1, 0.7, 0.2]])])
    found["mod_int_grads"] = [g.asnumpy() for g in grads]
    return found
