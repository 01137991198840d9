"""Forward/backward of the loss heads, gradient control and softmax family
(minisym/ops/softmax_output.py, regression_output.py, make_loss.py, svm_output.py,
loss_binary_op.py, loss_common.py; ops/nn/softmax.py, log_softmax.py, softmin.py,
softmax_activation.py; make_loss and BlockGrad in ops/tensor/elemwise_unary_op_basic.py).

Loss heads ignore the head gradient, so their gradients are checked against the formula (and,
where a loss function exists, against finite differences of that loss). Numbers marked
"MXNet 1.9.1" were recorded by running the real MXNet on the same inputs.
"""

import math

import numpy as np
import pytest

import minisym as mx
from opcheck import (
    check_backward_dependency,
    check_gradients,
    check_req,
    make_op,
    output_shapes,
    run_backward,
    run_forward,
)

REGRESSIONS = ["LinearRegressionOutput", "LogisticRegressionOutput", "MAERegressionOutput"]


# --- independent references (Python scalar maths, one row at a time) -------------------------
def _softmax_row(row):
    """softmax of a list of floats, with Python's math module."""
    top = max(row)
    e = [math.exp(v - top) for v in row]
    return [v / sum(e) for v in e]


def _softmax_along(x, axis):
    """softmax along ``axis`` built from _softmax_row."""
    return np.apply_along_axis(lambda r: np.array(_softmax_row(list(r))), axis, x)


def _numeric_grad(loss, x, eps=1e-6):
    """d loss(x) / dx by central differences (float64)."""
    x = np.array(x, np.float64)
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        saved = x[i]
        x[i] = saved + eps
        plus = loss(x)
        x[i] = saved - eps
        minus = loss(x)
        x[i] = saved
        grad[i] = (plus - minus) / (2 * eps)
    return grad


def _loss_grads(op, ins, seed=5):
    """Forward, then backward with a random head gradient (a loss head must ignore it)."""
    outs = run_forward(op, ins)
    head = np.random.default_rng(seed).standard_normal(outs[0].shape).astype(outs[0].dtype)
    return outs, run_backward(op, ins, outs, [head])


def _rand(shape, seed=0, dtype=np.float64):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _labels(shape, classes, seed=1, low=0):
    return np.random.default_rng(seed).integers(low, classes, shape).astype(np.float64)


# --- SoftmaxOutput: reference gradient written as explicit loops ------------------------------
def _smo_reference(
    x,
    label,
    grad_scale=1.0,
    ignore_label=-1.0,
    use_ignore=False,
    multi_output=False,
    preserve_shape=False,
    normalization="null",
    smooth_alpha=0.0,
    out_grad=False,
):
    """MXNet's SoftmaxOutput gradient, one (row, position) at a time."""
    if multi_output:
        n, c = x.shape[:2]
        view = x.reshape(n, c, -1)
        lab = label.reshape(n, -1)
        smooth = 0.0
    else:
        view = x.reshape(-1, x.shape[-1]) if preserve_shape else x.reshape(x.shape[0], -1)
        view = view[:, :, None]
        lab = label.reshape(-1)[: view.shape[0], None]
        smooth = smooth_alpha
    rows, classes, spatial = view.shape
    prob = np.zeros_like(view)
    grad = np.zeros_like(view)
    for i in range(rows):
        for s in range(spatial):
            p = _softmax_row(list(view[i, :, s]))
            k = int(lab[i, s])  # C's cast truncates toward zero, as int() does
            for j in range(classes):
                target = (1 - smooth if j == k else smooth / (classes - 1)) if smooth else j == k
                ignored = use_ignore and k == int(ignore_label)
                prob[i, j, s] = p[j]
                grad[i, j, s] = 0.0 if ignored else p[j] - target
    valid = max(1, sum(int(v) != int(ignore_label) for v in label.reshape(-1)))
    if multi_output:
        divisor = {"null": spatial, "batch": spatial * rows, "valid": valid}[normalization]
    else:
        divisor = {"null": 1, "batch": label.size, "valid": valid}[normalization]
    grad = grad * grad_scale / divisor
    if out_grad:
        grad = grad * prob
    return grad.reshape(x.shape)


SMO_CASES = [  # (data shape, label shape, label low, params)
    ((4, 5), (4,), 0, {}),
    ((4, 5), (4,), 0, dict(grad_scale=2.5)),
    ((4, 5), (4,), 0, dict(normalization="batch")),
    ((4, 5), (4,), -1, dict(normalization="valid")),
    ((4, 5), (4,), -1, dict(use_ignore=True, normalization="valid")),
    ((4, 5), (4,), 0, dict(use_ignore=True, ignore_label=2, normalization="batch")),
    ((4, 5), (4,), -1, dict(smooth_alpha=0.3)),
    ((4, 5), (4,), 0, dict(smooth_alpha=0.2, use_ignore=True, ignore_label=1, grad_scale=3)),
    ((4, 5), (4,), 0, dict(out_grad=True)),
    ((2, 3, 5), (2, 5), -1, dict(multi_output=True)),
    ((2, 3, 5), (2, 5), -1, dict(multi_output=True, normalization="batch")),
    ((2, 3, 5), (2, 5), -1, dict(multi_output=True, normalization="valid", use_ignore=True)),
    ((2, 3, 5), (2, 1, 5), 0, dict(multi_output=True, smooth_alpha=0.3, grad_scale=2)),
    ((2, 4, 2, 3), (2, 6), 0, dict(multi_output=True, out_grad=True, normalization="batch")),
    ((2, 4, 2, 3), (2, 2, 3), 0, dict(multi_output=True, use_ignore=True, ignore_label=0)),
    ((2, 3, 4), (2, 3), -1, dict(preserve_shape=True, normalization="valid")),
    ((2, 3, 4), (2, 3), 0, dict(preserve_shape=True, normalization="batch", smooth_alpha=0.1)),
    ((2, 3, 4), (2, 3), 0, {}),
    ((2, 3, 4), (2, 3), 0, dict(normalization="batch", use_ignore=True, ignore_label=3)),
]


