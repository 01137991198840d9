"""The index map and the grad_req playground, driven through their traits as a click would."""

import numpy as np
import pytest

import minisym as mx
from minisym_widgets import GradReqPlayground, IndexMap
from minisym_widgets._base import MAX_MESSAGE_BYTES
from softmax_op import SoftmaxProp

SHAPES = {"data": (8, 10), "label": (8,)}


def _row(index_map, family, index):
    table = next(t for t in index_map.tables if t["family"] == family)
    return table["rows"][index]


def _cell(index_map, label):
    return next(
        c for t in index_map.tables for r in t["rows"] for c in r["cells"] if c["label"] == label
    )


def test_a_prop_shows_every_slot_with_names_shapes_and_req():
    m = IndexMap(SoftmaxProp, shapes=SHAPES)
    assert not m.error
    assert [t["family"] for t in m.tables] == ["arguments", "outputs"]
    label = _row(m, "arguments", 1)
    assert (label["name"], label["given"], label["shape"], label["dtype"]) == (
        "label",
        "label=",
        "(8,)",
        "float32",
    )
    assert [c["label"] for c in label["cells"]] == ["in_data[1]", "in_grad[1]", "backward req[1]"]
    assert _cell(m, "backward req[0]")["req"] == "write"
    assert _cell(m, "forward req[0]")["req"] == "write"
    assert not _cell(m, "out_grad[0]")["passed"]


def test_selecting_a_slot_links_the_same_index_and_explains_it():
    m = IndexMap(SoftmaxProp, shapes=SHAPES)
    m.selected = "in_data[1]"
    assert m.linked == ["in_data[1]", "in_grad[1]", "backward req[1]", "list_arguments()[1]"]
    detail = dict(m.detail)
    assert detail["in_data[1]"] == "is 'label'"
    assert detail["declared"] == (
        'second in list_arguments(): SoftmaxProp.list_arguments, line 2: return ["data", "label"]'
    )
    assert m.caption.startswith("Custom 'softmax' (op_type='softmax')")
    assert detail["given"].startswith("given as label= in the mx.sym.Custom(...) call")
    assert detail["array"] == "label · shape (8,) · float32"
    assert detail["req"].startswith("write: 'label' is a variable read only here")
    m.selected = "out_grad[0]"
    assert m.linked == ["out_data[0]", "out_grad[0]", "forward req[0]", "list_outputs()[0]"]
    assert "need_top_grad=False" in dict(m.detail)["backward"]


def test_an_unknown_slot_is_shown_inline_and_the_map_stays_usable():
    m = IndexMap(SoftmaxProp, shapes=SHAPES)
    m.selected = "in_data[7]"
    assert "has no slot in_data[7]" in m.error and m.detail == []
    m.selected = "in_grad[0]"
    assert m.error == "" and dict(m.detail)["in_grad[0]"] == "is 'data'"


def test_grad_req_add_reaches_req_only_for_a_variable_read_once():
    x = mx.sym.Variable("x")
    a = mx.sym.FullyConnected(x, num_hidden=3, name="a")
    b = mx.sym.FullyConnected(x, num_hidden=3, name="b")
    executor = (a + b).simple_bind(mx.cpu(), x=(2, 4))
    m = IndexMap(executor, node="a")
    assert m.grad_req == {"x": "write", "a_weight": "write", "a_bias": "write"}
    m.grad_req = {"x": "add", "a_weight": "add", "a_bias": "null"}
    assert [_cell(m, f"backward req[{i}]")["req"] for i in range(3)] == ["write", "add", "null"]
    m.selected = "backward req[0]"
    assert "read by 2 operators" in dict(m.detail)["req"]
    assert executor._grad_req == ["write"] * 5  # the learner's executor is untouched


def test_a_grad_req_for_an_unknown_argument_is_an_inline_error():
    m = IndexMap(SoftmaxProp, shapes=SHAPES)
    m.grad_req = {"data": "add", "label": "bogus"}
    assert "grad_req must be in" in m.error
    m.grad_req = {"data": "add", "label": "write"}
    assert m.error == "" and _cell(m, "backward req[0]")["req"] == "add"


def test_a_run_on_a_copy_shows_values_and_changes_nothing_of_yours():
    x = mx.sym.Variable("data")
    net = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(x, num_hidden=3, name="fc"), name="sm")
    executor = net.simple_bind(mx.cpu(), data=(2, 4))
    executor.arg_dict["data"][:] = 1
    before = [a.asnumpy().copy() for a in executor.arg_arrays + executor.grad_arrays]
    m = IndexMap(executor, node="fc")
    assert not m.ran and not _cell(m, "in_grad[1]")["preview"]
    m.run()
    assert m.ran and m.error == ""
    assert _cell(m, "in_data[0]")["preview"].startswith("[1, 1, 1")
    assert _cell(m, "in_grad[1]")["preview"].startswith("[")
    after = [a.asnumpy() for a in executor.arg_arrays + executor.grad_arrays]
    assert all(np.array_equal(b, a) for b, a in zip(before, after))


