"""The gradient heatmap, driven through its traits: what a failed check carries is drawn cell
by cell, arrays of any rank fold to 2-D slices, pooling keeps the worst element visible, and a
failed check displays its heatmap before raising in a kernel only."""

import json
import subprocess
import sys

import numpy as np
import pytest

import minisym as mx
from minisym.module import progress
from minisym.test_utils import checks
from minisym.test_utils.compare import Mismatch
from minisym_widgets import GradientHeatmap
from minisym_widgets import gradient_heatmap as gh
from minisym_widgets._base import MAX_MESSAGE_BYTES, message_size


class _Square(mx.operator.CustomOp):
    """y = 3x²; its backward has the sign wrong."""

    def forward(self, is_train, req, in_data, out_data, aux):
        x = in_data[0].asnumpy()
        self.assign(out_data[0], req[0], mx.nd.array(3 * x * x, dtype=x.dtype))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        x, dy = in_data[0].asnumpy(), out_grad[0].asnumpy()
        self.assign(in_grad[0], req[0], mx.nd.array(-6 * x * dy, dtype=x.dtype))


@mx.operator.register("gh_square")
class _SquareProp(mx.operator.CustomOpProp):
    def __init__(self):
        super().__init__(need_top_grad=True)

    def infer_shape(self, in_shape):
        return in_shape, in_shape, []

    def create_operator(self, ctx, shapes, dtypes):
        return _Square()


SQUARE = mx.sym.Custom(mx.sym.Variable("data"), op_type="gh_square", name="sq")
X = np.random.RandomState(4).uniform(-2, 2, (4, 10))


@pytest.fixture(autouse=True)
def quiet_observers():
    """Each test starts with no observer and leaves the list as it found it."""
    before = list(checks.mismatch_observers)
    checks.mismatch_observers[:] = []
    yield
    checks.mismatch_observers[:] = before


def failed_check():
    """The AssertionError of check_numeric_gradient on the sign-flipped square."""
    np.random.seed(3)
    with pytest.raises(AssertionError) as info:
        mx.test_utils.check_numeric_gradient(
            SQUARE, [X], numeric_eps=1e-3, rtol=1e-2, atol=1e-4, dtype=np.float64
        )
    return info.value


def mismatch(expected, got, rtol=1e-2, atol=1e-4, names=("numeric", "symbolic")):
    return Mismatch.find(
        np.asarray(expected, float), np.asarray(got, float), rtol, atol, names=names
    )


# --------------------------------------------------------------------------- traits
def test_a_failed_check_is_drawn_from_what_its_error_carries():
    error = failed_check()
    m = error.mismatch
    w = GradientHeatmap.from_error(error)
    assert w.caption == (
        "check_numeric_gradient failed on in_grad[0] ('data', "
        "list_arguments()[0]) of Custom 'sq' (op_type='gh_square')"
    )
    worst = m.worst_index
    index = f"[{worst[0]}, {worst[1]}]"
    assert w.summary.startswith(
        "shape (4, 10): 40 of 40 elements outside rtol=0.01, "
        f"atol=0.0001; worst at {index}: numeric "
    )
    assert w.summary.endswith("(sign flipped)")
    assert w.hints == m.hints and "symbolic is -numeric everywhere: the sign is flipped." in w.hints
    assert (w.grid["rows"], w.grid["columns"], w.grid["block"]) == (4, 10, [1, 1])
    assert w.grid["index"][w.worst["cell"]] == index == w.worst["index"]
    assert w.worst["cell"] == worst[0] * 10 + worst[1]
    assert (w.worst["relation"], w.fold, w.slices) == (
        "sign flipped",
        "rows: axis 0, columns: axis 1",
        1,
    )
    assert float(w.grid["a"][7]) == pytest.approx(m.expected[0, 7], rel=1e-3)
    assert float(w.grid["b"][7]) == pytest.approx(m.got[0, 7], rel=1e-3)
    assert w.labels["error_panel"] == "|numeric − symbolic| ÷ tolerance"
    assert GradientHeatmap(error).grid == w.grid  # the error itself will do