@pytest.mark.parametrize("dshape,lshape,low,params", SMO_CASES)
def test_softmax_output_gradient_formula(dshape, lshape, low, params):
    op = make_op("SoftmaxOutput", **params)
    x = _rand(dshape, 3)
    classes = dshape[-1] if params.get("preserve_shape") or len(dshape) == 2 else dshape[1]
    label = _labels(lshape, classes, seed=4, low=low)
    outs, grads = _loss_grads(op, [x, label])
    assert outs[0].shape == output_shapes(op, [dshape, lshape])[0][0]
    np.testing.assert_allclose(grads[0], _smo_reference(x, label, **params), rtol=1e-6, atol=1e-12)
    assert np.all(grads[1] == 0)


@pytest.mark.parametrize(
    "dshape,params,axis",
    [
        ((4, 5), {}, 1),
        ((2, 3, 5), dict(multi_output=True), 1),
        ((2, 3, 2, 2), dict(multi_output=True), 1),
        ((2, 3, 4), dict(preserve_shape=True), -1),
    ],
)
@pytest.mark.parametrize("is_train", [True, False])
def test_softmax_output_forward(dshape, params, axis, is_train):
    op = make_op("SoftmaxOutput", **params)
    x = _rand(dshape, 2) * 4
    label = np.zeros(op.infer_shape([dshape, None], [None])[0][1])
    (out,) = run_forward(op, [x, label], is_train=is_train)
    np.testing.assert_allclose(out, _softmax_along(x, axis), rtol=1e-12)


def test_softmax_output_forward_flattens_rest_by_default():
    # MXNet 1.9.1: without multi_output/preserve_shape, (N, d1, d2) is one softmax over d1*d2.
    op = make_op("SoftmaxOutput")
    x = _rand((2, 3, 4), 6)
    (out,) = run_forward(op, [x, np.zeros((2, 3))])
    np.testing.assert_allclose(out.reshape(2, 12), _softmax_along(x.reshape(2, 12), 1))
    np.testing.assert_allclose(out.sum(axis=(1, 2)), [1.0, 1.0])


def test_softmax_output_is_the_cross_entropy_gradient():
    x, label = _rand((3, 4), 7), np.array([3.0, 0.0, 2.0])

    def cross_entropy(v):
        return -sum(math.log(_softmax_row(list(v[i]))[int(label[i])]) for i in range(3))

    _, grads = _loss_grads(make_op("SoftmaxOutput"), [x, label])
    np.testing.assert_allclose(grads[0], _numeric_grad(cross_entropy, x), rtol=1e-6, atol=1e-8)
    # 'batch' is the mean cross entropy
    _, grads = _loss_grads(make_op("SoftmaxOutput", normalization="batch"), [x, label])
    np.testing.assert_allclose(grads[0], _numeric_grad(cross_entropy, x) / 3, rtol=1e-6, atol=1e-8)


def test_softmax_output_probability_label():
    x = _rand((3, 4), 8)
    p = _softmax_along(_rand((3, 4), 9), 1)
    for params, factor in (
        ({}, 1.0),
        (dict(grad_scale=3, normalization="batch"), 3.0),
        (dict(use_ignore=True, normalization="valid", smooth_alpha=0.2), 1.0),
    ):
        op = make_op("SoftmaxOutput", **params)
        outs, grads = _loss_grads(op, [x, p])
        np.testing.assert_allclose(grads[0], factor * (outs[0] - p), rtol=1e-7)
        assert np.all(grads[1] == 0)
    # 3-D data with a same-shaped label: still softmax - label, elementwise
    x3, p3 = _rand((2, 3, 4), 10), _softmax_along(_rand((2, 3, 4), 11), 1)
    outs, grads = _loss_grads(make_op("SoftmaxOutput", multi_output=True), [x3, p3])
    np.testing.assert_allclose(grads[0], outs[0] - p3, rtol=1e-7)


def test_softmax_output_mxnet_values():
    x = np.array([[1.0, 2, 3], [0.5, -1, 2]])
    label = np.array([2.0, 0])
    cases = {  # MXNet 1.9.1
        (): [[0.090031, 0.244728, -0.334759], [-0.82471, 0.039113, 0.785597]],
        (("smooth_alpha", 0.3),): [
            [-0.059969, 0.094728, -0.034759],
            [-0.52471, -0.110887, 0.635597],
        ],
        # out_grad=True multiplies by the softmax output itself, whatever the head gradient
        (("out_grad", True),): [[0.008106, 0.059892, -0.222695], [-0.144564, 0.00153, 0.617163]],
        (("use_ignore", True), ("ignore_label", 0)): [[0.090031, 0.244728, -0.334759], [0, 0, 0]],
    }
    for params, expected in cases.items():
        outs, grads = _loss_grads(make_op("SoftmaxOutput", **dict(params)), [x, label])
        np.testing.assert_allclose(
            outs[0], [[0.090031, 0.244728, 0.665241], [0.17529, 0.039113, 0.785597]], atol=2e-6
        )
        np.testing.assert_allclose(grads[0], expected, atol=2e-6, err_msg=str(params))


