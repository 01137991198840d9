"""Helpers of the image-operator programs p660-p669: bind one symbol to seeded inputs, run
forward and backward (several times under grad_req='add'), and describe a symbol."""
import json

import numpy as np


def seeded(shape, seed, low=-1.0, high=1.0):
    """A float32 array of ``shape`` drawn uniformly from [low, high) with ``seed``."""
    return np.random.RandomState(seed).uniform(low, high, shape).astype(np.float32)


def run_symbol(mx, sym, inputs, seed=0, grad_req="write", repeat=1):
    """Outputs and every argument's gradient after ``repeat`` train forward/backward passes
    with seeded head gradients; under grad_req='add' the gradients start at 0.5."""
    ex = sym.simple_bind(ctx=mx.cpu(), grad_req=grad_req,
                         **{k: v.shape for k, v in inputs.items()})
    for k, v in inputs.items():
        ex.arg_dict[k][:] = v
    if grad_req == "add":
        for g in ex.grad_dict.values():
            g[:] = 0.5
    rng = np.random.RandomState(seed)
    for _ in range(repeat):
        ex.forward(is_train=True)
        heads = [rng.uniform(-1, 1, o.shape).astype(np.float32) for o in ex.outputs]
        ex.backward([mx.nd.array(h) for h in heads])
    res = {"out": [o.asnumpy() for o in ex.outputs]}
    for name in sym.list_arguments():
        res["grad_" + name] = ex.grad_dict[name].asnumpy()
    return res


def describe(sym):
    """Name, listings, and the JSON nodes (op, name, attrs) of ``sym``."""
    nodes = json.loads(sym.tojson())["nodes"]
    return {"name": sym.name, "arguments": sym.list_arguments(),
            "outputs": sym.list_outputs(), "aux": sym.list_auxiliary_states(),
            "internals": sym.get_internals().list_outputs(),
            "nodes": [[n["op"], n["name"], n.get("attrs", {})] for n in nodes]}


def shapes(res):
    """An infer_shape(_partial) result as lists (None stays None)."""
    if res is None:
        return None
    return [None if part is None else [list(s) for s in part] for part in res]


def dtypes(res):
    """An infer_type result as dtype names."""
    return [None if part is None else [np.dtype(t).name for t in part] for part in res]