def test_the_map_follows_whatever_the_prop_declares():
    def prop_with(arguments, aux):
        class Changing(mx.operator.CustomOpProp):
            def list_arguments(self):
                return list(arguments)

            def list_auxiliary_states(self):
                return list(aux)

            def infer_shape(self, in_shape):
                return in_shape, [in_shape[0]], [(1,)] * len(aux)

        return mx.operator.register("widget_changing")(Changing)

    first = IndexMap(prop_with(["data"], []), shapes={"data": (2, 3)})
    assert [r["name"] for r in first.tables[0]["rows"]] == ["data"]
    second = IndexMap(prop_with(["data", "gamma", "beta"], ["mean"]), shapes={"data": (2, 3)})
    assert [r["name"] for r in second.tables[0]["rows"]] == ["data", "gamma", "beta"]
    assert [t["family"] for t in second.tables] == ["arguments", "outputs", "aux"]
    second.selected = "in_grad[2]"
    assert dict(second.detail)["in_grad[2]"] == "is 'beta'"
    second.selected = "aux[0]"
    assert dict(second.detail)["aux[0]"] == "is 'mean'"


def test_a_prop_that_raises_is_shown_and_its_names_stay():
    class Broken(SoftmaxProp):
        def infer_shape(self, in_shape):
            raise ValueError("my shapes are wrong")

    mx.operator.register("widget_broken")(Broken)
    m = IndexMap(Broken, shapes=SHAPES)
    assert "my shapes are wrong" in m.error
    assert [r["name"] for r in m.tables[0]["rows"]] == ["data", "label"]
    m.selected = "in_data[1]"
    assert dict(m.detail)["in_data[1]"] == "is 'label'" and "my shapes are wrong" in m.error


def test_bad_targets_and_nodes_are_inline_errors():
    assert "not registered" in IndexMap(type("Lonely", (mx.operator.CustomOpProp,), {})).error
    assert "got int" in IndexMap(42).error
    module = mx.mod.Module(mx.sym.SoftmaxOutput(mx.sym.Variable("data"), name="softmax"))
    assert "not bound" in IndexMap(module).error
    net = mx.sym.FullyConnected(mx.sym.Variable("x"), num_hidden=2, name="fc")
    m = IndexMap(net, node="nope")
    assert "no operator node named 'nope'" in m.error
    m.node = "fc"
    assert m.error == "" and m.caption.startswith("FullyConnected 'fc'")
    assert "req is decided at bind" in " ".join(m.notes)


def test_a_module_shows_the_grad_req_module_chose():
    net = mx.sym.SoftmaxOutput(
        mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=3, name="fc"), name="softmax"
    )
    module = mx.mod.Module(net)
    module.bind(data_shapes=[("data", (4, 5))], label_shapes=[("softmax_label", (4,))])
    m = IndexMap(module, node="fc")
    assert m.grad_req == {"data": "null", "fc_weight": "write", "fc_bias": "write"}
    assert _cell(m, "backward req[0]")["req"] == "null"


def test_fallbacks_are_deterministic_text_and_html():
    m = IndexMap(SoftmaxProp, shapes=SHAPES)
    text, page = repr(m), m._repr_mimebundle_()[0]["text/html"]
    assert text == repr(IndexMap(SoftmaxProp, shapes=SHAPES))
    assert "[1] label      label=" in text and "(backward gets no out_grad[0])" in text
    for shown in (text, page):
        assert "0x" not in shown and "/tmp" not in shown and "ipykernel" not in shown
    assert "<td>label=</td>" in page


@pytest.mark.slow
def test_resnet50_maps_open_fast_and_send_small_messages():
    from nets import resnet

    executor = resnet(50, num_classes=1000).simple_bind(mx.cpu(), data=(1, 3, 224, 224))
    m = IndexMap(executor, node="stage3_unit2_conv2")
    for name in ("bn_data", "stage4_unit1_bn2", "fc1", "softmax"):
        m.node = name
        m.selected = m.tables[0]["rows"][0]["cells"][0]["label"]
        assert m.error == ""
    assert 0 < m.largest_message < MAX_MESSAGE_BYTES


def test_the_playground_shows_write_add_and_null_side_by_side():
    x = mx.sym.Variable("data")
    net = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(x, num_hidden=3, name="fc"), name="sm")
    executor = net.simple_bind(mx.cpu(), data=(4, 5))
    executor.arg_dict["data"][:] = 1
    executor.arg_dict["fc_weight"][:] = 0.1
    before = executor.grad_dict["fc_weight"].asnumpy().copy()
    p = GradReqPlayground(executor, argument="fc_weight", runs=3)
    write, add, null = p.columns
    assert [c["req"] for c in p.columns] == ["write", "add", "null"]
    assert [c["note"] for c in write["cells"]] == ["", "same as run 1", "same as run 1"]
    assert [c["note"] for c in add["cells"]] == ["", "= 2 × run 1", "= 3 × run 1"]
    assert {c["values"] for c in null["cells"]} == {"no gradient array"}
    np.testing.assert_array_equal(executor.grad_dict["fc_weight"].asnumpy(), before)
    p.runs = 1
    assert len(p.columns[1]["cells"]) == 1
    p.argument = "fc_bias"
    assert p.error == "" and "'fc_bias'" in p.summary


def test_the_playground_reports_bad_input_and_recovers():
    executor = mx.sym.FullyConnected(mx.sym.Variable("x"), num_hidden=2, name="fc").simple_bind(
        mx.cpu(), x=(1, 2)
    )
    p = GradReqPlayground(executor)
    assert p.argument == "x" and p.error == ""
    p.runs = 50
    assert "between 1 and 10" in p.error
    p.runs = 2
    p.argument = "weights"
    assert "'weights' is not an argument" in p.error
    p.argument = "fc_weight"
    assert p.error == ""
    assert "needs a bound executor" in GradReqPlayground(mx.sym.Variable("x")).error
