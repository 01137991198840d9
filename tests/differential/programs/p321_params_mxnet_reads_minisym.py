"""MXNet reads what minisym writes: mx.nd.load and mx.model.load_checkpoint of the files minisym wrote
(tests/fixtures/minisym_params, made by make_minisym_files.py). Recorded under MXNet 1.9.1."""
import hashlib
import os

import numpy as np

DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures",
                   "minisym_params")


def describe(loaded):
    """What mx.nd.load returned, as plain data."""
    items = list(loaded.items()) if isinstance(loaded, dict) else list(enumerate(loaded))
    return {
        "kind": type(loaded).__name__,
        "keys": [k for k, _ in items],
        "arrays": [[k, list(v.shape), np.dtype(v.dtype).name, str(v.context), v.asnumpy()]
                   for k, v in items],
    }


def run(mx):
    out = {}
    for name in sorted(os.listdir(DIR)):
        path = os.path.join(DIR, name)
        with open(path, "rb") as f:
            out.setdefault("sha256", {})[name] = hashlib.sha256(f.read()).hexdigest()
        if name.endswith(".params"):
            out[name] = describe(mx.nd.load(path))
    sym, arg_params, aux_params = mx.model.load_checkpoint(os.path.join(DIR, "mlp"), 2)
    with open(os.path.join(DIR, "mlp-symbol.json"), encoding="utf-8") as f:
        text = f.read()
    out["checkpoint"] = {
        "arguments": sym.list_arguments(),
        "outputs": sym.list_outputs(),
        "tojson_equals_file": sym.tojson() == text,
        "arg_params": describe(arg_params),
        "aux_params": describe(aux_params),
        "infer_shape": sym.infer_shape(data=(2, 3)),
    }
    return out
