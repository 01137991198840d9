"""How long the lessons take to run top to bottom, each in a fresh kernel, as `make lab` runs
them (one BLAS thread per kernel), with an empty numba cache (a first ever run) and with a warm
one (what `make lab` leaves).

    python benchmarks/lessons.py                      # a quiet machine
    python benchmarks/lessons.py --busy               # two other processes keep the cores busy
    python benchmarks/lessons.py --all-blas-threads   # BLAS on every core (a plain jupyter lab)
"""

import argparse
import multiprocessing
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from notebooks import execute  # noqa: E402

LESSONS = sorted((ROOT / "lessons").glob("[0-9][0-9]_*.ipynb"))


def run_all(cache_dir, one_blas_thread):
    """{lesson name: seconds} with ``cache_dir`` as the kernels' numba cache."""
    os.environ["NUMBA_CACHE_DIR"] = cache_dir  # the kernels inherit it
    os.environ["MINISYM_SHARED_CACHE"] = "none"  # an empty cache is not seeded from the checkout's
    return {
        lesson.stem: execute(lesson, store=False, one_blas_thread=one_blas_thread)[1]
        for lesson in LESSONS
    }


def burn():
    """Keep one core busy (the 'other work' of a learner's laptop) until killed."""
    while True:
        sum(i * i for i in range(10_000))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--busy", action="store_true", help="two processes burn both cores")
    parser.add_argument(
        "--all-blas-threads",
        action="store_true",
        help="BLAS on every core, as a jupyter lab started by hand",
    )
    args = parser.parse_args()
    burners = [
        multiprocessing.Process(target=burn, daemon=True)
        for _ in range(os.cpu_count() if args.busy else 0)
    ]
    for process in burners:
        process.start()
    try:
        with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
            empty = run_all(cache, not args.all_blas_threads)
            warm = run_all(cache, not args.all_blas_threads)
    finally:
        for process in burners:
            process.terminate()
    threads = "BLAS on every core" if args.all_blas_threads else "one BLAS thread (make lab)"
    print(f"{threads}, {'busy' if args.busy else 'quiet'} machine")
    print(f"{'lesson':<22} {'empty cache s':>14} {'warm cache s':>13}")
    for name in empty:
        print(f"{name:<22} {empty[name]:>14.1f} {warm[name]:>13.1f}")
    print(f"{'all':<22} {sum(empty.values()):>14.1f} {sum(warm.values()):>13.1f}")


if __name__ == "__main__":
    main()
