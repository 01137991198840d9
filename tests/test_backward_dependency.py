"""Every operator's declared backward dependency is truthful (the memory plan relies on it),
and every registered operator appears here, so a new one cannot skip the check."""
import numpy as np
import pytest

from minisym.ops import all_ops
from opcheck import check_backward_dependency, make_op, random_inputs

CASES = {  # op name: (parameters, input shapes)
    "FullyConnected": ({"num_hidden": 3}, [(2, 4), (3, 4), (3,)]),
    "Convolution": ({"kernel": (3, 3), "num_filter": 2, "pad": (1, 1)},
                    [(1, 2, 4, 4), (2, 2, 3, 3), (2,)]),
    "Pooling": ({"kernel": (2, 2), "stride": (2, 2)}, [(1, 2, 4, 4)]),
    "BatchNorm": ({"fix_gamma": False}, [(3, 2, 2), (2,), (2,)]),
    "Activation": ({"act_type": "softrelu"}, [(2, 3)]),
    "LeakyReLU": ({"act_type": "prelu"}, [(2, 3, 2), (3,)]),
    "Dropout": ({"p": 0.0}, [(2, 3)]),
    "Embedding": ({"input_dim": 4, "output_dim": 2}, None),
    "Flatten": ({}, [(2, 3, 2)]),
    "Reshape": ({"shape": (0, -1)}, [(2, 3, 2)]),
    "Concat": ({"num_args": 2, "dim": 1}, [(2, 3), (2, 1)]),
    "transpose": ({"axes": (1, 0, 2)}, [(2, 3, 2)]),
    "expand_dims": ({"axis": 1}, [(2, 3)]),
    "slice_axis": ({"axis": 1, "begin": 1, "end": 3}, [(2, 4)]),
    "SliceChannel": ({"num_outputs": 2}, [(2, 4)]),
    "sum": ({"axis": 1}, [(2, 3)]), "mean": ({"axis": 1}, [(2, 3)]),
    "max": ({"axis": 1}, [(2, 3)]), "min": ({"axis": 1}, [(2, 3)]),
    "argmax": ({"axis": 1}, [(2, 3)]), "argmin": ({}, [(2, 3)]),
    "SoftmaxOutput": ({}, None),
    "LinearRegressionOutput": ({}, [(3, 2), (3, 2)]),
    "LogisticRegressionOutput": ({}, [(3, 2), (3, 2)]),
    "MAERegressionOutput": ({}, [(3, 2), (3, 2)]),
    "MakeLoss": ({"grad_scale": 2}, [(2, 3)]), "make_loss": ({}, [(2, 3)]),
    "BlockGrad": ({}, [(2, 3)]),
    "softmax": ({"axis": 1}, [(2, 3)]), "log_softmax": ({}, [(2, 3)]),
    "SoftmaxActivation": ({"mode": "channel"}, [(2, 3, 2)]),
    "Custom": None,  # checked with real custom operators in the custom-op tests
}
BINARY = [n for n in all_ops() if n.startswith(("elemwise_", "broadcast_")) or n in (
    "_power", "_mod", "_equal", "_not_equal", "_greater", "_greater_equal", "_lesser",
    "_lesser_equal")]
SCALAR = [n for n in all_ops() if n.endswith("_scalar")]
UNARY = ["exp", "log", "sqrt", "square", "abs", "negative", "relu", "sigmoid", "tanh"]


def _case(name):
    if name in BINARY:
        return {}, [(2, 3), (2, 3)]
    if name in SCALAR:
        return {"scalar": 1.5}, [(2, 3)]
    if name in UNARY:
        return {}, [(2, 3)]
    return CASES[name]


def _inputs(name, op, shapes):
    rng = np.random.default_rng(0)
    if name == "Embedding":
        return [np.array([[0.0, 3.0], [1.0, 1.0]]), rng.standard_normal((4, 2))], []
    if name == "SoftmaxOutput":
        return [rng.standard_normal((3, 4)), np.array([0.0, 2.0, 3.0])], []
    ins, aux = random_inputs(op, shapes)
    if name in ("log", "sqrt", "_power", "_mod") or name.endswith("power_scalar"):
        ins = [np.abs(x) + 0.5 for x in ins]
    return ins, aux


def test_every_registered_operator_is_listed():
    listed = set(CASES) | set(BINARY) | set(SCALAR) | set(UNARY)
    assert sorted(set(all_ops()) - listed) == []


@pytest.mark.parametrize("name", sorted(set(all_ops()) - {"Custom"}))
def test_declared_backward_dependency_is_truthful(name):
    params, shapes = _case(name)
    op = make_op(name, name.lower(), **params)
    ins, aux = _inputs(name, op, shapes)
    check_backward_dependency(op, ins, aux)
