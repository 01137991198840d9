"""Forward/backward of the neural-network layers (minisym/ops/nn/,
ops/leaky_relu.py, Embedding in ops/tensor/indexing_op.py): shapes, gradients against
finite differences, req handling, values against naive loops and numbers observed in MXNet 1.9.1."""

import itertools

import numpy as np
import pytest

from minisym.base import MXNetError
from minisym.random import seed
from opcheck import check_gradients, check_req, make_op, output_shapes, run_backward, run_forward


def reseeded(op, value=7):
    """Make the op's random draws repeat: reseed the engine's generator before every forward."""
    forward = op.forward

    def seeded_forward(*args):
        seed(value)
        return forward(*args)

    op.forward = seeded_forward
    return op


def inputs(op, shapes, dtype=np.float64, seed_value=0):
    """Random inputs for ``op``: normal data, ids for Embedding, gammas in [0.5, 1.5) for BN."""
    rng = np.random.default_rng(seed_value)
    ins = [rng.standard_normal(s) for s in shapes]
    if op.op_name == "Embedding":
        ins[0] = rng.integers(0, op.input_dim, shapes[0]).astype(np.float64)
    if op.op_name == "BatchNorm":
        ins[1] = rng.uniform(0.5, 1.5, shapes[1])
    _, aux_shapes = output_shapes(op, shapes)
    aux = [
        rng.uniform(-0.5, 0.5, s) if "mean" in name else rng.uniform(0.5, 1.5, s)
        for name, s in zip(op.list_auxiliary_states(), aux_shapes)
    ]
    return [x.astype(dtype) for x in ins], [a.astype(dtype) for a in aux]


# --- 1. shapes -----------------------------------------------------------------------------
# (op, params, input shapes, expected output shapes (hidden ones too)); sizes from MXNet runs.
SHAPE_CASES = [
    ("FullyConnected", {"num_hidden": 5}, [(2, 3, 4), (5, 12), (5,)], [(2, 5)]),
    ("FullyConnected", {"num_hidden": 5, "flatten": False}, [(2, 3, 4), (5, 4), (5,)], [(2, 3, 5)]),
    ("FullyConnected", {"num_hidden": 2, "no_bias": True}, [(3, 4), (2, 4)], [(3, 2)]),
    (
        "Convolution",
        {"kernel": (3, 3), "stride": (2, 2), "pad": (1, 1), "num_filter": 8},
        [(2, 3, 7, 7), (8, 3, 3, 3), (8,)],
        [(2, 8, 4, 4)],
    ),
    (
        "Convolution",
        {"kernel": (3, 3), "dilate": (2, 2), "num_group": 2, "num_filter": 8},
        [(2, 4, 9, 9), (8, 2, 3, 3), (8,)],
        [(2, 8, 5, 5)],
    ),
    (
        "Convolution",
        {"kernel": (3,), "stride": (2,), "num_filter": 4, "no_bias": True},
        [(2, 3, 10), (4, 3, 3)],
        [(2, 4, 4)],
    ),
    ("Pooling", {"kernel": (2, 2), "stride": (2, 2)}, [(1, 1, 5, 5)], [(1, 1, 2, 2)]),
    (
        "Pooling",
        {"kernel": (2, 2), "stride": (2, 2), "pooling_convention": "full"},
        [(1, 1, 5, 5)],
        [(1, 1, 3, 3)],
    ),
    ("Pooling", {"kernel": (2, 2)}, [(1, 1, 5, 5)], [(1, 1, 4, 4)]),
    (
        "Pooling",
        {"kernel": (3,), "pool_type": "avg", "global_pool": True},
        [(2, 3, 7)],
        [(2, 3, 1)],
    ),
    (
        "Pooling",
        {"kernel": (3,), "stride": (2,), "pad": (1,), "pool_type": "sum"},
        [(2, 3, 8)],
        [(2, 3, 4)],
    ),
    ("BatchNorm", {}, [(2, 3, 4, 4), (3,), (3,)], [(2, 3, 4, 4), (3,), (3,)]),
    ("BatchNorm", {"axis": -1}, [(2, 3, 5), (5,), (5,)], [(2, 3, 5), (5,), (5,)]),
    ("Activation", {"act_type": "softsign"}, [(2, 3)], [(2, 3)]),
    ("LeakyReLU", {"act_type": "prelu"}, [(2, 3, 4, 4), (3,)], [(2, 3, 4, 4)]),
    ("LeakyReLU", {"act_type": "rrelu"}, [(2, 3)], [(2, 3), (2, 3)]),
    ("Dropout", {"axes": (1,)}, [(2, 3, 4)], [(2, 3, 4), (2, 1, 4)]),
    ("Embedding", {"input_dim": 6, "output_dim": 3}, [(2, 4), (6, 3)], [(2, 4, 3)]),
]


