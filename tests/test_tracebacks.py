"""In a notebook a traceback shows the learner's lines, not the engine's: the cell, and their own
CustomOp code when the error happened inside it. Scripts and pytest keep every frame."""

import os
import re
import traceback

import nbformat
import pytest
from nbclient import NotebookClient

import minisym as mx
from minisym import tracebacks

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _files(tb):
    return [frame.filename for frame in traceback.extract_tb(tb)]


def _failing_bind():
    a, d = mx.sym.Variable("a"), mx.sym.Variable("d")
    (a + d).bind(mx.cpu(), args={"a": mx.nd.ones(1)})


def test_the_engines_frames_are_left_out_and_counted():
    with pytest.raises(ValueError) as info:
        _failing_bind()
    tb = info.value.__traceback__
    assert any("minisym" + os.sep in f for f in _files(tb))
    kept, hidden = tracebacks.learner_frames(tb)
    assert hidden >= 2 and all("minisym" + os.sep not in f for f in _files(kept))
    assert _files(kept)[-1] == __file__  # the learner's line that called bind


class Failing(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        raise ZeroDivisionError("the learner's own bug")


@mx.operator.register("tb_failing")
class FailingProp(mx.operator.CustomOpProp):
    def create_operator(self, ctx, shapes, dtypes):
        return Failing()


def test_a_custom_ops_own_frame_stays():
    net = mx.sym.Custom(mx.sym.Variable("data"), op_type="tb_failing", name="bad")
    ex = net.simple_bind(mx.cpu(), data=(2, 3))
    with pytest.raises(ZeroDivisionError) as info:
        ex.forward()
    kept, hidden = tracebacks.learner_frames(info.value.__traceback__)
    names = [frame.name for frame in traceback.extract_tb(kept)]
    assert hidden >= 1 and names[-1] == "forward" and "test_a_custom_ops_own_frame_stays" in names


def test_outside_ipython_nothing_is_installed():
    assert tracebacks.install() is False  # pytest is no IPython shell: tracebacks stay whole


def _run_cell(source, **env):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source)]
    nb.cells[0].metadata["tags"] = ["raises-exception"]
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        NotebookClient(nb, kernel_name="python3", timeout=120).execute()
    finally:
        for key, value in saved.items():
            os.environ.pop(key) if value is None else os.environ.__setitem__(key, value)
    error = nb.cells[0].outputs[-1]
    return error, ANSI.sub("", "\n".join(error["traceback"]))


CELL = (
    "import minisym as mx\n"
    "a, d = mx.sym.Variable('a'), mx.sym.Variable('d')\n"
    "(a + d).bind(mx.cpu(), args={'a': mx.nd.ones(1)})"
)


@pytest.mark.slow
def test_a_notebook_shows_the_cell_and_the_message_only():
    error, text = _run_cell(CELL)
    assert error["ename"] == "ValueError" and "key `d` is missing" in error["evalue"]
    assert "minisym" + os.sep not in text and "Cell In[1], line 3" in text
    assert "frames inside minisym hidden; set MINISYM_TRACEBACK=full" in text
    error, text = _run_cell(CELL, MINISYM_TRACEBACK="full")
    assert "minisym" + os.sep + "bind.py" in text
