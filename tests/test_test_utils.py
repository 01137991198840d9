"""mx.test_utils: the checks pass on correct operators (built-in and Custom) and fail on a
deliberately wrong backward with a message that names the slot, the worst elements and what the
wrong values look like; download never touches the network when the file is there, and offline
says where to put it. (What MXNet returns and raises is in the differential programs p530-p538.)
"""

import contextlib
import re
import subprocess
import sys
import urllib.error
import urllib.request

import numpy as np
import pytest

import minisym as mx
import softmax_op  # noqa: F401 - registers the lesson's custom softmax loss as "softmax"

tu = mx.test_utils


# --------------------------------------------------------------------------- operators under test
class _Softmax(mx.operator.CustomOp):
    """A softmax that uses its head gradient; ``mode`` plants one mistake."""

    def __init__(self, mode):
        self.mode = mode

    def forward(self, is_train, req, in_data, out_data, aux):
        x = in_data[0].asnumpy()
        y = np.exp(x - x.max(axis=1, keepdims=True))
        y /= y.sum(axis=1, keepdims=True)
        if self.mode == "factor":
            y = 2 * y
        dtype = np.float32 if self.mode == "float32_inside" else x.dtype
        self.assign(out_data[0], req[0], mx.nd.array(y, dtype=dtype))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        y, g = out_data[0].asnumpy(), out_grad[0].asnumpy()
        if self.mode == "factor":
            y = y / 2
        dx = y * (g - (g * y).sum(axis=1, keepdims=True))
        if self.mode == "sign":
            dx = -dx
        slot = 1 if self.mode == "index" else 0
        if self.mode != "forgot":
            self.assign(in_grad[slot], req[slot], mx.nd.array(dx, dtype=y.dtype))
        if self.mode != "index":
            self.assign(in_grad[1], req[1], mx.nd.zeros(dx.shape, dtype=y.dtype))


@mx.operator.register("tu_softmax")
class _SoftmaxProp(mx.operator.CustomOpProp):
    def __init__(self, mode="ok"):
        super().__init__(need_top_grad=True)
        self.mode = mode

    def list_arguments(self):
        return ["data", "other"]

    def infer_shape(self, in_shape):
        return [in_shape[0], in_shape[0]], [in_shape[0]], []

    def create_operator(self, ctx, shapes, dtypes):
        return _Softmax(self.mode)


@pytest.fixture(autouse=True)
def numpy_seed():
    """The checks draw their random projection from numpy's generator, as MXNet's do."""
    np.random.seed(7)


RNG = np.random.RandomState(1)
X, OTHER = RNG.randn(4, 5), RNG.randn(4, 5)
LABEL = np.array([0, 2, 1, 4.0])


def custom(mode):
    data, other = mx.sym.Variable("data"), mx.sym.Variable("other")
    return mx.sym.Custom(data, other, op_type="tu_softmax", mode=mode, name="sm")


def failure(fn, *args, **kwargs):
    """The message of the AssertionError ``fn`` raises (``warns=True``: it also warns, as a
    custom operator that leaves an in_grad unwritten does)."""
    with pytest.warns() if kwargs.pop("warns", False) else contextlib.nullcontext():
        with pytest.raises(AssertionError) as info:
            fn(*args, **kwargs)
    return str(info.value)


def readable(message):
    """A notebook-sized message: a few lines, no memory addresses."""
    lines = message.splitlines()
    assert len(lines) <= 14, message
    assert "0x" not in message and "np.int64" not in message, message