@pytest.mark.parametrize(
    "op_name, params, in_shapes, expected",
    SHAPE_CASES,
    ids=[f"{c[0]}-{i}" for i, c in enumerate(SHAPE_CASES)],
)
def test_forward_fills_outputs_of_the_inferred_shapes(op_name, params, in_shapes, expected):
    op = reseeded(make_op(op_name, **params))
    outs, aux_shapes = output_shapes(op, in_shapes)
    assert outs == expected
    # from the data shape alone the rule also gives every parameter's and aux state's shape
    unknown = [in_shapes[0]] + [None] * (len(in_shapes) - 1)
    ins_inferred, outs_inferred, aux_inferred = op.infer_shape(unknown, [None] * len(expected))
    assert (ins_inferred, outs_inferred, aux_inferred) == (in_shapes, expected, aux_shapes)
    if op.list_auxiliary_states():  # BatchNorm's moving stats are (C,), like gamma
        assert aux_shapes == [in_shapes[1]] * 2
    ins, aux = inputs(op, in_shapes)
    nan_filled = [np.full(s, np.nan) for s in expected]
    result = run_forward(op, ins, aux, outs=nan_filled)
    assert [o.shape for o in result] == expected
    for j, out in enumerate(result):  # every element was written
        assert not np.isnan(out).any(), f"output {j} not fully written"


# --- 2. gradients against finite differences -------------------------------------------------
# (op, params, input shapes, extra keywords for check_gradients)
GRAD_CASES = [
    ("FullyConnected", {"num_hidden": 4}, [(3, 2, 3), (4, 6), (4,)], {}),
    ("FullyConnected", {"num_hidden": 3, "flatten": False}, [(2, 3, 5), (3, 5), (3,)], {}),
    ("FullyConnected", {"num_hidden": 2, "no_bias": True}, [(3, 5), (2, 5)], {}),
    (
        "Convolution",
        {"kernel": (3,), "stride": (2,), "pad": (1,), "dilate": (2,), "num_filter": 4},
        [(2, 3, 9), (4, 3, 3), (4,)],
        {},
    ),
    (
        "Convolution",
        {
            "kernel": (3, 2),
            "stride": (2, 1),
            "pad": (1, 2),
            "dilate": (1, 2),
            "num_group": 2,
            "num_filter": 6,
        },
        [(2, 4, 7, 6), (6, 2, 3, 2), (6,)],
        {},
    ),
    (
        "Convolution",
        {"kernel": (3, 3), "pad": (1, 1), "num_group": 3, "num_filter": 3, "no_bias": True},
        [(1, 3, 5, 4), (3, 1, 3, 3)],
        {},
    ),
    (
        "Convolution",
        {"kernel": (2, 2, 2), "stride": (1, 2, 1), "pad": (1, 0, 1), "num_filter": 2},
        [(1, 2, 3, 4, 3), (2, 2, 2, 2, 2), (2,)],
        {},
    ),
    ("Pooling", {"kernel": (3, 2), "stride": (2, 2), "pad": (1, 1)}, [(2, 2, 7, 6)], {}),
    (
        "Pooling",
        {"kernel": (3, 3), "stride": (2, 2), "pooling_convention": "full"},
        [(1, 2, 6, 7)],
        {},
    ),
    (
        "Pooling",
        {
            "kernel": (3, 3),
            "stride": (2, 2),
            "pad": (1, 1),
            "pool_type": "avg",
            "pooling_convention": "full",
        },
        [(1, 2, 6, 5)],
        {},
    ),
    (
        "Pooling",
        {
            "kernel": (3, 3),
            "stride": (2, 2),
            "pad": (1, 1),
            "pool_type": "avg",
            "pooling_convention": "full",
            "count_include_pad": False,
        },
        [(1, 2, 6, 5)],
        {},
    ),
    (
        "Pooling",
        {"kernel": (2, 3), "stride": (1, 2), "pad": (1, 1), "pool_type": "sum"},
        [(2, 1, 5, 5)],
        {},
    ),
    ("Pooling", {"kernel": (3,), "stride": (2,), "pad": (1,), "pool_type": "avg"}, [(2, 3, 8)], {}),
    (
        "Pooling",
        {"kernel": (3,), "stride": (2,), "pool_type": "max", "pooling_convention": "full"},
        [(2, 3, 8)],
        {},
    ),
    ("Pooling", {"pool_type": "max", "global_pool": True}, [(2, 3, 4, 5)], {}),
    ("Pooling", {"pool_type": "avg", "global_pool": True}, [(2, 3, 4, 5)], {}),
    (
        "Pooling",
        {"kernel": (2, 2, 2), "stride": (2, 1, 2), "pad": (1, 0, 1), "pool_type": "avg"},
        [(1, 2, 4, 3, 5)],
        {},
    ),
    ("BatchNorm", {"fix_gamma": False}, [(2, 3, 4, 3), (3,), (3,)], {}),
    ("BatchNorm", {"fix_gamma": True, "eps": 1e-5}, [(4, 3, 2), (3,), (3,)], {}),
    ("BatchNorm", {"fix_gamma": False, "axis": -1}, [(2, 3, 4), (4,), (4,)], {}),
    ("BatchNorm", {"fix_gamma": False, "axis": 2}, [(2, 3, 4, 2), (4,), (4,)], {}),
    ("BatchNorm", {"fix_gamma": False}, [(5, 4), (4,), (4,)], {}),
    ("BatchNorm", {"fix_gamma": False, "use_global_stats": True}, [(2, 3, 2, 2), (3,), (3,)], {}),
    ("Activation", {"act_type": "relu"}, [(3, 4, 5)], {}),
    ("Activation", {"act_type": "sigmoid"}, [(3, 4, 5)], {}),
    ("Activation", {"act_type": "tanh"}, [(3, 4, 5)], {}),
    ("Activation", {"act_type": "softrelu"}, [(3, 4, 5)], {}),
    ("Activation", {"act_type": "softsign"}, [(3, 4, 5)], {}),
    ("LeakyReLU", {"act_type": "leaky", "slope": 0.1}, [(3, 4, 5)], {}),
    ("LeakyReLU", {"act_type": "elu", "slope": 0.7}, [(3, 4, 5)], {}),
    ("LeakyReLU", {"act_type": "gelu"}, [(3, 4, 5)], {}),
    ("LeakyReLU", {"act_type": "prelu"}, [(2, 3, 4, 2), (3,)], {}),
    ("LeakyReLU", {"act_type": "prelu"}, [(4, 5), (5,)], {}),
    ("LeakyReLU", {"act_type": "prelu"}, [(2, 3, 4), (1,)], {}),
    # gamma laid out as MXNet does (axes 0 and 1): element-wise for 2-D data, per sample, ...
    ("LeakyReLU", {"act_type": "prelu"}, [(4, 3), (4, 3)], {}),
    ("LeakyReLU", {"act_type": "prelu"}, [(2, 3, 4, 2), (2, 3)], {}),
    ("LeakyReLU", {"act_type": "prelu"}, [(2, 3, 4), (2,)], {}),
    ("LeakyReLU", {"act_type": "prelu"}, [(2, 3, 4), (1, 3)], {}),
    ("LeakyReLU", {"act_type": "prelu"}, [(2, 3, 4), (2, 1)], {}),
    ("LeakyReLU", {"act_type": "rrelu"}, [(3, 4, 5)], {"is_train": False}),
    ("Embedding", {"input_dim": 5, "output_dim": 3}, [(2, 6), (5, 3)], {"check": [1]}),
    ("Dropout", {"p": 0.3}, [(3, 4)], {"is_train": False}),
]


