"""Predict, then run, in a real JupyterLab: a learner types a prediction, presses check (or
Enter), reads the verdict, asks to be shown the answer; Python counts every try."""

from pathlib import Path

import pytest
from lab import cell_output, open_notebook, run_all, write_notebook
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.xdist_group("browser")]

TESTS = Path(__file__).resolve().parents[1]

SETUP = (
    (TESTS / "softmax_op.py").read_text()
    + """
import ipywidgets
from minisym_widgets import Predict

def echo_of(widget, css_class):
    shown = ipywidgets.HTML('python sees nothing yet')
    shown.add_class(css_class)
    def update(_):
        shown.value = (f'python sees attempts={widget.attempts} solved={widget.solved} '
                       f'revealed={widget.revealed}')
    widget.observe(update, names=['attempts', 'solved', 'revealed'])
    return shown

data = mx.sym.Variable('data')
fc1 = mx.sym.FullyConnected(data, num_hidden=64, name='fc1')
relu1 = mx.sym.Activation(fc1, act_type='relu', name='relu1')
fc2 = mx.sym.FullyConnected(relu1, num_hidden=10, name='fc2')
net = mx.sym.SoftmaxOutput(fc2, name='softmax')
"""
)

CELLS = [
    SETUP,
    "names = Predict.arguments(net, question='What does net.list_arguments() return?')\n"
    "display(names, echo_of(names, 'echo-names'))",
    "req = Predict.req(SoftmaxProp, 1, shapes={'data': (8, 10), 'label': (8,)},\n"
    "                  grad_req={'data': 'write', 'label': 'null'},\n"
    '                  question="In backward, what is req[1] when the label is bound with '
    "grad_req 'null'?\")\n"
    "display(req, echo_of(req, 'echo-req'))",
]


@pytest.fixture
def notebook(lab):
    write_notebook(lab.root / "predict.ipynb", CELLS)
    return "predict.ipynb"


def test_predict_then_check_then_show_me(page, lab, notebook, screenshot):
    panel = open_notebook(page, lab, notebook)
    run_all(page, panel)

    names = cell_output(panel, 1).locator(".msw-predict")
    expect(names.locator(".msw-predict-question")).to_contain_text(
        "What does net.list_arguments() return?"
    )
    reveal = names.locator("button.msw-predict-reveal")
    expect(reveal).to_be_hidden()  # nothing to show before a try
    expect(names.locator(".msw-predict-answer")).to_have_count(0)

    # A wrong try, typed key by key: 'a', 'b', 'd' are notebook shortcuts in command mode, and
    # must only type here. Two implicit names are left out, each explained.
    typed = "data, fc1_weight, fc2_weight, softmax_label"
    field = names.locator("input.msw-predict-input")
    field.click()
    field.press_sequentially(typed)
    expect(field).to_have_value(typed)
    expect(panel.locator(".jp-Cell")).to_have_count(len(CELLS))
    names.locator("button.msw-predict-check").click()
    verdict = names.locator(".msw-predict-verdict")
    expect(verdict).to_have_attribute("data-verdict", "wrong")
    expect(verdict.locator(".msw-predict-headline")).to_have_text("4 of 6 names right.")
    expect(verdict.locator(".msw-predict-changes li").first).to_contain_text(
        "Add 'fc1_bias': it is an implicit variable of FullyConnected 'fc1'"
    )
    expect(panel.locator(".echo-names")).to_contain_text("attempts=1 solved=False")
    expect(names.locator(".msw-predict-answer")).to_have_count(0)  # the answer stays hidden
    expect(reveal).to_be_visible()
    page.mouse.move(0, 0)  # no button drawn as hovered in the picture
    screenshot(names, "predict")

    reveal.click()
    expect(names.locator(".msw-predict-answer-text")).to_have_text(
        "['data', 'fc1_weight', 'fc1_bias', 'fc2_weight', 'fc2_bias', 'softmax_label']"
    )
    expect(panel.locator(".echo-names")).to_contain_text("revealed=True")
    expect(reveal).to_be_hidden()

    # Enter checks too; a req question, wrong then right.
    req = cell_output(panel, 2).locator(".msw-predict")
    field = req.locator("input.msw-predict-input")
    field.fill("write")
    expect(field).to_have_attribute("placeholder", "write, add or null")
    field.press("Enter")
    expect(req.locator(".msw-predict-headline")).to_have_text("Not 'write'.")
    expect(req.locator(".msw-predict-facts")).to_contain_text("look at how 'label' was bound")
    field.fill("null")
    field.press("Enter")
    expect(req.locator(".msw-predict-verdict")).to_have_attribute("data-verdict", "right")
    expect(req.locator(".msw-predict-facts")).to_contain_text("grad_req='null'")
    expect(req).to_have_class("msw msw-predict msw-predict-solved")
    expect(req.locator(".msw-predict-tries")).to_contain_text("write · null")
    expect(panel.locator(".echo-req")).to_contain_text("attempts=2 solved=True")
    page.mouse.move(0, 0)
    screenshot(req, "predict_req")

    assert not page.errors, page.errors
    assert not page.external, page.external
    expect(panel.get_by_text("Error displaying widget")).to_have_count(0)
