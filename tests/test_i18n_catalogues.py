"""The Chinese catalogues keep step with the source: every message the widgets and the exercise
checks can show (extracted with Babel, as widgets/locale/<domain>.cfg says) has a Chinese
translation with the same placeholders, and no catalogue keeps a message the source dropped.
The language comes from ``set_language`` or the kernel's environment, and the English text of
a widget stays what the English lessons store."""

import re
from pathlib import Path

import pytest

from minisym_widgets import i18n

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "widgets" / "locale"
FORMAT_FIELD = re.compile(r"(?<!\{)\{([^{}]*)\}(?!\})")
PERCENT_FORM = re.compile(r"%(?:\([^)]*\))?[#0 +-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa%]")
CHINESE = re.compile(r"[\u4e00-\u9fff]")
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}  # as pybabel is told


def extract(domain):
    """{msgid or (singular, plural)} the source of ``domain`` holds, extracted as the .pot is
    (``pybabel extract -F widgets/locale/<domain>.cfg ... widgets``)."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    config = LOCALE / f"{domain}.cfg"
    assert config.exists(), f"{domain}: write {config.relative_to(ROOT)} (Babel's mapping)"
    with open(config) as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    found = extract_from_dir(ROOT / "widgets", method_map, options_map, keywords=KEYWORDS)
    return {message for _file, _line, message, _comments, _context in found if message}


def catalogue(domain):
    """The Chinese catalogue of ``domain`` (skips while its .po is not written yet)."""
    from babel.messages.pofile import read_po

    path = i18n.catalogue_path("zh_CN", domain)
    if not path.exists():
        pytest.skip(
            f"{domain}: no Chinese catalogue yet ({path.relative_to(ROOT)} is not "
            f"written); this test checks it as soon as it exists"
        )
    with open(path, "rb") as handle:
        return {message.id: message for message in read_po(handle, locale="zh_CN") if message.id}


def placeholders(text):
    """The sorted ``{field}`` and ``%`` forms of ``text``."""
    return sorted(FORMAT_FIELD.findall(text)) + sorted(PERCENT_FORM.findall(text))


def forms(message_id, message):
    """[(English, Chinese)] for each form of a message (two for a plural)."""
    if isinstance(message_id, tuple):
        strings = message.string if isinstance(message.string, (tuple, list)) else ("", "")
        chinese = [s for s in strings if s] or [""]
        return [(message_id[0], chinese[0]), (message_id[1], chinese[-1])]
    return [(message_id, message.string or "")]


@pytest.fixture(scope="module")
def extracted():
    return {domain: extract(domain) for domain in i18n.DOMAINS}


@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_every_message_is_translated(domain, extracted):
    po = catalogue(domain)
    missing = sorted(
        str(m)
        for m in extracted[domain]
        if m not in po or po[m].fuzzy or not all(zh for _, zh in forms(m, po[m]))
    )
    assert not missing, (
        f"{domain}: {len(missing)} messages have no Chinese translation:\n" + "\n".join(missing)
    )


@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_translations_keep_the_placeholders(domain, extracted):
    po = catalogue(domain)
    differ = [
        f"{en!r} -> {zh!r}"
        for m in sorted(extracted[domain], key=str)
        if m in po
        for en, zh in forms(m, po[m])
        if zh and placeholders(en) != placeholders(zh)
    ]
    assert not differ, f"{domain}: placeholders differ from the English:\n" + "\n".join(differ)


@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_no_stale_messages(domain, extracted):
    po = catalogue(domain)
    stale = sorted(str(m) for m in po if m not in extracted[domain])
    assert not stale, f"{domain}: the .po keeps messages the source no longer has:\n" + "\n".join(
        stale
    )


def test_placeholder_check_can_fail():
    assert placeholders("{n} of {total}") != placeholders("{n} / {all}")
    assert placeholders("%d%%") == ["%%", "%d"]


# --- choosing the language -----------------------------------------------------------------------
@pytest.fixture
def clean_language(monkeypatch):
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    i18n.set_language(None)
    yield monkeypatch
    i18n.set_language(None)


def test_set_language_is_exported_and_chooses_chinese(clean_language):
    import minisym_widgets

    assert "set_language" in dir(minisym_widgets)
    minisym_widgets.set_language("zh_CN")
    assert i18n.language() == "zh_CN"
    assert CHINESE.search(i18n.gettext("run on a copy"))
    minisym_widgets.set_language("en")
    assert i18n.gettext("run on a copy") == "run on a copy"


@pytest.mark.parametrize(
    "variable, value",
    [("LANG", "zh_CN.UTF-8"), ("LANGUAGE", "zh_CN:en"), ("LC_ALL", "zh_CN.UTF-8")],
)
def test_environment_chooses_chinese(clean_language, variable, value):
    clean_language.setenv(variable, value)
    assert i18n.language() == "zh_CN"
    assert CHINESE.search(i18n.gettext("run on a copy"))


def test_plural_forms_translate(clean_language):
    i18n.set_language("zh_CN")
    assert i18n.ngettext("{n} argument", "{n} arguments", 2).format(n=2) == "2 个输入"


# --- the widgets' text in both languages ---------------------------------------------------------
def softmax_index_map():
    from minisym_widgets import IndexMap
    from softmax_op import SoftmaxProp

    return IndexMap(SoftmaxProp, shapes={"data": (2, 3), "label": (2,)})


def predict_widget():
    from minisym_widgets import Predict

    return Predict("How many arguments?", lambda: 2)


def small_net():
    import minisym as mx

    data = mx.sym.Variable("data")
    return mx.sym.Activation(
        mx.sym.FullyConnected(data, num_hidden=4, name="fc"), act_type="relu", name="relu"
    )


def shape_explorer():
    from minisym_widgets import ShapeExplorer

    return ShapeExplorer(small_net(), data=(2, 3))


def grad_req_playground():
    from minisym_widgets import GradReqPlayground

    return GradReqPlayground(small_net(), shapes={"data": (2, 3)})


def stepper():
    import minisym as mx
    from minisym_widgets import Stepper

    return Stepper(small_net().simple_bind(mx.cpu(), data=(2, 3)))


def graph_view():
    from minisym_widgets import GraphView

    return GraphView(small_net(), data=(2, 3))


def memory_plan_view():
    from minisym_widgets import MemoryPlanView

    return MemoryPlanView(small_net(), data=(2, 3))


def gradient_heatmap():
    import numpy as np

    from minisym_widgets import GradientHeatmap

    expected = np.arange(6, dtype=np.float32).reshape(2, 3)
    return GradientHeatmap.show_difference(
        expected,
        -expected,
        names=("numeric", "symbolic"),
        slot="in_grad[0]",
        check="check_numeric_gradient",
    )


def lifecycle():
    from minisym_widgets import Lifecycle

    widget = Lifecycle("softmax")
    widget.stop()
    return widget


WIDGETS = [
    softmax_index_map,
    predict_widget,
    shape_explorer,
    grad_req_playground,
    stepper,
    graph_view,
    memory_plan_view,
    gradient_heatmap,
    lifecycle,
]


ENGLISH_INDEX_MAP = """\
IndexMap: Custom 'softmax' (op_type='softmax'): 2 arguments, 1 output, 0 auxiliary states
arguments: in_data[i] · in_grad[i] · backward req[i]  ⟷  list_arguments()[i]
  [0] data       data=              data             (2, 3)         float32  backward req[0]=write
  [1] label      label=             label            (2,)           float32  backward req[1]=write
outputs: out_data[j] · out_grad[j] · forward req[j]  ⟷  list_outputs()[j]
  [0] output                        softmax_output   (2, 3)         float32  forward req[0]=write\
  (backward gets no out_grad[0])"""
ENGLISH_PREDICT = """\
Predict: How many arguments?
  Type your prediction, then press “check”."""


@pytest.mark.parametrize("make", WIDGETS, ids=lambda make: make.__name__)
def test_widget_text_comes_out_in_chinese(clean_language, make):
    english = make()
    english_text, english_html = english.text(), english.html()
    i18n.set_language("zh_CN")
    chinese = make()
    assert CHINESE.search(chinese.text()) and CHINESE.search(chinese.html())
    assert chinese.text() != english_text and chinese.html() != english_html
    i18n.set_language("en")  # a widget made afterwards speaks English again
    again = make()
    assert (again.text(), again.html()) == (english_text, english_html)
    assert not CHINESE.search(english_text + english_html)


def test_english_text_is_what_the_lessons_store(clean_language):
    assert softmax_index_map().text() == ENGLISH_INDEX_MAP
    assert predict_widget().text() == ENGLISH_PREDICT