@pytest.mark.parametrize(
    "op_name, params, in_shapes, options",
    GRAD_CASES,
    ids=[f"{c[0]}-{i}" for i, c in enumerate(GRAD_CASES)],
)
def test_gradients_match_finite_differences(op_name, params, in_shapes, options):
    op = make_op(op_name, **params)
    ins, aux = inputs(op, in_shapes)
    grads = check_gradients(op, ins, aux, **options)
    assert any(np.abs(g).max() > 1e-3 for g in grads)  # the check compared real numbers


RANDOM_GRAD_CASES = [
    ("Dropout", {"p": 0.3, "axes": (1,)}, (3, 4, 5)),
    ("Dropout", {"p": 0.6, "mode": "always"}, (4, 5)),
    ("LeakyReLU", {"act_type": "rrelu", "lower_bound": 0.1, "upper_bound": 0.6}, (3, 4, 5)),
]


@pytest.mark.parametrize("op_name, params, shape", RANDOM_GRAD_CASES)
def test_random_ops_gradients_with_a_fixed_draw(op_name, params, shape):
    op = reseeded(make_op(op_name, **params))
    ins, _ = inputs(op, [shape])
    check_gradients(op, ins, is_train=params.get("mode") != "always")


# --- 3. req ----------------------------------------------------------------------------------
REQ_CASES = [
    ("FullyConnected", {"num_hidden": 3}, [(2, 4), (3, 4), (3,)], True),
    (
        "FullyConnected",
        {"num_hidden": 3, "no_bias": True, "flatten": False},
        [(2, 2, 4), (3, 4)],
        True,
    ),
    (
        "Convolution",
        {"kernel": (3, 3), "pad": (1, 0), "num_filter": 4, "num_group": 2},
        [(2, 2, 5, 5), (4, 1, 3, 3), (4,)],
        True,
    ),
    (
        "Convolution",
        {"kernel": (2,), "num_filter": 2, "no_bias": True},
        [(2, 3, 5), (2, 3, 2)],
        True,
    ),
    (
        "Pooling",
        {"kernel": (2, 2), "stride": (2, 2), "pooling_convention": "full"},
        [(2, 2, 5, 5)],
        True,
    ),
    ("Pooling", {"kernel": (3,), "pad": (1,), "pool_type": "avg"}, [(2, 2, 6)], True),
    ("Pooling", {"pool_type": "sum", "global_pool": True}, [(2, 2, 3, 3)], True),
    ("BatchNorm", {"fix_gamma": False}, [(4, 3, 2), (3,), (3,)], True),
    ("BatchNorm", {"fix_gamma": True}, [(4, 3, 2), (3,), (3,)], True),
    ("BatchNorm", {"fix_gamma": False, "use_global_stats": True}, [(4, 3), (3,), (3,)], True),
    ("BatchNorm", {"fix_gamma": False}, [(4, 3), (3,), (3,)], False),
    ("Activation", {"act_type": "tanh"}, [(3, 4)], True),
    ("Activation", {"act_type": "softrelu"}, [(3, 4)], True),
    ("LeakyReLU", {"act_type": "prelu"}, [(3, 4), (4,)], True),
    ("LeakyReLU", {"act_type": "prelu"}, [(3, 4), (3, 4)], True),
    ("LeakyReLU", {"act_type": "prelu"}, [(2, 3, 2), (2, 3)], True),
    ("LeakyReLU", {"act_type": "selu"}, [(3, 4)], True),
    ("LeakyReLU", {"act_type": "rrelu"}, [(3, 4)], True),
    ("LeakyReLU", {"act_type": "rrelu"}, [(3, 4)], False),
    ("Dropout", {"p": 0.4, "axes": (0,)}, [(3, 4)], True),
    ("Dropout", {"p": 0.4}, [(3, 4)], False),
    ("Embedding", {"input_dim": 4, "output_dim": 3}, [(2, 5), (4, 3)], True),
]


