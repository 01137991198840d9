"""Catalogue, viz: mistakes a learner makes with mx.viz.print_summary and plot_network.

Each test asserts MXNet's exception type, the parts of the message that teach, that nothing
was printed before the failure (no half table), and that the symbol is unchanged.
"""

import pytest

import minisym as mx

from .state import assert_unchanged, snapshot


@pytest.fixture
def net():
    data = mx.sym.Variable("data")
    x = mx.sym.Convolution(data, kernel=(3, 3), num_filter=4, name="conv1")
    x = mx.sym.FullyConnected(x, num_hidden=3, name="fc1")
    return mx.sym.SoftmaxOutput(x, name="softmax")


@pytest.fixture
def unchanged(net, capsys):
    """After the test: the symbol is what it was and nothing reached stdout."""
    before = snapshot(net)
    yield
    assert_unchanged(before, net)
    assert capsys.readouterr().out == ""


def test_print_summary_with_a_shape_tuple_instead_of_a_dict(net, unchanged):
    """MXNet: "infer_shape() argument after ** must be a mapping, not tuple"."""
    with pytest.raises(
        TypeError,
        match=r"print_summary: shape is \{input name: shape\}, e\.g\. "
        r"shape=\{'data': \(1, 3, 32, 32\)\}; got the tuple "
        r"\(1, 3, 8, 8\)",
    ):
        mx.viz.print_summary(net, shape=(1, 3, 8, 8))


def test_print_summary_of_a_module(net, unchanged):
    mod = mx.mod.Module(net)
    with pytest.raises(
        TypeError,
        match=r"symbol must be Symbol; got a Module: pass its symbol, "
        r"print_summary\(mod\.symbol, \.\.\.\)",
    ):
        mx.viz.print_summary(mod)


def test_print_summary_with_a_misspelled_input_name(net, unchanged):
    with pytest.raises(mx.base.MXNetError) as info:  # MXNet: MXNetError
        mx.viz.print_summary(net, shape={"dat": (1, 3, 8, 8)})
    assert "Keyword argument name dat not found" in str(info.value)
    assert "Did you mean 'data'?" in str(info.value)


def test_print_summary_with_a_negative_size(net, unchanged):
    with pytest.raises(mx.base.MXNetError) as info:  # MXNet: MXNetError "dim size must be >= -1"
        mx.viz.print_summary(net, shape={"data": (1, 3, -8, 8)})
    assert "'data' has shape (1, 3, -8, 8): dimension 2 is -8" in str(info.value)
    assert "Fix: give data=(1, 3, 8, 8)" in str(info.value)


def test_print_summary_with_a_fractional_size(net, unchanged):
    """MXNet: "'float' object cannot be interpreted as an integer"; minisym printed a table."""
    with pytest.raises(
        TypeError,
        match=r"'data' has shape \(1, 3, 8\.5, 8\): dimension 2 is "
        r"8\.5 \(float\), but a size must be an int",
    ):
        mx.viz.print_summary(net, shape={"data": (1, 3, 8.5, 8)})


def test_print_summary_with_positions_for_two_columns(net, unchanged):
    """MXNet: a bare IndexError while drawing the header."""
    with pytest.raises(
        IndexError,
        match=r"positions gives where each of the 4 columns \(Layer "
        r"\(type\), Output Shape, Param #, Previous Layer\) "
        r"ends.*got \(0\.5, 1\.0\)",
    ):
        mx.viz.print_summary(net, shape={"data": (1, 3, 8, 8)}, positions=(0.5, 1.0))


def test_plot_network_of_the_json_text(net, unchanged):
    with pytest.raises(
        TypeError,
        match=r"symbol must be a Symbol; got a str: a symbol saved as "
        r"JSON is read back with mx\.sym\.load_json\(text\)",
    ):
        mx.viz.plot_network(net.tojson())


def test_plot_network_with_an_image_smaller_than_the_kernel(net, unchanged):
    with pytest.raises(
        mx.base.MXNetError,
        match=r"Convolution 'conv1': kernel \(3, 3\) "
        r"\(dilated size 3\) is larger than the padded "
        r"input \(1, 3, 2, 2\)",
    ):
        mx.viz.plot_network(net, shape={"data": (1, 3, 2, 2)})


def test_plot_network_with_node_attrs_as_a_colour_name(net, unchanged):
    """MXNet: "dictionary update sequence element #0 has length 1; 2 is required"."""
    with pytest.raises(
        ValueError,
        match=r"node_attrs is a dict of Graphviz node attributes, "
        r"e\.g\. node_attrs=\{'shape': 'oval'.*got the str "
        r"'red'",
    ):
        mx.viz.plot_network(net, node_attrs="red")


def test_plot_network_with_a_number_as_an_attribute(net, unchanged):
    """MXNet: "expected string or bytes-like object, got 'int'" from inside graphviz."""
    with pytest.raises(
        TypeError,
        match=r"node_attrs values are strings, as Graphviz reads them: "
        r"\{'fontsize': '12'\}; got \{'fontsize': 12\}",
    ):
        mx.viz.plot_network(net, node_attrs={"fontsize": 12})


def test_plot_network_with_a_dtype_that_is_not_a_dict(net, unchanged):
    with pytest.raises(
        TypeError,
        match=r"plot_network: dtype is \{input name: dtype\}, e\.g\. "
        r"dtype=\{'data': 'float32'\}; got the str 'float32'",
    ):
        mx.viz.plot_network(net, shape={"data": (1, 3, 8, 8)}, dtype="float32")


def test_plot_network_with_an_unknown_file_format(net, unchanged):
    with pytest.raises(ValueError, match=r"unknown format: 'jpgg' \(must be one of .*'png'"):
        mx.viz.plot_network(net, save_format="jpgg")
