"""PyTorch running an MXNet symbol JSON graph node by node, so that the peer times exactly the
network minisym and MXNet time (same operators, same parameter values, same order).

Only the operators the benchmark networks use are known; shapes of the arguments come from a
sidecar ``GRAPH.json.shapes.json`` written by speed.py (PyTorch cannot infer them itself).
"""

import ast
import json
import os

import numpy as np
import torch
import torch.nn.functional as F

INPUTS = ("data", "softmax_label")


def _attr(attrs, key, default):
    """An MXNet attribute string as a Python value ("(3, 3)", "True", "relu")."""
    text = attrs.get(key)
    if text is None:
        return default
    try:
        return ast.literal_eval(text.replace("true", "True").replace("false", "False"))
    except (ValueError, SyntaxError):
        return text


def _pair(attrs, key, default):
    value = _attr(attrs, key, default)
    return tuple(value) if isinstance(value, (tuple, list)) and value else default


def convolution(attrs, ins, train):
    x, w, *b = ins
    return F.conv2d(
        x,
        w,
        b[0] if b else None,
        _pair(attrs, "stride", (1, 1)),
        _pair(attrs, "pad", (0, 0)),
        _pair(attrs, "dilate", (1, 1)),
        _attr(attrs, "num_group", 1),
    )


def batch_norm(attrs, ins, train):
    x, gamma, beta, mean, var = ins
    if _attr(attrs, "fix_gamma", True):
        gamma = torch.ones_like(gamma)
    training = train and not _attr(attrs, "use_global_stats", False)
    return F.batch_norm(
        x,
        mean,
        var,
        gamma,
        beta,
        training,
        1 - _attr(attrs, "momentum", 0.9),
        _attr(attrs, "eps", 1e-3),
    )


def activation(attrs, ins, train):
    return {"relu": torch.relu, "sigmoid": torch.sigmoid, "tanh": torch.tanh}[
        _attr(attrs, "act_type", "relu")
    ](ins[0])


def pooling(attrs, ins, train):
    x = ins[0]
    kind = _attr(attrs, "pool_type", "max")
    if _attr(attrs, "global_pool", False):
        return (F.adaptive_max_pool2d if kind == "max" else F.adaptive_avg_pool2d)(x, 1)
    kernel, stride = _pair(attrs, "kernel", (1, 1)), _pair(attrs, "stride", (1, 1))
    pad, ceil = _pair(attrs, "pad", (0, 0)), _attr(attrs, "pooling_convention", "valid") == "full"
    if kind == "max":
        return F.max_pool2d(x, kernel, stride, pad, ceil_mode=ceil)
    return F.avg_pool2d(
        x,
        kernel,
        stride,
        pad,
        ceil_mode=ceil,
        count_include_pad=_attr(attrs, "count_include_pad", True),
    )


def fully_connected(attrs, ins, train):
    x, w, *b = ins
    return F.linear(torch.flatten(x, 1), w, b[0] if b else None)


def softmax_output(attrs, ins, train):
    return ins[0]  # the loss is taken in the step, as SoftmaxOutput's gradient is p - onehot


def clip(attrs, ins, train):
    return torch.clamp(ins[0], _attr(attrs, "a_min", None), _attr(attrs, "a_max", None))


OPS = {
    "Convolution": convolution,
    "BatchNorm": batch_norm,
    "Activation": activation,
    "Pooling": pooling,
    "FullyConnected": fully_connected,
    "SoftmaxOutput": softmax_output,
    "Flatten": lambda a, ins, t: torch.flatten(ins[0], 1),
    "Concat": lambda a, ins, t: torch.cat(ins, _attr(a, "dim", 1)),
    "Dropout": lambda a, ins, t: F.dropout(ins[0], _attr(a, "p", 0.5), t),
    "elemwise_add": lambda a, ins, t: ins[0] + ins[1],
    "_Plus": lambda a, ins, t: ins[0] + ins[1],
    "_plus": lambda a, ins, t: ins[0] + ins[1],
    "ElementWiseSum": lambda a, ins, t: sum(ins[1:], ins[0]),
    "_copy": lambda a, ins, t: ins[0],
    "clip": clip,
}


def step_function(graph_path, batch, train, seeded_values):
    """A step of the graph in PyTorch: forward (and backward of SoftmaxOutput's loss)."""
    torch.set_num_threads(len(os.sched_getaffinity(0)))
    graph = json.load(open(graph_path))
    shapes = {k: tuple(v) for k, v in json.load(open(graph_path + ".shapes.json")).items()}
    params = {k: v for k, v in shapes.items() if k not in INPUTS}
    aux = {k for k in params if k.endswith(("moving_mean", "moving_var"))}
    tensors = {
        k: torch.from_numpy(v).requires_grad_(train and k not in aux)
        for k, v in seeded_values(params)
    }
    shape = shapes["data"]
    tensors["data"] = torch.tensor(
        np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    )
    tensors["softmax_label"] = torch.ones(batch, dtype=torch.long)
    nodes, head = graph["nodes"], graph["heads"][0]

    def forward():
        outs = {}
        for i, node in enumerate(nodes):
            if node["op"] == "null":
                outs[i] = tensors[node["name"]]
            else:
                ins = [outs[j] for j, *_ in node["inputs"]]
                outs[i] = OPS[node["op"]](node.get("attrs", {}), ins, train)
        return outs[head[0]]

    def step():
        if not train:
            with torch.no_grad():
                forward()
            return
        loss = F.cross_entropy(forward(), tensors["softmax_label"], reduction="sum")
        loss.backward()
        for t in tensors.values():
            t.grad = None

    return step
