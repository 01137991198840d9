"""fit's progress in a notebook: one live widget bar per epoch whose text form, the only part a
stored notebook keeps, holds no number that training computed (those differ in their last
digits from one processor to another; tests/test_lessons_any_machine.py runs lesson 8 on
several kinds of arithmetic against one set of stored outputs)."""

import io
import re

import numpy as np
import pytest

import minisym as mx
from minisym.module import progress


def mlp():
    x = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=3, name="fc1")
    return mx.sym.SoftmaxOutput(x, name="softmax")


def train_iter():
    rng = np.random.default_rng(0)
    labels = np.arange(12) % 3
    data = rng.standard_normal((12, 5)).astype(np.float32)
    data[np.arange(12), labels] += 3.0
    return mx.io.NDArrayIter(data, labels.astype(np.float32), batch_size=4)


@pytest.fixture
def notebook(monkeypatch):
    """A kernel as far as fit can tell; the widgets fit displays, in order."""
    shown = []
    monkeypatch.setattr(progress, "in_kernel", lambda: True)
    monkeypatch.setattr("IPython.display.display", shown.append)
    return shown


def test_auto_draws_widgets_in_a_kernel_and_text_elsewhere(notebook, monkeypatch):
    assert progress.resolve(True, io.StringIO()) == "notebook"
    assert progress.resolve("stable", io.StringIO()) == "stable"  # asked for: kept
    monkeypatch.setattr(progress, "in_kernel", lambda: False)
    assert progress.resolve(True, io.StringIO()) == "stable"
    assert progress.resolve("notebook", io.StringIO()) == "stable"  # nowhere to draw it


def test_each_epoch_shows_one_widget_whose_text_has_no_trained_number(notebook):
    mx.mod.Module(mlp()).fit(
        train_iter(), num_epoch=2, eval_metric="acc", optimizer_params={"learning_rate": 0.5}
    )
    assert [repr(w) for w in notebook] == [
        "Epoch[0]: 3 batches (live bar: loss, accuracy)",
        "Epoch[1]: 3 batches (live bar: loss, accuracy)",
    ]
    assert [w._dom_classes for w in notebook] == [("msw-fit",), ("msw-fit",)]
    live = notebook[-1].value  # what JupyterLab shows: the bar at its end, with the numbers
    assert '<progress value="3" max="3"' in live and "batch 3/3" in live
    assert re.search(r"loss=\d\.\d{4}  accuracy=\d\.\d{4}</div>$", live), live


def test_the_text_form_names_what_the_bar_shows_before_any_batch():
    bar = progress.NotebookBar(4, None)
    assert bar.text() == "Epoch[4]: batches"
    bar.values = [("accuracy", 0.5)]
    assert bar.text() == "Epoch[4]: batches (live bar: accuracy)"
    bar.done = 7
    assert "Epoch[4] batch 7  accuracy=0.5000<" in bar.html()  # no total: no bar
    assert "<progress" not in bar.html()


def test_the_live_line_escapes_what_it_shows():
    bar = progress.NotebookBar(0, 2)
    bar.done, bar.values = 1, [("<b>", 1.0)]
    assert "&lt;b&gt;=1.0000" in bar.html() and "<b>" not in bar.html()