# --------------------------------------------------------------------------- import
def test_reachable_right_after_import_without_loading_urllib():
    code = (
        "import sys, minisym as mx; f = mx.test_utils.assert_almost_equal; "
        "print('urllib.request' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_sixteen_names_and_download_exist():
    names = (
        "default_context set_default_context assert_almost_equal assert_allclose "
        "almost_equal same rand_ndarray rand_shape_2d rand_shape_3d rand_shape_nd "
        "np_reduce environment check_numeric_gradient check_symbolic_forward "
        "check_symbolic_backward compare_optimizer download"
    ).split()
    assert [n for n in names if not callable(getattr(tu, n, None))] == []


# --------------------------------------------------------------------------- comparisons
def test_default_tolerances_follow_the_dtype():
    assert tu.get_tols(np.ones(2, np.float32), np.ones(2), None, None) == (1e-4, 1e-3)
    assert tu.get_tols(np.ones(2), np.ones(2), None, None) == (1e-5, 1e-20)
    tu.assert_almost_equal(np.ones(3, np.float32), np.ones(3, np.float32) + 5e-4)
    with pytest.raises(AssertionError):
        tu.assert_almost_equal(np.ones(3), np.ones(3) + 5e-4)


def test_assert_almost_equal_names_the_worst_element_and_counts():
    a = np.arange(6.0).reshape(2, 3)
    b = a.copy()
    b[0, 2] += 0.1
    b[1, 0] -= 0.5
    message = failure(tu.assert_almost_equal, a, b, names=("mine", "ref"))
    assert message.splitlines()[0] == "mine and ref differ at index (1, 0): mine 3, ref 2.5"
    assert "2 of 6 elements differ (shape (2, 3)); max abs error 0.5" in message
    assert "(rtol=1e-05, atol=1e-20)" in message
    assert message.index("(1, 0)", 60) < message.index("(0, 2)")  # worst first
    readable(message)


def test_assert_almost_equal_lists_at_most_five_elements():
    message = failure(tu.assert_almost_equal, np.zeros((10, 10)), np.ones((10, 10)))
    assert "worst 5 of 100:" in message
    readable(message)


def test_assert_almost_equal_shows_digits_enough_to_see_the_difference():
    message = failure(tu.assert_almost_equal, np.array([1.0]), np.array([1.0001]))
    assert "a 1, b 1.0001" in message or "a 1.0000, b 1.0001" in message, message


def test_ndarrays_numbers_bools_and_nan():
    tu.assert_almost_equal(mx.nd.ones((2, 2)), np.ones((2, 2)))
    assert "a 1, b 2" in failure(tu.assert_almost_equal, 1.0, 2.0)
    assert "index (1,)" in failure(
        tu.assert_almost_equal, np.array([True, False]), np.array([True, True])
    )
    tu.assert_almost_equal(np.array([np.nan]), np.array([np.nan]), equal_nan=True)
    tu.assert_allclose(np.array([np.nan]), np.array([np.nan]))


def test_shapes_that_cannot_broadcast_are_a_value_error_naming_both():
    with pytest.raises(ValueError, match=r"a has shape \(2, 3\) and b has shape \(3, 2\)"):
        tu.assert_almost_equal(np.ones((2, 3)), np.ones((3, 2)))
    with pytest.raises(AssertionError, match="use_broadcast=False"):
        tu.assert_almost_equal(np.ones((2, 3)), np.ones(3), use_broadcast=False)


def test_np_reduce_and_same():
    cube = np.arange(24.0).reshape(2, 3, 4)
    assert tu.np_reduce(cube, [0, 2], True, np.sum).shape == (1, 3, 1)
    np.testing.assert_array_equal(tu.np_reduce(cube, 1, False, np.max), cube.max(axis=1))
    assert tu.same(cube, cube.copy()) and not tu.same(cube, cube[:1])


# --------------------------------------------------------------------------- check_numeric_gradient
def test_numeric_gradient_passes_on_builtin_operators():
    data = mx.sym.Variable("data")
    fc = mx.sym.FullyConnected(data, num_hidden=3, name="fc")
    assert tu.check_numeric_gradient(fc, [X, RNG.randn(3, 5), RNG.randn(3)]) is None
    tu.check_numeric_gradient(mx.sym.tanh(data), {"data": X}, dtype=np.float64)


def test_numeric_gradient_passes_on_a_correct_custom_operator():
    tu.check_numeric_gradient(custom("ok"), [X, OTHER])
    tu.check_numeric_gradient(custom("ok"), [X, OTHER], dtype=np.float64)
    tu.check_numeric_gradient(custom("ok"), [X, OTHER], grad_nodes={"data": "add"})


def test_sign_flipped_backward_fails_with_the_slot_and_the_pattern():
    message = failure(tu.check_numeric_gradient, custom("sign"), [X, OTHER])
    first = message.splitlines()[0]
    assert first.startswith(
        "check_numeric_gradient: in_grad[0] ('data', list_arguments()[0]) "
        "of Custom 'sm' (op_type='tu_softmax') differs at index ("
    )
    assert "numeric" in first and "symbolic" in first
    assert re.search(r"\n  \d+ of 20 elements differ \(shape \(4, 5\)\); max abs error", message)
    assert "symbolic is -numeric everywhere: the sign is flipped." in message
    assert "Look at what backward assigns to in_grad[0]." in message
    assert "numeric: finite differences of forward, eps=0.001953" in message
    readable(message)


def test_worst_element_values_are_the_real_ones():
    message = failure(tu.check_numeric_gradient, custom("sign"), [X, OTHER], dtype=np.float64)
    first = message.splitlines()[0]
    index = tuple(int(i) for i in first.split("index (")[1].split(")")[0].split(", "))
    numeric = float(first.split("numeric ")[1].split(",")[0])
    symbolic = float(first.split("symbolic ")[1])
    assert numeric == pytest.approx(-symbolic, rel=1e-3)
    y = np.exp(X) / np.exp(X).sum(axis=1, keepdims=True)
    assert abs(symbolic) <= np.abs(y).max()
    assert index[0] < 4 and index[1] < 5


def test_gradient_written_to_the_wrong_index_is_found():
    message = failure(tu.check_numeric_gradient, custom("index"), [X, OTHER], warns=True)
    assert "in_grad[0] ('data', list_arguments()[0]) of Custom 'sm'" in message
    assert (
        "What 'data' should get is in in_grad[1] ('other', list_arguments()[1]) of Custom "
        "'sm' (op_type='tu_softmax') instead: it was written to the wrong index."
    ) in message
    readable(message)


def test_gradient_never_written_lists_the_in_grad_slots():
    message = failure(
        tu.check_numeric_gradient, custom("index"), [X, OTHER], grad_nodes=["data"], warns=True
    )
    assert (
        "in_grad[0] is all zeros: backward never assigned it, or it assigned another index. "
        "In Custom 'sm' (op_type='tu_softmax'), in_grad[0] is 'data', in_grad[1] is "
        "'other'."
    ) in message
    message = failure(
        tu.check_numeric_gradient,
        custom("forgot"),
        [X, OTHER],
        grad_nodes={"data": "add"},
        warns=True,
    )
    assert "Backward added nothing to in_grad[0]" in message


def test_forward_off_by_a_factor_is_named_as_a_factor():
    message = failure(tu.check_numeric_gradient, custom("factor"), [X, OTHER])
    assert (
        "symbolic is 0.5 times numeric everywhere: a constant factor is missing or extra" in message
    )


def test_float32_arithmetic_in_a_float64_check_is_pointed_out():
    message = failure(
        tu.check_numeric_gradient,
        custom("float32_inside"),
        [X, OTHER],
        grad_nodes=["data"],
        dtype=np.float64,
    )
    assert "(rtol=1e-05, atol=1e-20)" in message
    assert "something computes in float32" in message


def test_a_loss_head_cannot_pass_and_the_message_says_why():
    data, label = mx.sym.Variable("data"), mx.sym.Variable("label")
    loss = mx.sym.Custom(data, label, op_type="softmax", name="loss")
    message = failure(tu.check_numeric_gradient, loss, [X, LABEL], grad_nodes=["data"])
    assert (
        "Custom 'loss' (op_type='softmax') ignores the gradient from above "
        "(need_top_grad=False): its backward returns the gradient of its loss"
    ) in message
    assert "check_symbolic_backward(sym, location, None, expected=" in message
    readable(message)
    # ... and the check it points to passes on the same, correct, operator.
    p = np.exp(X) / np.exp(X).sum(axis=1, keepdims=True)
    grads = tu.check_symbolic_backward(
        loss, [X, LABEL], None, {"data": p - np.eye(5)[LABEL.astype(int)]}
    )
    assert sorted(grads) == ["data"]


def test_softmax_output_is_a_loss_head_too():
    so = mx.sym.SoftmaxOutput(mx.sym.Variable("data"), mx.sym.Variable("label"), name="so")
    message = failure(tu.check_numeric_gradient, so, [X, LABEL], grad_nodes=["data"])
    assert "SoftmaxOutput 'so' ignores the gradient from above: its backward" in message


def test_a_shared_weight_is_named_as_a_sum():
    w = mx.sym.Variable("w")
    x = mx.sym.Variable("x")
    net = mx.sym.FullyConnected(
        x, weight=w, num_hidden=2, no_bias=True, name="fc1"
    ) + mx.sym.FullyConnected(x, weight=w, num_hidden=2, no_bias=True, name="fc2")
    tu.check_numeric_gradient(net, [np.ones((1, 3)), np.ones((2, 3))], dtype=np.float64)
    from minisym.test_utils import explain

    assert explain.argument_slot(net, "w") == (
        "the gradient of 'w' (list_arguments()[1]), the sum in_grad[1] of FullyConnected 'fc1' "
        "+ in_grad[1] of FullyConnected 'fc2',"
    )


def test_numeric_gradient_inputs_are_checked_with_mxnets_exception_types():
    fc = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=2, name="fc")
    with pytest.raises(KeyError) as info:
        tu.check_numeric_gradient(fc, [X])
    assert str(info.value) == (
        "check_numeric_gradient: location gives 1 arrays but the symbol "
        "has 3 arguments ['data', 'fc_weight', 'fc_bias']; nothing for "
        "['fc_weight', 'fc_bias']"
    )
    with pytest.raises(ValueError, match="grad_nodes must be None, a list"):
        tu.check_numeric_gradient(fc, [X, np.ones((2, 5)), np.ones(2)], grad_nodes="data")
    with pytest.raises(AssertionError, match="numeric_eps=1e-06 is too small for float32"):
        tu.check_numeric_gradient(fc, [X, np.ones((2, 5)), np.ones(2)], numeric_eps=1e-6)


