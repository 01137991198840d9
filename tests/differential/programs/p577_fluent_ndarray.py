"""NDArray's fluent methods compute what the mx.nd functions compute (values, shapes, dtypes);
flatten / expand_dims give copies unless inplace=True, reshape a view."""
import numpy as np


def run(mx):
    a = mx.nd.array([[1, 5, 3], [4, 2, 6]])
    i = mx.nd.array([[1, 5, 3], [4, 2, 6]], dtype="int32")
    calls = {
        "argmax": a.argmax(), "argmax_axis": a.argmax(axis=1), "argmax_positional": a.argmax(1),
        "argmax_keepdims": a.argmax(axis=0, keepdims=True), "argmax_int": i.argmax(axis=1),
        "argmin_axis": a.argmin(axis=1), "sum": a.sum(), "sum_positional": a.sum(1),
        "sum_keepdims": a.sum(axis=0, keepdims=True), "sum_tuple": a.sum(axis=(0, 1)),
        "sum_exclude": a.sum(axis=0, exclude=True), "max": a.max(), "min_axis": a.min(axis=0),
        "mean_axis": a.mean(axis=1), "abs": (-a).abs(), "abs_builtin": abs(-a),
        "transpose": a.transpose(), "transpose_positional": a.transpose((1, 0)),
        "softmax": a.softmax(), "softmax_axis": a.softmax(axis=0), "log_softmax": a.log_softmax(),
        "exp": a.exp(), "log": a.log(), "sqrt": a.sqrt(), "square": a.square(),
        "relu": (a - 3).relu(), "sigmoid": a.sigmoid(), "tanh": a.tanh(),
        "slice_axis": a.slice_axis(1, 0, 2), "expand_dims": a.expand_dims(1),
        "flatten_3d": mx.nd.ones((2, 3, 4)).flatten(), "reshape": a.reshape((3, 2)),
    }
    res = {k: {"value": v.asnumpy(), "dtype": np.dtype(v.dtype).name} for k, v in calls.items()}
    res["split"] = [p.asnumpy() for p in a.split(3, axis=1)]
    res["split_keyword"] = [p.asnumpy() for p in a.split(num_outputs=3, axis=1)]
    memory = {}
    for name, make in {"flatten": lambda t: t.flatten(),
                       "flatten_inplace": lambda t: t.flatten(inplace=True),
                       "expand_dims": lambda t: t.expand_dims(0),
                       "expand_dims_inplace": lambda t: t.expand_dims(0, inplace=True),
                       "reshape": lambda t: t.reshape((3, 2))}.items():
        t = mx.nd.array([[1, 5, 3], [4, 2, 6]])
        made = make(t)
        made[:] = 7
        memory[name + "_writes_through"] = t.asnumpy()
    res["memory"] = memory
    return res
