"""mx.nd.load of .params files written by MXNet 1.9.1 (tests/fixtures/mxnet_params): kind, names in
file order, shapes, dtypes, contexts and values."""
import hashlib
import os

import numpy as np

DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures",
                   "mxnet_params")


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
            digest = hashlib.sha256(f.read()).hexdigest()
        out[name] = dict(describe(mx.nd.load(path)), sha256=digest)
    return out