def test_numeric_gradient_draws_from_numpys_generator_like_mxnet():
    np.random.seed(5)
    tu.check_numeric_gradient(mx.sym.tanh(mx.sym.Variable("data")), [X])
    after = np.random.rand()
    np.random.seed(5)
    np.random.rand(4, 5), np.random.normal(0, 0.01, (4, 5)), np.random.normal(0, 0.01, (4, 5))
    assert after == np.random.rand()


# --------------------------------------------------------------------------- symbolic checks
def test_symbolic_forward_names_the_output_and_out_data():
    t = mx.sym.tanh(mx.sym.Variable("data"), name="t")
    outputs = tu.check_symbolic_forward(t, [X], [np.tanh(X)])
    np.testing.assert_allclose(outputs[0].asnumpy(), np.tanh(X), rtol=1e-6)
    message = failure(tu.check_symbolic_forward, t, [X], {"t_output": -np.tanh(X)})
    assert message.startswith(
        "check_symbolic_forward: output 0 't_output' (list_outputs()[0], "
        "out_data[0] of tanh 't') differs from expected at index ("
    )
    assert "forward is -expected everywhere: the sign is flipped." in message
    assert message.endswith("Look at what forward assigns to out_data[0].")
    readable(message)


def test_symbolic_forward_of_a_custom_operator_off_by_a_factor():
    y = np.exp(X) / np.exp(X).sum(axis=1, keepdims=True)
    tu.check_symbolic_forward(custom("ok"), [X, OTHER], [y])
    message = failure(tu.check_symbolic_forward, custom("factor"), [X, OTHER], [y])
    assert "out_data[0] of Custom 'sm' (op_type='tu_softmax')" in message
    assert "forward is 2 times expected everywhere" in message


