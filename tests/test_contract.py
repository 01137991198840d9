"""The operator contract the index map shows: names, declarations, how inputs were given,
what backward receives, and the req each index gets and why."""

import numpy as np
import pytest

import minisym as mx
from minisym.contract import declaration, node_contract
from softmax_op import SoftmaxProp  # noqa: F401 -- registers op_type "softmax"


def _softmax_prop(arguments=("data", "label"), top_grad=False):
    class Prop(mx.operator.CustomOpProp):
        def __init__(self):
            super().__init__(need_top_grad=top_grad)

        def list_arguments(self):
            return list(arguments)

        def infer_shape(self, in_shape):
            return [in_shape[0]] + [(in_shape[0][0],)] * (len(in_shape) - 1), [in_shape[0]], []

    return Prop


def _docs(symbol):
    return {d.label: d for d in node_contract(symbol.outputs[0][0])}


def test_every_slot_is_named_after_its_declaration():
    fc = mx.sym.FullyConnected(mx.sym.Variable("x"), num_hidden=4, name="fc1")
    docs = _docs(fc)
    assert [d.label for d in docs.values()] == [
        "in_data[0]",
        "in_data[1]",
        "in_data[2]",
        "in_grad[0]",
        "in_grad[1]",
        "in_grad[2]",
        "backward req[0]",
        "backward req[1]",
        "backward req[2]",
        "out_data[0]",
        "out_grad[0]",
        "forward req[0]",
    ]
    assert (docs["in_data[1]"].name, docs["in_data[1]"].entry) == ("weight", "fc1_weight")
    assert docs["in_grad[2]"].name == "bias"
    assert str(docs["in_data[1]"].declared).startswith("FullyConnected.list_arguments, line 2:")


def test_how_each_input_was_given():
    data, label = mx.sym.Variable("d"), mx.sym.Variable("l")
    fc = mx.sym.FullyConnected(data, num_hidden=3, name="fc")
    assert fc.outputs[0][0].given == (("position", 0), ("implicit", None), ("implicit", None))
    out = mx.sym.SoftmaxOutput(data=fc, label=label)
    assert out.outputs[0][0].given == (("keyword", "data"), ("keyword", "label"))
    loaded = mx.sym.load_json(out.tojson())
    assert loaded.outputs[0][0].given is None  # JSON does not keep it
    composed = mx.sym.FullyConnected(num_hidden=2, name="fc2")(fc2_data=data)
    assert composed.outputs[0][0].given[1] == ("implicit", None)


def test_custom_declarations_point_at_the_learners_line():
    s = mx.sym.Custom(
        data=mx.sym.Variable("data"), label=mx.sym.Variable("label"), op_type="softmax", name="sm"
    )
    docs = _docs(s)
    label = docs["in_data[1]"]
    assert label.given == ("keyword", "label")
    assert label.declared.method == "list_arguments"
    assert (label.declared.line, label.declared.code) == (2, 'return ["data", "label"]')
    assert not label.declared.inherited
    output = docs["out_data[0]"].declared
    assert output.inherited and output.owner == "CustomOpProp"
    assert not docs["out_grad[0]"].in_backward
    assert "need_top_grad=False" in docs["out_grad[0]"].why_not
    assert docs["in_data[1]"].in_backward and docs["out_data[0]"].in_backward


def test_an_undeclared_dependency_says_where_it_should_be_declared():
    class Prop(_softmax_prop(top_grad=True)):
        def declare_backward_dependency(self, out_grad, in_data, out_data):
            return [out_grad[0], in_data[0]]

    mx.operator.register("contract_partial_deps")(Prop)
    s = mx.sym.Custom(mx.sym.Variable("a"), mx.sym.Variable("b"), op_type="contract_partial_deps")
    docs = _docs(s)
    assert docs["out_grad[0]"].in_backward and docs["in_data[0]"].in_backward
    assert not docs["in_data[1]"].in_backward
    assert "Prop.declare_backward_dependency does not list it" in docs["in_data[1]"].why_not
    assert not docs["out_data[0]"].in_backward


def test_declaration_without_source_still_names_the_method():
    class NoSource:
        pass

    NoSource.list_arguments = eval("lambda self: ['x']")  # no source file behind it
    found = declaration(NoSource(), "list_arguments", "x")
    assert (found.owner, found.line, str(found)) == ("NoSource", 0, "NoSource.list_arguments")


def _bound(grad_req):
    x = mx.sym.Variable("x")
    fc = mx.sym.FullyConnected(x, num_hidden=3, name="fc")
    twice = mx.sym.elemwise_add(fc, mx.sym.FullyConnected(x, num_hidden=3, name="fc2"), name="sum")
    return twice.simple_bind(mx.cpu(), grad_req=grad_req, x=(2, 4))


def test_backward_req_is_add_only_for_a_variable_read_once():
    executor = _bound(
        {
            "x": "add",
            "fc_weight": "add",
            "fc_bias": "null",
            "fc2_weight": "write",
            "fc2_bias": "write",
        }
    )
    reqs = executor.backward_reqs("fc")
    assert [r for r, _ in reqs] == ["write", "add", "null"]
    assert "read by 2 operators" in reqs[0][1] and "grad_req 'add'" in reqs[0][1]
    assert "read only here" in reqs[1][1]
    assert "grad_req='null'" in reqs[2][1]
    summed = executor.backward_reqs("sum")
    assert [r for r, _ in summed] == ["write", "write"]
    assert "operator's output" in summed[0][1]
    assert executor.forward_reqs("sum") == [
        ("write", "'sum_output' is read (by a consumer, as an output, or by this node's backward)")
    ]
    with pytest.raises(KeyError, match="no operator node named 'nope'.*'fc'"):
        executor.backward_reqs("nope")


def test_copy_runs_without_touching_the_original():
    executor = _bound("write")
    executor.arg_dict["x"][:] = 1
    before = {k: v.asnumpy().copy() for k, v in executor.grad_dict.items()}
    copy = executor.copy(grad_req="add")
    assert copy._grad_req == ["add"] * 5
    for _ in range(2):
        copy.forward(is_train=True)
        copy.backward(out_grads=mx.nd.ones((2, 3)))
    assert np.abs(copy.grad_dict["fc_bias"].asnumpy()).sum() > 0
    for name, grad in executor.grad_dict.items():
        np.testing.assert_array_equal(grad.asnumpy(), before[name])
    assert copy.arg_dict["x"]._data is not executor.arg_dict["x"]._data
    partly = executor.copy(grad_req={"x": "write"})
    assert partly.grad_dict["fc_weight"] is None and partly.grad_dict["x"] is not None
