"""mx.viz: print_summary without shapes (minisym's deliberate difference) and plot_network."""

import contextlib
import io
import sys
import warnings

import pytest

import minisym as mx
from minisym import visualization


def summary(*args, **kwargs):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        mx.viz.print_summary(*args, **kwargs)
    return buf.getvalue()


def convnet(data):
    net = mx.sym.Convolution(data, kernel=(3, 3), num_filter=4, name="conv")
    net = mx.sym.BatchNorm(net, name="bn")
    net = mx.sym.Flatten(net, name="flat")
    net = mx.sym.FullyConnected(net, num_hidden=3, name="fc")
    return mx.sym.SoftmaxOutput(net, name="softmax")


def test_viz_and_visualization_are_one_module():
    assert mx.viz is mx.visualization is visualization


def test_without_shape_counts_are_unknown_and_the_missing_input_is_named():
    text = summary(convnet(mx.sym.Variable("data")))
    rows = {line.split()[0]: line.split() for line in text.splitlines() if "(" in line}
    assert rows["conv(Convolution)"][1] == "?"
    assert rows["bn(BatchNorm)"][1] == "?"
    assert rows["fc(FullyConnected)"][1] == "?"
    assert rows["flat(Flatten)"][1] == "0"
    assert "Total params: ?" in text
    last = text.splitlines()[-1]
    assert "need the shapes of: data." in last and "shape={'data': (...)}" in last
    assert "weight" not in last and "softmax_label" not in last


def test_shape_hints_give_exactly_the_table_for_those_shapes():
    hinted = convnet(mx.sym.Variable("data", shape=(4, 1, 8, 8)))
    plain = convnet(mx.sym.Variable("data"))
    assert summary(hinted) == summary(plain, shape={"data": (4, 1, 8, 8)})
    assert "Total params: 483" in summary(hinted)


def test_partial_hints_count_what_they_can():
    data = mx.sym.Variable("data", shape=(2, 6))
    tok = mx.sym.Variable("tok")
    net = mx.sym.Group(
        [
            mx.sym.FullyConnected(data, num_hidden=4, name="fc"),
            mx.sym.Embedding(tok, input_dim=5, output_dim=2, name="emb"),
        ]
    )
    text = summary(net)
    assert "Total params: 38" in text  # fc 28 + emb 10: neither needs tok's shape
    assert "Output shapes left blank need the shapes of: tok." in text


def test_with_shape_it_is_mxnets_table():
    text = summary(convnet(mx.sym.Variable("data")), shape={"data": (4, 1, 8, 8)})
    lines = text.splitlines()
    assert lines[0] == "_" * 120 and lines[2] == "=" * 120
    assert lines[3].startswith("data(null)") and "1x8x8" in lines[3]
    assert "Total params: 483" in text and "?" not in text


def test_incomplete_shape_raises_like_mxnet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match="incomplete"):
            summary(
                mx.sym.Group([mx.sym.Variable("a") * 2, mx.sym.Variable("b") * 2]),
                shape={"a": (1, 2)},
            )


def test_plot_network_returns_a_digraph_and_warns_once_when_dot_is_missing(monkeypatch):
    monkeypatch.setattr(visualization.shutil, "which", lambda name: None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dot = mx.viz.plot_network(convnet(mx.sym.Variable("data")))
    messages = [str(w.message) for w in caught if w.category is RuntimeWarning]
    assert len(messages) == 1
    assert "apt-get install graphviz" in messages[0] and "conda install graphviz" in messages[0]
    assert type(dot).__name__ == "Digraph" and "conv" in dot.source


def test_plot_network_is_silent_when_dot_is_installed(monkeypatch):
    monkeypatch.setattr(visualization.shutil, "which", lambda name: "/usr/bin/dot")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mx.viz.plot_network(convnet(mx.sym.Variable("data")))
    assert caught == []


def test_plot_network_without_the_graphviz_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "graphviz", None)
    with pytest.raises(ImportError, match="graphviz"):
        mx.viz.plot_network(mx.sym.Variable("x"))


def test_hide_weights_false_draws_weight_edges_without_styling_the_nodes():
    net = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=2, name="fc")
    hidden = mx.viz.plot_network(net).source
    shown = mx.viz.plot_network(net, hide_weights=False).source
    assert "fc_weight" not in hidden
    assert "fc -> fc_weight" in shown and "\tfc_weight [" not in shown


def test_deep_graph_does_not_recurse():
    net = mx.sym.Variable("data")
    for _ in range(1500):
        net = mx.sym.Activation(net, act_type="relu")
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(300)
    try:
        text = summary(net, shape={"data": (1, 2)})
        dot = mx.viz.plot_network(net)
    finally:
        sys.setrecursionlimit(old)
    assert text.count("(Activation)") == 1500 and len(dot.body) == 1501 + 1500