@pytest.mark.parametrize(
    "op_name, params, in_shapes, is_train",
    REQ_CASES,
    ids=[f"{c[0]}-{i}" for i, c in enumerate(REQ_CASES)],
)
def test_req_null_write_add(op_name, params, in_shapes, is_train):
    op = reseeded(make_op(op_name, **params))
    ins, aux = inputs(op, in_shapes)
    check_req(op, ins, aux, is_train=is_train)


# --- 4. values: FullyConnected and Convolution against loops ---------------------------------
def test_fully_connected_values():
    rng = np.random.default_rng(3)
    x, w, b = rng.standard_normal((2, 3, 4)), rng.standard_normal((5, 12)), rng.standard_normal(5)
    (out,) = run_forward(make_op("FullyConnected", num_hidden=5), [x, w, b])
    expected = [
        [sum(x.reshape(2, 12)[n, k] * w[h, k] for k in range(12)) + b[h] for h in range(5)]
        for n in range(2)
    ]
    np.testing.assert_allclose(out, expected, rtol=1e-12)
    w_last = rng.standard_normal((5, 4))
    (out,) = run_forward(make_op("FullyConnected", num_hidden=5, flatten=False), [x, w_last, b])
    np.testing.assert_allclose(out, np.einsum("ijk,hk->ijh", x, w_last) + b, rtol=1e-12)


def naive_convolution(x, w, b, stride, pad, dilate, groups):
    """Cross-correlation by the definition, one output element at a time."""
    n_batch, channels = x.shape[:2]
    filters, per_group, kernel = w.shape[0], w.shape[1], w.shape[2:]
    xp = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in pad])
    out_shape = [
        (xp.shape[2 + i] - dilate[i] * (k - 1) - 1) // stride[i] + 1 for i, k in enumerate(kernel)
    ]
    out = np.zeros((n_batch, filters, *out_shape))
    for n, f in itertools.product(range(n_batch), range(filters)):
        g = f // (filters // groups)
        for pos in itertools.product(*(range(o) for o in out_shape)):
            total = b[f]
            for c in range(per_group):
                for tap in itertools.product(*(range(k) for k in kernel)):
                    where = tuple(p * s + t * d for p, s, t, d in zip(pos, stride, tap, dilate))
                    total += xp[(n, g * per_group + c) + where] * w[(f, c) + tap]
            out[(n, f) + pos] = total
    return out


@pytest.mark.parametrize(
    "x_shape, w_shape, params",
    [
        ((2, 3, 9), (4, 3, 3), {"stride": (2,), "pad": (1,), "dilate": (2,)}),
        (
            (2, 4, 7, 6),
            (6, 2, 3, 2),
            {"stride": (2, 1), "pad": (1, 2), "dilate": (1, 2), "num_group": 2},
        ),
        ((1, 3, 5, 5), (3, 1, 3, 3), {"pad": (1, 1), "num_group": 3}),
    ],
)
def test_convolution_values_against_the_definition(x_shape, w_shape, params):
    rng = np.random.default_rng(4)
    x, w, b = (rng.standard_normal(s) for s in (x_shape, w_shape, w_shape[:1]))
    op = make_op("Convolution", kernel=w_shape[2:], num_filter=w_shape[0], **params)
    (out,) = run_forward(op, [x, w, b])
    nd = len(w_shape) - 2
    expected = naive_convolution(
        x,
        w,
        b,
        params.get("stride", (1,) * nd),
        params.get("pad", (0,) * nd),
        params.get("dilate", (1,) * nd),
        params.get("num_group", 1),
    )
    np.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-12)


def test_convolution_rejects_other_layouts_at_forward():
    op = make_op("Convolution", kernel=(3, 3), num_filter=2, layout="NHWC")
    with pytest.raises(MXNetError, match="layout='NHWC'.*NCHW"):
        run_forward(op, [np.ones((1, 4, 4, 2)), np.ones((2, 3, 3, 2)), np.ones(2)])  # NHWC


# --- 4. values: Pooling ----------------------------------------------------------------------
def naive_pool_2d(x, kernel, stride, pad, pool_type, out_shape, count_include_pad=True):
    """MXNet's pool_*_2d_cpu: windows clipped to the input; avg divisor clipped to x + pad."""
    out = np.zeros(x.shape[:2] + tuple(out_shape))
    height, width = x.shape[2:]
    for ph, pw in itertools.product(*(range(o) for o in out_shape)):
        h0, w0 = ph * stride[0] - pad[0], pw * stride[1] - pad[1]
        h1, w1 = min(h0 + kernel[0], height + pad[0]), min(w0 + kernel[1], width + pad[1])
        size = (h1 - h0) * (w1 - w0)
        h0, w0, h1, w1 = max(h0, 0), max(w0, 0), min(h1, height), min(w1, width)
        window = x[:, :, h0:h1, w0:w1]
        if pool_type == "max":
            out[:, :, ph, pw] = window.max(axis=(2, 3))
        else:
            divisor = 1 if pool_type == "sum" else size if count_include_pad else window[0, 0].size
            out[:, :, ph, pw] = window.sum(axis=(2, 3)) / divisor
    return out