def test_symbolic_backward_passes_and_returns_the_gradients():
    t = mx.sym.tanh(mx.sym.Variable("data"), name="t")
    og = RNG.randn(4, 5)
    expected = og * (1 - np.tanh(X) ** 2)
    grads = tu.check_symbolic_backward(t, [X], [og], [expected])
    np.testing.assert_allclose(grads["data"].asnumpy(), expected, rtol=1e-5, atol=1e-6)
    tu.check_symbolic_backward(t, [X], [og], [expected], grad_req="add")
    tu.check_symbolic_backward(t, [X], [og], [expected], grad_req="null")


def test_symbolic_backward_of_a_wrong_custom_backward():
    og = RNG.randn(4, 5)
    y = np.exp(X) / np.exp(X).sum(axis=1, keepdims=True)
    dx = y * (og - (og * y).sum(axis=1, keepdims=True))
    tu.check_symbolic_backward(custom("ok"), [X, OTHER], [og], {"data": dx})
    message = failure(tu.check_symbolic_backward, custom("sign"), [X, OTHER], [og], {"data": dx})
    assert message.startswith(
        "check_symbolic_backward: in_grad[0] ('data', list_arguments()[0])"
        " of Custom 'sm' (op_type='tu_softmax') differs at index ("
    )
    assert "backward is -expected everywhere: the sign is flipped." in message
    message = failure(
        tu.check_symbolic_backward,
        custom("forgot"),
        [X, OTHER],
        [og],
        {"data": dx},
        grad_req="add",
        warns=True,
    )
    assert "Backward added nothing to in_grad[0]" in message


