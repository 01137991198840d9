"""Run lessons the way nbval and a learner do, and store their outputs.

    python tests/notebooks.py lessons/01_symbols.ipynb ...   # execute in place, store outputs

Each notebook runs top to bottom in a fresh kernel of this interpreter, from its own folder,
with Jupyter's and IPython's user folders replaced by empty temporary ones (a learner's profile
must not change what a lesson prints) and one BLAS thread, as `make test` runs nbval: for speed
only, since two kernels share the two cores there. What a lesson prints does not depend on the
thread count (tests/test_lessons_any_machine.py runs the lessons with 1 and 2). Cells
tagged ``raises-exception`` may raise. The stored notebook keeps no widget state
(``metadata.widgets``): GitHub refuses to render partial state, and nbval ignores it anyway;
nor the times each cell ran.
"""

import contextlib
import os
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

CELL_TIMEOUT = 300  # seconds; a cold numba cache compiles kernels inside the first cells


@contextlib.contextmanager
def clean_jupyter_env(one_blas_thread=True, env=None):
    """Point JUPYTER_* / IPYTHONDIR at empty temporary folders, with one BLAS thread unless
    told otherwise and the variables of ``env`` set (e.g. the language), while the block runs."""
    keys = ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR")
    fixed = {"JUPYTER_PLATFORM_DIRS": "1"}
    if one_blas_thread:
        fixed.update(OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    fixed.update(env or {})
    saved = {key: os.environ.get(key) for key in keys + tuple(fixed)}
    with tempfile.TemporaryDirectory(prefix="lesson-env-") as home:
        for key in keys:
            os.environ[key] = str(Path(home) / key.lower())
            Path(os.environ[key]).mkdir()
        os.environ.update(fixed)
        try:
            yield
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value


def execute(path, store=True, one_blas_thread=True, env=None):
    """Run the notebook at ``path`` in a fresh kernel whose environment also has the variables
    of ``env``; return (notebook, seconds)."""
    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    client = NotebookClient(
        nb,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        store_widget_state=False,
        allow_error_names=[],
        record_timing=False,
    )
    start = time.perf_counter()
    with clean_jupyter_env(one_blas_thread, env):
        client.execute()
    seconds = time.perf_counter() - start
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:  # when each cell ran: noise in every diff of a stored lesson
        cell.metadata.pop("execution", None)
    if store:
        nbformat.write(nb, path)
    return nb, seconds


def main(paths):
    for path in paths:
        _, seconds = execute(path)
        print(f"{path}: executed in {seconds:.1f} s, outputs stored")


if __name__ == "__main__":
    main(sys.argv[1:])
