"""Catalogue, JSON: symbol files that are truncated, damaged, of another format, or crafted.

Loading is parsing: ``mx.sym.load`` / ``load_json`` never evaluate text, every record is
checked, and what is wrong is an MXNetError (a ValueError too) naming the file or the node,
never a Python error from deep inside. A crafted file never runs code: the tests that try
check that the file its code would create does not appear. Loading changes nothing the learner
has (the symbol they hold, the file itself).
"""

import json
import pickle

import pytest

import minisym as mx

from .state import assert_unchanged, snapshot


def mlp():
    data = mx.sym.Variable("data")
    fc = mx.sym.FullyConnected(data, num_hidden=3, name="fc1")
    return mx.sym.SoftmaxOutput(fc, name="softmax")


@pytest.fixture
def net():
    return mlp()


@pytest.fixture
def graph(net):
    """The parsed JSON of ``net``: nodes data, fc1_weight, fc1_bias, fc1, softmax_label, softmax."""
    return json.loads(net.tojson())


def load_file(tmp_path, content):
    path = tmp_path / "net-symbol.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return str(path)


def refused(call, *expected):
    """Run ``call``; it must raise an MXNetError that is a ValueError, with every text of
    ``expected`` in its message. Returns the message."""
    with pytest.raises(mx.base.MXNetError) as info:
        call()
    assert isinstance(info.value, ValueError), type(info.value)
    message = str(info.value)
    for part in expected:
        assert part in message, f"{part!r} not in {message!r}"
    return message


# --- files that are not (whole) symbol files -----------------------------------------------------
def test_a_truncated_symbol_file(tmp_path, net):
    path = load_file(tmp_path, net.tojson()[:300])
    before = snapshot(net)
    refused(
        lambda: mx.sym.load(path),
        f'mx.sym.load("{path}"): the text is not valid JSON',
        "it stops in the middle (a truncated file?)",
    )
    assert_unchanged(before, net)


def test_random_bytes_named_json(tmp_path):
    path = load_file(tmp_path, bytes(range(256)) * 4)
    refused(
        lambda: mx.sym.load(path),
        f'mx.sym.load("{path}"): not a symbol JSON file: it is '
        "not text (byte 0x80 at position 128 is not UTF-8)",
    )


def test_a_png_image_named_json(tmp_path):
    path = load_file(tmp_path, b"\x89PNG\r\n\x1a\n" + bytes(64))
    refused(lambda: mx.sym.load(path), "not a symbol JSON file: it is a PNG image")


def test_the_params_file_instead_of_the_symbol_file(tmp_path):
    params = tmp_path / "net-0001.params"
    mx.nd.save(str(params), {"arg:fc1_weight": mx.nd.zeros((3, 4))})
    refused(
        lambda: mx.sym.load(str(params)),
        "it is an MXNet .params file of arrays (read it with mx.nd.load",
    )


def test_an_empty_file_from_an_interrupted_save(tmp_path):
    path = load_file(tmp_path, b"")
    refused(lambda: mx.sym.load(path), "it is an empty file, 0 bytes")


def test_a_json_file_of_another_framework():
    keras = json.dumps({"class_name": "Sequential", "config": {"layers": []}})
    refused(
        lambda: mx.sym.load_json(keras),
        "load_json: not an MXNet symbol file (it needs 'nodes' and 'heads')",
    )


def test_a_file_that_does_not_exist(tmp_path):
    with pytest.raises(OSError) as info:  # MXNet: MXNetError "Check failed: allow_null"
        mx.sym.load(str(tmp_path / "nope" / "net-symbol.json"))
    assert isinstance(info.value, mx.base.MXNetError)
    assert "No such file or directory (the folder" in str(info.value)


def test_load_json_given_the_file_name(tmp_path, net):
    path = str(tmp_path / "net-symbol.json")
    net.save(path)
    before = snapshot(net)
    message = refused(lambda: mx.sym.load_json(path))
    assert message == (
        f"mx.sym.load_json wants the JSON text itself, not a file name: to read the file use "
        f"mx.sym.load({path!r}) (or mx.sym.load_json(open({path!r}).read())).\n"
        f"Check failed: ch == '{{' (47 vs. {{) : Error at Line 0, around ^`{path[1:40]}`, "
        "Expect '{' but get '/'"
    )  # MXNet's own text on the second line
    assert_unchanged(before, net)
    assert mx.sym.load(path).tojson() == net.tojson()  # the fix it gives works


def test_load_json_given_a_file_name_that_does_not_exist_yet():
    refused(
        lambda: mx.sym.load_json("model-symbol.json"),
        "mx.sym.load_json wants the JSON text itself, not a file name: to read the file use "
        "mx.sym.load('model-symbol.json')",
    )


def test_text_given_as_bytes(net):
    with pytest.raises(TypeError, match="json_str needs to be string"):
        mx.sym.load_json(net.tojson().encode())


# --- from a newer MXNet ---------------------------------------------------------------------------
def test_a_symbol_from_a_future_mxnet_with_an_operator_it_added(graph):
    graph["attrs"]["mxnet_version"] = ["int", 20000]
    graph["nodes"][3]["op"] = "FullyConnectedV2"
    with pytest.warns(UserWarning, match=r"saved by MXNet 2\.0\.0, newer than the 1\.9\.1"):
        refused(
            lambda: mx.sym.load_json(json.dumps(graph)),
            "load_json: node 3 'fc1': unknown operator 'FullyConnectedV2'",
            "saved by MXNet 2.0.0, which has operators 1.9.1 lacks",
        )