def test_softmax_output_mxnet_quirks():
    # MXNet 1.9.1: labels are truncated to ints (2.7 -> 2, -0.5 -> 0, ignore_label -0.9 -> 0).
    x = np.sin(np.arange(6.0)).reshape(2, 3)
    op = make_op("SoftmaxOutput", use_ignore=True, ignore_label=-0.9, normalization="valid")
    _, grads = _loss_grads(op, [x, np.array([2.7, -0.5])])
    np.testing.assert_allclose(
        grads[0], [[0.17234383, 0.39979922, -0.57214305], [0, 0, 0]], atol=1e-7
    )
    # MXNet 1.9.1: grad_scale and smooth_alpha / (C - 1) are float32 numbers.
    op = make_op("SoftmaxOutput", smooth_alpha=0.2, grad_scale=0.1)
    _, grads = _loss_grads(op, [x, np.array([1.0, 2.0])])
    np.testing.assert_allclose(
        grads[0],
        [[0.00723438, -0.04002008, 0.03278570], [0.04746230, 0.01341101, -0.06087331]],
        atol=1e-8,
    )
    # MXNet 1.9.1: >=3-D default view (N, rest): row i reads label.flat[i]; 'batch' divides by
    # label.size (4 here), not N.
    x3 = np.sin(np.arange(12.0)).reshape(2, 2, 3)
    _, grads = _loss_grads(
        make_op("SoftmaxOutput", normalization="batch"), [x3, np.array([[1.0, 2], [0, 1]])]
    )
    np.testing.assert_allclose(
        grads[0],
        [
            [[0.03202506, -0.17570901, 0.07950470], [0.03687887, 0.01502501, 0.01227537]],
            [[0.02413586, 0.06156544, -0.16416110], [0.04819390, 0.01852448, 0.01174143]],
        ],
        atol=1e-8,
    )
    # MXNet 1.9.1: multi_output 'null' divides by the spatial size (2); smooth_alpha is ignored;
    # a label of -1 without use_ignore has no one-hot entry.
    xm = np.sin(np.arange(12.0)).reshape(2, 3, 2)
    expected = [
        [[0.12652648, 0.30090670], [-0.18588818, 0.14937341], [0.05936169, -0.45028011]],
        [[-0.40608560, 0.25335410], [0.33400550, 0.19832756], [0.07208011, 0.04831834]],
    ]
    for params in ({}, dict(smooth_alpha=0.3)):
        _, grads = _loss_grads(
            make_op("SoftmaxOutput", multi_output=True, **params),
            [xm, np.array([[1.0, 2], [0, -1]])],
        )
        np.testing.assert_allclose(grads[0], expected, atol=1e-8)


def _f32_factor(scale, divisors):
    """scale / d1 / d2 ... with every step rounded to float32."""
    value = np.float32(scale)
    for d in divisors:
        value = np.float32(value / np.float32(d))
    return float(value)


@pytest.mark.parametrize(
    "name,params,shapes,divisors",
    [
        (
            "SoftmaxOutput",
            dict(multi_output=True, normalization="batch"),
            [(2, 3, 5), (2, 5)],
            (5, 2),
        ),
        ("SoftmaxOutput", dict(normalization="valid"), [(3, 4), (3,)], (3,)),
        ("LinearRegressionOutput", {}, [(3, 7), (3, 7)], (7,)),
        ("MakeLoss", dict(normalization="batch"), [(3, 7)], (3,)),
    ],
)
def test_grad_scale_is_a_float32_factor(name, params, shapes, divisors):
    # MXNet 1.9.1 (float64 data): the factor grad_scale / divisors is formed in float32; its
    # float64 results differ from exact division in the 8th-9th digit.
    ins = [_rand(shapes[0], 14)] + [_labels(s, 3) for s in shapes[1:]]
    _, base = _loss_grads(make_op(name, **params), ins)
    _, scaled = _loss_grads(make_op(name, grad_scale=0.1, **params), ins)
    raw = base[0] / _f32_factor(1.0, divisors)
    np.testing.assert_allclose(scaled[0], raw * _f32_factor(0.1, divisors), rtol=1e-15)
    assert not np.allclose(scaled[0], raw * (0.1 / math.prod(divisors)), rtol=1e-10, atol=0)


def test_softmax_output_ignores_head_gradient():
    op = make_op("SoftmaxOutput", out_grad=True, multi_output=True)
    x, label = _rand((2, 3, 4), 12), _labels((2, 4), 3)
    outs = run_forward(op, [x, label])
    a = run_backward(op, [x, label], outs, [np.zeros_like(outs[0])])
    b = run_backward(op, [x, label], outs, [_rand((2, 3, 4), 13)])
    np.testing.assert_array_equal(a[0], b[0])


# --- regression heads -------------------------------------------------------------------------
def _regression_loss(name, label, grad_scale, num_output):
    """The loss whose gradient each regression head writes."""

    def linear(x):
        return 0.5 * np.sum((x - label) ** 2) * grad_scale / num_output

    def logistic(x):
        p = 1 / (1 + np.exp(-x))
        return -np.sum(label * np.log(p) + (1 - label) * np.log(1 - p)) * grad_scale / num_output

    def mae(x):
        return np.sum(np.abs(x - label)) * grad_scale / num_output

    return {
        "LinearRegressionOutput": linear,
        "LogisticRegressionOutput": logistic,
        "MAERegressionOutput": mae,
    }[name]


