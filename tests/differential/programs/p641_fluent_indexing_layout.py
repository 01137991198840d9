"""The fluent methods of the indexing, matrix and layout operators on NDArray and Symbol:
x.slice, x.take, x.pick, x.one_hot, x.swapaxes, x.reshape_like, x.broadcast_axes,
x.broadcast_to, x.tile, x.repeat, x.flip, x.squeeze, x.norm (values, node names and attrs)."""
import numpy as np

from _common import node_ops


def run(mx):
    a = mx.nd.array(np.arange(12).reshape(3, 4))
    col = mx.nd.array([[1.0], [2.0], [3.0]])
    nd = {
        "slice": a.slice(begin=(1, None), end=(3, None), step=(1, -1)).asnumpy(),
        "take": a.take(mx.nd.array([2, 0])).asnumpy(),
        "pick": a.pick(mx.nd.array([0, 3, 1])).asnumpy(),
        "one_hot": mx.nd.array([1, 0]).one_hot(3).asnumpy(),
        "swapaxes": a.swapaxes(0, 1).asnumpy(),
        "reshape_like": a.reshape_like(mx.nd.zeros((2, 6))).asnumpy(),
        "broadcast_axes": col.broadcast_axes(axis=1, size=2).asnumpy(),
        "broadcast_to": col.broadcast_to((3, 3)).asnumpy(),
        "tile": col.tile((1, 2)).asnumpy(),
        "repeat": col.repeat(2, axis=0).asnumpy(),
        "flip": a.flip(axis=1).asnumpy(),
        "squeeze": col.squeeze().asnumpy(),
        "norm": a.norm(ord=1, axis=0).asnumpy(),
    }
    x, y = mx.sym.Variable("x"), mx.sym.Variable("y")
    sym = {
        "slice": node_ops(x.slice(begin=(1,), end=(None,))),
        "take": node_ops(x.take(y, axis=1)),
        "pick": node_ops(x.pick(y, axis=0)),
        "swapaxes": node_ops(x.swapaxes(dim1=0, dim2=1)),
        "broadcast_to": node_ops(x.broadcast_to(shape=(2, 3))),
        "tile": node_ops(x.tile(reps=(2,))),
        "flip": node_ops(x.flip(axis=0)),
        "squeeze": node_ops(x.squeeze(axis=1)),
        "norm": node_ops(x.norm(axis=1, keepdims=True)),
    }
    return {"nd": nd, "sym": sym}
