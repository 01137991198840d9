"""The exercises as nbgrader assignments: generated from the lessons and their solutions,
released without solutions, and autograded — the instructor's solutions to full marks, a blank
release to zero, a partly done one to the points it earned."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from minisym_widgets import assignments

pytest.importorskip("nbgrader", reason="nbgrader is in the test extra: pip install -e '.[test]'")
pytestmark = pytest.mark.slow

LESSONS = Path(__file__).resolve().parents[1] / "lessons"
BIN = str(Path(sys.executable).parent)


def nbgrader(course, *args):
    env = dict(os.environ, PATH=BIN + os.pathsep + os.environ.get("PATH", ""))
    run = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=course, env=env,
                         capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return run


def exercise_cells(nb):
    return [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution")]


def solve_first_exercise(release, source):
    """The release with its first exercise answered as the instructor did."""
    nb = nbformat.read(release, as_version=4)
    exercise_cells(nb)[0].source = exercise_cells(nbformat.read(source, as_version=4))[0].source
    return nb


def scores(course, assignment, students):
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        return {s: (gradebook.find_submission(assignment, s).score,
                    gradebook.find_submission(assignment, s).max_score) for s in students}


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    course = tmp_path_factory.mktemp("course")
    names = assignments.build(LESSONS, course)
    assert names[:4] == ["lesson1", "lesson2", "lesson3", "lesson4"]
    for name in names:
        nbgrader(course, "generate_assignment", name, "--force")
    return course, names


def test_the_release_has_stubs_and_no_solutions_or_hidden_tests(course):
    course, names = course
    for name in names:
        source = nbformat.read(course / "source" / name / f"{name}.ipynb", as_version=4)
        release = nbformat.read(course / "release" / name / f"{name}.ipynb", as_version=4)
        solved = assignments.solution_functions(LESSONS / "solutions" / f"{name}.py")
        assert len(exercise_cells(source)) == len(exercise_cells(release)) == len(solved)
        for given, answer in zip(exercise_cells(release), exercise_cells(source)):
            assert "### BEGIN SOLUTION" in answer.source
            body = given.source.split("):\n", 1)[-1].split("\n")
            assert [line.strip() for line in body if line.strip()] == [
                "# YOUR CODE HERE", "raise NotImplementedError()"], (name, given.source)
        text = nbformat.writes(release)
        for marker in ("BEGIN SOLUTION", "END SOLUTION", "HIDDEN TESTS", "importlib.reload"):
            assert marker not in text, (name, marker)


def test_autograde_gives_full_marks_zero_and_partial_credit(course):
    course, names = course
    for name in names:
        source = course / "source" / name / f"{name}.ipynb"
        release = course / "release" / name / f"{name}.ipynb"
        for student, nb in (("teacher", nbformat.read(source, as_version=4)),
                            ("blank", nbformat.read(release, as_version=4)),
                            ("partial", solve_first_exercise(release, source))):
            folder = course / "submitted" / student / name
            folder.mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, folder / f"{name}.ipynb")
        nbgrader(course, "autograde", name, "--create", "--force")
        got = scores(course, name, ["teacher", "blank", "partial"])
        total = got["teacher"][1]
        assert got["teacher"] == (total, total), (name, got)
        assert got["blank"][0] == 0, (name, got)
        assert got["partial"][0] == assignments.POINTS, (name, got)


def test_the_generator_refuses_nothing_silently(tmp_path):
    shutil.copytree(LESSONS, tmp_path / "lessons")
    (tmp_path / "lessons" / "solutions" / "lesson1.py").write_text("def build_mlp():\n    pass\n")
    with pytest.raises(KeyError, match="hidden_and_output"):
        assignments.build(tmp_path / "lessons", tmp_path / "course")
