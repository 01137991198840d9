"""The lessons' exercises as nbgrader assignments, generated from the lessons and their solutions.

    python -m minisym_widgets.assignments lessons/ course/     # writes course/source/lessonN/...
    python -m minisym_widgets.assignments lessons/zh-CN/ course-zh/     # the Chinese edition

One source of truth: each lesson notebook and ``lessons/solutions/lessonN.py``, which an edition
in another language (``lessons/zh-CN/``, the same code cells) shares. An exercise cell
of a lesson (a function whose body is ``raise NotImplementedError()``, then ``check.name(name,
...)``) becomes two cells: the learner's function with the solution between nbgrader's
``### BEGIN SOLUTION`` / ``### END SOLUTION`` (the release shows the stub instead), and a locked
autograder cell worth ``POINTS`` that runs the same check and raises when it fails. The marks
come from each exercise graded apart (``minisym_widgets.grading``), which the course's
nbgrader_config.py switches on, so no hidden test is needed and a notebook cannot switch its
checks off. Every other cell (prose, examples, widgets) stays as it is and is not graded.
"""

import argparse
import ast
import re
import textwrap
from pathlib import Path

import nbformat

from .i18n import LANGUAGES

POINTS = 1
SCHEMA = 3
STUB = "raise NotImplementedError()"
CHECK_CALL = re.compile(r"^check\.(\w+)\((.*)\)\s*$", re.M)
NBGRADER_CONFIG = """\
import os

from minisym_widgets.grading import configure

c = get_config()  # noqa: F821 (nbgrader's config loader defines it)
c.CourseDirectory.course_id = "minisym"
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\\nraise NotImplementedError()"}
# Each exercise graded in a process of its own, before the notebook runs (for the feedback).
configure(c)
# A fresh kernel compiles numba kernels inside its first cells: more than nbgrader's 30 s.
# A cell past the limit is interrupted; one deaf to the interrupt stops the notebook's run,
# not the grading of the submission.
c.ExecuteUntilStuck.timeout = 300
c.GradeApart.timeout = 300
# One BLAS thread per kernel: graders share the cores, and waiting BLAS threads spin
# (lesson 8 took 122-155 s per student with the default threads, 33-41 s with one).
for name in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ[name] = "1"
# The exchange: release_assignment creates a missing one itself, writable by everyone. Make it
# first (docs/classroom.md, "The exchange") and name it here; without one, hand out release/.
# c.Exchange.root = "/srv/nbgrader/exchange"
"""
EDITION_CONFIG = """\
# The {folder} edition: autograde's kernels, and so the checks' words in the feedback, speak
# its language (minisym_widgets.i18n reads LANGUAGE first).
os.environ["LANGUAGE"] = "{language}"
"""


def solution_functions(path):
    """{function name: its source} of a solutions file."""
    source = Path(path).read_text()
    tree = ast.parse(source)
    return {
        node.name: ast.get_source_segment(source, node)
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
    }


def _exercise(cell):
    """(function name, the check call's text) of an exercise cell, or None."""
    if cell.cell_type != "code" or STUB not in cell.source:
        return None
    call = CHECK_CALL.search(cell.source)
    return (call.group(1), call.group(0).strip()) if call else None


def _with_solution(cell_source, name, solution):
    """The exercise cell's source, the stub function replaced by the solution wrapped in
    nbgrader's solution markers, and the check call removed (it moves to the test cell)."""
    tree = ast.parse(cell_source)
    stub = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    lines = cell_source.splitlines()
    before = lines[: stub.lineno - 1 - len(stub.decorator_list)]
    solved = ast.parse(solution).body[0]
    sol_lines = solution.splitlines()
    header = sol_lines[: solved.body[0].lineno - 1]
    body = textwrap.dedent("\n".join(sol_lines[solved.body[0].lineno - 1 :]))
    marked = "\n".join(
        ["    ### BEGIN SOLUTION", textwrap.indent(body, "    "), "    ### END SOLUTION"]
    )
    return "\n".join(before + header).rstrip() + "\n" + marked