# --- damaged records ------------------------------------------------------------------------------
def test_a_head_that_points_past_the_nodes(graph):
    graph["heads"] = [[99, 0, 0]]
    refused(
        lambda: mx.sym.load_json(json.dumps(graph)),
        "head 0 reads node 99, but only nodes 0 to 5 come before the heads",
    )


def test_an_input_that_comes_after_its_reader(graph):
    graph["nodes"][3]["inputs"][0] = [5, 0, 0]  # fc1 reads softmax: a cycle
    refused(
        lambda: mx.sym.load_json(json.dumps(graph)),
        "node 3 'fc1' reads node 5, but only nodes 0 to 2 come before it",
    )


def test_an_input_reading_an_output_that_does_not_exist(graph):
    graph["nodes"][3]["inputs"][0] = [0, 5, 0]  # MXNet accepts it and infers nothing
    refused(
        lambda: mx.sym.load_json(json.dumps(graph)),
        "node 3 'fc1' reads output 5 of node 0 'data', which has 1 output",
    )


def test_a_node_without_its_op(graph):
    del graph["nodes"][3]["op"]  # minisym used to read it as a variable
    refused(
        lambda: mx.sym.load_json(json.dumps(graph)),
        "node 3: the field 'op' is missing; every node has a string 'op' and 'name'",
    )


def test_an_operator_with_an_input_missing(graph):
    graph["nodes"][3]["inputs"] = graph["nodes"][3]["inputs"][:1]
    refused(
        lambda: mx.sym.load_json(json.dumps(graph)),
        "node 3 'fc1' (FullyConnected) has 1 inputs, but FullyConnected takes 3",
    )


def test_nodes_that_are_not_a_list(graph):
    graph["nodes"] = "nodes"
    refused(lambda: mx.sym.load_json(json.dumps(graph)), "'nodes' and 'heads' must be lists")


# --- crafted to run code or to exhaust the parser -------------------------------------------------
def test_an_operator_name_that_is_python_code(graph, tmp_path):
    marker = tmp_path / "pwned"
    graph["nodes"][3]["op"] = f"__import__('os').system('touch {marker}')"
    refused(lambda: mx.sym.load_json(json.dumps(graph)), "node 3 'fc1': unknown operator")
    assert not marker.exists()


def test_parameters_that_are_python_code(graph, tmp_path):
    marker = tmp_path / "pwned"
    code = f"__import__('os').system('touch {marker}')"
    for key in ("num_hidden", "no_bias", "flatten"):
        graph["nodes"][3]["attrs"] = {"num_hidden": "3", key: code}
        refused(
            lambda: mx.sym.load_json(json.dumps(graph)),
            f"FullyConnected 'fc1': parameter {key}=",
            "cannot be read as",
        )
    assert not marker.exists()


def test_a_shape_hint_that_is_an_expression(graph, tmp_path):
    marker = tmp_path / "pwned"
    for hint in ("1" + "+1" * 100000, f"__import__('os').system('touch {marker}')", "1e9"):
        graph["nodes"][0]["attrs"] = {"__shape__": hint}
        refused(
            lambda: mx.sym.load_json(json.dumps(graph)),
            "node 0 'data' has __shape__=",
            "which is not a shape such as (2, 3)",
        )
    assert not marker.exists()


def test_a_parameter_nested_to_exhaust_the_parser():
    data = mx.sym.Variable("data")
    graph = json.loads(mx.sym.Convolution(data, kernel=(1, 1), num_filter=2, name="c").tojson())
    graph["nodes"][-1]["attrs"]["kernel"] = "1" + "+1" * 100000  # RecursionError in ast
    message = refused(
        lambda: mx.sym.load_json(json.dumps(graph)),
        "Convolution 'c': parameter kernel='1+1+1",
        "(200001 chars) cannot be read",
    )
    assert len(message) < 300  # the 200,001 characters are not repeated back


def test_brackets_nested_to_exhaust_the_json_reader():
    deep = '{"nodes": ' + "[" * 100000 + "]" * 100000 + ', "heads": []}'
    refused(lambda: mx.sym.load_json(deep), "the JSON nests brackets too deeply")


def test_a_pickle_named_json_is_never_unpickled(tmp_path):
    marker = tmp_path / "pwned"

    class Evil:
        def __reduce__(self):
            import os

            return os.system, (f"touch {marker}",)

    path = load_file(tmp_path, pickle.dumps(Evil()))
    refused(lambda: mx.sym.load(path), "it is a Python pickle (minisym never unpickles")
    assert not marker.exists()


def test_loading_changes_neither_the_file_nor_the_symbol_held(tmp_path, net):
    path = tmp_path / "net-symbol.json"
    net.save(str(path))
    on_disk = path.read_bytes()
    before = snapshot(net)
    back = mx.sym.load(str(path))
    assert back.tojson() == net.tojson()
    assert path.read_bytes() == on_disk
    assert_unchanged(before, net)
