"""The lessons' prose inside code cells (Predict's questions and explanations) is translated:
the template is the one the lessons give today, every text has its Chinese, and a Predict made
with a lesson's question shows the Chinese in a Chinese kernel."""

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from minisym_widgets import i18n
from minisym_widgets.lesson_texts import lesson_texts, pot

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "widgets" / "locale" / "minisym_lessons.pot"


def chinese():
    with open(i18n.catalogue_path("zh_CN", i18n.LESSONS_DOMAIN), "rb") as handle:
        return {m.id: m.string for m in read_po(handle) if m.id}


def test_the_template_is_the_lessons_of_today():
    assert TEMPLATE.read_text() == pot(ROOT / "lessons"), (
        "the lessons' Predict texts changed: python -m minisym_widgets.lesson_texts lessons > "
        "widgets/locale/minisym_lessons.pot, then translate the new ones in "
        "widgets/locale/zh_CN/LC_MESSAGES/minisym_lessons.po"
    )


def test_every_lesson_text_has_its_chinese_and_nothing_stale():
    texts = {text for _, _, text in lesson_texts(ROOT / "lessons")}
    translated = chinese()
    assert sorted(texts - {k for k, v in translated.items() if v}) == []
    assert sorted(set(translated) - texts) == []


@pytest.fixture
def in_chinese():
    i18n.set_language("zh_CN")
    yield
    i18n.set_language(None)


def test_lesson_text_follows_the_language(in_chinese):
    question = "How many entries will forward's in_data have?"
    assert i18n.lesson_text(question) == "前向计算的 in_data 有几项？"
    i18n.set_language("en")
    assert i18n.lesson_text(question) == question


def test_a_predict_made_with_a_lessons_question_shows_it_in_chinese(in_chinese):
    from minisym_widgets import Predict

    widget = Predict(
        "How many entries will forward's in_data have?",
        lambda: 2,
        kind="int",
        why="A loss is the top of the graph: no gradient arrives from above.",
    )
    assert widget.question == "前向计算的 in_data 有几项？"
    assert widget.why == "损失是计算图的最后一层：后面没有层传来梯度。"
    assert "前向计算的 in_data 有几项？" in repr(widget)