def test_symbolic_backward_with_wrong_expected_shape_says_so():
    t = mx.sym.tanh(mx.sym.Variable("data"))
    with pytest.raises(
        AssertionError,
        match=r"expected\['data'\] has shape \(5,\) but argument "
        r"'data' has shape \(4, 5\)",
    ):
        tu.check_symbolic_backward(t, [X], [np.ones((4, 5))], [np.ones(5)])


# --------------------------------------------------------------------------- error.mismatch
@pytest.fixture
def observers():
    """Record the mismatches a failed check shows its observers (the list is left as found)."""
    seen, before = [], list(tu.checks.mismatch_observers)
    tu.checks.mismatch_observers.append(seen.append)
    yield seen
    tu.checks.mismatch_observers[:] = before


def raised(fn, *args, **kwargs):
    """The AssertionError ``fn`` raises."""
    with pytest.raises(AssertionError) as info:
        fn(*args, **kwargs)
    return info.value


def test_a_failed_numeric_check_carries_what_it_compared(observers):
    error = raised(
        tu.check_numeric_gradient, custom("sign"), [X, OTHER], dtype=np.float64, grad_nodes=["data"]
    )
    m = error.mismatch
    assert (m.check, m.argument, m.names) == (
        "check_numeric_gradient",
        "data",
        ("numeric", "symbolic"),
    )
    assert m.slot == (
        "in_grad[0] ('data', list_arguments()[0]) of Custom 'sm' (op_type='tu_softmax')"
    )
    assert m.expected.shape == m.got.shape == m.shape == (4, 5)
    np.testing.assert_allclose(m.got, -m.expected, rtol=1e-6, atol=1e-9)
    assert (m.rtol, m.atol) == (1e-5, 1e-20)
    worst = m.worst_index
    numeric = tu.compare.fmt(m.expected[worst], m.got[worst])
    assert f"at index {worst}: numeric {numeric}," in str(error).splitlines()[0]
    error_size = np.where(m.bad, np.abs(m.expected - m.got), -1)
    assert worst == np.unravel_index(np.argmax(error_size), m.shape)
    assert "symbolic is -numeric everywhere: the sign is flipped." in m.hints
    assert m.hints[-1] == "Look at what backward assigns to in_grad[0]."
    assert m.relation(m.worst_index) == "sign flipped"
    assert np.array_equal(m.error_ratio() > 1, m.bad)
    assert observers == [m]  # shown once, before the raise, the same object the error carries


