"""Every lesson passes strict nbval against its one set of stored outputs in each configuration
that stands in for another machine (``any_machine.CONFIGS``): other kernels, other BLAS thread
counts, numba compiled for a generic processor. A stored output that shows a processor's last
digits fails here. ``make test-any-machine`` runs this file; it takes several minutes."""

import subprocess

import pytest

from any_machine import CONFIGS, LESSONS, ROOT, environment, nbval_command

pytestmark = [pytest.mark.slow, pytest.mark.any_machine]


@pytest.mark.parametrize("name", list(CONFIGS))
def test_every_lesson_passes_strict_nbval(name, tmp_path):
    lessons = sorted(LESSONS.glob("[0-9][0-9]_*.ipynb"))
    assert len(lessons) == 8, lessons
    done = subprocess.run(
        nbval_command(lessons),
        cwd=ROOT,
        env=environment(name, tmp_path),
        capture_output=True,
        text=True,
        timeout=1800,
    )
    tail = "\n".join(done.stdout.splitlines()[-60:])
    assert done.returncode == 0, f"strict nbval failed under {name!r}:\n{tail}\n{done.stderr}"
    assert " passed" in tail and "failed" not in tail, tail
