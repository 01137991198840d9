"""The Chinese notebooks (lessons/zh-CN/) stay in step with the English lessons: the same cells
in the same order with the same ids, identical code cells, every markdown cell translated from
the current English text, a heading of the same level wherever the English has one, links that
resolve, and the English stored outputs as nbval compares them (only widget views and
exercise-check text may differ, in their words, not in how many outputs of which types).
`python tests/editions.py sync` and `python tests/editions.py execute` bring a Chinese notebook
back in step."""

import configparser
import copy
import re
import sys
from pathlib import Path

import nbformat
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from editions import LESSONS, en_sha256, lesson_pairs

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
CHECK_MARKS = ("✓", "✗", "…")
FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")
SYNC = "run `python tests/editions.py sync`, then translate the cells it lists"
CODE_SYNC = "run `python tests/editions.py sync`, then `python tests/editions.py execute`"
EXECUTE = "run `python tests/editions.py execute`"

PAIRS = lesson_pairs(LESSONS)


SANITIZE = Path(__file__).with_name("nbval_sanitize.cfg")


def sanitize_rules(path=SANITIZE):
    """[(regex, replacement)] that nbval applies before it compares outputs (e.g. a time)."""
    config = configparser.ConfigParser(interpolation=None)
    config.read(path, encoding="utf-8")
    return [
        (re.compile(config[name]["regex"]), config[name]["replace"]) for name in config.sections()
    ]


RULES = sanitize_rules()


def sanitized(value):
    """An output's text (in any nesting of dicts and lists) with nbval's rules applied."""
    if isinstance(value, str):
        for regex, replacement in RULES:
            value = regex.sub(replacement, value)
        return value
    if isinstance(value, dict):
        return {key: sanitized(item) for key, item in value.items()}
    if isinstance(value, list):
        return [sanitized(item) for item in value]
    return value


def headings(source):
    """Levels of the markdown headings of a cell, outside fenced code: '# A\\n## B' -> [1, 2]."""
    text = FENCE.sub("", source)
    return [len(match.group(1)) for match in re.finditer(r"^(#{1,6})\s", text, re.MULTILINE)]


def output_text(output):
    if output.output_type == "stream":
        return output.text
    return output.get("data", {}).get("text/plain", "")


def is_translated_output(cell):
    """True if a code cell's output is a widget view, exercise-check text or a picture that
    minisym_widgets draws (its labels are translated): words the Chinese run prints in Chinese."""
    draws = "minisym_widgets.diagrams" in cell.source
    return draws or any(
        WIDGET_VIEW in output.get("data", {})
        or output_text(output).lstrip().startswith(CHECK_MARKS)
        for output in cell.outputs
    )


def output_kinds(cell):
    return [
        (output.output_type, output.get("name"), sorted(output.get("data", {})))
        for output in cell.outputs
    ]


def comparable(cell):
    """A code cell's outputs without their metadata (e.g. image sizes noted by the front end),
    sanitized as nbval compares them: what may change from run to run does not count."""
    return [
        sanitized({key: value for key, value in output.items() if key != "metadata"})
        for output in cell.outputs
    ]


def cell_problems(index, en, zh):
    where = f"cell {index} (id {en.id})"
    if zh.cell_type != en.cell_type or zh.id != en.id:
        return [
            f"{where}: the Chinese cell is a {zh.cell_type} cell with id {zh.id}, "
            f"the English a {en.cell_type} cell with id {en.id}; {SYNC}"
        ]
    if en.cell_type == "code":
        if zh.source != en.source or zh.metadata.get("tags") != en.metadata.get("tags"):
            return [f"{where}: the code differs from the English (source or tags); {CODE_SYNC}"]
        if is_translated_output(en):
            if output_kinds(zh) != output_kinds(en):
                return [
                    f"{where}: outputs {output_kinds(zh)}, the English has "
                    f"{output_kinds(en)}; {EXECUTE}"
                ]
        elif comparable(zh) != comparable(en):
            return [
                f"{where}: the stored outputs differ from the English; {EXECUTE} "
                "(and `python tests/notebooks.py` for the English)"
            ]
        return []
    if en.cell_type != "markdown":
        return []
    marker = zh.metadata.get("zh", {})
    if marker.get("todo") or marker.get("en_sha256") != en_sha256(en.source):
        return [
            f"{where}: not translated from the current English text "
            f"({first_line(en.source)!r}); {SYNC}"
        ]
    if headings(zh.source) != headings(en.source):
        return [
            f"{where}: heading levels {headings(zh.source)}, the English has "
            f"{headings(en.source)}: translate each heading as a heading of the same level"
        ]
    return []


def first_line(source):
    return next((line for line in source.splitlines() if line.strip()), "")[:60]