@pytest.mark.parametrize("name", REGRESSIONS)
@pytest.mark.parametrize(
    "dshape,lshape,grad_scale",
    [((3, 2), (3, 2), 1.0), ((3, 2), (3, 2), 0.75), ((4, 1), (4,), 2.0), ((2, 2, 3), (2, 6), 1.5)],
)
def test_regression_gradient_is_loss_derivative(name, dshape, lshape, grad_scale):
    op = make_op(name, grad_scale=grad_scale)
    assert output_shapes(op, [dshape, lshape])[0] == [dshape]
    x = _rand(dshape, 20)
    label = _rand(lshape, 21)
    if name == "LogisticRegressionOutput":
        label = 1 / (1 + np.exp(-label))
    outs, grads = _loss_grads(op, [x, label])
    num_output = label.size // label.shape[0]
    loss = _regression_loss(name, label.reshape(dshape), grad_scale, num_output)
    np.testing.assert_allclose(grads[0], _numeric_grad(loss, x), rtol=1e-5, atol=1e-7)
    assert np.all(grads[1] == 0)


@pytest.mark.parametrize("name", REGRESSIONS)
@pytest.mark.parametrize("is_train", [True, False])
def test_regression_forward(name, is_train):
    x = np.array([[-1000.0, -2.0], [0.0, 3.0], [40.0, 1000.0]])
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        (out,) = run_forward(make_op(name), [x, np.zeros((3, 2))], is_train=is_train)
    if name == "LogisticRegressionOutput":
        expected = [[0.0, 1 / (1 + math.exp(2))], [0.5, 1 / (1 + math.exp(-3))], [1.0, 1.0]]
        np.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-300)
    else:
        np.testing.assert_array_equal(out, x)


def test_mae_sign_of_zero_is_minus_one():
    # MXNet 1.9.1: out == label gives -1 (times 1/num_output), not 0.
    x, label = np.array([[1.0, 2.0], [3.0, 3.0]]), np.array([[1.0, 1.0], [4.0, 3.0]])
    _, grads = _loss_grads(make_op("MAERegressionOutput"), [x, label])
    np.testing.assert_array_equal(grads[0], [[-0.5, 0.5], [-0.5, -0.5]])


# --- MakeLoss, make_loss, BlockGrad -----------------------------------------------------------
@pytest.mark.parametrize(
    "shape,params,expected",
    [
        ((2, 3), {}, 1.0),
        ((2, 3), dict(grad_scale=2.5), 2.5),
        ((2, 3), dict(normalization="batch"), 1 / 2),
        ((2, 3, 4), dict(normalization="batch", grad_scale=3), 3 / 6),  # rows of (2*3, 4)
        ((5,), dict(normalization="batch"), 1.0),  # (5,) is one row
        ((2, 3), dict(normalization="valid"), 1 / 2),  # two values > 0
        ((2, 3), dict(normalization="valid", valid_thresh=0.5), 1.0),  # one value > 0.5
        ((2, 3), dict(normalization="valid", valid_thresh=9), 1.0),  # none: divide by 1
    ],
)
def test_make_loss_gradient(shape, params, expected):
    x = np.linspace(-1, 1, math.prod(shape)).reshape(shape)
    if shape == (2, 3):
        x = np.array([[0.0, 0.947, -0.704], [-1.265, -0.623, 0.041]])
    outs, grads = _loss_grads(make_op("MakeLoss", **params), [x])
    np.testing.assert_array_equal(outs[0], x)
    np.testing.assert_allclose(grads[0], np.full(shape, expected), rtol=1e-7)


@pytest.mark.parametrize(
    "name,params,expected",
    [
        ("make_loss", {}, 1.0),
        ("BlockGrad", {}, 0.0),
        # MXNet 1.9.1: make_loss accepts MakeLoss's parameters and ignores them.
        ("make_loss", dict(grad_scale=2.0, normalization="batch"), 1.0),
    ],
)
def test_make_loss_and_block_grad(name, params, expected):
    x = _rand((2, 3, 4), 30)
    op = make_op(name, **params)
    assert output_shapes(op, [x.shape])[0] == [x.shape]
    outs, grads = _loss_grads(op, [x])
    np.testing.assert_array_equal(outs[0], x)
    np.testing.assert_array_equal(grads[0], np.full(x.shape, expected))


MAKE_LOSS_FD_CASES = [  # (op name, params, the loss its gradient differentiates, as a function)
    ("MakeLoss", {}, lambda v, x: v.sum()),
    ("MakeLoss", dict(grad_scale=2.5, normalization="batch"), lambda v, x: 2.5 * v.sum() / 3),
    (
        "MakeLoss",
        dict(normalization="valid", valid_thresh=0.1),
        lambda v, x: v.sum() / max(1, int((x > 0.1).sum())),
    ),  # the count is taken as a constant
    ("make_loss", dict(grad_scale=4.0), lambda v, x: v.sum()),  # ignored, as in MXNet 1.9.1
]


@pytest.mark.parametrize(
    "name, params, loss",
    MAKE_LOSS_FD_CASES,
    ids=[f"{c[0]}-{i}" for i, c in enumerate(MAKE_LOSS_FD_CASES)],
)
def test_make_loss_gradient_is_the_derivative_of_its_loss(name, params, loss):
    """The gradient is that of grad_scale * sum(data) / divisor: float64 central differences
    of that loss (a loss head ignores its head gradient, so check_gradients does not apply)."""
    x = _rand((3, 4), 31)
    _, grads = _loss_grads(make_op(name, **params), [x])
    np.testing.assert_allclose(
        grads[0], _numeric_grad(lambda v: loss(v, x), x), rtol=1e-6, atol=1e-8
    )


# --- softmax / log_softmax --------------------------------------------------------------------
SOFTMAX_PARAMS = [
    {},
    dict(axis=1),
    dict(axis=0),
    dict(axis=-2, temperature=2.5),
    dict(temperature=0.5),
]


SOFTMAX_FAMILY = ["softmax", "log_softmax", "softmin"]


