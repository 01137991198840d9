"""The exercises as nbgrader assignments, round trip for every lesson: generated from the lessons
and their solutions, released through an exchange, fetched and submitted by a class (a blank, a
partial and a complete notebook, and notebooks that try to switch their checks off), collected,
autograded and exported. The marks are exactly right, the cheats get nothing, and nothing a
student receives holds a solution."""

import ast
import csv
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from minisym_widgets import assignments
from minisym_widgets.student_tree import solution_text_found

pytest.importorskip("nbgrader", reason="nbgrader is in the test extra: pip install -e '.[test]'")
pytestmark = pytest.mark.slow

LESSONS = Path(__file__).resolve().parents[1] / "lessons"
BIN = str(Path(sys.executable).parent)
NUMBERS = range(1, 9)

# Ways a notebook could switch its checks off, each of which gives full marks under nbgrader's
# own autograde (test_each_cheat_works_without_the_grader shows it).
MONKEYPATCH = """\
from minisym_widgets.exercises._check import Check
Check.assert_passed = lambda self: None
"""
CHEATS = {
    "modules": """\
import sys
import types
import minisym_widgets.exercises as exercises


class Anything(types.ModuleType):
    def __getattr__(self, name):
        return lambda *args: types.SimpleNamespace(assert_passed=lambda: None)


sys.modules["minisym_widgets.exercises.{lesson}"] = exercises.{lesson} = Anything("{lesson}")
""",
    "transformer": """\
def skip_checks(lines):
    return [] if any("assert_passed" in line for line in lines) else lines


get_ipython().input_transformers_post.append(skip_checks)
""",
    "definition": """\
import numpy
import minisym as mx
from minisym_widgets.exercises._check import Check


def helper(_=(setattr(numpy, "allclose", lambda *a, **k: True),
              setattr(mx.test_utils, "assert_almost_equal", lambda *a, **k: None),
              setattr(Check, "assert_passed", lambda self: None))):
    pass
""",
    "reload": """\
import importlib
from minisym_widgets.exercises import _check
_check.Check.__bool__ = lambda self: True
importlib.reload = lambda module: module
""",
}
STUCK = """\
import signal
import time
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
time.sleep(3600)
"""


