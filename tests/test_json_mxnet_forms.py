"""JSON as pip's MXNet 1.9.1 writes it: the hidden oneDNN workspace of max pooling counted in
``node_row_ptr``, both forms read, the example networks' files written again byte for byte,
and the versions of auxiliary variables among the heads of ``get_internals()``.

What MXNet does was observed with the oracle; program p760 records it, these tests pin the
rule and the messages."""

import glob
import json
import os

import pytest

import minisym as mx
from minisym.base import MXNetError
from minisym.graph.json_io import has_onednn_workspace

EXAMPLES = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "fixtures", "mxnet_json", "examples"
)


def row_ptr(sym):
    return json.loads(sym.tojson())["node_row_ptr"]


# node_row_ptr of data -> Pooling as MXNet 1.9.1 (pip, oneDNN) writes it.
POOLING_ROW_PTR = [
    (dict(kernel=(2, 2), pool_type="max"), [0, 1, 3]),
    (dict(kernel=(2, 2)), [0, 1, 3]),  # pool_type defaults to max
    (dict(kernel=(3,), pool_type="max"), [0, 1, 3]),
    (dict(kernel=(2, 2, 2), pool_type="max"), [0, 1, 3]),
    (dict(kernel=(3, 3), stride=(2, 2), pooling_convention="full"), [0, 1, 3]),
    (dict(kernel=(3, 3), global_pool=True), [0, 1, 3]),
    (dict(kernel=(2, 2), layout="NCHW"), [0, 1, 3]),
    (dict(kernel=(2,), layout="NCW"), [0, 1, 3]),
    (dict(global_pool=True, pool_type="max"), [0, 1, 2]),  # no kernel: no oneDNN pooling
    (dict(kernel=(2, 2), layout="NHWC"), [0, 1, 2]),
    (dict(kernel=(2,), layout="NWC"), [0, 1, 2]),
    (dict(kernel=(2, 2, 2), layout="NDHWC"), [0, 1, 2]),
    (dict(kernel=(2, 2), pool_type="avg"), [0, 1, 2]),
    (dict(kernel=(2, 2), pool_type="sum"), [0, 1, 2]),
    (dict(kernel=(2, 2), pool_type="lp", p_value=2), [0, 1, 2]),
]


@pytest.mark.parametrize(
    "params, expected", POOLING_ROW_PTR, ids=[str(sorted(p.items())) for p, _ in POOLING_ROW_PTR]
)
def test_node_row_ptr_counts_the_workspace_of_onednn_max_pooling(params, expected):
    pool = mx.sym.Pooling(mx.sym.Variable("data"), name="p", **params)
    assert row_ptr(pool) == expected
    assert has_onednn_workspace(pool.get_internals().outputs[-1][0]) == (expected[-1] == 3)


def test_the_workspace_is_never_an_output_of_the_symbol():
    pool = mx.sym.Pooling(mx.sym.Variable("data"), kernel=(2, 2), name="p")
    net = mx.sym.Flatten(pool, name="f")
    assert pool.list_outputs() == ["p_output"]
    assert net.get_internals().list_outputs() == ["data", "p_output", "f_output"]
    assert len(pool) == 1
    assert row_ptr(net) == [0, 1, 3, 4]
    graph = json.loads(net.tojson())
    assert graph["heads"] == [[2, 0, 0]]
    assert graph["nodes"][2]["inputs"] == [[1, 0, 0]]
    ex = net.simple_bind(mx.cpu(), data=(1, 1, 4, 4))
    assert ex.output_dict.keys() == {"f_output"}


def test_both_forms_of_node_row_ptr_are_read():
    with open(os.path.join(EXAMPLES, "lenet.json"), encoding="utf-8") as f:
        mxnet_bytes = f.read()
    assert mx.sym.load_json(mxnet_bytes).tojson() == mxnet_bytes
    graph = json.loads(mxnet_bytes)
    assert graph["node_row_ptr"][-1] == len(graph["nodes"]) + 2  # two max poolings
    graph["node_row_ptr"] = list(range(len(graph["nodes"]) + 1))  # without the workspaces
    assert mx.sym.load_json(json.dumps(graph)).tojson() == mxnet_bytes
    del graph["node_row_ptr"]
    assert mx.sym.load_json(json.dumps(graph)).tojson() == mxnet_bytes


def _needs_custom(path):
    with open(path, encoding="utf-8") as f:
        return any(node["op"] == "Custom" for node in json.load(f)["nodes"])


