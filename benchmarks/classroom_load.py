"""A class on one machine: N students, each a separate kernel running the same lesson and its
exercises (the instructor's solutions) at the same moment. Prints, for each N, the wall time
until every student is done, the time per student, and the peak memory of one kernel.

    python benchmarks/classroom_load.py [LESSON_NUMBER] [N ...]    # default: 7, and 1 2 4 8 16

The exercises come from the nbgrader source notebook (lessons with solutions filled in), so
each student runs every cell of the lesson and every check.
"""
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import nbformat
import psutil

ROOT = Path(__file__).resolve().parents[1]
STUDENT = """
import sys
from nbclient import NotebookClient
import nbformat
nb = nbformat.read(sys.argv[1], as_version=4)
NotebookClient(nb, timeout=900, kernel_name="python3",
               resources={"metadata": {"path": sys.argv[2]}}).execute()
"""


def solved_lesson(number, folder):
    """The lesson with its exercises solved, written into ``folder``; its path."""
    from minisym_widgets import assignments
    names = assignments.build(ROOT / "lessons", folder / "course")
    name = f"lesson{number}"
    if name not in names:
        raise SystemExit(f"lesson {number} has no exercises to run: {names}")
    nb = nbformat.read(folder / "course" / "source" / name / f"{name}.ipynb", as_version=4)
    path = folder / f"{name}.ipynb"
    nbformat.write(nb, path)
    return path


def peak_rss(process, peaks, stop):
    """Record the largest resident memory of ``process``'s kernel (its child) until ``stop``."""
    while not stop.is_set():
        try:
            for child in psutil.Process(process.pid).children(recursive=True):
                peaks[child.pid] = max(peaks.get(child.pid, 0), child.memory_info().rss)
        except psutil.Error:
            pass
        time.sleep(0.2)


def class_of(n, notebook):
    """(seconds until all n students finished, [seconds per student], peak kernel MiB)."""
    started = time.perf_counter()
    students = [(subprocess.Popen([sys.executable, "-c", STUDENT, str(notebook),
                                   str(ROOT / "lessons")], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True), {}) for _ in range(n)]
    stop = threading.Event()
    watchers = [threading.Thread(target=peak_rss, args=(p, peaks, stop)) for p, peaks in students]
    for watcher in watchers:
        watcher.start()
    done = []
    for process, _ in students:
        errors = process.communicate()[1]
        if process.returncode != 0:
            raise SystemExit(f"a student's kernel failed:\n{errors[-2000:]}")
        done.append(time.perf_counter() - started)
    stop.set()
    for watcher in watchers:
        watcher.join()
    kernel_mib = max(max(peaks.values(), default=0) for _, peaks in students) / 2**20
    return time.perf_counter() - started, done, kernel_mib


def main(argv):
    number = int(argv[0]) if argv else 7
    sizes = [int(a) for a in argv[1:]] or [1, 2, 4, 8, 16]
    cores = len(os.sched_getaffinity(0))
    with tempfile.TemporaryDirectory(prefix="classroom-") as folder:
        notebook = solved_lesson(number, Path(folder))
        class_of(1, notebook)  # warm the numba cache, as `make lab` or postBuild leave it
        print(f"lesson {number} with its exercises, {cores} cores, numba cache warm")
        print(f"{'students':>8} {'all done s':>11} {'per student s':>14} {'slowest s':>10} "
              f"{'kernel MiB':>11}")
        for n in sizes:
            total, done, mib = class_of(n, notebook)
            print(f"{n:>8} {total:>11.1f} {sum(done) / n:>14.1f} {max(done):>10.1f} "
                  f"{mib:>11.0f}")


if __name__ == "__main__":
    main(sys.argv[1:])