def link_problems(zh_path, notebook):
    """Relative links and images of the Chinese markdown that point at no file."""
    problems = []
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "markdown":
            continue
        for match in LINK.finditer(FENCE.sub("", cell.source)):
            target = (match.group(1) or match.group(2)).split("#")[0]
            if target and "://" not in target and not target.startswith("mailto:"):
                if not (zh_path.parent / target).exists():
                    problems.append(
                        f"cell {index} (id {cell.id}): link {target!r} points at no "
                        f"file (write it relative to {zh_path.parent.name}/)"
                    )
    return problems


def drift(en_path, zh_path):
    """What keeps the Chinese notebook from being in step with the English one."""
    if not zh_path.exists():
        return [f"{zh_path.name}: there is no Chinese edition; {SYNC}"]
    english = nbformat.read(en_path, as_version=4)
    chinese = nbformat.read(zh_path, as_version=4)
    if len(chinese.cells) != len(english.cells):
        return [f"{len(chinese.cells)} cells, the English has {len(english.cells)}; {SYNC}"]
    problems = []
    for index, (en, zh) in enumerate(zip(english.cells, chinese.cells)):
        problems += cell_problems(index, en, zh)
    return problems + link_problems(zh_path, chinese)


@pytest.mark.parametrize("en_path, zh_path", PAIRS, ids=[en.name for en, _ in PAIRS])
def test_chinese_edition_in_step(en_path, zh_path):
    problems = drift(en_path, zh_path)
    assert not problems, f"lessons/zh-CN/{zh_path.name}:\n  " + "\n  ".join(problems)


def test_there_are_lessons():
    assert len(PAIRS) >= 8


def english_cell(notebook, kind, predicate=lambda cell: True):
    return next(cell for cell in notebook.cells if cell.cell_type == kind and predicate(cell))


def change_english_code(english, chinese):
    english_cell(english, "code").source += "\n# changed"


def change_english_markdown(english, chinese):
    english_cell(english, "markdown").source += " More."


def drop_a_chinese_heading(english, chinese):
    cell = english_cell(chinese, "markdown", lambda cell: "\n## " in "\n" + cell.source)
    cell.source = cell.source.replace("## ", "", 1)


def mark_a_cell_to_translate(english, chinese):
    english_cell(chinese, "markdown").metadata["zh"]["todo"] = True


def delete_a_chinese_cell(english, chinese):
    del chinese.cells[-1]


def change_a_plain_output(english, chinese):
    cell = english_cell(
        chinese, "code", lambda cell: cell.outputs and not is_translated_output(cell)
    )
    cell.outputs[0].setdefault("text", "changed\n")
    cell.outputs[0]["data"] = {"text/plain": "changed"}


def add_a_widget_output(english, chinese):
    cell = english_cell(chinese, "code", is_translated_output)
    cell.outputs.append(copy.deepcopy(cell.outputs[0]))


def break_an_image_link(english, chinese):
    english_cell(chinese, "markdown").source += "\n\n![x](images/nowhere.png)"


def drift_of_copy(folder, en_path, zh_path, mutate):
    """drift() of copies of a lesson pair written into ``folder`` after ``mutate``; the other
    files of lessons/ and lessons/zh-CN/ are linked beside them, so that links resolve."""
    english = nbformat.read(en_path, as_version=4)
    chinese = nbformat.read(zh_path, as_version=4)
    mutate(english, chinese)
    for source, target in ((en_path.parent, folder), (zh_path.parent, folder / "zh-CN")):
        target.mkdir(exist_ok=True)
        for path in source.iterdir():
            if path.name not in (en_path.name, "zh-CN") and not (target / path.name).exists():
                (target / path.name).symlink_to(path)
    nbformat.write(english, folder / en_path.name)
    nbformat.write(chinese, folder / "zh-CN" / zh_path.name)
    return drift(folder / en_path.name, folder / "zh-CN" / zh_path.name)


@pytest.mark.parametrize(
    "mutate",
    [
        change_english_code,
        change_english_markdown,
        drop_a_chinese_heading,
        mark_a_cell_to_translate,
        delete_a_chinese_cell,
        change_a_plain_output,
        add_a_widget_output,
        break_an_image_link,
    ],
)
def test_drift_is_found(tmp_path, mutate):
    """Each kind of drift, made on copies of a lesson pair in step, is reported."""
    in_step = [(en, zh) for en, zh in PAIRS if zh.exists() and not drift(en, zh)]
    if not in_step:
        pytest.skip("no Chinese notebook is in step yet")
    en_path, zh_path = in_step[0]
    assert drift_of_copy(tmp_path / "same", en_path, zh_path, lambda *notebooks: None) == []
    assert drift_of_copy(tmp_path / "changed", en_path, zh_path, mutate)
