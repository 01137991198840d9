"""Predict, then run: a prediction of each kind checked through the widget's methods and
traits, as the page does (typed text in, verdict, changes and facts out)."""

import pytest

import minisym as mx
from minisym_widgets import Predict
from minisym_widgets._base import MAX_MESSAGE_BYTES
from minisym_widgets.predict import parse
from softmax_op import SoftmaxProp

SHAPES = {"data": (8, 10), "label": (8,)}
ORDER_NOTE = (
    "list_arguments() lists the variables in the order a depth-first walk from the "
    "output meets them: each operator's inputs left to right."
)


def mlp():
    data = mx.sym.Variable("data")
    fc1 = mx.sym.FullyConnected(data, num_hidden=64, name="fc1")
    relu1 = mx.sym.Activation(fc1, act_type="relu", name="relu1")
    fc2 = mx.sym.FullyConnected(relu1, num_hidden=10, name="fc2")
    return fc1, mx.sym.SoftmaxOutput(fc2, name="softmax")


def image_net():
    data = mx.sym.Variable("data")
    conv = mx.sym.Convolution(data, kernel=(3, 3), num_filter=8, pad=(1, 1), name="conv")
    pool = mx.sym.Pooling(conv, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool")
    fc = mx.sym.FullyConnected(mx.sym.Flatten(pool, name="flat"), num_hidden=10, name="fc")
    return mx.sym.SoftmaxOutput(fc, name="softmax")


# --- names ------------------------------------------------------------------------------------
def test_a_missing_implicit_weight_is_named_with_where_it_comes_from():
    fc1, _ = mlp()
    p = Predict.arguments(fc1)
    p.check("data, fc1_weight")
    assert (p.verdict, p.headline, p.attempts, p.solved) == (
        "close",
        "2 of 3 names right.",
        1,
        False,
    )
    assert p.changes == [
        "Add 'fc1_bias': it is an implicit variable of FullyConnected 'fc1', "
        "which was given no bias= and so created it, named after the node: the "
        "node's name + '_' + 'bias'."
    ]
    assert p.facts == [ORDER_NOTE]
    assert p.answer_text == ""  # not shown before it is right or revealed


def test_the_right_names_are_right_however_they_are_quoted():
    _, net = mlp()
    answer = ["data", "fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias", "softmax_label"]
    for typed in (
        "data, fc1_weight, fc1_bias, fc2_weight, fc2_bias, softmax_label",
        str(answer),
        '["data" "fc1_weight" "fc1_bias" "fc2_weight" "fc2_bias" "softmax_label"]',
        "(data,fc1_weight,fc1_bias,fc2_weight,fc2_bias,softmax_label)",
    ):
        p = Predict.arguments(net)
        p.check(typed)
        assert p.verdict == "right", typed
        assert p.headline == f"Right: {answer!r}."
        assert p.answer_text == repr(answer)
    assert (
        "'softmax_label' is an implicit variable of SoftmaxOutput 'softmax', which was given "
        "no label=" in " ".join(p.facts)
    )


def test_an_output_listed_as_an_argument_is_explained_and_the_order_matters():
    fc1, _ = mlp()
    p = Predict.arguments(fc1)
    p.check("data, fc1_weight, fc1_bias, fc1_output")
    assert p.headline == "3 of 3 names right."
    assert p.changes == [
        "Remove 'fc1_output': it is output 'output' of FullyConnected 'fc1' "
        "(an output is named: the node's name + '_' + 'output')."
    ]
    p.check("data, fc1_bias, fc1_weight")
    assert (p.verdict, p.headline) == ("close", "The right 3 names, in another order.")
    assert p.changes == ["Keep 'data' where it is; move 'fc1_bias', 'fc1_weight'."]
    p.check("data, data, fc1_weight, fc1_bias")
    assert p.changes[0] == "Write 'data' once: each name appears once."
    p.check("data, fc1_weight, fc1_bias")
    assert p.solved and p.attempts == 4
    assert [t[1] for t in p.tries] == ["close", "close", "close", "right"]


def test_an_unnamed_activation_is_asked_without_taking_its_automatic_name():
    fc1, _ = mlp()
    p = Predict.outputs(
        lambda: mx.sym.Activation(fc1, act_type="relu"),
        why="Without name=, a node is named after its operator and a counter.",
    )
    p.check("relu0_output")
    assert (p.verdict, p.headline) == ("wrong", "Not 'relu0_output'.")
    assert p.changes == ["Keep '_output'; change 'relu0'."]
    assert p.facts == [
        "It is output 'output' of the Activation node: the node's name + '_' + 'output'."
    ]
    assert p.why.startswith("Without name=")
    p.check("'activation0_output'")
    assert p.solved and p.answer_text == "['activation0_output']"
    # the lesson's next cell still gets the name the lesson promises
    assert mx.sym.Activation(fc1, act_type="relu").name == "activation0"


def test_a_node_name_given_for_an_output_name_says_so():
    fc1, _ = mlp()
    p = Predict.outputs(fc1)
    p.check("fc1")
    assert p.changes == [
        "'fc1' is the name of the node FullyConnected 'fc1', not of an array: "
        "its outputs are named 'fc1_' + the output's name."
    ]


def test_a_plain_callable_with_about_explains_names_from_that_graph():
    _, net = mlp()
    p = Predict(
        "What does net.list_auxiliary_states() return for a BatchNorm?",
        lambda: mx.sym.BatchNorm(net, name="bn").list_auxiliary_states(),
    )
    p.check("bn_moving_mean, bn_moving_var")
    assert p.verdict == "right" and p.kind == "names"
    bn = mx.sym.BatchNorm(mx.sym.Variable("data"), name="bn")
    q = Predict("?", lambda: bn.list_auxiliary_states(), about=bn)
    q.check("bn_moving_mean")
    assert q.changes[0].startswith(
        "Add 'bn_moving_var': it is an auxiliary state of BatchNorm 'bn'"
    )


# --- shapes -----------------------------------------------------------------------------------
def test_a_weight_shape_from_inference_in_any_spelling():
    for typed in ("(10, 1568)", "10, 1568", "[10,1568]", "10x1568", "10 × 1568"):
        p = Predict.shape(image_net(), "fc_weight", data=(4, 1, 28, 28))
        p.check(typed)
        assert p.verdict == "right", typed
    assert p.question == "What shape does infer_shape(data=(4, 1, 28, 28)) give 'fc_weight'?"
    assert p.answer_text == "(10, 1568)"


def test_a_wrong_shape_says_which_dimension_and_where_the_shape_comes_from():
    p = Predict.shape(image_net(), "fc_weight", data=(4, 1, 28, 28))
    p.check("(10, 784)")
    assert (p.verdict, p.headline) == ("close", "Not (10, 784).")
    assert p.changes == ["Change dimension 1 (yours: 784): 1 of 2 dimensions are right."]
    assert p.facts == [
        "'fc_weight' is 'weight' of FullyConnected 'fc' (num_hidden=10): it "
        "reads data = flat_output (4, 1568) and makes output = fc_output (4, 10)"
    ]
    p.check("(4, 10, 1568)")
    assert p.changes == ["Give 2 dimensions: the shape has 2, yours has 3."]
    p.check("ten by 1568")
    assert p.verdict == "unread" and p.attempts == 2
    assert p.headline == "Write a shape like (2, 3); “ten by 1568” is not one."


def test_an_output_shape_names_the_operator_that_makes_it():
    p = Predict.shape(image_net(), "pool_output", data=(4, 1, 28, 28))
    p.check("4, 8, 28, 28")
    assert p.facts == [
        "'pool_output' is made by Pooling 'pool' (kernel=(2, 2), stride=(2, 2), "
        "pool_type=max) from data = conv_output (4, 8, 28, 28)"
    ]
    p.check("4, 8, 14, 14")
    assert p.solved


def test_a_shape_inferred_backward_names_the_output_it_came_from():
    x = mx.sym.Variable("x")
    total = mx.sym.FullyConnected(x, num_hidden=21, name="hidden") + mx.sym.Variable("y")
    p = Predict.shape(total, "x", x=(0, 10), y=(5, 0))
    p.check("(0, 10)")
    assert p.changes == ["Change dimension 0 (yours: 0): 1 of 2 dimensions are right."]
    assert p.facts == [
        "'x' is 'data' of FullyConnected 'hidden' (num_hidden=21): it makes "
        "output = hidden_output (5, 21)"
    ]


# --- indices, counts, req ---------------------------------------------------------------------
def test_which_argument_is_in_data_1_comes_from_the_props_declaration():
    p = Predict.index(SoftmaxProp, "in_data", 1)
    p.check("data")
    assert (p.verdict, p.headline) == ("wrong", "Not 'data'.")
    assert p.changes == ["'data' is in_data[0]; count again from 0."]
    assert p.facts == ["in_data[1] is list_arguments()[1] of SoftmaxProp: count from 0"]
    p.check("label")
    assert p.solved and p.facts == [
        "in_data[1] is 'label', declared in SoftmaxProp.list_arguments, line 2: "
        'return ["data", "label"]; the graph\'s array is \'label\''
    ]


def test_the_graphs_name_of_a_slot_is_right_too():
    fc1, _ = mlp()
    p = Predict.index(fc1, "in_data", 1)
    p.check("fc1_weight")
    assert p.verdict == "right"
    assert p.headline == "Right: 'weight' (the graph calls that array 'fc1_weight')."


def test_how_many_entries_in_data_has():
    p = Predict.count(SoftmaxProp, "in_data")
    p.check("3")
    assert (p.verdict, p.headline) == ("wrong", "Fewer than 3.")
    assert p.facts == ["in_data has one entry per name of list_arguments() of SoftmaxProp"]
    p.check("two")
    assert p.solved and p.facts == [
        "in_data has one entry per name of list_arguments() of SoftmaxProp: ['data', 'label']"
    ]


def test_req_of_a_label_bound_with_grad_req_null():
    p = Predict.req(SoftmaxProp, 1, shapes=SHAPES, grad_req={"data": "write", "label": "null"})
    p.check("write")
    assert (p.verdict, p.headline) == ("wrong", "Not 'write'.")
    assert p.facts == [
        "backward req[1] goes with in_grad[1], the gradient of 'label' (the "
        "array 'label'): look at how 'label' was bound"
    ]
    p.check("kNullOp")
    assert p.solved and p.answer_text == "'null'"
    executor = mx.sym.Custom(
        data=mx.sym.Variable("data"),
        label=mx.sym.Variable("label"),
        op_type="softmax",
        name="softmax",
    ).simple_bind(mx.cpu(), grad_req={"data": "write", "label": "null"}, **SHAPES)
    req, why = executor.backward_reqs("softmax")[1]
    assert p.facts == [f"backward req[1] is '{req}': {why}"]
    q = Predict.req(executor, 0)
    q.check("'write'")
    assert q.solved


def test_out_grad_of_a_loss_with_need_top_grad_false():
    p = Predict.received(SoftmaxProp, "out_grad", shapes=SHAPES)
    p.check("[]")
    assert p.changes == ["Give 1 entries: there is one per name of list_outputs(); yours has 0."]
    p.check("(8, 10)")
    assert (p.verdict, p.changes) == ("wrong", ["Change entry 0 (yours: (8, 10))."])
    p.check("[empty]")
    assert p.solved
    assert p.facts[1] == (
        "out_grad[0] is an empty NDArray, shape (): SoftmaxProp passes "
        "need_top_grad=False, so backward gets no out_grad (a loss makes its "
        "own gradient)"
    )


@pytest.fixture
def own_registry():
    """Custom operators registered in the test are gone after it."""
    saved = dict(mx.operator._PROPS)
    yield
    mx.operator._PROPS.clear()
    mx.operator._PROPS.update(saved)


def test_what_backward_receives_when_it_declares_one_input(own_registry):
    class PeekProp(mx.operator.CustomOpProp):
        def __init__(self):
            super().__init__(need_top_grad=False)

        def list_arguments(self):
            return ["rois", "gt_boxes"]

        def list_outputs(self):
            return ["rois_output", "label"]

        def infer_shape(self, in_shape):
            return in_shape, [(4, 5), (4,)], []

        def declare_backward_dependency(self, out_grad, in_data, out_data):
            return [in_data[1]]

    mx.operator.register("predict_peek")(PeekProp)
    shapes = {"rois": (8, 5), "gt_boxes": (2, 5)}
    p = Predict.received(PeekProp, "in_data", shapes=shapes)
    p.check("(8, 5), (2, 5)")
    assert (p.verdict, p.changes) == ("close", ["Change entry 0 (yours: (8, 5))."])
    p.check("[(), (2, 5)]")
    assert p.solved and p.facts[1:] == [
        "in_data[1] is 'gt_boxes', shape (2, 5)",
        "in_data[0] is an empty NDArray, shape (): PeekProp.declare_backward_dependency does "
        "not list it, so backward does not receive it (a custom op gets an empty NDArray there)",
    ]
    q = Predict.received(PeekProp, "out_grad", shapes=shapes)
    q.check("empty, empty")
    assert q.solved and q.facts[1].startswith(
        "out_grad[0], out_grad[1] are each an empty "
        "NDArray, shape (): PeekProp passes need_top_grad"
    )


def test_an_index_past_the_end_or_no_binding_is_an_inline_error():
    p = Predict.index(SoftmaxProp, "in_data", 5)
    p.check("label")
    assert p.error == (
        "IndexError: Ask for an index below 2: Custom 'softmax' "
        "(op_type='softmax') has 2 entries in in_data (['data', 'label']), so "
        "there is no in_data[5]."
    )
    assert p.attempts == 0
    q = Predict.req(SoftmaxProp, 0)
    q.check("write")
    assert q.error.startswith("ValueError: Give Predict.req a bound executor, or shapes=")


# --- reading what was typed -------------------------------------------------------------------
@pytest.mark.parametrize(
    "kind, typed, read",
    [
        ("names", "data, fc1_weight", ["data", "fc1_weight"]),
        ("names", "['data', \"fc1_weight\"]", ["data", "fc1_weight"]),
        ("names", "(data fc1_weight)", ["data", "fc1_weight"]),
        ("names", "[]", []),
        ("name", " 'label' ", "label"),
        ("name", "['label']", "label"),
        ("name", "data, label", None),
        ("shape", "(2, 3)", (2, 3)),
        ("shape", "2,3", (2, 3)),
        ("shape", "2 x 3", (2, 3)),
        ("shape", "(10,)", (10,)),
        ("shape", "()", ()),
        ("shape", "empty", ()),
        ("shape", "two by three", None),
        ("shapes", "[(8, 10), ()]", [(8, 10), ()]),
        ("shapes", "(), (2, 5)", [(), (2, 5)]),
        ("shapes", "empty, empty", [(), ()]),
        ("shapes", "8, 10", [(8, 10)]),
        ("shapes", "[]", []),
        ("int", "2", 2),
        ("int", "two", 2),
        ("int", "[3].", 3),
        ("int", "a few", None),
        ("req", "'null'", "null"),
        ("req", "kAddTo", "add"),
        ("req", "kWriteTo", "write"),
        ("req", "none", None),
        ("value", "(fc1, [fc1_output])", ("fc1", ["fc1_output"])),
        ("value", "True", True),
    ],
)
def test_a_prediction_is_read_forgivingly(kind, typed, read):
    assert parse(kind, typed) == read


# --- the answer, the tries, the fallbacks -----------------------------------------------------
def test_the_answer_runs_on_the_first_check_only_and_once():
    calls = []
    p = Predict("What is 6 * 7?", lambda: calls.append(1) or 42)
    assert calls == [] and p.kind == ""
    p.check("")
    assert calls == [] and p.headline == "Type your prediction first, then press “check”."
    p.check("41")
    p.check("forty-two")
    p.reveal()
    assert calls == [1] and p.kind == "int"
    assert p.attempts == 1 and p.verdict == "unread"
    assert p.text() == "Predict: What is 6 * 7?\n  Type your prediction, then press “check”."


def test_reveal_after_a_wrong_try_shows_the_answer_and_its_explanation():
    fc1, _ = mlp()
    p = Predict.arguments(fc1)
    p.check("data")
    assert not p.revealed and p.answer_text == ""
    p.reveal()
    assert p.revealed and not p.solved and p.attempts == 1
    assert p.answer_text == "['data', 'fc1_weight', 'fc1_bias']"
    assert p.facts == [
        ORDER_NOTE,
        "'data' is the Variable made with mx.sym.Variable('data')",
        "'fc1_weight', 'fc1_bias' are implicit variables of FullyConnected "
        "'fc1', which was given no weight= or bias= and so created them: the "
        "node's name + '_' + the input's name",
    ]


def test_the_outputs_of_one_node_are_explained_together():
    split = mx.sym.SliceChannel(mx.sym.Variable("data"), num_outputs=2, name="split")
    p = Predict.outputs(split)
    p.check("split_output0")
    assert p.changes == [
        "Add 'split_output1': it is output 'output1' of SliceChannel 'split' "
        "(an output is named: the node's name + '_' + 'output1')."
    ]
    p.reveal()
    assert p.facts == [
        "'split_output0', 'split_output1' are the outputs 'output0', 'output1' "
        "of SliceChannel 'split': the node's name + '_' + each"
    ]


def test_a_value_is_read_with_quotes_optional():
    fc1, _ = mlp()
    p = Predict("What is fc1.name, fc1.list_outputs()?", lambda: (fc1.name, fc1.list_outputs()))
    p.check("(fc1, [fc1_out])")
    assert (p.verdict, p.changes) == ("wrong", ["Change entry 1 (yours: ['fc1_out'])."])
    p.check("fc1, [fc1_output]")
    assert p.solved


def test_the_page_checks_and_reveals_through_messages():
    p = Predict.count(SoftmaxProp, "out_data")
    p._on_front_end_message(p, {"do": "check", "prediction": "2"}, [])
    assert p.prediction == "2" and p.headline == "Fewer than 2."
    p._on_front_end_message(p, {"do": "reveal"}, [])
    assert p.revealed and p.answer_text == "1"


def test_the_fallbacks_are_stable_and_never_show_the_answer():
    fc1, _ = mlp()
    first, second = Predict.arguments(fc1), Predict.arguments(fc1)
    before = (first.text(), first.html())
    first.check("data")
    first.reveal()
    assert (first.text(), first.html()) == before == (second.text(), second.html())
    assert before[0] == (
        "Predict: What does list_arguments() return?\n  Type your prediction "
        "(names, separated by commas), then press “check”."
    )
    assert "fc1_weight" not in before[0] + before[1] and repr(first) == before[0]
    bundle = first._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert data["text/plain"] == before[0] and data["text/html"] == before[1]
    assert "class='msw msw-predict'" in before[1] and "0x" not in before[1]
    assert first.largest_message < MAX_MESSAGE_BYTES


def test_the_answer_must_be_a_callable():
    with pytest.raises(TypeError, match="Give the answer as a callable"):
        Predict("What does list_arguments() return?", ["data"])
    with pytest.raises(
        KeyError,
        match=r"Predict.index: use one of in_data, out_data, aux, "
        r"in_grad, out_grad \(got 'inputs'\)",
    ):
        Predict.index(SoftmaxProp, "inputs", 0)


def test_an_answer_naming_a_cell_not_run_yet_says_to_run_it():
    p = Predict("What does net.list_arguments() return?", lambda: not_run_yet.list_arguments())  # noqa: F821
    p.check("data")
    assert p.error == (
        "RuntimeError: Run the cells above this one, then check again: the "
        "answer to this question could not be computed.\n"
        "NameError: name 'not_run_yet' is not defined"
    )
    assert p.attempts == 0 and p.verdict == ""
