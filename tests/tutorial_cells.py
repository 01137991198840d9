"""Run the Python code cells of MXNet's own tutorials under minisym, as typed.

The tutorials are read at run time from a git copy of apache/mxnet (never committed here):

    python tests/tutorial_cells.py [GIT_DIR]    # default $MXNET_REPO

Each tutorial runs top to bottom in one namespace, in a temporary folder; each cell reports
'ok', 'FAIL' (with the exception) or 'skipped' (a cell that would fork this process). The only
edit made to a cell is the one minisym's gluon message asks for: ``from mxnet import gluon,
autograd`` becomes ``from mxnet import autograd``; ``mxnet`` is imported as minisym.
"""

import contextlib
import io
import os
import re
import subprocess
import sys
import tempfile

DEFAULT_GIT_DIR = os.environ.get("MXNET_REPO", "")

# (git tag, path in the repository): the tutorials that use what minisym has
TUTORIALS = [
    ("1.9.1", "docs/python_docs/python/tutorials/extend/customop.md"),
    ("1.9.1", "docs/python_docs/python/tutorials/getting-started/crash-course/1-ndarray.md"),
    ("1.9.1", "docs/python_docs/python/tutorials/getting-started/crash-course/3-autograd.md"),
    ("1.9.1", "docs/python_docs/python/tutorials/packages/ndarray/01-ndarray-intro.md"),
    ("1.9.1", "docs/python_docs/python/tutorials/packages/ndarray/02-ndarray-operations.md"),
    ("1.5.0", "docs/tutorials/basic/symbol.md"),  # 1.9.1's docs have no symbol / module /
    ("1.5.0", "docs/tutorials/basic/data.md"),  # io tutorials: these are the last ones
    ("1.5.0", "docs/tutorials/basic/ndarray_indexing.md"),
]

_FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```", re.S | re.M)


def markdown(git_dir, tag, path):
    """The tutorial's text from the git copy."""
    return subprocess.run(
        ["git", "--git-dir", git_dir, "show", f"{tag}:{path}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def code_cells(text):
    """[(line number, code)] of the ```python fences."""
    return [
        (text[: m.start()].count("\n") + 1, m.group(2))
        for m in _FENCE.finditer(text)
        if "python" in m.group(1)
    ]


def as_minisym(code):
    """The cell with ``mxnet`` read as minisym, notebook magics dropped, and the gluon import
    edited as minisym's message says."""
    code = "\n".join(line for line in code.splitlines() if not line.startswith(("%", "!")))
    code = code.replace("from mxnet import gluon, ", "from mxnet import ")
    code = code.replace("import mxnet as mx", "import minisym as mx")
    code = re.sub(r"\bfrom mxnet\b", "from minisym", code)
    return re.sub(r"\bimport mxnet\b", "import minisym as mxnet", code)


def run_tutorial(text, name):
    """[(line, status, first line of the cell, why)] for every code cell of ``text``."""
    namespace = {"__name__": "__main__"}
    results = []
    here = os.getcwd()
    os.chdir(tempfile.mkdtemp(prefix="minisym-tutorial-"))
    try:
        for line, code in code_cells(text):
            first = code.strip().splitlines()[0][:70] if code.strip() else ""
            if "os.fork()" in code:
                results.append((line, "skipped", first, "forks the process"))
                continue
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    exec(compile(as_minisym(code), f"{name}:{line}", "exec"), namespace)
                results.append((line, "ok", first, ""))
            except Exception as exc:  # noqa: BLE001 - reported, the next cell still runs
                text_ = str(exc).splitlines()[0][:200] if str(exc) else ""
                results.append((line, "FAIL", first, f"{type(exc).__name__}: {text_}"))
    finally:
        os.chdir(here)
    return results


def main(argv):
    git_dir = argv[1] if len(argv) > 1 else DEFAULT_GIT_DIR
    for tag, path in TUTORIALS:
        results = run_tutorial(markdown(git_dir, tag, path), os.path.basename(path))
        ok = sum(status == "ok" for _, status, _, _ in results)
        print(f"{tag} {path}: {ok}/{len(results)} cells ran")
        for line, status, first, why in results:
            if status != "ok":
                print(f"    line {line} {status}: {first!r}: {why}")


if __name__ == "__main__":
    import matplotlib

    matplotlib.use("Agg")
    main(sys.argv)