@pytest.mark.parametrize("name", SOFTMAX_FAMILY)
@pytest.mark.parametrize("params", SOFTMAX_PARAMS)
def test_softmax_family_values_and_gradients(name, params):
    op = make_op(name, **params)
    x = _rand((2, 3, 5), 40) * 3
    (out,) = run_forward(op, [x])
    assert out.shape == output_shapes(op, [x.shape])[0][0]
    sign = -1 if name == "softmin" else 1  # softmin is softmax(-x / temperature)
    expected = _softmax_along(sign * x / params.get("temperature", 1.0), params.get("axis", -1))
    if name == "log_softmax":
        expected = np.log(expected)
    np.testing.assert_allclose(out, expected, rtol=1e-10, atol=1e-14)
    check_gradients(op, [x])


def test_softmax_is_stable_for_large_inputs():
    x = np.array([[1000.0, 1001.0, -1000.0]])
    with np.errstate(over="raise", invalid="raise"):
        (y,) = run_forward(make_op("softmax"), [x])
        (ly,) = run_forward(make_op("log_softmax"), [x])
    np.testing.assert_allclose(y, [[1 / (1 + math.e), math.e / (1 + math.e), 0.0]])
    np.testing.assert_allclose(ly[0, :2], [-math.log1p(math.e), 1 - math.log1p(math.e)])


@pytest.mark.parametrize("axis,temperature", [(-1, None), (1, 2.0)])
def test_softmax_use_length(axis, temperature):
    params = dict(use_length=True, axis=axis)
    if temperature:
        params["temperature"] = temperature
    op = make_op("softmax", **params)
    x = _rand((2, 3, 4), 41)
    length = (
        np.array([[1, 2, 4], [3, 0, 2]]) if axis == -1 else np.array([[1, 2, 3, 0], [3, 0, 2, 1]])
    )
    ins = [x, length.astype(np.float64)]
    assert output_shapes(op, [x.shape, length.shape])[0] == [x.shape]
    (out,) = run_forward(op, ins)
    moved, xs = np.moveaxis(out, axis, -1), np.moveaxis(x, axis, -1) / (temperature or 1.0)
    for index in np.ndindex(length.shape):
        n = length[index]
        expected = _softmax_row(list(xs[index][:n])) + [0.0] * (xs.shape[-1] - n) if n else 0.0
        np.testing.assert_allclose(moved[index], expected, rtol=1e-12)
    grads = check_gradients(op, ins, check=[0])
    assert np.all(grads[1] == 0)


def test_log_softmax_use_length_is_refused():
    op = make_op("log_softmax", use_length=True)
    with pytest.raises(NotImplementedError, match="use_length"):
        run_forward(op, [np.zeros((2, 3)), np.ones(2)])


def test_softmax_dtype_parameter():
    op = make_op("softmax", dtype="float64")
    x = _rand((2, 3), 42, np.float32)
    outs = [np.zeros((2, 3), np.float64)]
    op.forward(True, ["write"], [x], outs, [])
    np.testing.assert_allclose(outs[0], _softmax_along(x.astype(np.float64), 1), rtol=1e-6)
    grads = run_backward(op, [x], outs, [np.ones((2, 3))])
    assert grads[0].dtype == np.float32
    np.testing.assert_allclose(grads[0], 0, atol=1e-6)  # d sum(softmax) = 0


def test_softmin_mxnet_values():
    """MXNet 1.9.1: softmin([[1, 2, 3], [3, 2, 1]], axis=1) (its documented example)."""
    (out,) = run_forward(make_op("softmin", axis=1), [np.array([[1.0, 2, 3], [3, 2, 1]])])
    np.testing.assert_allclose(
        out, [[0.66524094, 0.24472848, 0.09003057], [0.09003057, 0.24472848, 0.66524094]], rtol=1e-7
    )


@pytest.mark.parametrize("name", ["softmin", "hard_sigmoid"])
def test_integer_data_is_refused_where_mxnet_fails(name):
    """MXNet 1.9.1: mx.nd.softmin / hard_sigmoid of int32 data raise (float kernels only)."""
    with pytest.raises(
        TypeError, match=f"{name} 'op': data is int32, but {name} computes in floating point"
    ):
        run_forward(make_op(name), [np.array([1, 2], np.int32)])


def test_softmin_infers_data_from_output_and_refuses_use_length():
    op = make_op("softmin")
    assert op.infer_shape([None], [(2, 3)]) == ([(2, 3)], [(2, 3)], [])
    assert op.list_arguments() == ["data"]
    with pytest.raises(ValueError, match="use_length=True is not supported by softmin"):
        make_op("softmin", use_length=True)


@pytest.mark.parametrize("name", ["softmax", "softmin", "log_softmax"])
def test_dtype_parameter_gives_unknown_data_its_type(name):
    """MXNet's SoftmaxOpType: with dtype given, data of unknown type takes it too (p601)."""
    f16, f64 = np.dtype("float16"), np.dtype("float64")
    assert make_op(name, dtype="float64").infer_type([None], [None]) == ([f64], [f64], [])
    assert make_op(name, dtype="float64").infer_type([f16], [None]) == ([f16], [f64], [])
    assert make_op(name).infer_type([None], [f64]) == ([None], [None], [])


# --- softmax_cross_entropy --------------------------------------------------------------------
def _cross_entropy(x, label):
    """sum over rows of -log(softmax(row)[label]), with Python's math."""
    return sum(-math.log(_softmax_row(list(row))[int(k)]) for row, k in zip(x, label))


