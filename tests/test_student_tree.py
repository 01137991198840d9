"""make student: the students' tree is the committed project without its solutions, tests and
benchmarks, on a branch that only grows. Every branch is built in a temporary clone of the
project (the work tree's changes committed there, as the next commit of main would hold them),
never in the project's own repository."""

import ast
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

import minisym
import minisym_widgets
from minisym_widgets.student_tree import SHOWN_IN_LESSONS, WITHHELD, solution_text_found

PROJECT = Path(__file__).resolve().parents[1]
SOLUTIONS = PROJECT / "lessons" / "solutions"
TEXT_SUFFIXES = {".py", ".js", ".css", ".po", ".pot", ".json", ".md", ".txt", ".ipynb"}
# The clones' commits are the instructor's; no user or system git configuration reaches them.
GIT_ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "Course Instructor",
    "GIT_AUTHOR_EMAIL": "instructor@example.org",
    "GIT_COMMITTER_NAME": "Course Instructor",
    "GIT_COMMITTER_EMAIL": "instructor@example.org",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}

NEEDS_GIT = pytest.mark.skipif(
    not (PROJECT / ".git").exists() or shutil.which("git") is None,
    reason="needs the project's git repository and git",
)


def on_a_clone(test):
    """A test that builds in a clone: slow (git and a second Python), and only with git."""
    return pytest.mark.slow(NEEDS_GIT(test))