def _grading(cell, grade_id, solution, points=0):
    cell.metadata["nbgrader"] = {
        "grade": points > 0,
        "solution": solution,
        "locked": not solution,
        "grade_id": grade_id,
        "schema_version": SCHEMA,
        **({"points": points} if points else {}),
    }
    return cell


def _test_cell(lesson, name, call):
    source = f"{call}.assert_passed()"
    return _grading(nbformat.v4.new_code_cell(source), f"{lesson}_{name}_test", False, POINTS)


def assignment(lesson_path, solutions_path):
    """The nbgrader source notebook of one lesson (None if it has no exercises)."""
    nb = nbformat.read(lesson_path, as_version=4)
    lesson = f"lesson{int(Path(lesson_path).name[:2])}"
    solved = solution_functions(solutions_path)
    cells, found = [], False
    for cell in nb.cells:
        exercise = _exercise(cell)
        if exercise is None:
            if cell.cell_type == "code":
                cell.outputs = []
            cells.append(cell)
            continue
        found, (name, call) = True, exercise
        if name not in solved:
            raise KeyError(
                f"{Path(lesson_path).name} has the exercise {name}() but "
                f"{solutions_path} has no function {name}: write its solution there"
            )
        answer = nbformat.v4.new_code_cell(_with_solution(cell.source, name, solved[name]))
        cells += [_grading(answer, f"{lesson}_{name}", True), _test_cell(lesson, name, call)]
    if not found:
        return None
    nb.cells = cells
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"{lesson}-{i:02d}"
        if cell.cell_type == "code":
            cell.execution_count = None
    return nb


def solutions_folder(lessons_dir):
    """``lessons_dir/solutions``, or for an edition in another language (lessons/zh-CN/) the
    English lessons' (lessons/solutions/)."""
    for folder in (lessons_dir / "solutions", lessons_dir.parent / "solutions"):
        if folder.is_dir():
            return folder
    raise FileNotFoundError(
        f"put the solutions (lessonN.py) in {lessons_dir / 'solutions'}, "
        f"or in {lessons_dir.parent / 'solutions'} for an edition of the "
        "lessons in another language: neither folder exists"
    )


def edition_language(lessons_dir):
    """'zh_CN' for lessons/zh-CN/, None for the English lessons."""
    language = Path(lessons_dir).name.replace("-", "_")
    return language if language in LANGUAGES and language != "en" else None


def nbgrader_config(lessons_dir):
    """The course's nbgrader_config.py; an edition's runs autograde's kernels in its language."""
    language = edition_language(lessons_dir)
    if language is None:
        return NBGRADER_CONFIG
    return NBGRADER_CONFIG + EDITION_CONFIG.format(folder=Path(lessons_dir).name, language=language)


def build(lessons_dir, course_dir):
    """Write ``course_dir/source/lessonN/lessonN.ipynb`` for every lesson with exercises, and
    the course's nbgrader_config.py; return the assignment names."""
    lessons_dir, course_dir = Path(lessons_dir), Path(course_dir)
    solutions_dir = solutions_folder(lessons_dir)
    names = []
    for lesson_path in sorted(lessons_dir.glob("[0-9][0-9]_*.ipynb")):
        name = f"lesson{int(lesson_path.name[:2])}"
        solutions = solutions_dir / f"{name}.py"
        nb = assignment(lesson_path, solutions) if solutions.exists() else None
        if nb is None:
            continue
        folder = course_dir / "source" / name
        folder.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, folder / f"{name}.ipynb")
        names.append(name)
    (course_dir / "nbgrader_config.py").write_text(nbgrader_config(lessons_dir))
    return names


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "lessons",
        help="the lessons folder (with solutions/ inside), or an "
        "edition's (lessons/zh-CN/, sharing lessons/solutions/)",
    )
    parser.add_argument("course", help="the nbgrader course folder to write")
    args = parser.parse_args(argv)
    for name in build(args.lessons, args.course):
        print(Path(args.course) / "source" / name / f"{name}.ipynb")


if __name__ == "__main__":
    main()