def test_softmax_cross_entropy_values_and_gradient():
    x = _rand((4, 5), 80) * 2
    label = np.array([0.0, 4, 2.7, 1])  # 2.7 reads as class 2 (truncated), as in MXNet
    op = make_op("softmax_cross_entropy")
    (out,) = run_forward(op, [x, label])
    assert out.shape == (1,)
    np.testing.assert_allclose(out, [_cross_entropy(x, label)], rtol=1e-12)
    check_gradients(op, [x, label])  # the label (no gradient) is left out
    grad, _ = run_backward(op, [x, label], [out], [np.array([2.5])])  # the head scales it
    np.testing.assert_allclose(
        grad, 2.5 * _numeric_grad(lambda v: _cross_entropy(v, label), x), rtol=1e-6, atol=1e-8
    )
    check_backward_dependency(op, [x, label])


def test_softmax_cross_entropy_mxnet_example():
    """MXNet 1.9.1's documented example: 0.4281871."""
    (out,) = run_forward(
        make_op("softmax_cross_entropy"), [np.array([[1.0, 2, 3], [11, 7, 5]]), np.array([2.0, 0])]
    )
    np.testing.assert_allclose(out, [0.4281871], rtol=1e-6)


def test_softmax_cross_entropy_refuses_a_label_gradient_and_bad_labels():
    op = make_op("softmax_cross_entropy", node_name="ce")
    x, label = _rand((2, 3), 81), np.array([0.0, 2])
    (out,) = run_forward(op, [x, label])
    with pytest.raises(
        mx.base.MXNetError,
        match=r"softmax_cross_entropy 'ce': "
        r"SoftmaxCrossEntropy: Cannot take gradient wrt "
        r"label.*grad_req 'null'",
    ):
        run_backward(op, [x, label], [out], [np.ones(1)], req=["write", "write"])
    with pytest.raises(
        ValueError,
        match=r"label\[1\] = -1 is not a class index: data has 3 "
        r"classes, so each label must be 0..2",
    ):
        run_forward(op, [x, np.array([0.0, -1])])


@pytest.mark.parametrize(
    "data, label, words",
    [
        ((3, 4), None, ["only accept 1D label", "(3,)", "does not infer it"]),
        ((3, 4, 1), (3,), ["only accept 2D data", "(3, 4, 1)"]),
        (None, (3,), ["only accept 2D data"]),
        ((3, 4), (2,), ["data label shape mismatch", "3 rows", "2 entries"]),
    ],
)
def test_softmax_cross_entropy_shape_errors(data, label, words):
    """MXNet 1.9.1 (p604) raises for each of these (the label's shape is never inferred)."""
    with pytest.raises(mx.base.MXNetError) as info:
        make_op("softmax_cross_entropy").infer_shape([data, label], [None])
    for word in words:
        assert word in str(info.value)


# --- SVMOutput --------------------------------------------------------------------------------
def _svm_loss(scores, label, margin, coef, linear):
    """The one-vs-rest hinge loss SVMOutput differentiates, row by row (Python floats)."""
    total = 0.0
    for row, k in zip(scores.reshape(-1, scores.shape[-1]), label.reshape(-1)):
        for j, s in enumerate(row):
            gap = max(0.0, margin - s) if j == int(k) else max(0.0, margin + s)
            total += coef * (gap if linear else gap * gap)
    return total


SVM_PARAMS = [
    {},
    dict(use_linear=True),
    dict(margin=2.0, regularization_coefficient=0.5),
    dict(margin=0.5, regularization_coefficient=3.0, use_linear=True),
]


@pytest.mark.parametrize("params", SVM_PARAMS)
@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 4)])
def test_svm_output_gradient_is_the_hinge_derivative(params, shape):
    x = _rand(shape, 82) * 2
    label = _labels(shape[:-1], shape[-1], 83)
    op = make_op("SVMOutput", **params)
    (out,), (grad, g_label) = _loss_grads(op, [x, label])
    np.testing.assert_array_equal(out, x)  # forward is the identity
    margin = params.get("margin", 1.0)
    coef = params.get("regularization_coefficient", 1.0)
    linear = params.get("use_linear", False)
    want = _numeric_grad(lambda v: _svm_loss(v, label, margin, coef, linear), x)
    np.testing.assert_allclose(grad, want, rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(g_label, 0)


def test_svm_output_mxnet_values():
    """MXNet 1.9.1 (p604): scores [[-2.5, -1, -0.5, 0], [0.5, 1, 1.5, 2.5]], labels [1, 3]."""
    x = np.array([[-2.5, -1.0, -0.5, 0.0], [0.5, 1.0, 1.5, 2.5]])
    label = np.array([1.0, 3])
    for params, want in (
        ({}, [[0, -4, 1, 2], [3, 4, 5, 0]]),
        (dict(use_linear=True), [[0, -1, 1, 1], [1, 1, 1, 0]]),
    ):
        (_,), (grad, _) = _loss_grads(make_op("SVMOutput", **params), [x, label])
        np.testing.assert_array_equal(grad, want)


def test_svm_output_declares_label_and_output_only():
    op = make_op("SVMOutput")
    assert op.backward_reads() == {
        "out_grad": [False],
        "in_data": [False, True],
        "out_data": [True],
    }
    check_backward_dependency(op, [_rand((3, 4), 84), _labels((3,), 4, 85)])


def test_svm_output_shapes_and_types():
    op = make_op("SVMOutput", node_name="svm")
    assert op.infer_shape([(2, 3, 4), None], [None]) == ([(2, 3, 4), (2, 3)], [(2, 3, 4)], [])
    assert op.infer_shape([(0, 4), None], [None]) == ([(0, 4), (0,)], [(0, 4)], [])
    with pytest.raises(
        ValueError,
        match=r"SVMOutput 'svm': label has shape \(4,\) but data "
        r"\(3, 4\) needs \(3,\)",
    ):
        op.infer_shape([(3, 4), (4,)], [None])
    f64 = np.dtype("float64")
    assert op.infer_type([f64, None], [None]) == ([f64, f64], [f64], [])
    with pytest.raises(TypeError, match="First input must have specified type"):
        op.infer_type([None, f64], [None])


# --- SoftmaxActivation ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "mode,shape,axis",
    [("instance", (3, 5), 1), ("channel", (2, 3, 4), 1), ("channel", (2, 4, 2, 3), 1)],
)
def test_softmax_activation_values_and_gradients(mode, shape, axis):
    op = make_op("SoftmaxActivation", mode=mode)
    x = _rand(shape, 50)
    (out,) = run_forward(op, [x])
    assert out.shape == output_shapes(op, [shape])[0][0]
    np.testing.assert_allclose(out, _softmax_along(x, axis), rtol=1e-12)
    check_gradients(op, [x])


