"""One timing in a fresh process: ``python speed_worker.py ENGINE GRAPH.json BATCH MODE ITERS``.

ENGINE is ``minisym`` or ``mxnet`` (the same code under either, ``import ... as mx``) or
``torch`` (torch_graph.py runs the same JSON graph). Prints one JSON line: the median seconds
of a step (inference: forward; train: forward + backward with parameter gradients) and the
peak resident memory of this process in MiB (``ru_maxrss``, the same measure for every engine).
"""

import importlib
import json
import resource
import sys
import time

import numpy as np


def seeded_values(shapes, seed=0):
    """(name, float32 array) in sorted name order, one at a time so that no engine holds a
    second copy of its parameters: every engine gets the same numbers."""
    rng = np.random.default_rng(seed)
    for name in sorted(shapes):
        if name.endswith(("moving_var", "moving_mean")):
            yield name, np.full(shapes[name], 1.0 if name.endswith("var") else 0.0, np.float32)
            continue
        value = rng.standard_normal(shapes[name], dtype=np.float32)
        if name.endswith("gamma"):
            np.abs(value, out=value)
        else:
            value *= 0.05
        yield name, value


def data_shape(graph):
    """(N, C, H, W) of the graph's data, from the sidecar speed.py writes beside it."""
    with open(graph + ".shapes.json") as f:
        return tuple(json.load(f)["data"])


def median_step(step, iters, warmup=2):
    """Median seconds of ``step()`` over ``iters`` calls after ``warmup`` calls."""
    for _ in range(warmup):
        step()
    times = []
    for _ in range(iters):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def mx_step(engine, graph, batch, train):
    """A step function of a bound executor of ``graph`` under minisym or MXNet."""
    mx = importlib.import_module("mxnet" if engine == "mxnet" else "minisym")
    net = mx.sym.load(graph)
    shape = data_shape(graph)
    inputs = ("data", "softmax_label")
    req = {n: ("write" if train and n not in inputs else "null") for n in net.list_arguments()}
    ex = net.simple_bind(mx.cpu(), data=shape, grad_req=req)
    shapes = {n: a.shape for n, a in {**ex.arg_dict, **ex.aux_dict}.items() if n not in inputs}
    for name, value in seeded_values(shapes):
        (ex.arg_dict if name in ex.arg_dict else ex.aux_dict)[name][:] = value
    ex.arg_dict["data"][:] = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    ex.arg_dict["softmax_label"][:] = 1

    def step():
        ex.forward(is_train=train)
        if train:
            ex.backward()
        ex.outputs[0].wait_to_read()

    return step


def main(engine, graph, batch, mode, iters):
    batch, iters, train = int(batch), int(iters), mode == "train"
    if engine == "torch":
        import torch_graph

        step = torch_graph.step_function(graph, batch, train, seeded_values)
    else:
        step = mx_step(engine, graph, batch, train)
    seconds = median_step(step, iters)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"median_s": seconds, "peak_rss_mib": peak}))


if __name__ == "__main__":
    main(*sys.argv[1:6])