@pytest.mark.parametrize(
    "pool_type, convention, count_include_pad",
    [
        ("max", "valid", None),
        ("max", "full", None),
        ("sum", "full", None),
        ("avg", "valid", None),
        ("avg", "full", True),
        ("avg", "full", False),
        ("avg", "valid", False),
    ],
)
def test_pooling_values_against_mxnets_loops(pool_type, convention, count_include_pad):
    x = np.random.default_rng(5).standard_normal((2, 2, 7, 6))
    params = {
        "kernel": (3, 2),
        "stride": (2, 3),
        "pad": (1, 1),
        "pool_type": pool_type,
        "pooling_convention": convention,
    }
    if count_include_pad is not None:
        params["count_include_pad"] = count_include_pad
    op = make_op("Pooling", **params)
    (out,) = run_forward(op, [x])
    expected = naive_pool_2d(
        x, (3, 2), (2, 3), (1, 1), pool_type, out.shape[2:], count_include_pad is not False
    )
    np.testing.assert_allclose(out, expected, rtol=1e-12)


def test_pooling_examples_observed_in_mxnet():
    x = np.arange(16.0).reshape(1, 1, 4, 4) + 1
    full_avg = make_op(
        "Pooling", kernel=(3, 3), stride=(2, 2), pool_type="avg", pooling_convention="full"
    )
    np.testing.assert_allclose(run_forward(full_avg, [x])[0][0, 0], [[6, 7.5], [12, 13.5]])
    # padding counts as -inf for max: an all-negative input with pad=1 gives -1, not 0
    negative = -np.ones((1, 1, 3, 3))
    padded_max = make_op("Pooling", kernel=(3, 3), pad=(1, 1))
    np.testing.assert_allclose(run_forward(padded_max, [negative])[0], -np.ones((1, 1, 3, 3)))
    # ties: the gradient goes to the first max in the window only
    tie = make_op("Pooling", kernel=(2, 2), stride=(2, 2))
    ones = np.ones((1, 1, 2, 2))
    (grad,) = run_backward(tie, [ones], run_forward(tie, [ones]), [np.ones((1, 1, 1, 1))])
    np.testing.assert_array_equal(grad.ravel(), [1, 0, 0, 0])


def test_max_pool_backward_with_overlapping_windows_and_ties():
    x = np.array([[[[1.0, 3, 3], [3, 2, 0], [1, 3, 1]]]])
    op = make_op("Pooling", kernel=(2, 2), stride=(1, 1))
    out = run_forward(op, [x])
    np.testing.assert_array_equal(out[0][0, 0], [[3, 3], [3, 3]])
    (grad,) = run_backward(op, [x], out, [np.array([[[[1.0, 10], [100, 1000]]]])])
    # window (0,0) -> x[0,1]; (0,1) -> x[0,1]; (1,0) -> x[1,0]; (1,1) -> x[2,1]
    np.testing.assert_array_equal(grad[0, 0], [[0, 11, 0], [100, 0, 0], [0, 1000, 0]])


def test_global_pooling_ignores_kernel_stride_and_pad():
    x = np.random.default_rng(6).standard_normal((2, 3, 4, 5))
    for pool_type, reduce in (("max", np.max), ("avg", np.mean), ("sum", np.sum)):
        op = make_op(
            "Pooling",
            kernel=(2, 2),
            stride=(2, 2),
            pad=(1, 1),
            pool_type=pool_type,
            global_pool=True,
        )
        (out,) = run_forward(op, [x])
        np.testing.assert_allclose(out, reduce(x, axis=(2, 3), keepdims=True), rtol=1e-12)


def test_same_pooling_gives_ceil_in_over_stride_windows_clipped_at_the_end():
    """MXNet 1.9.1's values for 1-D 'same' (its oneDNN build refuses max; avg, sum agree)."""
    x = (np.arange(22).reshape(1, 2, 11) % 7).astype(np.float64)
    for pool_type, expected in (
        ("avg", [1.5, 4.5, 2.25, 2.5]),
        ("sum", [6, 18, 9, 5]),
        ("max", [3, 6, 6, 3]),
    ):
        op = make_op(
            "Pooling", kernel=(4,), stride=(3,), pool_type=pool_type, pooling_convention="same"
        )
        (out,) = run_forward(op, [x])
        assert out.shape == (1, 2, 4)
        np.testing.assert_allclose(out[0, 0], expected)


def test_pooling_refuses_what_it_cannot_compute():
    x = np.ones((1, 1, 4))
    with pytest.raises(NotImplementedError, match="lp"):
        run_forward(make_op("Pooling", kernel=(2,), pool_type="lp", p_value=2), [x])
    with pytest.raises(MXNetError, match="1-D data"):
        run_forward(
            make_op("Pooling", kernel=(2, 2), pooling_convention="same"), [np.ones((1, 1, 4, 4))]
        )
    with pytest.raises(MXNetError, match="pad must be 0"):
        run_forward(make_op("Pooling", kernel=(2,), pad=(1,), pooling_convention="same"), [x])
    with pytest.raises(MXNetError, match="layout"):
        run_forward(make_op("Pooling", kernel=(2,), layout="NWC"), [np.ones((1, 4, 1))])


# --- 4. values: BatchNorm (numbers printed by MXNet 1.9.1) -----------------------------------
BN_X = np.array([[1.0, 2, 3], [4, 0, -1], [2, 5, 7], [0, 1, 1]])
BN_HEAD = np.arange(12.0).reshape(4, 3) * 0.1 - 0.3


