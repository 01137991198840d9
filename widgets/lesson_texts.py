"""The lessons' own words inside code cells (the ``question=`` and ``why=`` of ``Predict``),
translated through the ``minisym_lessons`` catalogue: a lesson's code cells are the same in every
edition of the course, so their prose is translated where it is shown, not in the cell.

    python -m minisym_widgets.lesson_texts lessons/ > widgets/locale/minisym_lessons.pot

writes the template from the lessons; ``widgets/locale/zh_CN/LC_MESSAGES/minisym_lessons.po``
holds the Chinese.
"""

import ast
import json
import sys
from pathlib import Path

__all__ = ["lesson_texts", "pot"]

KEYWORDS = ("question", "why")  # Predict's arguments that carry a lesson's prose


def lesson_texts(folder):
    """[(notebook name, line, text)] of every Predict question / why in the lessons of
    ``folder``, in order, each text once."""
    found, seen = [], set()
    for path in sorted(Path(folder).glob("[0-9][0-9]_*.ipynb")):
        for cell in json.loads(path.read_text())["cells"]:
            if cell["cell_type"] != "code" or "Predict" not in "".join(cell["source"]):
                continue
            for node in ast.walk(ast.parse("".join(cell["source"]))):
                for text, line in _predict_texts(node):
                    if text not in seen:
                        seen.add(text)
                        found.append((path.name, line, text))
    return found


def _predict_texts(node):
    """(text, line) of the literal question / why of a ``Predict`` or ``Predict.x`` call."""
    if not isinstance(node, ast.Call):
        return []
    func = node.func
    owner = func.value if isinstance(func, ast.Attribute) else func
    if not (isinstance(owner, ast.Name) and owner.id == "Predict"):
        return []
    values = [kw.value for kw in node.keywords if kw.arg in KEYWORDS]
    if isinstance(func, ast.Name) and node.args:  # Predict(question, answer, ...)
        values.append(node.args[0])
    return [
        (v.value, v.lineno)
        for v in values
        if isinstance(v, ast.Constant) and isinstance(v.value, str)
    ]


def pot(folder):
    """The gettext template of the lessons' texts."""
    lines = ['msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"', ""]
    for name, line, text in lesson_texts(folder):
        lines += [
            f"#: lessons/{name}:{line}",
            f"msgid {json.dumps(text, ensure_ascii=False)}",
            'msgstr ""',
            "",
        ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.stdout.write(pot(sys.argv[1] if len(sys.argv) > 1 else "lessons"))
