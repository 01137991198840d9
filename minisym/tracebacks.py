"""Tracebacks a learner can read: in IPython and Jupyter, the engine's own frames are left out.

A mistake in a notebook cell used to print a dozen frames of ``minisym/bind.py``,
``lifecycle.py`` and ``executor.py`` before the one line that says what is wrong. The message
names the operator, node and fix already; what the learner needs from the traceback is *their*
lines: the cell, and their own CustomOp or Prop code when the error happened inside it. So,
as JAX does, the frames whose code lives inside the installed engine (``minisym`` and
``minisym_widgets``) are removed from what IPython shows. Nothing changes outside IPython (a
script or pytest shows every frame), and ``MINISYM_TRACEBACK=full`` shows every frame in a
notebook too.
"""

import importlib.util
import os
import types
from pathlib import Path

__all__ = ["learner_frames", "install"]


def _engine_dirs():
    """The folders of minisym and minisym_widgets, wherever they are installed."""
    folders = [Path(__file__).resolve().parent]
    widgets = importlib.util.find_spec("minisym_widgets")
    if widgets is not None and widgets.origin:
        folders.append(Path(widgets.origin).resolve().parent)
    return tuple(str(folder) + os.sep for folder in folders)


ENGINE_DIRS = _engine_dirs()
HIDDEN_NOTE = "({count} frames inside minisym hidden; set MINISYM_TRACEBACK=full to see them)"


def _in_engine(tb):
    return os.path.abspath(tb.tb_frame.f_code.co_filename).startswith(ENGINE_DIRS)


def learner_frames(tb):
    """(``tb`` without the frames of the engine's own files, how many were left out)."""
    kept, hidden = [], 0
    while tb is not None:
        if _in_engine(tb):
            hidden += 1
        else:
            kept.append(tb)
        tb = tb.tb_next
    filtered = None
    for frame in reversed(kept):
        filtered = types.TracebackType(filtered, frame.tb_frame, frame.tb_lasti, frame.tb_lineno)
    return filtered, hidden


def _filter_chain(value, seen):
    """Filter ``value``'s traceback and those of the exceptions it was raised from."""
    while value is not None and id(value) not in seen:
        seen.add(id(value))
        tb, hidden = learner_frames(value.__traceback__)
        if hidden and tb is not None:
            value.__traceback__ = tb
        value = value.__cause__ or value.__context__


def _show(shell, etype, value, tb, tb_offset=None):
    """IPython's custom exception handler: show the traceback without the engine's frames."""
    if os.environ.get("MINISYM_TRACEBACK", "").lower() != "full":
        filtered, hidden = learner_frames(tb)
        if hidden and filtered is not None:
            tb = filtered
            _filter_chain(value.__cause__ or value.__context__, {id(value)})
            note = HIDDEN_NOTE.format(count=hidden)
            if hasattr(value, "add_note") and note not in getattr(value, "__notes__", ()):
                value.add_note(note)
    shell.showtraceback((etype, value, tb), tb_offset=tb_offset)


def install():
    """Use the readable tracebacks in the running IPython, if there is one."""
    import sys

    if "IPython" not in sys.modules:  # no IPython is running: do not import it (17 MiB)
        return False
    from IPython import get_ipython

    shell = get_ipython()
    if shell is None:
        return False
    if shell.custom_exceptions and not getattr(shell, "_minisym_tracebacks", False):
        return False  # someone else installed a handler: leave theirs
    shell.set_custom_exc((Exception,), _show)
    shell._minisym_tracebacks = True
    return True