def bn_run(fix_gamma, is_train=True, req="write", **params):
    op = make_op("BatchNorm", fix_gamma=fix_gamma, momentum=0.8, **params)
    ins = [BN_X.copy(), np.array([2.0, 3, 0.5]), np.array([0.1, 0.2, 0.3])]
    aux = [np.full(3, 0.5), np.full(3, 2.0)]
    outs = run_forward(op, ins, aux, is_train=is_train, req=req)
    grads = run_backward(op, ins, outs, [BN_HEAD, np.ones(3), np.ones(3)], aux)
    return ins, aux, outs, grads


def test_batchnorm_training_values_observed_in_mxnet():
    ins, aux, (out, mean, invstd), (dx, dgamma, dbeta) = bn_run(fix_gamma=False)
    np.testing.assert_allclose(out[0], [-0.913953, 0.2, 0.384511], rtol=1e-5)
    np.testing.assert_allclose(mean, [1.75, 2, 2.5])
    np.testing.assert_allclose(invstd, 1 / np.sqrt(BN_X.var(axis=0) + 1e-3))  # biased var
    np.testing.assert_allclose(invstd, [0.675969, 0.534446, 0.338042], rtol=1e-5)
    np.testing.assert_allclose(dx[0], [-0.695243, -0.721502, -0.076784], rtol=1e-5)
    np.testing.assert_allclose(dgamma, [-0.506977, 0.160334, 0.101413], rtol=1e-5)
    np.testing.assert_allclose(dbeta, [0.6, 1, 1.4], rtol=1e-12)
    # the moving stats move in backward, with the biased batch variance
    np.testing.assert_allclose(aux[0], [0.75, 0.8, 0.9], rtol=1e-12)
    np.testing.assert_allclose(aux[1], [2.0375, 2.3, 3.35], rtol=1e-12)


def test_batchnorm_fix_gamma_overwrites_gamma_and_zeroes_its_gradient():
    ins, _, (out, _, _), (dx, dgamma, _) = bn_run(fix_gamma=True)
    np.testing.assert_array_equal(ins[1], [1, 1, 1])
    np.testing.assert_allclose(out[0], [-0.406977, 0.2, 0.469021], rtol=1e-5)
    np.testing.assert_allclose(dx[0], [-0.347621, -0.240501, -0.153568], rtol=1e-5)
    np.testing.assert_array_equal(dgamma, [0, 0, 0])
    # MXNet keys the overwrite on the forward req of output 1 (the mean), not on gamma
    op = make_op("BatchNorm", fix_gamma=True)
    gamma = np.array([2.0, 3, 0.5])
    run_forward(op, [BN_X, gamma, np.zeros(3)], [np.zeros(3), np.ones(3)], req="null")
    np.testing.assert_array_equal(gamma, [2, 3, 0.5])


def test_batchnorm_forward_leaves_the_moving_stats_alone():
    op = make_op("BatchNorm", fix_gamma=False)
    aux = [np.zeros(3), np.ones(3)]
    run_forward(op, [BN_X, np.ones(3), np.zeros(3)], aux, is_train=True)
    np.testing.assert_array_equal(aux[0], 0)
    np.testing.assert_array_equal(aux[1], 1)


def test_batchnorm_test_mode_values_observed_in_mxnet():
    """Test mode normalises with the moving stats; MXNet's backward after it still uses the
    training formula (with those stats), which is not the derivative of the test forward."""
    op = make_op("BatchNorm", fix_gamma=False, momentum=0.9)
    ins = [np.array([[1.0, 2], [4, 0], [2, 5]]), np.array([2, 0.5]), np.array([0.1, -0.2])]
    aux = [np.array([1.0, -1]), np.array([4.0, 0.25])]
    outs = run_forward(op, ins, aux, is_train=False)
    np.testing.assert_allclose(
        outs[0], [[0.1, 2.79401794], [3.09962507, 0.79800598], [1.09987502, 5.78803588]], rtol=1e-8
    )
    np.testing.assert_allclose(outs[1], aux[0])
    np.testing.assert_allclose(outs[2], 1 / np.sqrt(aux[1] + 1e-3))
    head = np.array([[1.0, 0], [0, 1], [2, -1]])
    dx, dgamma, dbeta = run_backward(op, ins, outs, [head, 0 * outs[1], 0 * outs[2]], aux)
    np.testing.assert_allclose(
        dx,
        [[0, 19.88059721], [-1.49968758, 7.62487172], [0.83327084, 38.76318843]],
        rtol=1e-8,
        atol=1e-12,
    )
    np.testing.assert_allclose(dgamma, [0.99987502, -9.9800598], rtol=1e-8)
    np.testing.assert_allclose(dbeta, [3, 0])
    np.testing.assert_allclose(aux[0], [1, -1])  # the update is a no-op with the moving stats
    np.testing.assert_allclose(aux[1], [4, 0.25])


def test_batchnorm_use_global_stats_never_updates_and_blocks_mean_var_gradients():
    ins, aux, outs, grads = bn_run(fix_gamma=False, use_global_stats=True)
    np.testing.assert_array_equal(aux[0], 0.5)
    np.testing.assert_array_equal(aux[1], 2.0)
    np.testing.assert_allclose(grads[0], BN_HEAD * np.array([2, 3, 0.5]) / np.sqrt(2.001))
    # output_mean_var: head gradients of mean and inverse std are ignored
    plain = bn_run(fix_gamma=False)[3]
    with_stats = bn_run(fix_gamma=False, output_mean_var=True)[3]
    for a, b in zip(plain, with_stats):
        np.testing.assert_array_equal(a, b)


# --- 4. values: activations --------------------------------------------------------------------
X6 = np.array([-2.0, -0.5, 0, 0.5, 2, -1e-3])


