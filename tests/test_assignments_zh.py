"""The Chinese edition's nbgrader course (`python -m minisym_widgets.assignments lessons/zh-CN/
course-zh/`): the Chinese lessons' prose around the same exercises, solutions and tests as the
English course (one set of solutions, lessons/solutions/), and autograde's kernels in Chinese,
so a student's feedback carries the checks' Chinese words."""

import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from minisym_widgets import assignments, i18n
from test_assignments import nbgrader, scores

pytest.importorskip("nbgrader", reason="nbgrader is in the test extra: pip install -e '.[test]'")

LESSONS = Path(__file__).resolve().parents[1] / "lessons"
ZH = LESSONS / "zh-CN"
ZH_LESSONS = sorted(ZH.glob("[0-9][0-9]_*.ipynb"))
CJK = range(0x4E00, 0xA000)  # CJK Unified Ideographs
pytestmark = pytest.mark.skipif(
    not ZH_LESSONS,
    reason="lessons/zh-CN/ has no notebooks yet: the Chinese course is tested once it has",
)


def has_chinese(text):
    return any(ord(ch) in CJK for ch in text)


def output_text(cell):
    """What a code cell printed, raised and showed, as one string."""
    parts = []
    for output in cell.get("outputs", []):
        parts += [
            output.get("text", ""),
            output.get("evalue", ""),
            *output.get("traceback", []),
            output.get("data", {}).get("text/plain", ""),
        ]
    return "\n".join(parts)


@pytest.fixture(scope="module")
def courses(tmp_path_factory):
    """(English course, Chinese course, the Chinese course's assignment names)."""
    english, chinese = tmp_path_factory.mktemp("course"), tmp_path_factory.mktemp("course-zh")
    assignments.build(LESSONS, english)
    done = subprocess.run(
        [sys.executable, "-m", "minisym_widgets.assignments", f"{ZH}/", str(chinese)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    names = [Path(line).stem for line in done.stdout.split()]
    assert names, f"no assignment written from {ZH}: {done.stdout}"
    return english, chinese, names


def test_one_assignment_per_chinese_lesson_with_exercises(courses):
    english, chinese, names = courses
    expected = [
        f"lesson{int(path.name[:2])}"
        for path in ZH_LESSONS
        if (english / "source" / f"lesson{int(path.name[:2])}").is_dir()
    ]
    assert names == expected


def test_the_chinese_course_grades_the_english_exercises_around_chinese_prose(courses):
    english, chinese, names = courses
    for name in names:
        en = nbformat.read(english / "source" / name / f"{name}.ipynb", as_version=4)
        zh = nbformat.read(chinese / "source" / name / f"{name}.ipynb", as_version=4)
        assert [c.cell_type for c in zh.cells] == [c.cell_type for c in en.cells], name
        for en_cell, zh_cell in zip(en.cells, zh.cells):
            assert zh_cell.id == en_cell.id
            if en_cell.cell_type == "code":  # same exercises, solutions, tests and grades
                assert zh_cell.source == en_cell.source, (name, zh_cell.id)
                assert zh_cell.metadata.get("nbgrader") == en_cell.metadata.get("nbgrader")
        prose = "".join(c.source for c in zh.cells if c.cell_type == "markdown")
        assert has_chinese(prose), f"{name}: the Chinese course's prose is not Chinese"


@pytest.mark.slow
def test_the_chinese_course_autogrades_in_chinese(courses):
    english, chinese, names = courses
    config = (chinese / "nbgrader_config.py").read_text()
    assert 'os.environ["LANGUAGE"] = "zh_CN"' in config
    assert "LANGUAGE" not in (english / "nbgrader_config.py").read_text()
    name = names[0]
    nbgrader(chinese, "generate_assignment", name, "--force")
    source = chinese / "source" / name / f"{name}.ipynb"
    release = chinese / "release" / name / f"{name}.ipynb"
    assert "BEGIN SOLUTION" not in release.read_text(encoding="utf-8")
    for student, path in (("teacher", source), ("blank", release)):
        folder = chinese / "submitted" / student / name
        folder.mkdir(parents=True)
        nbformat.write(nbformat.read(path, as_version=4), folder / f"{name}.ipynb")
    nbgrader(chinese, "autograde", name, "--create", "--force")
    nbgrader(chinese, "export")
    got = scores(chinese, name)
    assert got["teacher"][0] == got["teacher"][1] > 0 and got["blank"][0] == 0, got
    if not i18n.catalogue_path("zh_CN", "minisym_exercises").exists():
        pytest.skip(
            "widgets/locale/zh_CN/LC_MESSAGES/minisym_exercises.po is not written yet: "
            "the checks' Chinese words in the feedback are tested once it exists"
        )
    graded = nbformat.read(chinese / "autograded" / "blank" / name / f"{name}.ipynb", as_version=4)
    tests = [c for c in graded.cells if c.metadata.get("nbgrader", {}).get("grade")]
    said = "\n".join(output_text(cell) for cell in tests)
    assert tests and has_chinese(said), (
        f"{name}: the blank submission's test cells say nothing in Chinese:\n{said[:2000]}"
    )


def test_an_edition_without_solutions_anywhere_is_refused(tmp_path):
    (tmp_path / "zh-CN").mkdir()
    nbformat.write(
        nbformat.read(ZH_LESSONS[0], as_version=4), tmp_path / "zh-CN" / ZH_LESSONS[0].name
    )
    with pytest.raises(FileNotFoundError, match="put the solutions"):
        assignments.build(tmp_path / "zh-CN", tmp_path / "course")