@pytest.mark.parametrize("shape", [(2, 3, 4), (2, 3, 2, 2), (2, 1, 3)])
def test_softmax_activation_instance_uses_last_axis(shape):
    # MXNet 1.9.1: 'instance' on >=3-D data normalizes over the last axis only.
    x = _rand(shape, 51)
    (out,) = run_forward(make_op("SoftmaxActivation"), [x])
    np.testing.assert_allclose(out, _softmax_along(x, -1), rtol=1e-12)


def test_softmax_activation_instance_backward_quirk():
    # MXNet 1.9.1: backward sums over axis 1 in both modes, so for 'instance' on 3-D data it is
    # not the derivative of its forward (which normalizes over the last axis).
    x = (np.arange(12.0).reshape(2, 3, 2) / 4 - 1).astype(np.float32)
    head = np.cos(np.arange(12.0)).reshape(2, 3, 2).astype(np.float32)
    op = make_op("SoftmaxActivation")
    outs = run_forward(op, [x])
    (grad,) = run_backward(op, [x], outs, [head])
    np.testing.assert_allclose(outs[0][0, 0], [0.43782350, 0.56217653], atol=1e-7)
    np.testing.assert_allclose(
        grad,
        [
            [[0.45120156, 0.35621715], [-0.16882078, -0.50407863], [-0.27280247, 0.21194014]],
            [[0.42506257, 0.47211817], [-0.05902587, -0.46392402], [-0.36268777, 0.05078002]],
        ],
        atol=1e-6,
    )
    with pytest.raises(AssertionError, match="gradient of input 0 'data'"):
        check_gradients(op, [x])


def test_softmax_activation_needs_two_dims_for_backward():
    op = make_op("SoftmaxActivation")
    outs = run_forward(op, [np.zeros(3)])
    np.testing.assert_allclose(outs[0], [1 / 3] * 3)
    with pytest.raises(ValueError, match="at least 2 dimensions"):
        run_backward(op, [np.zeros(3)], outs, [np.ones(3)])


# --- every operator: the shape rule ----------------------------------------------------------
# (op name, params, data shape, every input shape the rule infers from it, output shape). The
# label shapes are the ones MXNet 1.9.1 infers (differential programs p046, p047); softmax's
# length is the data shape without the softmax axis (MXNet's SoftmaxOpShape).
SHAPE_CASES = [
    ("SoftmaxOutput", {}, (4, 5), [(4, 5), (4,)], (4, 5)),
    ("SoftmaxOutput", {}, (2, 3, 4), [(2, 3, 4), (2, 3)], (2, 3, 4)),
    ("SoftmaxOutput", dict(multi_output=True), (2, 3, 4), [(2, 3, 4), (2, 4)], (2, 3, 4)),
    ("SoftmaxOutput", dict(multi_output=True), (2, 3, 4, 5), [(2, 3, 4, 5), (2, 20)], (2, 3, 4, 5)),
    ("SoftmaxOutput", dict(preserve_shape=True), (2, 3, 4), [(2, 3, 4), (2, 3)], (2, 3, 4)),
    ("LinearRegressionOutput", {}, (4, 3), [(4, 3), (4, 3)], (4, 3)),
    ("LinearRegressionOutput", {}, (4, 1), [(4, 1), (4,)], (4, 1)),
    ("LogisticRegressionOutput", {}, (4, 1), [(4, 1), (4,)], (4, 1)),
    ("LogisticRegressionOutput", {}, (2, 3, 4), [(2, 3, 4), (2, 3, 4)], (2, 3, 4)),
    ("MAERegressionOutput", {}, (2, 3, 4), [(2, 3, 4), (2, 3, 4)], (2, 3, 4)),
    ("MakeLoss", dict(normalization="batch"), (2, 3), [(2, 3)], (2, 3)),
    ("make_loss", {}, (2, 3, 4), [(2, 3, 4)], (2, 3, 4)),
    ("BlockGrad", {}, (5,), [(5,)], (5,)),
    ("softmax", dict(axis=0), (2, 3), [(2, 3)], (2, 3)),
    ("softmax", dict(use_length=True), (2, 3, 4), [(2, 3, 4), (2, 3)], (2, 3, 4)),
    ("softmax", dict(use_length=True, axis=1), (2, 3, 4), [(2, 3, 4), (2, 4)], (2, 3, 4)),
    ("log_softmax", {}, (2, 3, 4), [(2, 3, 4)], (2, 3, 4)),
    ("SoftmaxActivation", {}, (3, 4), [(3, 4)], (3, 4)),
    ("SoftmaxActivation", dict(mode="channel"), (2, 3, 4, 4), [(2, 3, 4, 4)], (2, 3, 4, 4)),
    ("softmin", dict(axis=0), (2, 3), [(2, 3)], (2, 3)),
    ("SVMOutput", {}, (4, 5), [(4, 5), (4,)], (4, 5)),
    ("SVMOutput", dict(use_linear=True), (2, 3, 4), [(2, 3, 4), (2, 3)], (2, 3, 4)),
]