def test_colours_follow_sign_and_tolerance():
    w = GradientHeatmap(mismatch([[1.0, -1.0, 0.0, 2.0]], [[1.0, -1.0, 0.5, -2.0]]))
    assert w.grid["a_colour"][:3] == [
        gh._mix(gh.VALUE_STOPS, 0.75),
        gh._mix(gh.VALUE_STOPS, 0.25),
        gh.VALUE_STOPS[1],
    ]
    assert w.grid["error_colour"][0] == gh.PASS_STOPS[0]  # equal: no error at all
    assert w.grid["error_colour"][3] == gh.FAIL_STOPS[-1]  # the largest ratio: the darkest
    assert w.legend["ratio_max"] == pytest.approx(4 / (1e-4 + 2e-2), rel=1e-3)


def test_text_and_html_are_deterministic():
    m = mismatch(np.arange(12.0).reshape(3, 4), -np.arange(12.0).reshape(3, 4))
    m.found_by(
        "check_numeric_gradient",
        "in_grad[0] ('data', list_arguments()[0]) of Custom 'sm'",
        "data",
        ["symbolic is -numeric everywhere: the sign is flipped."],
    )
    w = GradientHeatmap(m)
    assert w.text() == (
        "GradientHeatmap: check_numeric_gradient failed on in_grad[0] ('data', "
        "list_arguments()[0]) of Custom 'sm'\n"
        "shape (3, 4): 11 of 12 elements outside rtol=0.01, atol=0.0001; worst at [2, 3]: "
        "numeric 11, symbolic -11 (sign flipped)\n"
        "  symbolic is -numeric everywhere: the sign is flipped."
    )
    assert repr(w) == w.text()
    html = w.html()
    assert html == GradientHeatmap(m).html()
    assert html.count("<td") == 12 and html.count("msw-gh-worst") == 1
    assert "0x" not in html and "(sign flipped)" in html


def test_not_finite_values_are_black_and_the_state_is_strict_json():
    w = GradientHeatmap(mismatch([1.0, 2.0, 3.0], [1.0, np.nan, np.inf]))
    assert w.grid["b"][1:] == ["nan", "inf"] and w.grid["ratio"][1:] == ["inf", "inf"]
    assert w.grid["error_colour"][1:] == [gh.NOT_FINITE] * 2
    assert w.legend["any_not_finite"] and w.worst["relation"] == "symbolic is not finite"
    json.dumps(w.get_state(), allow_nan=False)


def test_anything_but_a_mismatch_is_refused_with_what_to_pass():
    with pytest.raises(TypeError, match=r"pass error.mismatch .* got ndarray"):
        GradientHeatmap(np.zeros(3))
    assert GradientHeatmap.from_error(ValueError("no mismatch")) is None


# --------------------------------------------------------------------------- folding
def test_zero_and_one_axis_arrays_are_one_row():
    w = GradientHeatmap(mismatch(np.float64(1.0), np.float64(2.0)))
    assert (w.grid["rows"], w.grid["columns"], w.fold, w.worst["index"]) == (
        1,
        1,
        "one value",
        "[]",
    )
    w = GradientHeatmap(mismatch(np.zeros(7), np.eye(7)[5]))
    assert (w.grid["rows"], w.grid["columns"], w.worst["index"]) == (1, 7, "[5]")
    assert w.worst["cell"] == 5 and w.fold == "one row: axis 0 (7 elements) across"


def test_more_axes_show_one_slice_of_the_last_two_starting_at_the_worst():
    want = np.zeros((2, 3, 4, 5))
    got = want.copy()
    got[1, 0, 2, 3], got[0, 2, 1, 1] = 5.0, 1.0
    w = GradientHeatmap(mismatch(want, got))
    assert (w.slices, w.slice_index, w.slice_label) == (6, 3, "[1, 0, :, :]")
    assert w.fold == (
        "slice [1, 0, :, :] of 6 slices over axes 0–1 (rows: axis 2, columns: axis 3)"
    )
    assert w.grid["index"][w.worst["cell"]] == "[1, 0, 2, 3]"
    assert [b["fails"] for b in w.slice_bars] == [False, False, True, True, False, False]
    w.slice_index = 2
    assert w.slice_label == "[0, 2, :, :]" and w.worst["cell"] == -1
    assert w.grid["ratio"][1 * 5 + 1] == "99" and w.worst["slice_index"] == 3
    w.slice_index = 99
    assert w.slice_index == 5  # clamped to the last slice
    assert w.text().splitlines()[2] == (
        "slice [1, 2, :, :] of 6 slices over axes 0–1 (rows: axis 2, columns: axis 3)"
    )