@pytest.mark.parametrize(
    "act_type, formula",
    [
        ("relu", lambda x: max(x, 0.0)),
        ("sigmoid", lambda x: 1 / (1 + np.exp(-x))),
        ("tanh", np.tanh),
        ("softrelu", lambda x: np.log(1 + np.exp(x))),
        ("softsign", lambda x: x / (1 + abs(x))),
    ],
)
def test_activation_values(act_type, formula):
    x = np.linspace(-4, 4, 17)
    (out,) = run_forward(make_op("Activation", act_type=act_type), [x])
    np.testing.assert_allclose(out, [formula(v) for v in x], rtol=1e-12, atol=1e-15)


def test_activation_values_observed_in_mxnet():
    act = lambda t, x: run_forward(make_op("Activation", act_type=t), [np.array(x)])[0]
    np.testing.assert_allclose(act("softrelu", [0.0, 30.0]), [0.693147, 30], rtol=1e-6)
    np.testing.assert_allclose(act("softsign", [2.0]), [0.666667], rtol=1e-6)
    relu = make_op("Activation", act_type="relu")
    x = np.array([-1.0, 0, 1])
    (grad,) = run_backward(relu, [x], run_forward(relu, [x]), [np.ones(3)])
    np.testing.assert_array_equal(grad, [0, 0, 1])  # no gradient at 0


# LeakyReLU forward / backward (ones head) on X6, as printed by MXNet 1.9.1 (float32)
LEAKY_OBSERVED = [
    (
        {"act_type": "leaky", "slope": 0.1},
        [-0.2, -0.05, 0, 0.5, 2, -0.0001],
        [0.1, 0.1, 0.1, 1, 1, 0.1],
    ),
    (
        {"act_type": "elu", "slope": 0.7},
        [-0.605265, -0.275429, 0, 0.5, 2, -0.0007],
        [0.094735, 0.424571, 0.7, 1, 1, 0.6993],
    ),
    (
        {"act_type": "selu"},
        [-1.520167, -0.691758, 0, 0.525351, 2.101402, -0.001757],
        [0.160859, 1.031268, 1.758099, 1.050701, 1.050701, 1.756253],
    ),
    (
        {"act_type": "gelu"},
        [-0.0455, -0.154269, 0, 0.345731, 1.9545, -0.0005],
        [-0.085232, 0.132505, 0.5, 0.867495, 1.085232, 0.499202],
    ),
]


