"""The lessons' code is MXNet code: run it under the real MXNet 1.9.1 and compare.

Every code cell of a lesson, except those tagged ``minisym-only`` (widgets, exercise checks),
runs in one MXNet process with ``import minisym as mx`` replaced by ``import mxnet as mx``.
What a cell shows there (its printed text and the repr of its last expression, or the name of
the exception a ``raises-exception`` cell raises) must equal what the stored notebook shows.
A cell tagged ``mxnet-differs`` is run but not compared: it is where a lesson teaches one of the
README's differences from MXNet. Needs ``../shared/tools/mxnet-oracle``; a clone without it
skips, saying so. The oracle's venv holds MXNet and NumPy only: a lesson that imports one of
ORACLE_EXTRAS (lesson 8's scikit-learn and matplotlib) gets it pip-installed there once, with
NumPy kept at the version MXNet needs; if that install fails, the lesson skips, saying why.
"""

import builtins
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
ORACLE = ROOT.parent / "shared" / "tools" / "mxnet-oracle"
LESSONS = sorted((ROOT / "lessons").glob("[0-9][0-9]_*.ipynb"))
RUNNER = Path(__file__).with_name("lesson_cells_runner.py")
# What lessons import beyond MXNet and NumPy: import name -> what to pip-install into the oracle.
ORACLE_EXTRAS = {"sklearn": "scikit-learn", "matplotlib": "matplotlib"}


def _tags(cell):
    return set(cell.metadata.get("tags", []))


def mxnet_cells(nb):
    """[(cell index, source)] of the cells that must also run under MXNet."""
    return [
        (i, cell.source.replace("import minisym as mx", "import mxnet as mx"))
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "code" and "minisym-only" not in _tags(cell)
    ]


def imported_extras(sources):
    """The ORACLE_EXTRAS import names that ``sources`` import."""
    return sorted(
        name
        for name in ORACLE_EXTRAS
        if any(re.search(rf"^\s*(import|from)\s+{name}\b", src, re.M) for src in sources)
    )


def _oracle(*args, timeout=600):
    return subprocess.run([str(ORACLE), *args], capture_output=True, text=True, timeout=timeout)


def ensure_oracle_extras(names):
    """pip-install into the oracle's venv those of ``names`` it cannot import (NumPy pinned at
    the version there, which MXNet 1.9.1 needs); skip loudly if that fails."""
    missing = [n for n in names if _oracle("-c", f"import {n}").returncode != 0]
    if not missing:
        return
    numpy = _oracle("-c", "import numpy; print(numpy.__version__)").stdout.strip()
    install = _oracle(
        "-m", "pip", "install", "-q", *(ORACLE_EXTRAS[n] for n in missing), f"numpy=={numpy}"
    )
    still = [n for n in missing if _oracle("-c", f"import {n}").returncode != 0]
    if install.returncode != 0 or still:
        pytest.skip(
            f"MXNET ORACLE LACKS {', '.join(still or missing)}: pip install "
            f"{' '.join(ORACLE_EXTRAS[n] for n in missing)} into the oracle's venv "
            f"failed: {(install.stderr or install.stdout)[-500:]}"
        )


def _flat(text):
    """``text`` with every run of whitespace made one space: IPython's pretty printer breaks
    long reprs over lines where plain ``repr`` does not."""
    return None if text is None else re.sub(r"\s+", " ", text).strip()


def shown(cell):
    """What a stored cell shows: its stream text, its last value's repr, or its exception."""
    text, value, raised = "", None, None
    for out in cell.outputs:
        if out.output_type == "stream":
            text += out.text
        elif out.output_type == "execute_result":
            value = out.data.get("text/plain")
        elif out.output_type == "error":
            raised = out.ename
    return {"text": text, "value": _flat(value), "raised": raised}


def same(mxnet, lesson):
    """Equal; for a cell that raises, the same exception class, where minisym's subclasses of
    its MXNetError (MXNetValueError, ...) count as MXNet's MXNetError (README difference 7).
    What such a cell printed is not compared: MXNet prints its own diagnostics before raising
    (infer_shape prints the arguments), minisym puts them in the message."""
    if mxnet["raised"] or lesson["raised"]:
        theirs, ours = mxnet["raised"], lesson["raised"] or ""
        return (
            theirs == ours
            or (theirs == "MXNetError" and ours.endswith("Error") and not hasattr(builtins, ours))
            or _subclass(ours, theirs)
        )
    return mxnet == lesson


def _subclass(ours, theirs):
    """Whether minisym's exception class ``ours`` is a subclass of the builtin ``theirs`` (its
    NoPatternError is a ValueError, which is what MXNet raises there)."""
    import minisym  # noqa: F401 (the lessons' engine, only for its exception classes)

    builtin = getattr(builtins, theirs or "", None)
    if not (isinstance(builtin, type) and issubclass(builtin, BaseException)):
        return False
    for name, module in list(sys.modules.items()):
        found = getattr(module, ours, None) if name.startswith("minisym") else None
        if isinstance(found, type) and issubclass(found, builtin):
            return True
    return False


@pytest.mark.slow
@pytest.mark.parametrize("lesson", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_code_runs_the_same_under_mxnet(lesson, tmp_path):
    if not ORACLE.exists():
        pytest.skip(
            f"MXNET ORACLE MISSING: {ORACLE} not found; the lessons' MXNet check needs "
            "../shared beside the project"
        )
    nb = nbformat.read(lesson, as_version=4)
    cells = mxnet_cells(nb)
    script = tmp_path / "cells.json"
    script.write_text(json.dumps([source for _, source in cells]))
    ensure_oracle_extras(imported_extras([source for _, source in cells]))
    run = subprocess.run(
        [str(ORACLE), str(RUNNER), str(script)],
        cwd=lesson.parent,
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ, MPLBACKEND="Agg"),
    )  # figures drawn, not shown
    assert run.returncode == 0, run.stderr[-3000:]
    results = json.loads(run.stdout.splitlines()[-1])
    for (index, _), got in zip(cells, results):
        cell, got = nb.cells[index], dict(got, value=_flat(got["value"]))
        if "mxnet-differs" in _tags(cell):
            continue
        assert same(got, shown(cell)), (
            f"{lesson.name} cell {index} ({cell.source[:60]!r}...): "
            f"MXNet shows {got}, the lesson stores {shown(cell)}"
        )


def test_runner_shows_what_ipython_shows():
    sys.path.insert(0, str(RUNNER.parent))
    from lesson_cells_runner import run_cell

    namespace = {}
    assert run_cell("x = [1, 2]\nprint('hi')\nx", namespace) == {
        "text": "hi\n",
        "value": "[1, 2]",
        "raised": None,
    }
    assert run_cell("x.append(3)", namespace)["value"] is None
    assert run_cell("x[7]", namespace)["raised"] == "IndexError"
    assert _flat("['a',\n 'b']") == "['a', 'b']"
    assert imported_extras(
        [
            "import numpy as np\nfrom sklearn.datasets import load_digits",
            "import matplotlib.pyplot as plt",
            "# import sklearn",
        ]
    ) == ["matplotlib", "sklearn"]
    shows = {"text": "", "value": None, "raised": "MXNetError"}
    assert same(shows, dict(shows, raised="MXNetValueError"))
    assert not same(shows, dict(shows, raised="ValueError"))
    assert same(shows, dict(shows, raised="ElemwiseShapeError", text="printed"))
    assert not same(dict(shows, raised=None), dict(shows, raised=None, value="1"))