@pytest.mark.parametrize(
    "name, params, data_shape, in_shapes, out_shape",
    SHAPE_CASES,
    ids=[f"{c[0]}-{i}" for i, c in enumerate(SHAPE_CASES)],
)
def test_shape_rule(name, params, data_shape, in_shapes, out_shape):
    op = make_op(name, **params)
    unknown = [data_shape] + [None] * (len(op.list_arguments()) - 1)
    assert op.infer_shape(unknown, [None]) == (in_shapes, [out_shape], [])
    assert output_shapes(op, in_shapes)[0] == [out_shape]
    # forward writes every element of an output of that shape (labels / lengths of 1 are valid)
    ins = [_rand(data_shape, 70)] + [np.ones(s) for s in in_shapes[1:]]
    (out,) = run_forward(op, ins, outs=[np.full(out_shape, np.nan)])
    assert out.shape == out_shape and not np.isnan(out).any()


# --- every operator: req handling and float32 -------------------------------------------------
ALL_CASES = [  # (op name, params, input shapes, integer-label classes for input 1)
    ("SoftmaxOutput", {}, [(4, 3), (4,)], 3),
    ("SoftmaxOutput", dict(multi_output=True, normalization="valid"), [(2, 3, 4), (2, 4)], 3),
    ("SoftmaxOutput", dict(preserve_shape=True, smooth_alpha=0.1), [(2, 3, 4), (2, 3)], 4),
    ("SoftmaxOutput", dict(out_grad=True), [(4, 3), (4, 3)], None),
    ("LinearRegressionOutput", dict(grad_scale=2), [(3, 2), (3, 2)], None),
    ("LogisticRegressionOutput", {}, [(4, 1), (4,)], None),
    ("MAERegressionOutput", {}, [(2, 2, 3), (2, 6)], None),
    ("MakeLoss", dict(normalization="valid"), [(3, 4)], None),
    ("make_loss", {}, [(3, 4)], None),
    ("BlockGrad", {}, [(3, 4)], None),
    ("softmax", dict(axis=0, temperature=3.0), [(3, 4)], None),
    ("softmax", dict(use_length=True), [(3, 4), (3,)], 5),
    ("log_softmax", dict(axis=1), [(2, 3, 4)], None),
    ("SoftmaxActivation", {}, [(3, 4)], None),
    ("SoftmaxActivation", dict(mode="channel"), [(2, 3, 2, 2)], None),
    ("softmin", dict(axis=1, temperature=0.7), [(3, 4)], None),
    ("softmax_cross_entropy", {}, [(3, 4), (3,)], 4),
    ("SVMOutput", {}, [(3, 4), (3,)], 4),
    ("SVMOutput", dict(use_linear=True, margin=0.5), [(2, 2, 3), (2, 2)], 3),
]


def _inputs(shapes, classes, dtype):
    ins = [_rand(shapes[0], 60, dtype)]
    if len(shapes) > 1:
        second = _labels(shapes[1], classes, 61) if classes else _rand(shapes[1], 62)
        ins.append(second.astype(dtype))
    return ins


@pytest.mark.parametrize("name,params,shapes,classes", ALL_CASES)
def test_req(name, params, shapes, classes):
    check_req(make_op(name, **params), _inputs(shapes, classes, np.float64))


@pytest.mark.parametrize("name,params,shapes,classes", ALL_CASES)
def test_float32_stays_float32(name, params, shapes, classes):
    op = make_op(name, **params)
    ins32 = _inputs(shapes, classes, np.float32)
    outs, grads = _loss_grads(op, ins32)
    assert outs[0].dtype == np.float32 and grads[0].dtype == np.float32
    ins64 = [x.astype(np.float64) for x in ins32]
    outs64, grads64 = _loss_grads(op, ins64)
    np.testing.assert_allclose(outs[0], outs64[0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(grads[0], grads64[0], rtol=1e-4, atol=1e-5)


# --- what this file covers, per operator (read by test_ops_coverage.py) ------------------------
SHAPE_TESTED = frozenset(c[0] for c in SHAPE_CASES) | {"softmax_cross_entropy"}  # + its test
# A loss head ignores its head gradient, so its gradient is compared with finite differences of
# the loss it differentiates: SoftmaxOutput in test_softmax_output_is_the_cross_entropy_gradient,
# the regressions and MakeLoss in their parametrized tests; the others go through
# check_gradients (test_softmax_family_values_and_gradients,
# test_softmax_activation_values_and_gradients).
# softmax_cross_entropy: check_gradients in test_softmax_cross_entropy_values_and_gradient;
# SVMOutput: finite differences of its hinge loss (test_svm_output_gradient_is_the_hinge_...).
GRADIENT_TESTED = frozenset(
    [
        "SoftmaxOutput",
        "SoftmaxActivation",
        *REGRESSIONS,
        *SOFTMAX_FAMILY,
        "softmax_cross_entropy",
        "SVMOutput",
        *(c[0] for c in MAKE_LOSS_FD_CASES),
    ]
)
REQ_TESTED = frozenset(c[0] for c in ALL_CASES)
# BlockGrad's gradient is zero by definition (test_make_loss_and_block_grad checks it is).
NO_GRADIENT = {"BlockGrad": "its gradient is zero by definition"}
