"""How long the lessons take to run top to bottom, each in a fresh kernel, with an empty numba
cache (a first ever run) and with a warm one (what `make lab` leaves).

    python benchmarks/lessons.py
"""
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from notebooks import execute  # noqa: E402

LESSONS = sorted((ROOT / "lessons").glob("[0-9][0-9]_*.ipynb"))


def run_all(cache_dir):
    """{lesson name: seconds} with ``cache_dir`` as the kernels' numba cache."""
    os.environ["NUMBA_CACHE_DIR"] = cache_dir  # the kernels inherit it
    return {lesson.stem: execute(lesson, store=False)[1] for lesson in LESSONS}


def main():
    with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
        empty = run_all(cache)
        warm = run_all(cache)
    print(f"{'lesson':<22} {'empty cache s':>14} {'warm cache s':>13}")
    for name in empty:
        print(f"{name:<22} {empty[name]:>14.1f} {warm[name]:>13.1f}")
    print(f"{'all':<22} {sum(empty.values()):>14.1f} {sum(warm.values()):>13.1f}")


if __name__ == "__main__":
    main()
