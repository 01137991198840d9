"""lessons/README.md maps the fourteen questions the course grew from to sections of the
lessons: every section it names is a heading of that lesson, and every question has a row."""

import json
import re
from pathlib import Path

LESSONS = Path(__file__).resolve().parents[1] / "lessons"


def headings(number):
    path = next(LESSONS.glob(f"{number:02d}_*.ipynb"))
    cells = json.loads(path.read_text())["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return {line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")}


def question_rows():
    """(number, question, answer) of the fourteen questions' table (the first table of its
    section)."""
    text = (LESSONS / "README.md").read_text()
    section = text[text.index("## The questions the course grew from") :]
    table = section[section.index("| # |") : section.index("\n\n", section.index("| # |"))]
    return re.findall(r"^\| (\d+) \| (.+?) \| (.+) \|$", table, flags=re.MULTILINE)


def test_all_fourteen_questions_have_a_row():
    assert [int(number) for number, _, _ in question_rows()] == list(range(1, 15))


def test_every_named_section_is_a_heading_of_its_lesson():
    for number, _, answer in question_rows():
        for lesson, sections in re.findall(
            r"lesson (\d), ((?:\"[^\"]+\"(?: and |, | )?)+)", answer
        ):
            known = headings(int(lesson))
            for section in re.findall(r"\"([^\"]+)\"", sections):
                assert section in known, (number, lesson, section, sorted(known))