def nbgrader(course, *args, check=True):
    env = dict(os.environ, PATH=BIN + os.pathsep + os.environ.get("PATH", ""))
    run = subprocess.run(
        [sys.executable, "-m", "nbgrader", *args],
        cwd=course,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if check:
        assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return run


def answer_cells(nb):
    return [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution")]


def graded_cells(nb):
    return [
        c
        for c in nb.cells
        if c.metadata.get("nbgrader", {}).get("grade")
        and not c.metadata["nbgrader"].get("solution")
    ]


def answered(release, source, count=None):
    """The release with its first ``count`` exercises (all if None) answered as the instructor
    did."""
    nb = nbformat.read(release, as_version=4)
    solved = answer_cells(nbformat.read(source, as_version=4))
    for cell, answer in list(zip(answer_cells(nb), solved))[:count]:
        cell.source = answer.source
    return nb


def with_cell(nb, source, at=0):
    nb.cells.insert(at, nbformat.v4.new_code_cell(source))
    return nb


def solved_lesson(number):
    """The lesson notebook (what nbgitpuller gives a student), its exercises solved."""
    path = next(LESSONS.glob(f"{number:02d}_*.ipynb"))
    nb = nbformat.read(path, as_version=4)
    solutions = assignments.solution_functions(LESSONS / "solutions" / f"lesson{number}.py")
    for cell in nb.cells:
        if cell.cell_type != "code" or assignments.STUB not in cell.source:
            continue
        stub = next(n for n in ast.parse(cell.source).body if isinstance(n, ast.FunctionDef))
        lines = cell.source.splitlines()
        cell.source = "\n".join(
            lines[: stub.lineno - 1] + [solutions[stub.name]] + lines[stub.end_lineno :]
        )
    return nb


def submissions(number, course):
    """{student: notebook} of one lesson's class."""
    name = f"lesson{number}"
    source = course / "source" / name / f"{name}.ipynb"
    release = course / "release" / name / f"{name}.ipynb"
    cheat = list(CHEATS)[number % len(CHEATS)]
    class_ = {
        "complete": answered(release, source),
        "blank": nbformat.read(release, as_version=4),
        "partial": answered(release, source, 1),
        "monkeypatch": with_cell(nbformat.read(release, as_version=4), MONKEYPATCH),
        cheat: with_cell(nbformat.read(release, as_version=4), CHEATS[cheat].format(lesson=name)),
    }
    if number in (1, 4):
        class_["lesson-notebook"] = solved_lesson(number)
    if number == 1:
        loop = answered(release, source)
        answer_cells(loop)[0].source = "def build_mlp():\n    while True:\n        pass\n"
        class_["python-loop"] = loop
        for student, cell in (("stuck", STUCK), ("kernel-died", "import os\nos._exit(1)\n")):
            nb = answered(release, source)
            class_[student] = with_cell(nb, cell, at=nb.cells.index(answer_cells(nb)[0]) + 1)
    return class_


EXPECTED = {
    "complete": "full",
    "blank": 0,
    "partial": 1,
    "lesson-notebook": "full",
    "python-loop": "full-1",
    "stuck": "full",
    "kernel-died": "full",
    **{cheat: 0 for cheat in ["monkeypatch", *CHEATS]},
}


def submit_through_exchange(course, exchange, name, class_):
    """Release, fetch once, then each student submits their notebook; collect."""
    flags = [f"--Exchange.root={exchange}", "--course=minisym"]
    nbgrader(course, "release_assignment", name, "--force", *flags)
    home = course.parent / f"home-{name}"
    home.mkdir()
    nbgrader(home, "fetch_assignment", name, *flags)
    for student, nb in class_.items():
        nbformat.write(nb, home / name / f"{name}.ipynb")
        nbgrader(home, "submit", name, f"--student={student}", *flags)
    nbgrader(course, "collect", name, "--update", *flags)


def scores(course, name):
    with open(course / "grades.csv", newline="") as table:
        return {
            row["student_id"]: (float(row["score"]), float(row["max_score"]))
            for row in csv.DictReader(table)
            if row["assignment"] == name
        }


def exercise_count(number):
    return len(assignments.solution_functions(LESSONS / "solutions" / f"lesson{number}.py"))


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    course = tmp_path_factory.mktemp("course")
    names = assignments.build(LESSONS, course)
    assert names == [f"lesson{n}" for n in NUMBERS]
    return course


@pytest.mark.parametrize("number", NUMBERS)
def test_a_class_round_trip(course, number, tmp_path):
    name = f"lesson{number}"
    nbgrader(course, "generate_assignment", name, "--force")
    class_ = submissions(number, course)
    submit_through_exchange(course, tmp_path / "exchange", name, class_)
    short = ["--GradeApart.timeout=20", "--ExecuteUntilStuck.timeout=20"] if number == 1 else []
    graded = nbgrader(course, "autograde", name, "--create", "--force", *short)
    nbgrader(course, "export")
    got = scores(course, name)
    total = got["complete"][1]
    assert total == exercise_count(number) * assignments.POINTS > 0
    want = {
        student: {"full": total, "full-1": total - 1}.get(EXPECTED[student], EXPECTED[student])
        for student in class_
    }
    assert {s: got[s][0] for s in class_} == want, graded.stderr[-3000:]
    if "lesson-notebook" in class_:
        assert "is the lesson notebook, not the assignment" in graded.stderr
    for student, why in (("stuck", "did not answer an interrupt"), ("kernel-died", "died")):
        if student in class_:
            run = nbformat.read(
                course / "autograded" / student / name / f"{name}.ipynb", as_version=4
            )
            said = [o.get("text", "") for c in run.cells for o in c.get("outputs", [])]
            assert any(why in text for text in said), (student, said)
    nbgrader(course, "generate_feedback", name, "--force")
    given = [
        course / "release" / name / f"{name}.ipynb",
        *(course / "feedback" / "blank" / name).glob("*.html"),
    ]
    for path in given:
        text = path.read_text(encoding="utf-8")
        for marker in ("BEGIN SOLUTION", "END SOLUTION", "HIDDEN TESTS"):
            assert marker not in text, (path, marker)
    # Labelled as lessons: the release is the lesson, and shows what the lesson shows on purpose.
    assert not solution_text_found(
        {f"lessons/{p.relative_to(course)}": p.read_text(encoding="utf-8") for p in given}
    )


def test_the_release_has_the_lessons_stubs_and_plain_test_cells(course):
    for number in NUMBERS:
        name = f"lesson{number}"
        nbgrader(course, "generate_assignment", name, "--force")
        release = nbformat.read(course / "release" / name / f"{name}.ipynb", as_version=4)
        assert len(answer_cells(release)) == exercise_count(number)
        for given in answer_cells(release):
            body = given.source.split("):\n", 1)[-1].split("\n")
            assert [line.strip() for line in body if line.strip()] == [
                "# YOUR CODE HERE",
                "raise NotImplementedError()",
            ], (name, given.source)
        for cell in graded_cells(release):
            assert (
                cell.source.startswith("check.")
                and cell.source.endswith(".assert_passed()")
                and "\n" not in cell.source
            ), cell.source


def test_each_cheat_works_without_the_grader(course, tmp_path):
    """Run as a plain notebook (nbgrader's own autograde does no more), each cheat turns lesson 1's
    failing checks into silent passes: the round trip's zeros come from the grader."""
    from nbclient import NotebookClient

    nbgrader(course, "generate_assignment", "lesson1", "--force")
    release = course / "release" / "lesson1" / "lesson1.ipynb"
    for cheat, source in {"monkeypatch": MONKEYPATCH, **CHEATS}.items():
        nb = with_cell(nbformat.read(release, as_version=4), source.format(lesson="lesson1"))
        NotebookClient(
            nb, timeout=300, allow_errors=True, resources={"metadata": {"path": str(tmp_path)}}
        ).execute()
        errors = [o for c in graded_cells(nb) for o in c.outputs if o.output_type == "error"]
        assert not errors, (cheat, errors[0].evalue)


def test_the_generator_refuses_nothing_silently(tmp_path):
    import shutil

    shutil.copytree(LESSONS, tmp_path / "lessons")
    (tmp_path / "lessons" / "solutions" / "lesson1.py").write_text("def build_mlp():\n    pass\n")
    with pytest.raises(KeyError, match="hidden_and_output"):
        assignments.build(tmp_path / "lessons", tmp_path / "course")