def git(repo, *args):
    """git's output in ``repo``, stripped."""
    done = subprocess.run(
        ["git", "-C", str(repo), *args], env=GIT_ENV, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def make_student(repo, *flags):
    """``python -m minisym_widgets.student_tree --repo repo flags``, as `make student` runs it."""
    return subprocess.run(
        [sys.executable, "-m", "minisym_widgets.student_tree", "--repo", str(repo), *flags],
        env=GIT_ENV,
        capture_output=True,
        text=True,
    )


def commit_all(repo, message):
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def _work_tree_changes():
    """Paths the work tree changed, added or deleted since the project's HEAD."""
    changed = git(PROJECT, "diff", "--name-only", "-z", "HEAD").split("\0")
    added = git(PROJECT, "ls-files", "--others", "--exclude-standard", "-z").split("\0")
    return sorted({p for p in changed + added if p})


@pytest.fixture(scope="module")
def instructor(tmp_path_factory):
    """A clone of the project on main, with the work tree's changes committed."""
    repo = tmp_path_factory.mktemp("instructor") / "minisym"
    git(PROJECT, "clone", "-q", "--no-hardlinks", str(PROJECT), str(repo))
    git(repo, "checkout", "-q", "-B", "main")
    for path in _work_tree_changes():
        source, target = PROJECT / path, repo / path
        if source.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
        elif target.exists():
            target.unlink()
    if git(repo, "status", "--porcelain"):
        commit_all(repo, "The work tree's changes")
    return repo


@pytest.fixture
def course(instructor, tmp_path):
    """A clone of the instructor's clone, of its own, to change and build in."""
    repo = tmp_path / "course"
    git(instructor, "clone", "-q", str(instructor), str(repo))
    return repo


@pytest.fixture(scope="module")
def built(instructor):
    """The instructor's clone after one `make student`, and what the command said."""
    return instructor, make_student(instructor)


def tree_files(repo, ref):
    """{path: text} of the UTF-8 text files in ``ref``'s tree."""
    archive = subprocess.run(
        ["git", "-C", str(repo), "archive", "--format=tar", ref],
        env=GIT_ENV,
        capture_output=True,
        check=True,
    ).stdout
    files = {}
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            if member.isfile() and Path(member.name).suffix in TEXT_SUFFIXES:
                files[member.name] = tar.extractfile(member).read().decode("utf-8")
    return files


def listed(repo, ref):
    return set(git(repo, "ls-tree", "-r", "--name-only", ref).splitlines())


def function_source(lesson, name):
    """The source of a solution function, as lessons/solutions/lessonN.py writes it."""
    text = (SOLUTIONS / f"{lesson}.py").read_text(encoding="utf-8")
    node = next(n for n in ast.parse(text).body if getattr(n, "name", None) == name)
    return ast.get_source_segment(text, node)


# --- the branch ------------------------------------------------------------------------------
@on_a_clone
def test_the_branch_holds_every_file_but_the_withheld(built):
    repo, done = built
    assert done.returncode == 0, done.stderr
    instructors, students = listed(repo, "main"), listed(repo, "student")
    assert {"lessons/solutions/lesson7.py", "tests/test_exercises.py"} <= instructors
    assert students == {p for p in instructors if not p.startswith(WITHHELD)}
    assert {
        "lessons/README.md",
        "lessons/zh-CN/README.md",
        "lessons/01_symbols.ipynb",
        "lessons/07_resnet.ipynb",
        "lessons/zh-CN/08_training.ipynb",
        "binder/postBuild",
        "pyproject.toml",
        "setup.py",
        "widgets/exercises/lesson7.py",
    } <= students
    commit = git(repo, "rev-parse", "student")
    assert f"committed {commit[:12]} on student ({len(students)} files)" in done.stdout
    assert "withheld: .ci/, benchmarks/, lessons/solutions/, tests/" in done.stdout


@on_a_clone
def test_the_branch_holds_no_solution_body_and_the_lessons_show_exactly_the_listed_ones(built):
    repo, done = built
    assert done.returncode == 0, done.stderr
    files = tree_files(repo, "student")
    solutions = {
        Path(p).name: t
        for p, t in tree_files(repo, "main").items()
        if p.startswith("lessons/solutions/")
    }
    assert solution_text_found(files, solutions) == []
    everywhere = solution_text_found(files, solutions, shown=())
    assert {function for _, function in everywhere} == set(SHOWN_IN_LESSONS)
    assert all(path.startswith("lessons/") for path, _ in everywhere), everywhere


@on_a_clone
def test_a_second_run_without_changes_makes_no_commit(course):
    assert make_student(course).returncode == 0
    head = git(course, "rev-parse", "student")
    again = make_student(course)
    assert again.returncode == 0, again.stderr
    assert git(course, "rev-parse", "student") == head
    assert f"student is up to date at {head[:12]}" in again.stdout and "no commit" in again.stdout


@on_a_clone
def test_a_change_is_one_new_commit_on_the_previous_student_head(course):
    assert make_student(course).returncode == 0
    before = git(course, "rev-parse", "student")
    readme = course / "lessons" / "README.md"
    readme.write_text(
        readme.read_text(encoding="utf-8") + "\nA line for this term.\n", encoding="utf-8"
    )
    commit_all(course, "The start page for this term")
    main = git(course, "rev-parse", "main")
    done = make_student(course)
    assert done.returncode == 0, done.stderr
    after = git(course, "rev-parse", "student")
    assert after != before
    assert git(course, "rev-list", "--parents", "-n", "1", after).split() == [after, before]
    assert "A line for this term." in git(course, "show", "student:lessons/README.md")
    assert f"parent {before[:12]}" in done.stdout
    # The instructor's branch, the checked-out branch and the work tree are as they were.
    assert git(course, "rev-parse", "main") == main
    assert git(course, "symbolic-ref", "HEAD") == "refs/heads/main"
    assert git(course, "status", "--porcelain") == ""


@on_a_clone
def test_a_solution_planted_in_a_lesson_is_refused_naming_file_and_function(course):
    assert make_student(course).returncode == 0
    before = git(course, "rev-parse", "student")
    lesson = course / "lessons" / "07_resnet.ipynb"
    notebook = json.loads(lesson.read_text(encoding="utf-8"))
    source = function_source("lesson7", "bottleneck_unit")
    notebook["cells"].append(
        {
            "cell_type": "code",
            "execution_count": None,
            "id": "planted",
            "metadata": {},
            "outputs": [],
            "source": source.splitlines(keepends=True),
        }
    )
    lesson.write_text(json.dumps(notebook, indent=1, ensure_ascii=False), encoding="utf-8")
    commit_all(course, "A solution in a lesson")
    done = make_student(course)
    assert done.returncode == 1
    assert "lessons/07_resnet.ipynb: the body of lesson7.bottleneck_unit()" in done.stderr
    assert git(course, "rev-parse", "student") == before


@on_a_clone
def test_source_and_branch_name_what_is_built_and_where(course):
    readme = course / "lessons" / "README.md"
    readme.write_text("# The lessons, next term\n", encoding="utf-8")
    commit_all(course, "Next term's start page")
    done = make_student(course, "--source", "main~1", "--branch", "spring")
    assert done.returncode == 0, done.stderr
    assert git(course, "show", "spring:lessons/README.md") == git(
        course, "show", "main~1:lessons/README.md"
    )
    assert git(course, "branch", "--list", "student") == ""


@on_a_clone
def test_a_branch_checked_out_is_not_moved(course):
    git(course, "checkout", "-q", "-b", "student")
    done = make_student(course)
    assert done.returncode == 1 and "student is checked out" in done.stderr


@on_a_clone
def test_remote_builds_on_the_published_branch(course, tmp_path):
    assert make_student(course).returncode == 0
    readme = course / "lessons" / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8") + "\nPublished later.\n", encoding="utf-8")
    commit_all(course, "The start page, later")
    assert make_student(course).returncode == 0
    published = git(course, "rev-parse", "student")
    other = tmp_path / "other"
    git(course, "clone", "-q", str(course), str(other))  # main and origin/student, no student
    (other / "lessons" / "README.md").write_text("# The lessons\n", encoding="utf-8")
    commit_all(other, "Another start page")
    done = make_student(other, "--remote", "origin")
    assert done.returncode == 0, done.stderr
    head = git(other, "rev-parse", "student")
    assert git(other, "rev-list", "--parents", "-n", "1", head).split() == [head, published]


@on_a_clone
def test_folder_writes_the_tree_and_no_branch(course, tmp_path):
    folder = tmp_path / "students"
    done = make_student(course, "--folder", str(folder))
    assert done.returncode == 0, done.stderr
    written = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    assert written == {p for p in listed(course, "main") if not p.startswith(WITHHELD)}
    lesson = "lessons/05_aux_center_loss.ipynb"
    assert (folder / lesson).read_bytes() == (course / lesson).read_bytes()
    assert f"wrote {len(written)} files into {folder}" in done.stdout
    assert git(course, "branch", "--list", "student") == ""
    again = make_student(course, "--folder", str(folder))
    assert again.returncode == 1 and "is not empty" in again.stderr


# --- the search ------------------------------------------------------------------------------
def test_the_search_sees_through_indentation_quotes_and_comments():
    source = function_source("lesson7", "count_parameters")
    reworked = "class Helper:\n" + "".join(
        f"        {line}  # counted\n" for line in source.replace("'", '"').splitlines()
    )
    assert solution_text_found({"widgets/helper.py": reworked}, SOLUTIONS) == [
        ("widgets/helper.py", "lesson7.count_parameters")
    ]
    notebook = json.dumps(
        {
            "cells": [
                {"cell_type": "markdown", "source": ["Try it:\n"]},
                {"cell_type": "code", "outputs": [], "source": reworked.splitlines(keepends=True)},
            ]
        }
    )
    assert solution_text_found({"lessons/09_more.ipynb": notebook}, SOLUTIONS) == [
        ("lessons/09_more.ipynb", "lesson7.count_parameters")
    ]


def test_an_answer_the_lessons_show_is_refused_anywhere_else():
    shown = function_source("lesson5", "center_loss_backward")
    found = solution_text_found(
        {
            "lessons/05_more.ipynb": json.dumps(
                {"cells": [{"cell_type": "code", "outputs": [], "source": shown}]}
            ),
            "widgets/exercises/helper.py": shown,
        },
        SOLUTIONS,
    )
    assert found == [("widgets/exercises/helper.py", "lesson5.center_loss_backward")]


def test_a_trivially_short_body_is_not_looked_for():
    short = function_source("lesson2", "conv_output_size")  # return (size + 2 * pad ...) ...
    assert solution_text_found({"widgets/helper.py": short}, SOLUTIONS) == []
    longer = function_source("lesson2", "scale_infer_shape")
    assert solution_text_found({"widgets/helper.py": longer}, SOLUTIONS) == [
        ("widgets/helper.py", "lesson2.scale_infer_shape")
    ]


def test_the_installed_packages_hold_no_solution_body():
    files = {}
    for package in (minisym, minisym_widgets):
        root = Path(package.__file__).parent
        for path in root.rglob("*"):
            if path.suffix in TEXT_SUFFIXES and "__pycache__" not in path.parts:
                files[f"{package.__name__}/{path.relative_to(root).as_posix()}"] = path.read_text(
                    encoding="utf-8"
                )
    assert len(files) > 100
    assert solution_text_found(files, SOLUTIONS, shown=()) == []


def test_a_search_with_no_solutions_to_look_for_is_an_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="no lessonN.py"):
        solution_text_found({"widgets/helper.py": "anything"}, tmp_path)