# --------------------------------------------------------------------------- downsampling
@pytest.mark.parametrize(
    "shape, worst",
    [
        ((300, 500), (123, 457)),
        ((300, 500), (299, 499)),
        ((41, 61), (40, 0)),
        ((1, 10_000), (0, 7777)),
    ],
)
def test_pooling_keeps_the_worst_element_visible(shape, worst):
    rng = np.random.RandomState(1)
    want = rng.randn(*shape)
    got = want * (1 + rng.uniform(-0.05, 0.05, shape))  # many small errors, everywhere
    got[worst] += 10.0
    w = GradientHeatmap(mismatch(want, got, rtol=1e-3, atol=1e-3))
    grid = w.grid
    assert grid["rows"] <= gh.MAX_ROWS and grid["columns"] <= gh.MAX_COLUMNS
    cell = w.worst["cell"]
    assert grid["index"][cell] == w.worst["index"] == "[" + ", ".join(map(str, worst)) + "]"
    assert cell == (worst[0] // grid["block"][0]) * grid["columns"] + worst[1] // grid["block"][1]
    assert grid["error_colour"][cell] == gh.FAIL_STOPS[-1]  # max-pooled: the darkest cell
    assert message_size(w.get_state()) < MAX_MESSAGE_BYTES


def test_a_large_four_axis_array_stays_under_the_message_cap():
    want = np.random.RandomState(2).randn(64, 3, 224, 224).astype(np.float32)
    got = -want
    w = GradientHeatmap(mismatch(want, got))
    assert len(w.slice_bars) <= gh.MAX_SLICE_BARS and w.slices == 192
    assert message_size(w.get_state()) < MAX_MESSAGE_BYTES


# --------------------------------------------------------------------------- observer
@pytest.fixture
def kernel(monkeypatch):
    """A Jupyter kernel as far as the engine can tell; what it displays, in order."""
    shown = []
    monkeypatch.setattr(progress, "in_kernel", lambda: True)
    monkeypatch.setattr("IPython.display.display", shown.append)
    return shown


def test_in_a_kernel_a_failed_check_displays_its_heatmap_before_raising(kernel):
    assert gh.install() and gh.install()
    assert checks.mismatch_observers == [gh.show_before_raise]  # once, however often
    error = failed_check()
    assert len(kernel) == 1 and isinstance(kernel[0], GradientHeatmap)
    assert kernel[0].worst["index"] == gh._index_text(error.mismatch.worst_index)
    mx.test_utils.check_numeric_gradient(mx.sym.tanh(mx.sym.Variable("data")), [X])
    assert len(kernel) == 1  # a passing check shows nothing


def test_outside_a_kernel_nothing_is_installed_or_shown(monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", shown.append)
    assert gh.install() is False and checks.mismatch_observers == []
    checks.mismatch_observers.append(gh.show_before_raise)  # installed in a kernel, then...
    failed_check()
    assert shown == []


def test_show_difference_compares_and_displays_only_what_differs(kernel):
    assert GradientHeatmap.show_difference(np.ones(3), np.ones(3) + 1e-6) is None
    w = GradientHeatmap.show_difference(
        np.ones((2, 2)), -np.ones((2, 2)), slot="in_grad[0]", names=("expected", "yours")
    )
    assert kernel == [w] and w.caption == "in_grad[0]"
    assert w.summary.endswith("expected 1, yours -1 (sign flipped)")


def test_importing_the_module_outside_a_kernel_registers_nothing():
    code = (
        "import minisym.test_utils.checks as c, minisym_widgets.gradient_heatmap; "
        "print(c.mismatch_observers)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_importing_the_package_in_a_kernel_registers_the_heatmap():
    code = (
        "import ipykernel, minisym.module.progress as p; p.in_kernel = lambda: True; "
        "import minisym_widgets, minisym.test_utils.checks as c; "
        "print([f.__qualname__ for f in c.mismatch_observers])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['show_before_raise']"
