"""The gradient heatmap in a real JupyterLab: a custom operator whose backward has the wrong
sign fails check_numeric_gradient, and the heatmap appears above the traceback with the worst
cell outlined; a 4-D difference is shown slice by slice, pooled, and the slider moves it."""

import re

import pytest
from lab import cell_output, open_notebook, run_all, write_notebook
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.xdist_group("browser")]

SETUP = """
import numpy as np
import ipywidgets
import minisym as mx
from minisym_widgets import GradientHeatmap


class Square(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        x = in_data[0].asnumpy()
        self.assign(out_data[0], req[0], mx.nd.array(3 * x * x))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        x, dy = in_data[0].asnumpy(), out_grad[0].asnumpy()
        self.assign(in_grad[0], req[0], mx.nd.array(-6 * x * dy))  # the sign is wrong


@mx.operator.register('page_square')
class SquareProp(mx.operator.CustomOpProp):
    def __init__(self):
        super().__init__(need_top_grad=True)

    def infer_shape(self, in_shape):
        return in_shape, in_shape, []

    def create_operator(self, ctx, shapes, dtypes):
        return Square()


square = mx.sym.Custom(mx.sym.Variable('data'), op_type='page_square', name='square')
x = np.random.RandomState(4).uniform(-2, 2, (4, 10))
"""

SLICED = """
rng = np.random.RandomState(0)
want = rng.randn(2, 3, 60, 90)
got = want.copy()
got[1, 2, 47, 71] += 3.0
got[0, 1] *= 1.01
sliced = GradientHeatmap.show_difference(want, got, names=('expected', 'yours'),
                                         slot="in_grad[0] ('data')")
echo = ipywidgets.HTML('python sees nothing yet')
echo.add_class('echo-slice')
sliced.observe(lambda _: setattr(echo, 'value', f'python sees slice_index={sliced.slice_index}'),
               names=['slice_index'])
display(echo)
"""

CELLS = [
    SETUP,
    SLICED,
    "from minisym_widgets._base import MAX_MESSAGE_BYTES\n"
    "print('largest message under cap:', sliced.largest_message < MAX_MESSAGE_BYTES)",
    "mx.test_utils.check_numeric_gradient(square, [x], numeric_eps=1e-3, rtol=1e-2, atol=1e-4)",
]


@pytest.fixture
def notebook(lab):
    write_notebook(lab.root / "gradient_heatmap.ipynb", CELLS)
    return "gradient_heatmap.ipynb"


def test_a_failed_gradient_check_shows_its_heatmap_above_the_traceback(
    page, lab, notebook, screenshot
):
    panel = open_notebook(page, lab, notebook)
    run_all(page, panel)
    outputs = cell_output(panel, 3)
    expect(outputs).to_have_count(2)
    heatmap = outputs.nth(0).locator(".msw-gradient-heatmap")
    expect(heatmap).to_be_visible()
    expect(outputs.nth(1)).to_contain_text("AssertionError: check_numeric_gradient: in_grad[0]")
    expect(heatmap.locator(".msw-gh-caption")).to_contain_text(
        "check_numeric_gradient failed on in_grad[0] ('data', list_arguments()[0]) of "
        "Custom 'square' (op_type='page_square')"
    )
    expect(heatmap.locator(".msw-gh-summary")).to_contain_text(
        "shape (4, 10): 40 of 40 elements outside rtol=0.01, atol=0.0001"
    )
    expect(heatmap.locator(".msw-gh-summary")).to_contain_text("(sign flipped)")
    for key in ("a_colour", "b_colour", "error_colour"):
        expect(heatmap.locator(f".msw-gh-panel-{key} .msw-gh-cell")).to_have_count(40)
        expect(heatmap.locator(f".msw-gh-panel-{key} .msw-gh-worst")).to_have_count(1)
    worst = heatmap.locator(".msw-gh-panel-error_colour .msw-gh-worst")
    index = worst.get_attribute("data-index")
    assert re.fullmatch(r"\[[0-3], \d\]", index), index
    inspector = heatmap.locator(".msw-gh-inspector")
    expect(inspector).to_contain_text(f"worst at {index}: numeric ")
    expect(inspector).to_contain_text("(sign flipped)")
    expect(heatmap).to_contain_text("symbolic is -numeric everywhere: the sign is flipped.")
    other = heatmap.locator(".msw-gh-panel-error_colour .msw-gh-cell[data-index='[0, 0]']")
    if index == "[0, 0]":
        other = heatmap.locator(".msw-gh-panel-error_colour .msw-gh-cell[data-index='[0, 1]']")
    other.hover()
    expect(inspector).not_to_contain_text("worst at")
    expect(inspector).to_contain_text(" × tolerance")
    page.mouse.move(0, 0)
    expect(inspector).to_contain_text(f"worst at {index}")
    screenshot(panel.locator(".jp-CodeCell").nth(3), "gradient_heatmap")

    check_slices(panel)
    expect(cell_output(panel, 2)).to_contain_text("largest message under cap: True")
    assert not page.errors, page.errors
    assert not page.external, page.external
    expect(panel.get_by_text("Error displaying widget")).to_have_count(0)


def check_slices(panel):
    sliced = cell_output(panel, 1).locator(".msw-gradient-heatmap")
    expect(sliced.locator(".msw-gh-slice-label")).to_have_text("[1, 2, :, :]")
    expect(sliced.locator(".msw-gh-fold")).to_contain_text(
        "each cell shows the worst of a block of 2 × 2 elements"
    )
    worst = sliced.locator(".msw-gh-panel-error_colour .msw-gh-worst")
    expect(worst).to_have_attribute("data-index", "[1, 2, 47, 71]")
    expect(sliced.locator(".msw-gh-panel-error_colour .msw-gh-cell")).to_have_count(30 * 45)
    expect(sliced.locator(".msw-gh-bar")).to_have_count(6)
    sliced.locator(".msw-gh-bar[data-slice='1']").click()
    expect(sliced.locator(".msw-gh-slice-label")).to_have_text("[0, 1, :, :]")
    expect(panel.locator(".echo-slice")).to_contain_text("python sees slice_index=1")
    expect(sliced.locator(".msw-gh-worst")).to_have_count(0)
    expect(sliced.locator(".msw-gh-inspector")).to_contain_text("(in slice [1, 2, :, :])")
    sliced.locator("button.msw-gh-show-worst").click()
    expect(sliced.locator(".msw-gh-slice-label")).to_have_text("[1, 2, :, :]")
    expect(panel.locator(".echo-slice")).to_contain_text("python sees slice_index=5")