def test_symbolic_checks_carry_the_mismatch_too(observers):
    og = RNG.randn(4, 5)
    y = np.exp(X) / np.exp(X).sum(axis=1, keepdims=True)
    dx = y * (og - (og * y).sum(axis=1, keepdims=True))
    m = raised(tu.check_symbolic_backward, custom("sign"), [X, OTHER], [og], {"data": dx}).mismatch
    assert (m.check, m.argument, m.names) == (
        "check_symbolic_backward",
        "data",
        ("expected", "backward"),
    )
    np.testing.assert_allclose(m.expected, dx, rtol=1e-6)
    t = mx.sym.tanh(mx.sym.Variable("data"), name="t")
    m2 = raised(tu.check_symbolic_forward, t, [X], [np.tanh(X) + 1]).mismatch
    assert (m2.check, m2.argument, m2.slot) == (
        "check_symbolic_forward",
        "t_output",
        "output 0 't_output' (list_outputs()[0], out_data[0] of tanh 't')",
    )
    assert observers == [m, m2]


def test_assert_almost_equal_carries_it_without_telling_the_observers(observers):
    m = raised(tu.assert_almost_equal, np.zeros(3), np.array([0.0, 2.0, 0.0])).mismatch
    assert (m.check, m.worst_index, m.count) == ("assert_almost_equal", (1,), 1)
    assert (m.names, m.relation((1,)), m.hints) == (("a", "b"), "a is 0", [])
    assert observers == []
    tu.check_numeric_gradient(custom("ok"), [X, OTHER])
    assert observers == []  # a passing check tells nobody


def test_a_broken_observer_warns_and_the_check_still_raises(observers):
    def broken(mismatch):
        raise KeyError("no display")

    tu.checks.mismatch_observers.append(broken)
    with pytest.warns(
        RuntimeWarning,
        match=r"check_numeric_gradient: the mismatch observer .* "
        r"raised KeyError: 'no display'; remove it",
    ):
        message = failure(tu.check_numeric_gradient, custom("sign"), [X, OTHER])
    assert message.startswith("check_numeric_gradient: in_grad[0]")
    assert len(observers) == 1


def test_the_worst_indices_are_those_a_stable_sort_gives_ties_in_index_order():
    rng = np.random.RandomState(0)
    for trial in range(200):
        score = rng.randint(-1, 4, 300).astype(float) if trial % 2 else rng.randn(300)
        k = rng.randint(0, 301)
        assert np.array_equal(
            tu.compare._largest_first(score, k), np.argsort(-score, kind="stable")[:k]
        ), (trial, k)
    m = tu.compare.Mismatch.find(np.zeros(1000), np.ones(1000), 1e-5, 1e-20)
    assert len(m.worst) == tu.compare.WORST_KEPT and m.worst[:3] == [(0,), (1,), (2,)]


def test_relation_names_what_one_element_looks_like():
    m = tu.compare.Mismatch.find(
        np.array([1.0, 2.0, 3.0, 0.0, 1.0, np.nan, 1.0]),
        np.array([-1.0, 4.0, 0.0, 5.0, 1.001, 1.0, np.inf]),
        1e-5,
        1e-20,
        names=("numeric", "symbolic"),
    )
    assert [m.relation((i,)) for i in range(7)] == [
        "sign flipped",
        "symbolic is 2 times numeric",
        "symbolic is 0",
        "numeric is 0",
        "",
        "numeric is not finite",
        "symbolic is not finite",
    ]
    ratio = m.error_ratio()
    assert ratio[1] == pytest.approx(2.0 / (1e-20 + 1e-5 * 4.0))
    assert np.isinf(ratio[5]) and np.isinf(ratio[6])