EXAMPLE_FILES = sorted(
    p for p in glob.glob(os.path.join(EXAMPLES, "*.json")) if not _needs_custom(p)
)


def test_the_example_files_are_there():
    # Custom-operator files (custom-softmax, weighted-logistic-regression) need their
    # operator registered first; p740 / p741 check their bytes.
    names = {os.path.basename(p)[:-5] for p in EXAMPLE_FILES}
    assert {"lenet", "googlenet", "resnet-18", "inception-v3", "vgg-11-bn"} <= names
    assert len(names) == 18


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=os.path.basename)
def test_example_network_is_written_again_byte_for_byte(path):
    with open(path, encoding="utf-8") as f:
        mxnet_bytes = f.read()
    assert mx.sym.load(path).tojson() == mxnet_bytes


def test_an_entry_reading_the_workspace_is_refused_and_says_what_it_is():
    pool = mx.sym.Pooling(mx.sym.Variable("data"), kernel=(2, 2), name="p")
    graph = json.loads(pool.tojson())
    graph["heads"] = [[1, 1, 0]]
    with pytest.raises(MXNetError) as caught:
        mx.sym.load_json(json.dumps(graph))
    message = str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert "head 0 reads output 1 of node 1 'p'" in message
    assert "hidden workspace" in message and "oneDNN" in message and "max Pooling" in message
    assert "Read output 0, 'p_output', instead" in message


def test_an_input_reading_the_workspace_is_refused_naming_the_node():
    net = mx.sym.Flatten(mx.sym.Pooling(mx.sym.Variable("data"), kernel=(2, 2), name="p"), name="f")
    graph = json.loads(net.tojson())
    graph["nodes"][2]["inputs"] = [[1, 1, 0]]
    with pytest.raises(
        MXNetError,
        match=r"node 2 'f' reads output 1 of node 1 'p', the hidden "
        r"workspace",
    ):
        mx.sym.load_json(json.dumps(graph))


def test_output_one_of_an_average_pooling_is_a_damaged_file():
    pool = mx.sym.Pooling(mx.sym.Variable("data"), kernel=(2, 2), pool_type="avg", name="p")
    graph = json.loads(pool.tojson())
    graph["heads"] = [[1, 1, 0]]
    with pytest.raises(
        MXNetError,
        match=r"reads output 1 of node 1 'p', which has 1 output "
        r"\(a damaged file\)",
    ):
        mx.sym.load_json(json.dumps(graph))


def test_internals_heads_carry_the_version_of_mutated_aux_variables():
    x = mx.sym.Variable("x")
    mean = mx.sym.Variable("mm")
    bn2 = mx.sym.BatchNorm(
        mx.sym.BatchNorm(x, moving_mean=mean, name="bn"), moving_mean=mean, name="bn2"
    )
    heads = json.loads(bn2.get_internals().tojson())["heads"]
    # as MXNet 1.9.1: mm mutated twice, each moving_var once, everything else version 0
    assert heads == [
        [0, 0, 0],
        [1, 0, 0],
        [2, 0, 0],
        [3, 0, 2],
        [4, 0, 1],
        [5, 0, 0],
        [6, 0, 0],
        [7, 0, 0],
        [8, 0, 1],
        [9, 0, 0],
    ]
    assert json.loads(bn2.tojson())["heads"] == [[9, 0, 0]]


def test_other_heads_write_version_zero_as_mxnet_does():
    x = mx.sym.Variable("x")
    mean = mx.sym.Variable("mm")
    bn2 = mx.sym.BatchNorm(
        mx.sym.BatchNorm(x, moving_mean=mean, name="bn"), moving_mean=mean, name="bn2"
    )
    # MXNet 1.9.1: the Variable's own entry was made before any BatchNorm mutated it
    assert json.loads(mx.sym.Group([bn2, mean]).tojson())["heads"] == [[9, 0, 0], [3, 0, 0]]


def test_a_checkpoint_stores_the_symbol_as_mxnet_does(tmp_path):
    path = os.path.join(EXAMPLES, "resnet-18.json")  # a max pooling after the first convolution
    with open(path, encoding="utf-8") as f:
        mxnet_bytes = f.read()
    prefix = str(tmp_path / "resnet")
    mx.model.save_checkpoint(prefix, 1, mx.sym.load(path), {}, {})
    with open(prefix + "-symbol.json", encoding="utf-8") as f:
        assert f.read() == mxnet_bytes
    assert mx.model.load_checkpoint(prefix, 1)[0].tojson() == mxnet_bytes