@pytest.mark.parametrize(
    "params, out_expected, grad_expected",
    LEAKY_OBSERVED,
    ids=[c[0]["act_type"] for c in LEAKY_OBSERVED],
)
def test_leaky_relu_values_observed_in_mxnet(params, out_expected, grad_expected):
    op = make_op("LeakyReLU", **params)
    outs = run_forward(op, [X6])
    (grad,) = run_backward(op, [X6], outs, [np.ones(6)])
    np.testing.assert_allclose(outs[0], out_expected, rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(grad, grad_expected, rtol=2e-5, atol=1e-6)


def test_selu_gradient_is_mxnets_not_the_derivative():
    """MXNet's selu backward uses lambda * (y + alpha) for y <= 0; the true derivative is
    y + lambda * alpha. minisym keeps MXNet's numbers."""
    x = np.array([-2.0, -0.5])
    op = make_op("LeakyReLU", act_type="selu")
    outs = run_forward(op, [x])
    (grad,) = run_backward(op, [x], outs, [np.ones(2)])
    lam, alpha = 1.0507009873554805, 1.6732632423543772
    np.testing.assert_allclose(grad, lam * (outs[0] + alpha))
    assert np.all(np.abs(grad - lam * alpha * np.exp(x)) > 0.03)


def test_prelu_values_observed_in_mxnet():
    x = np.array([[1.764052, 0.400157, 0.978738], [2.240893, 1.867558, -0.977278]])
    gamma = np.array([0.2, 0.3, 0.4])
    head = np.array([[0.950088, -0.151357, -0.103219], [0.410599, 0.144044, 1.454274]])
    op = make_op("LeakyReLU", act_type="prelu")
    outs = run_forward(op, [x, gamma])
    np.testing.assert_allclose(outs[0][1, 2], -0.390911, rtol=1e-5)
    dx, dgamma = run_backward(op, [x, gamma], outs, [head])
    np.testing.assert_allclose(dgamma, [0, 0, -1.421229], rtol=1e-5)
    np.testing.assert_allclose(dx[1, 2], 0.581709, rtol=1e-5)
    # one shared slope
    outs = run_forward(op, [x, np.array([0.5])])
    np.testing.assert_allclose(outs[0], np.where(x > 0, x, 0.5 * x))
    _, dgamma = run_backward(op, [x, np.array([0.5])], outs, [head])
    np.testing.assert_allclose(dgamma, [-0.977278 * 1.454274], rtol=1e-6)


def test_rrelu_slopes_in_training_and_their_mean_at_test():
    op = make_op("LeakyReLU", act_type="rrelu", lower_bound=0.1, upper_bound=0.3)
    x = -np.ones((50, 40))
    seed(1)
    out, mask = run_forward(op, [x], is_train=True)
    assert 0.1 <= mask.min() < 0.11 and 0.29 < mask.max() <= 0.3
    np.testing.assert_allclose(out, -mask)
    (grad,) = run_backward(op, [x], [out, mask], [np.ones_like(x), np.zeros_like(x)])
    np.testing.assert_array_equal(grad, mask)
    out, mask = run_forward(op, [np.array([-2.0, 3.0])], is_train=False)
    np.testing.assert_allclose(out, [-0.4, 3])
    np.testing.assert_allclose(mask, [0.2, 0.2])


# --- 4. values: Dropout --------------------------------------------------------------------------
def test_dropout_training_keeps_and_scales():
    op = make_op("Dropout", p=0.25)
    x = np.ones((200, 100))
    seed(0)
    out, mask = run_forward(op, [x], is_train=True)
    assert set(np.unique(out)) == {0, 1 / 0.75}
    assert abs((out == 0).mean() - 0.25) < 0.02
    np.testing.assert_array_equal(out, x * mask)
    head = np.random.default_rng(0).standard_normal(x.shape)
    (grad,) = run_backward(op, [x], [out, mask], [head, np.zeros_like(mask)])
    np.testing.assert_array_equal(grad, head * mask)


def test_dropout_axes_share_the_mask():
    op = make_op("Dropout", p=0.5, axes=(1,))
    seed(3)
    out, mask = run_forward(op, [np.ones((20, 3, 10))], is_train=True)
    assert mask.shape == (20, 1, 10)
    np.testing.assert_array_equal(out, np.broadcast_to(mask, out.shape))
    assert 0 < (mask == 0).mean() < 1


@pytest.mark.parametrize(
    "params, is_train, identity",
    [
        ({"p": 0.5}, False, True),
        ({"p": 0.0}, True, True),
        ({"p": 0.5, "mode": "always"}, False, False),
    ],
)
def test_dropout_when_it_is_off(params, is_train, identity):
    x = np.arange(1.0, 41).reshape(4, 10)
    seed(2)
    out, mask = run_forward(make_op("Dropout", **params), [x], is_train=is_train)
    assert np.array_equal(out, x) == identity
    (grad,) = run_backward(
        make_op("Dropout", **params), [x], [out, mask], [np.full_like(x, 3), np.zeros_like(x)]
    )
    np.testing.assert_array_equal(grad, 3 * mask)


def test_dropout_p_one_gives_nan_like_mxnet():
    out, _ = run_forward(make_op("Dropout", p=1.0), [np.ones((2, 3))], is_train=True)
    assert np.isnan(out).all()


# --- 4. values: Embedding --------------------------------------------------------------------
def test_embedding_truncates_and_clips_ids_like_mxnet():
    weight = np.arange(15.0).reshape(5, 3)
    ids = np.array([[-1, -0.6, 0.7], [1.9, 4.5, 7]])
    op = make_op("Embedding", input_dim=5, output_dim=3)
    (out,) = run_forward(op, [ids, weight])
    np.testing.assert_array_equal(out, weight[[[0, 0, 0], [1, 4, 4]]])


def test_embedding_backward_adds_rows_of_repeated_ids():
    op = make_op("Embedding", input_dim=4, output_dim=2)
    ids = np.array([[1.0, 3, 1], [1, 0, 3]])
    head = np.arange(12.0).reshape(2, 3, 2)
    weight = np.zeros((4, 2))
    dids, dweight = run_backward(op, [ids, weight], run_forward(op, [ids, weight]), [head])
    expected = np.zeros((4, 2))
    for index, row in zip(ids.ravel().astype(int), head.reshape(-1, 2)):
        expected[index] += row
    np.testing.assert_array_equal(dweight, expected)
    np.testing.assert_array_equal(dids, 0)


# --- 5. float32 stays float32 ------------------------------------------------------------------
FLOAT32_CASES = [c for c in GRAD_CASES if c[0] != "Embedding"] + [
    ("Embedding", {"input_dim": 5, "output_dim": 3, "dtype": "float32"}, [(2, 6), (5, 3)], {}),
    ("LeakyReLU", {"act_type": "selu"}, [(3, 4)], {}),
]


@pytest.mark.parametrize(
    "op_name, params, in_shapes, options",
    FLOAT32_CASES,
    ids=[f"{c[0]}-{i}" for i, c in enumerate(FLOAT32_CASES)],
)
def test_float32_in_float32_out_close_to_float64(op_name, params, in_shapes, options):
    op = make_op(op_name, **params)
    is_train = options.get("is_train", True)
    results = {}
    for dtype in (np.float64, np.float32):
        ins, aux = inputs(op, in_shapes, dtype)
        outs = [np.zeros(s, dtype) for s in output_shapes(op, in_shapes)[0]]
        op.forward(is_train, ["write"] * len(outs), ins, outs, aux)
        heads = [np.ones_like(o) for o in outs]
        grads = [np.zeros_like(x) for x in ins]
        reqs = ["null" if n in op.no_gradient_inputs else "write" for n in op.list_arguments()]
        op.backward(reqs, heads, ins, outs, grads, aux)
        results[dtype] = outs + grads
    for r64, r32 in zip(results[np.float64], results[np.float32]):
        assert r32.dtype == np.float32
        np.testing.assert_allclose(r32, r64, rtol=2e-4, atol=2e-5)


# --- what this file covers, per operator (read by test_ops_coverage.py) ------------------------
SHAPE_TESTED = frozenset(c[0] for c in SHAPE_CASES)
GRADIENT_TESTED = frozenset(c[0] for c in GRAD_CASES + RANDOM_GRAD_CASES)
REQ_TESTED = frozenset(c[0] for c in REQ_CASES)
