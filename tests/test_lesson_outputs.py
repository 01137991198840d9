"""What the lessons store is what every learner sees on every machine: no cell escapes strict
nbval, each sanitizer rule serves a cell that needs it, and no stored output shows a figure
that training computed (those are drawn: bars, curves, comparisons)."""

import configparser
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "lessons").glob("[0-9][0-9]_*.ipynb"))
SANITIZE = ROOT / "tests" / "nbval_sanitize.cfg"


def stored_texts(path):
    """[(cell index, text)] of every stored output of the notebook at ``path``."""
    texts = []
    for index, cell in enumerate(json.loads(path.read_text())["cells"]):
        for output in cell.get("outputs", []):
            chunks = [output.get("text", "")] + list(output.get("data", {}).values())
            for chunk in chunks:
                if isinstance(chunk, (str, list)):
                    texts.append((index, "".join(chunk)))
    return texts


def sanitizer_rules():
    config = configparser.ConfigParser()
    config.read(SANITIZE)
    return {name: config[name]["regex"] for name in config.sections()}


@pytest.mark.parametrize("lesson", LESSONS, ids=[p.stem for p in LESSONS])
def test_no_cell_is_left_out_of_the_comparison(lesson):
    for index, cell in enumerate(json.loads(lesson.read_text())["cells"]):
        source = "".join(cell["source"])
        tags = cell.get("metadata", {}).get("tags", [])
        assert "NBVAL_IGNORE_OUTPUT" not in source and "NBVAL_SKIP" not in source, index
        assert not {"nbval-ignore-output", "nbval-skip"} & set(tags), index


def test_every_sanitizer_rule_serves_a_stored_output():
    rules = sanitizer_rules()
    assert rules, "tests/nbval_sanitize.cfg has no rule"
    texts = [text for lesson in LESSONS for _, text in stored_texts(lesson)]
    for name, regex in rules.items():
        assert any(re.search(regex, text) for text in texts), f"rule [{name}] matches nothing"


def test_no_rule_matches_a_metric_value():
    for name, regex in sanitizer_rules().items():
        for metric in ("accuracy=0.9177", "cross-entropy=0.7076", "loss 2.777", "0.000268"):
            assert not re.search(regex, metric), (name, metric)


def test_lesson_8_stores_no_trained_figure():
    fit_cells = [
        (i, text)
        for i, text in stored_texts(ROOT / "lessons" / "08_training.ipynb")
        if text.startswith("Epoch[")
    ]
    assert len(fit_cells) == 10, fit_cells  # one line per epoch
    for _, text in fit_cells:
        assert re.fullmatch(
            r"Epoch\[\d\]: 41 batches \(live bar: accuracy, cross-entropy\)", text
        ), text
