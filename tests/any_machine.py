"""The configurations that stand in for other machines, and lesson 8's figures under each.

A stored lesson output is a promise to every learner on every machine. Each configuration below
changes the arithmetic a learner's machine could do differently from the one that stored the
outputs: the kernels (numba, plain NumPy, Winograd), the BLAS thread count (which changes how a
matrix product splits its sums) and the instructions numba compiles for (a generic x86-64 instead
of this processor). ``test_lessons_any_machine.py`` runs every lesson under strict nbval in each.

    python tests/any_machine.py          # lesson 8's final figures, unrounded, per configuration

The figures differ between configurations in their last digits (proof that the configurations
exercise different arithmetic); the stored outputs must not.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ROOT / "lessons"

# name -> environment variables over a learner's defaults
CONFIGS = {
    "numba kernels, 1 BLAS thread": {"OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"},
    "numba kernels, 2 BLAS threads": {"OPENBLAS_NUM_THREADS": "2", "MKL_NUM_THREADS": "2"},
    "NumPy reference kernels": {"MINISYM_KERNELS": "reference"},
    "Winograd convolutions": {"MINISYM_KERNELS": "winograd"},
    "numba for a generic processor": {"NUMBA_CPU_NAME": "generic", "NUMBA_CACHE_DIR": None},
}


def environment(name, scratch):
    """``os.environ`` with configuration ``name`` applied; ``scratch`` holds a private numba
    cache where the configuration needs one (numba keys its cache by processor name, so
    generic code needs a folder of its own) and fresh Jupyter / IPython folders."""
    env = dict(os.environ)
    for key, value in CONFIGS[name].items():
        env[key] = value if value is not None else str(Path(scratch) / "numba-cache")
    for key in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR"):
        env[key] = str(Path(scratch) / key.lower())
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    return env


def nbval_command(paths, workers=2):
    """Strict nbval over ``paths``, as ``make test`` runs it."""
    return [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-n",
        str(workers),
        "--dist",
        "loadscope",
        "--nbval",
        "--nbval-current-env",
        "--nbval-sanitize-with",
        str(ROOT / "tests" / "nbval_sanitize.cfg"),
        "--nbval-cell-timeout",
        "600",
        "-p",
        "no:cacheprovider",
        *map(str, paths),
    ]


# The figures lesson 8 shows only in its plot: what the held-out metric was after each epoch.
FIGURES = """
import json
print(json.dumps({"final train": train_curve[9], "final held out": test_curve[9],
                  "held-out accuracy": accuracy}))
"""


def lesson8_figures(name):
    """Lesson 8's unrounded final figures under configuration ``name``."""
    notebook = json.loads((LESSONS / "08_training.ipynb").read_text())
    cells = [
        "".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code"
    ] + [FIGURES]
    with tempfile.TemporaryDirectory(prefix="any-machine-") as scratch:
        cells_file = Path(scratch) / "cells.json"
        cells_file.write_text(json.dumps(cells))
        env = environment(name, scratch)
        env["MINISYM_PROGRESS"] = "off"
        done = subprocess.run(
            [sys.executable, str(ROOT / "tests" / "lesson_cells_runner.py"), str(cells_file)],
            cwd=LESSONS,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    results = json.loads(done.stdout.strip().splitlines()[-1])
    return json.loads(results[-1]["text"])


def main():
    for name in CONFIGS:
        print(f"{name}: {json.dumps(lesson8_figures(name))}", flush=True)


if __name__ == "__main__":
    main()
