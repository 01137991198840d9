"""A class on one machine: N students, each a separate kernel running the same lesson and its
exercises (the instructor's solutions) at the same moment. Prints, for each N, the wall time
until every student is done, the time per student, and the peak memory of one kernel.

    python benchmarks/classroom_load.py [LESSON_NUMBER] [N ...]    # default: 7, and 1 2 4 8 16
    python benchmarks/classroom_load.py --hub [LESSON_NUMBER] [N ...]

The exercises come from the nbgrader source notebook (lessons with solutions filled in), so
each student runs every cell of the lesson and every check. By default every student shares
this checkout's warm numba cache.

``--hub`` is a hub's first lesson instead: minisym is copied into a shared installation whose
kernels are warmed once with ``NUMBA_CPU_NAME=generic`` (as the image build does) and which is
then made read-only; each student has a HOME of their own with an empty numba cache
(``~/.cache/numba``, numba's own; named with ``NUMBA_CACHE_DIR`` so that root, who writes
through file modes, does not use the shared installation's folder), and minisym seeds it from
the shared one at the first import. Each N runs twice with the same homes: the first run
(seeded, nothing should compile) and a warm one. ``first/warm`` is the slowest student's first
run over their warm run; ``compiled`` the most kernels one student compiled anyway (0 when the
seed served them all).
"""

import os
import shutil
import stat
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


def class_of(n, notebook, envs=None):
    """(seconds until all n students finished, [seconds per student], peak kernel MiB); each
    student's environment is ``envs[i]`` (default: this one)."""
    envs = envs or [None] * n
    started = time.perf_counter()
    students = [
        (
            subprocess.Popen(
                [sys.executable, "-c", STUDENT, str(notebook), str(ROOT / "lessons")],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
            ),
            {},
        )
        for env in envs
    ]
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


# --- --hub: a read-only shared installation, one empty cache per student ---------------------
def shared_install(folder):
    """minisym and minisym_widgets copied into ``folder/site``, kernels warmed for a generic
    CPU into the package, then read-only; the site folder."""
    site = folder / "site"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "minisym", site / "minisym", ignore=skip)
    shutil.copytree(ROOT / "widgets", site / "minisym_widgets", ignore=skip)
    env = dict(
        os.environ, PYTHONPATH=str(site), NUMBA_CPU_NAME="generic", HOME=str(folder / "builder")
    )
    env.pop("NUMBA_CACHE_DIR", None)
    subprocess.run(
        [sys.executable, "-m", "minisym.kernels.warmup"], env=env, check=True, cwd=folder
    )
    for path in sorted(site.rglob("*"), reverse=True) + [site]:
        path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    return site


def student_envs(folder, site, n):
    """The environments of n students who never ran a lesson, each with a HOME of their own."""
    envs = []
    for i in range(n):
        home = folder / f"student{i}"
        home.mkdir(parents=True)
        envs.append(
            dict(
                os.environ,
                HOME=str(home),
                PYTHONPATH=str(site),
                NUMBA_CPU_NAME="generic",
                NUMBA_CACHE_DIR=str(home / ".cache" / "numba"),
            )
        )
    return envs


def recompiled(envs, site):
    """The most kernel indexes any student's cache holds that are not the shared copies: each
    one a kernel that student compiled (numba rewrites a kernel's index when it compiles)."""
    shared = site / "minisym" / "kernels" / "__pycache__"
    counts = []
    for env in envs:
        indexes = Path(env["NUMBA_CACHE_DIR"]).rglob("*.nbi")
        counts.append(
            sum(
                not (shared / p.name).exists() or (shared / p.name).read_bytes() != p.read_bytes()
                for p in indexes
            )
        )
    return max(counts)


def hub(number, sizes, cores):
    with tempfile.TemporaryDirectory(prefix="classroom-hub-") as name:
        folder = Path(name)
        notebook = solved_lesson(number, folder)
        site = shared_install(folder)
        print(
            f"lesson {number} with its exercises, {cores} cores, hub: read-only shared "
            "install warmed for NUMBA_CPU_NAME=generic, each student an empty cache"
        )
        print(
            f"{'students':>8} {'all done s':>11} {'per student s':>14} {'slowest s':>10} "
            f"{'kernel MiB':>11} {'warm all s':>11} {'warm slowest s':>15} "
            f"{'first/warm':>11} {'compiled':>9}"
        )
        try:
            for n in sizes:
                envs = student_envs(folder / f"class{n}", site, n)
                total, done, mib = class_of(n, notebook, envs)
                warm_total, warm_done, _ = class_of(n, notebook, envs)
                print(
                    f"{n:>8} {total:>11.1f} {sum(done) / n:>14.1f} {max(done):>10.1f} "
                    f"{mib:>11.0f} {warm_total:>11.1f} {max(warm_done):>15.1f} "
                    f"{max(done) / max(warm_done):>11.2f} {recompiled(envs, site):>9}"
                )
        finally:
            for path in [site, *site.rglob("*")]:  # so that the temporary folder can go
                if path.is_dir():
                    path.chmod(0o755)


def main(argv):
    cores = len(os.sched_getaffinity(0))
    if argv[:1] == ["--hub"]:
        argv = argv[1:]
        hub(int(argv[0]) if argv else 7, [int(a) for a in argv[1:]] or [1, 2, 4, 8, 16], cores)
        return
    number = int(argv[0]) if argv else 7
    sizes = [int(a) for a in argv[1:]] or [1, 2, 4, 8, 16]
    with tempfile.TemporaryDirectory(prefix="classroom-") as folder:
        notebook = solved_lesson(number, Path(folder))
        class_of(1, notebook)  # warm the numba cache, as `make lab` or postBuild leave it
        print(f"lesson {number} with its exercises, {cores} cores, numba cache warm")
        print(
            f"{'students':>8} {'all done s':>11} {'per student s':>14} {'slowest s':>10} "
            f"{'kernel MiB':>11}"
        )
        for n in sizes:
            total, done, mib = class_of(n, notebook)
            print(f"{n:>8} {total:>11.1f} {sum(done) / n:>14.1f} {max(done):>10.1f} {mib:>11.0f}")


if __name__ == "__main__":
    main(sys.argv[1:])