# --------------------------------------------------------------------------- the rest
def test_rand_helpers_follow_numpys_seed():
    np.random.seed(0)
    first = (
        tu.rand_shape_2d(),
        tu.rand_shape_3d(),
        tu.rand_shape_nd(4),
        tu.rand_ndarray((2, 3)).asnumpy(),
    )
    np.random.seed(0)
    second = (
        tu.rand_shape_2d(),
        tu.rand_shape_3d(),
        tu.rand_shape_nd(4),
        tu.rand_ndarray((2, 3)).asnumpy(),
    )
    assert first[:3] == second[:3]
    np.testing.assert_array_equal(first[3], second[3])
    assert tu.rand_ndarray((2,), dtype=np.float64).dtype == np.float64
    with pytest.raises(mx.base.MXNetError, match="dense arrays only"):
        tu.rand_ndarray((2, 2), stype="csr")


def test_environment_restores_and_default_context_moves():
    import os

    os.environ.pop("TU_TEST_VAR", None)
    with tu.environment("TU_TEST_VAR", "1"):
        assert os.environ["TU_TEST_VAR"] == "1"
    assert "TU_TEST_VAR" not in os.environ
    tu.set_default_context(mx.cpu(1))
    try:
        assert tu.default_context() == mx.cpu(1) == mx.current_context()
    finally:
        tu.set_default_context(mx.cpu(0))


def test_compare_optimizer_failure_names_both_optimizers():
    tu.compare_optimizer(
        mx.optimizer.SGD(learning_rate=0.1, momentum=0.9),
        mx.optimizer.SGD(learning_rate=0.1, momentum=0.9),
        (3, 4),
        np.float32,
    )
    message = failure(
        tu.compare_optimizer,
        mx.optimizer.SGD(learning_rate=0.1),
        mx.optimizer.SGD(learning_rate=0.2),
        (3, 4),
        np.float32,
    )
    assert message.startswith(
        "compare_optimizer: the weights of SGD (opt1) and SGD (opt2) after "
        "one update differ at index ("
    )
    readable(message)


# --------------------------------------------------------------------------- download
@pytest.fixture
def no_network(monkeypatch):
    """urlopen fails as it does offline, and counts its calls."""
    calls = []

    def offline(url, timeout=None):
        calls.append((url, timeout))
        raise urllib.error.URLError("[Errno -3] Temporary failure in name resolution")

    monkeypatch.setattr(urllib.request, "urlopen", offline)
    return calls


def test_download_returns_an_existing_file_without_the_network(tmp_path, no_network):
    path = tmp_path / "train.csv"
    path.write_text("1,2\n")
    url = "https://example.com/data/train.csv"
    assert tu.download(url, dirname=str(tmp_path)) == str(path)
    assert tu.download(url, fname=str(path)) == str(path)
    assert no_network == []


def test_download_offline_names_the_url_and_where_to_put_the_file(tmp_path, no_network):
    url = "https://example.com/data/train.csv"
    with pytest.raises(OSError) as info:
        tu.download(url, dirname=str(tmp_path / "data"))
    message = str(info.value)
    assert message.startswith(
        "download: could not fetch https://example.com/data/train.csv "
        "(URLError: <urlopen error [Errno -3] Temporary failure in name "
        "resolution>)."
    )
    assert f"\n  {tmp_path / 'data' / 'train.csv'}\n" in message
    assert "returns its path without the network" in message
    assert len(no_network) == 1 and no_network[0][1] <= 30  # no retries offline, short timeout
    assert list((tmp_path / "data").iterdir()) == []  # no half file left behind


def test_download_retries_only_server_errors(tmp_path, monkeypatch):
    calls = []

    def server_error(url, timeout=None):
        calls.append(url)
        raise urllib.error.HTTPError(url, 503, "Service Unavailable", {}, None)

    monkeypatch.setattr(urllib.request, "urlopen", server_error)
    with pytest.raises(OSError, match="HTTPError: HTTP Error 503"):
        tu.download("https://example.com/x.bin", dirname=str(tmp_path), retries=3)
    assert len(calls) == 3


def test_download_writes_the_body(tmp_path, monkeypatch):
    import io

    class Response(io.BytesIO):
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(urllib.request, "urlopen", lambda url, timeout=None: Response(b"abc"))
    path = tu.download("https://example.com/x.bin", dirname=str(tmp_path))
    with open(path, "rb") as f:
        assert f.read() == b"abc"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.bin"]
