"""The Chinese pages use the glossary's terms: lessons/zh-CN/glossary.md fixes one Chinese term
per concept and lists the variants not to use (each a Python regex); every Chinese page
(lessons/zh-CN/*.md except the glossary, the markdown cells of lessons/zh-CN/*.ipynb,
README.zh-CN.md) is checked outside code: each term is used somewhere, no variant appears."""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ZH = ROOT / "lessons" / "zh-CN"
GLOSSARY = ZH / "glossary.md"
HEADER = ("English", "中文", "说明", "不要用")

FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.MULTILINE | re.DOTALL)
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)
LINK_TARGET = re.compile(r"\]\([^)]*\)")
HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
VARIANT = re.compile(r"`([^`]+)`(?:（([^）]*)）)?")


def cells(line):
    """'| a | b |' -> ['a', 'b']."""
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def glossary_rows(text):
    """[(english, term, [(variant regex, note), ...])] from every table with the glossary's
    header; in the 不要用 column each variant is in backticks, a （note） may follow it."""
    rows, in_table = [], False
    for line in text.splitlines():
        if not line.startswith("|"):
            in_table = False
            continue
        row = cells(line)
        if tuple(row) == HEADER:
            in_table = True
        elif in_table and not set(line) <= set("|-: "):
            english, term, _, avoid = row
            rows.append((english, term.strip("*"), VARIANT.findall(avoid)))
    return rows


def prose(text):
    """Markdown with fenced code, inline code, link targets and comments blanked out (lines
    and columns kept, so a message's line number is the page's)."""
    blank = lambda match: re.sub(r"[^\n]", " ", match.group(0))
    for pattern in (FENCE, HTML_COMMENT, INLINE_CODE, LINK_TARGET):
        text = pattern.sub(blank, text)
    return text


def notebook_markdown(path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return "\n\n".join(
        "".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "markdown"
    )


def chinese_pages(root=ROOT):
    """{relative path: markdown text} of every Chinese page the glossary governs."""
    zh = root / "lessons" / "zh-CN"
    pages = {
        path: path.read_text(encoding="utf-8")
        for path in sorted(zh.glob("*.md"))
        if path.name != GLOSSARY.name
    }
    pages.update({path: notebook_markdown(path) for path in sorted(zh.glob("*.ipynb"))})
    readme = root / "README.zh-CN.md"
    if readme.exists():
        pages[readme] = readme.read_text(encoding="utf-8")
    return {str(path.relative_to(root)): text for path, text in pages.items()}


def term_pattern(term):
    """A Latin term (Prop, Op) must stand alone: 'Op' inside 'Prop' does not count."""
    if term.isascii():
        return re.compile(rf"(?<![A-Za-z_]){re.escape(term)}(?![A-Za-z_])")
    return re.compile(re.escape(term))


def line_violations(line, rows):
    """[(start, found, term, why, context)] in one line of prose; of overlapping matches the longest
    (the most specific variant: 辅助参数 rather than 参数) is the one reported."""
    matches = [
        (
            match.start(),
            match.end(),
            match.group(0),
            term,
            f"{english}; {note}" if note else english,
        )
        for english, term, variants in rows
        for variant, note in variants
        for match in re.finditer(variant, line)
    ]
    taken, kept = set(), []
    for start, end, found, term, why in sorted(matches, key=lambda m: m[0] - m[1]):
        if not taken & set(range(start, end)):
            taken |= set(range(start, end))
            context = " ".join(line[max(0, start - 24) : end + 24].split())
            kept.append((start, found, term, why, context))
    return sorted(kept)


def violations(pages, rows):
    """['path:line: write <term> instead of <found> (<english>; <note>): …<context>…', ...]."""
    return [
        f"{path}:{number}: write {term} instead of {found!r} ({why}): …{context}…"
        for path, text in pages.items()
        for number, line in enumerate(prose(text).splitlines(), start=1)
        for _, found, term, why, context in line_violations(line, rows)
    ]


def unused_terms(pages, rows):
    text = "\n".join(prose(page) for page in pages.values())
    return [
        f"{term} ({english})" for english, term, _ in rows if not term_pattern(term).search(text)
    ]


ROWS = glossary_rows(GLOSSARY.read_text(encoding="utf-8"))
PAGES = chinese_pages()


def test_the_glossary_has_its_table_and_one_row_per_term():
    terms = [term for _, term, _ in ROWS]
    assert len(terms) >= 40, f"expected the glossary's tables (header {HEADER}), got {terms}"
    assert len(set(terms)) == len(terms), sorted(t for t in terms if terms.count(t) > 1)
    assert "README.zh-CN.md" in PAGES and "lessons/zh-CN/index_rules.md" in PAGES, list(PAGES)


def test_every_variant_is_a_regex_that_spares_every_fixed_term():
    for english, term, variants in ROWS:
        for variant, _ in variants:
            compiled = re.compile(variant)
            hits = [other for _, other, _ in ROWS if compiled.search(other)]
            assert not hits, f"the variant {variant!r} of {term} ({english}) forbids {hits}"


def test_the_check_catches_a_variant_and_spares_code_and_correct_text():
    good = (
        "`list_arguments()` 列出输入；可学习参数 `fc1_weight` 在 `arg_params` 里，"
        "关键字参数 `num_class` 以字符串到达 Prop 的 `__init__`。\n"
        "```python\ndata = mx.sym.Variable('data')  # 参数 batch shape label\n```\n"
    )
    assert violations({"good.md": good}, ROWS) == []
    bad_text = "`list_arguments()` 返回的参数，\n辅助类的辅助参数和 batch。"
    bad = violations({"bad.md": bad_text}, ROWS)
    assert [message.split(" (")[0] for message in bad] == [
        "bad.md:1: write 输入 instead of '参数'",
        "bad.md:2: write Prop instead of '辅助类'",
        "bad.md:2: write 辅助状态 instead of '辅助参数'",
        "bad.md:2: write 批量 instead of 'batch'",
    ], bad


@pytest.mark.parametrize("path", sorted(PAGES))
def test_no_page_uses_a_variant_the_glossary_forbids(path):
    found = violations({path: PAGES[path]}, ROWS)
    assert not found, "use the glossary's terms (lessons/zh-CN/glossary.md):\n" + "\n".join(found)


def test_every_fixed_term_is_used_somewhere():
    unused = unused_terms(PAGES, ROWS)
    assert not unused, (
        "use these glossary terms in a Chinese page, or drop their rows from "
        f"lessons/zh-CN/glossary.md: {unused}"
    )
