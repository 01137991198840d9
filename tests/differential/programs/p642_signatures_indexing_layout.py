"""The call signatures of the indexing, matrix and layout operator functions (mx.sym and
mx.nd): inputs, then parameters in MXNet's documented order (positional calls rely on it),
then name, attr, out (out, name for mx.nd); stack is variadic; and one positional call each."""
import inspect

from _common import node_ops

NAMES = ("slice pick take one_hot dot batch_dot SwapAxis swapaxes reshape_like broadcast_axis "
         "broadcast_axes broadcast_to tile repeat reverse flip stack squeeze norm").split()


def run(mx):
    x, y = mx.sym.Variable("x"), mx.sym.Variable("y")
    positional = {
        "slice": node_ops(mx.sym.slice(x, (0,), (2,), (1,))),
        "pick": node_ops(mx.sym.pick(x, y, 0, True, "wrap")),
        "take": node_ops(mx.sym.take(x, y, 1, "wrap")),
        "one_hot": node_ops(mx.sym.one_hot(x, 3, 2.0, -1.0, "int32")),
        "dot": node_ops(mx.sym.dot(x, y, True, False)),
        "reshape_like": node_ops(mx.sym.reshape_like(x, y, 0, 1, 1, 2)),
        "tile": node_ops(mx.sym.tile(x, (2, 2))),
        "repeat": node_ops(mx.sym.repeat(x, 3, 1)),
        "norm": node_ops(mx.sym.norm(x, 1, (1,))),
        "SwapAxis": node_ops(mx.sym.SwapAxis(x, 1, 2)),
        "broadcast_axis": node_ops(mx.sym.broadcast_axis(x, (0,), (4,))),
    }
    return {"sym": {n: str(inspect.signature(getattr(mx.sym, n))) for n in NAMES},
            "nd": {n: str(inspect.signature(getattr(mx.nd, n))) for n in NAMES},
            "positional": positional}
