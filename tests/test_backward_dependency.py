"""Every operator's declared backward dependency is truthful (the memory plan relies on it),
and every registered operator appears here, so a new one cannot skip the check."""

import numpy as np
import pytest

from minisym.ops import all_ops
from opcheck import check_backward_dependency, make_op, random_inputs

CASES = {  # op name: (parameters, input shapes)
    "FullyConnected": ({"num_hidden": 3}, [(2, 4), (3, 4), (3,)]),
    "Convolution": (
        {"kernel": (3, 3), "num_filter": 2, "pad": (1, 1)},
        [(1, 2, 4, 4), (2, 2, 3, 3), (2,)],
    ),
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
    "_split_v2": ({"indices": (0, 1), "axis": 1}, [(2, 4)]),
    "sum": ({"axis": 1}, [(2, 3)]),
    "mean": ({"axis": 1}, [(2, 3)]),
    "max": ({"axis": 1}, [(2, 3)]),
    "min": ({"axis": 1}, [(2, 3)]),
    "argmax": ({"axis": 1}, [(2, 3)]),
    "argmin": ({}, [(2, 3)]),
    "SoftmaxOutput": ({}, None),
    "LinearRegressionOutput": ({}, [(3, 2), (3, 2)]),
    "LogisticRegressionOutput": ({}, [(3, 2), (3, 2)]),
    "MAERegressionOutput": ({}, [(3, 2), (3, 2)]),
    "MakeLoss": ({"grad_scale": 2}, [(2, 3)]),
    "make_loss": ({}, [(2, 3)]),
    "BlockGrad": ({}, [(2, 3)]),
    "softmax": ({"axis": 1}, [(2, 3)]),
    "log_softmax": ({}, [(2, 3)]),
    "SoftmaxActivation": ({"mode": "channel"}, [(2, 3, 2)]),
    "Custom": None,  # checked with real custom operators in the custom-op tests
    # indexing, matmul, layout (tests/test_ops_indexing.py, _matmul.py, _layout.py check more)
    "slice": ({"begin": (0, None), "end": (2, -1)}, [(3, 4)]),
    "pick": ({"axis": 1}, [(2, 3), (2,)]),
    "take": ({"axis": 1}, [(2, 3), (4,)]),
    "one_hot": ({"depth": 3}, [(4,)]),
    # no gradient in MXNet 1.9.1: backward refuses (tests/test_ops_indexing.py)
    "batch_take": None,
    "_slice_assign": None,
    "_slice_assign_scalar": None,
    "dot": ({"transpose_b": True}, [(2, 3), (4, 3)]),
    "batch_dot": ({}, [(2, 3, 4), (2, 4, 1)]),
    "SwapAxis": ({"dim1": 0, "dim2": 1}, [(2, 3)]),
    "reshape_like": ({}, [(2, 3), (3, 2)]),
    "broadcast_axis": ({"axis": 0, "size": 2}, [(1, 3)]),
    "broadcast_to": ({"shape": (2, 3)}, [(1, 3)]),
    "tile": ({"reps": (2,)}, [(2, 3)]),
    "repeat": ({"repeats": 2, "axis": 0}, [(2, 3)]),
    "reverse": ({"axis": 1}, [(2, 3)]),
    "stack": ({"num_args": 2}, [(2, 3), (2, 3)]),
    "squeeze": ({}, [(2, 1)]),
    "norm": ({"axis": 1}, [(2, 3)]),
    # region proposals (tests/test_ops_proposal.py checks them on meaningful boxes)
    "_contrib_Proposal": (
        {"scales": (2,), "ratios": (1,), "rpn_post_nms_top_n": 3},
        [(1, 2, 3, 3), (1, 4, 3, 3), (1, 3)],
    ),
    "_contrib_MultiProposal": (
        {"scales": (2,), "ratios": (1,), "rpn_post_nms_top_n": 3},
        [(2, 2, 3, 3), (2, 4, 3, 3), (2, 3)],
    ),
    # image operators (tests/test_ops_image.py and tests/test_ops_roi.py check more)
    "Deconvolution": (
        {"kernel": (3, 3), "num_filter": 2, "stride": (2, 2), "no_bias": False},
        [(1, 2, 3, 3), (2, 2, 3, 3), (2,)],
    ),
    "UpSampling": (
        {"scale": 2, "sample_type": "nearest", "num_args": 2},
        [(1, 2, 2, 2), (1, 1, 1, 1)],
    ),
    "Pad": ({"mode": "reflect", "pad_width": (0, 0, 0, 0, 1, 2, 2, 1)}, [(1, 2, 3, 3)]),
    "LRN": ({"nsize": 3}, [(1, 4, 2, 2)]),
    "ROIPooling": ({"pooled_size": (2, 2), "spatial_scale": 0.5}, [(1, 2, 4, 4), (3, 5)]),
    "SpatialTransformer": (
        {"target_shape": (3, 3), "transform_type": "affine", "sampler_type": "bilinear"},
        [(2, 2, 4, 4), (2, 6)],
    ),
    "GridGenerator": ({"transform_type": "affine", "target_shape": (2, 3)}, [(2, 6)]),
    "BilinearSampler": ({}, [(1, 2, 3, 3), (1, 2, 2, 2)]),
    # value operators (tests/test_ops_values.py, test_ops_elemwise.py, test_ops_loss.py)
    "_copy": ({}, [(2, 3)]),
    "Cast": ({"dtype": "float64"}, [(2, 3)]),
    "clip": ({"a_min": -0.5, "a_max": 0.5}, [(2, 3)]),
    "where": ({}, [(2,), (2, 3), (2, 3)]),
    "add_n": ({"num_args": 3}, [(2, 3)] * 3),
    "zeros_like": ({}, [(2, 3)]),
    "ones_like": ({}, [(2, 3)]),
    "_zeros": None,
    "_ones": None,  # no inputs: test_ops_values.py
    "_identity_with_attr_like_rhs": ({}, [(2, 3), (2, 3)]),
    "_maximum": ({}, [(2, 3), (2, 3)]),
    "_minimum": ({}, [(2, 3), (2, 3)]),
    "smooth_l1": ({"scalar": 2.0}, [(2, 3)]),
    "hard_sigmoid": ({"alpha": 0.4}, [(2, 3)]),
    **{
        op: ({}, [(2, 3)])
        for op in ("sign", "round", "trunc", "logical_not", "rsqrt", "sin", "cos", "softsign")
    },
    **{
        op: ({}, [(2, 3)])
        for op in (
            "reciprocal",
            "ceil",
            "floor",
            "fix",
            "tan",
            "arcsin",
            "arccos",
            "arctan",
            "sinh",
            "cosh",
            "arcsinh",
            "arccosh",
            "arctanh",
            "degrees",
            "radians",
            "log2",
            "log10",
            "log1p",
            "expm1",
            "cbrt",
            "rcbrt",
            "gamma",
            "gammaln",
            "erf",
        )
    },
    "_hypot": ({}, [(2, 3), (2, 3)]),
    "broadcast_like": ({}, [(1, 3), (2, 3)]),
    "slice_like": ({}, [(3, 4), (2, 3)]),
    "_eye": None,
    "_linspace": None,
    "_arange": None,  # no inputs: test_ops_values.py
    "_contrib_arange_like": ({}, [(2, 3)]),
    "softmin": ({"axis": 0, "temperature": 2.0}, [(2, 3)]),
    "softmax_cross_entropy": ({}, None),
    "SVMOutput": ({"use_linear": True}, None),
}
BINARY = [
    n
    for n in all_ops()
    if n not in CASES
    and (
        n.startswith(("elemwise_", "broadcast_"))
        or n
        in (
            "_power",
            "_mod",
            "_equal",
            "_not_equal",
            "_greater",
            "_greater_equal",
            "_lesser",
            "_lesser_equal",
        )
    )
]
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
    if name in ("SoftmaxOutput", "softmax_cross_entropy", "SVMOutput"):
        return [rng.standard_normal((3, 4)), np.array([0.0, 2.0, 3.0])], []
    ins, aux = random_inputs(op, shapes)
    if name in ("log", "sqrt", "rsqrt", "_power", "_mod") or name.endswith("power_scalar"):
        ins = [np.abs(x) + 0.5 for x in ins]
    return ins, aux


def test_every_registered_operator_is_listed():
    listed = set(CASES) | set(BINARY) | set(SCALAR) | set(UNARY)
    assert sorted(set(all_ops()) - listed) == []


@pytest.mark.parametrize(
    "name", sorted(set(all_ops()) - {n for n, case in CASES.items() if case is None})
)
def test_declared_backward_dependency_is_truthful(name):
    params, shapes = _case(name)
    op = make_op(name, name.lower(), **params)
    ins, aux = _inputs(name, op, shapes)
    check_backward_dependency(op, ins, aux)
