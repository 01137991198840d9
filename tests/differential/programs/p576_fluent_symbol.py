"""Symbol's fluent methods: x.sum(axis=1) builds the node mx.sym.sum(x, axis=1) would (same
auto-name counter, same stored parameters), positional parameters included; abs(x) is x.abs()."""
from _common import names, node_ops


def run(mx):
    x = mx.sym.Variable("x")
    made = {
        "abs": x.abs(), "abs_builtin": abs(x), "flatten": x.flatten(), "softmax": x.softmax(),
        "softmax_axis": x.softmax(axis=0), "log_softmax": x.log_softmax(),
        "reshape_positional": x.reshape((0, -1)), "reshape_keyword": x.reshape(shape=(0, -1)),
        "sum_axis": x.sum(axis=1), "sum_positional": x.sum(1, True), "sum_named": x.sum(name="s"),
        "mean": x.mean(axis=0), "max": x.max(), "min": x.min(axis=1, keepdims=True),
        "argmax": x.argmax(axis=1), "argmin": x.argmin(), "transpose": x.transpose(),
        "transpose_axes": x.transpose(axes=(1, 0)), "expand_dims": x.expand_dims(1),
        "split": x.split(2), "slice_axis": x.slice_axis(axis=1, begin=0, end=2),
        "exp": x.exp(), "log": x.log(), "sqrt": x.sqrt(), "square": x.square(),
        "relu": x.relu(), "sigmoid": x.sigmoid(), "tanh": x.tanh(),
    }
    res = {k: {"names": names(v), "node": node_ops(v)[-1]} for k, v in made.items()}
    chain = x.reshape((0, -1)).softmax().sum(axis=1)
    res["chain"] = {"nodes": node_ops(chain), "shapes": chain.infer_shape(x=(2, 3, 2))}
    res["fluent_and_function_share_counters"] = [mx.sym.sum(x).name, x.sum().name,
                                                 mx.sym.sum(x).name]
    return res
