"""mx.nd.save writes MXNet's exact bytes (recorded as hex) for dicts, lists, one array, empty
containers and every dtype; what it refuses; what mx.nd.load refuses."""
import os
import tempfile

import numpy as np

from _common import err


def saved_bytes(mx, data):
    fd, path = tempfile.mkstemp(suffix=".params")
    os.close(fd)
    try:
        mx.nd.save(path, data)
        with open(path, "rb") as f:
            return f.read()
    finally:
        os.remove(path)


def load_bytes(mx, payload):
    fd, path = tempfile.mkstemp(suffix=".params")
    with os.fdopen(fd, "wb") as f:
        f.write(payload)
    try:
        return mx.nd.load(path)
    finally:
        os.remove(path)


def run(mx):
    arr = mx.nd.array(np.arange(6).reshape(2, 3) * 0.5)
    cases = {
        "dict": {"w": arr, "b": mx.nd.array([1, -1], dtype="int32")},
        "dict_order_kept": {"zz": mx.nd.ones((1,)), "aa": mx.nd.zeros((2,))},
        "list": [arr, mx.nd.array([2.5], dtype="float64")],
        "single": arr,
        "empty_list": [],
        "empty_dict": {},
        "dtypes": [mx.nd.array([1, 0, 3], dtype=t) for t in
                   ("float32", "float64", "float16", "uint8", "int32", "int8", "int64", "bool")],
        "five_dims": [mx.nd.ones((1, 2, 1, 2, 1))],
        "slice_and_transpose": [arr[1:2], arr.T],
        "unicode_name": {"poids_é": arr},
    }
    out = {"hex": {k: saved_bytes(mx, v).hex() for k, v in cases.items()}}
    out["empty_dict_loads_as"] = type(load_bytes(mx, saved_bytes(mx, {}))).__name__
    out["save_errors"] = {
        "numpy_in_dict": err(mx, saved_bytes, mx, {"a": np.ones(2)}),
        "numpy_in_list": err(mx, saved_bytes, mx, [np.ones(2)]),
        "int_key": err(mx, saved_bytes, mx, {1: arr}),
        "tuple": err(mx, saved_bytes, mx, (arr,)),
        "string": err(mx, saved_bytes, mx, "x"),
        "fname_not_str": err(mx, mx.nd.save, 3, [arr]),
    }
    good = saved_bytes(mx, {"w": arr})
    out["load_errors"] = {
        "junk": err(mx, load_bytes, mx, b"hello world 12345678"),
        "empty_file": err(mx, load_bytes, mx, b""),
        "truncated": err(mx, load_bytes, mx, good[:-5]),
        "missing_file": err(mx, mx.nd.load, os.path.join(tempfile.gettempdir(), "no-such.params")),
        "fname_not_str": err(mx, mx.nd.load, 3),
    }
    return out
