"""One resolver for what a widget is given (widgets/_target.py ``source_of``) and one rule for
which argument is a label."""

import pathlib
import re

import pytest

import minisym as mx
from minisym.base import MXNetValueError
from minisym_widgets._target import is_label, source_of

WIDGETS = pathlib.Path(__file__).resolve().parents[1] / "widgets"


def net():
    fc = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=3, name="fc")
    return mx.sym.SoftmaxOutput(fc, name="softmax")


def test_a_label_is_named_label_or_ends_in_label():
    assert [
        n
        for n in ("label", "softmax_label", "center_label", "labels", "data", "lab")
        if is_label(n)
    ] == ["label", "softmax_label", "center_label"]


def test_each_kind_resolves_to_its_symbol_executor_and_module():
    symbol = net()
    assert source_of(symbol, "{type}").executor is None
    executor = symbol.simple_bind(mx.cpu(), data=(2, 4))
    found = source_of(executor, "{type}")
    assert found.symbol is executor.symbol and found.label_names() == ["softmax_label"]
    assert found.argument_shapes()["fc_weight"] == (3, 4)
    module = mx.mod.Module(symbol, data_names=["data"], label_names=["softmax_label"])
    assert source_of(module, "{type}").executor is None  # unbound: its symbol alone
    with pytest.raises(MXNetValueError, match="bind it"):
        source_of(module, "{type}", unbound="bind it")
    module.bind(data_shapes=[("data", (2, 4))], label_shapes=[("softmax_label", (2,))])
    assert source_of(module, "{type}").executor is module.executor


def test_a_module_names_its_own_labels():
    module = mx.mod.Module(net(), data_names=["data"], label_names=["softmax_label"])
    assert source_of(module, "{type}").label_names() == ["softmax_label"]


def test_anything_else_gets_the_widgets_message():
    with pytest.raises(TypeError, match="shows a Symbol; got int"):
        source_of(3, "shows a Symbol; got {type}")
    with pytest.raises(TypeError, match="got Symbol"):
        source_of(net(), "got {type}", accepts=(mx.executor.Executor,))


def test_no_widget_resolves_a_target_of_its_own():
    """Only _target.py asks whether a target is a Module or an Executor."""
    found = [
        f"{p.name}:{i}"
        for p in sorted(WIDGETS.rglob("*.py"))
        if p.name != "_target.py"
        for i, line in enumerate(p.read_text().splitlines(), 1)
        if re.search(r"isinstance\([^)]*\b(Module|Executor)\b", line)
    ]
    assert found == []
