"""broadcast_like and slice_like (MXNet's docstrings and test_operator): inferred shapes, partial
inference, values and gradients through an executor (the shape-lending input gets zeros)."""
import numpy as np

from _common import fwd_bwd


def run(mx):
    a, b = mx.sym.Variable("a"), mx.sym.Variable("b")
    rng = np.random.RandomState(0)
    lhs = rng.uniform(-1, 1, (1, 3)).astype(np.float32)
    big = rng.uniform(-1, 1, (4, 5, 6)).astype(np.float32)
    cases = {
        "like": (mx.sym.broadcast_like(a, b), {"a": lhs, "b": np.zeros((4, 3), np.float32)}),
        "like_axes": (mx.sym.broadcast_like(a, b, lhs_axes=(0,), rhs_axes=(2,)),
                      {"a": lhs, "b": np.zeros((2, 2, 5), np.float32)}),
        "slice": (mx.sym.slice_like(a, b), {"a": big, "b": np.zeros((2, 3, 6), np.float32)}),
        "slice_axes": (mx.sym.slice_like(a, b, axes=(0, -1)),
                       {"a": big, "b": np.zeros((2, 3, 3), np.float32)}),
    }
    found = {name: fwd_bwd(mx, sym, inputs, rng) for name, (sym, inputs) in cases.items()}
    found["arguments"] = [mx.sym.broadcast_like(a, b).list_arguments(),
                          mx.sym.slice_like(a, b).list_arguments()]
    found["partial"] = [mx.sym.broadcast_like(a, b).infer_shape_partial(a=(1, 3)),
                        mx.sym.slice_like(a, b).infer_shape_partial(a=(4, 5))]
    found["nd"] = [mx.nd.broadcast_like(mx.nd.array(lhs), mx.nd.zeros((2, 3))).asnumpy(),
                   mx.nd.slice_like(mx.nd.array(big), mx.nd.zeros((1, 2)), axes=(0, 1)).shape]
    return found
