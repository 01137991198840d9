"""Deep graphs never recurse: a 3,000-operator chain and ResNet-152 go through every graph
operation with Python's recursion limit lowered far below their depth."""

import copy
import pickle
import sys

import pytest

import minisym as mx
from nets import chain, resnet


@pytest.fixture
def low_recursion_limit():
    """Any recursive walk over these graphs would now fail."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(400)
    yield
    sys.setrecursionlimit(old)


def _roundtrips(sym):
    text = sym.tojson()
    assert mx.sym.load_json(text).tojson() == text
    assert pickle.loads(pickle.dumps(sym)).tojson() == text
    assert copy.deepcopy(sym).tojson() == text
    assert copy.copy(sym).tojson() == text


def test_chain_of_3000_operators(low_recursion_limit):
    sym = chain(3000)
    assert len(sym.topo_order()) == 3001
    assert sym.list_arguments() == ["x"]
    assert sym.list_outputs() == ["activation1499_output"]
    args, outs, aux = sym.infer_shape(x=(4, 5))
    assert args == [(4, 5)] and outs == [(4, 5)] and aux == []
    assert sym.infer_type(x="float64")[1][0].__name__ == "float64"
    _roundtrips(sym)
    assert {sym: "head"}[sym] == "head"  # hashing walks nothing
    assert hash(sym) != hash(chain(3000))
    assert (sym == chain(3000, start="y")).name == "_equal0"
    assert len(sym.get_internals().list_outputs()) == 3001


def test_resnet152_symbol(low_recursion_limit):
    sym = resnet(152, num_classes=1000)
    args, outs, aux = sym.infer_shape(data=(1, 3, 224, 224))
    assert outs == [(1, 1000)]
    names = sym.list_arguments()
    assert len(args) == len(names) and names[0] == "data" and names[-1] == "softmax_label"
    assert dict(zip(names, args))["fc1_weight"] == (1000, 2048)
    # two aux states per BatchNorm: three BatchNorms a unit, 50 units, plus 3
    assert len(aux) == len(sym.list_auxiliary_states()) == 2 * (3 * 50 + 3)
    _roundtrips(sym)


def test_chain_length_does_not_matter_for_names():
    """Names come from per-hint counters, so two chains in one NameManager keep counting."""
    with mx.name.NameManager():
        first = chain(4)
        second = chain(4)
    assert first.list_outputs() == ["activation1_output"]
    assert second.list_outputs() == ["activation3_output"]
