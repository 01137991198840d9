"""The custom-operator lifecycle (minisym.lifecycle): every call the engine makes into a Prop or
an Op, in order, tied to the action that caused it, with what it received, returned and printed.

Real MXNet 1.9.1, recorded by hand with the softmax Prop below (methods wrapped to log calls):
at ``mx.sym.Custom`` it calls __init__, list_arguments, list_outputs, list_auxiliary_states and
declare_backward_dependency (plus repeats of the list_* methods); ``infer_shape`` calls
infer_shape; ``simple_bind`` calls infer_shape, infer_type, create_operator; then forward and
backward. minisym asks the names once and calls infer_shape / infer_type several times per
inference pass (its fixpoint), which these tests allow without fixing the count.
"""

import numpy as np
import pytest

import minisym as mx


# --- operators used below (op_type names start with 'tlc_') ----------------------------------
class Softmax(mx.operator.CustomOp):
    def __init__(self):
        super().__init__()
        print("Softmax op built")

    def forward(self, is_train, req, in_data, out_data, aux):
        print("forward got", in_data[0].shape)
        x = in_data[0].asnumpy()
        y = np.exp(x - x.max(axis=1, keepdims=True))
        self.assign(out_data[0], req[0], mx.nd.array(y / y.sum(axis=1, keepdims=True)))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        label = in_data[1].asnumpy().astype(int)
        y = out_data[0].asnumpy().copy()
        y[np.arange(label.shape[0]), label] -= 1.0
        self.assign(in_grad[0], req[0], mx.nd.array(y))
        self.assign(in_grad[1], req[1], 0)


@mx.operator.register("tlc_softmax")
class SoftmaxProp(mx.operator.CustomOpProp):
    def __init__(self):
        super().__init__(need_top_grad=False)
        print("SoftmaxProp built")

    def list_arguments(self):
        return ["data", "label"]

    def list_outputs(self):
        return ["output"]

    def infer_shape(self, in_shape):
        return [in_shape[0], (in_shape[0][0],)], [in_shape[0]], []

    def create_operator(self, ctx, shapes, dtypes):
        return Softmax()


class CenterLoss(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        aux[0][:] = aux[0] + 1  # a counter: how many forwards ran
        self.assign(out_data[0], req[0], in_data[0])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], in_data[0] * 0)


@mx.operator.register("tlc_center")
class CenterProp(mx.operator.CustomOpProp):
    def __init__(self, num_class, alpha="0.5"):
        super().__init__(need_top_grad=False)
        self.received = (num_class, alpha)
        self.num_class = int(num_class)

    def list_auxiliary_states(self):
        return ["count", "centers", "spare"]

    def infer_shape(self, in_shape):
        n, d = in_shape[0]
        return [in_shape[0]], [in_shape[0]], [(1,), (self.num_class, d), (n,)]

    def create_operator(self, ctx, shapes, dtypes):
        return CenterLoss()


class Boom(Exception):
    """Raised by the Prop below; the caller must receive this very object."""


RAISED = []


@mx.operator.register("tlc_raising")
class RaisingProp(mx.operator.CustomOpProp):
    def infer_shape(self, in_shape):
        print("checking", in_shape)
        if not in_shape[0]:
            raise IndexError("in_shape[0] is empty")
        RAISED.append(Boom(f"infer_shape rejects {in_shape[0]}"))
        raise RAISED[-1]


def softmax_session():
    """Create, infer, simple_bind, forward(is_train=True), backward; returns (log, executor)."""
    with mx.lifecycle.record() as log:
        loss = mx.sym.Custom(data=mx.sym.Variable("data"), op_type="tlc_softmax", name="loss")
        loss.infer_shape(data=(4, 3))
        ex = loss.simple_bind(mx.cpu(), data=(4, 3))
        ex.forward(is_train=True, data=np.random.rand(4, 3))
        ex.backward()
    return log, ex


def steps(calls):
    """(action, owner, method) of each call, consecutive repeats kept once."""
    out = []
    for c in calls:
        step = (c.action, c.owner, c.method)
        if not out or out[-1] != step:
            out.append(step)
    return out


# --- the order of calls ------------------------------------------------------------------------
def test_a_softmax_prop_from_creation_to_backward_in_order():
    log, _ = softmax_session()
    created = "mx.sym.Custom(op_type='tlc_softmax', name='loss')"
    assert steps(log.calls) == [
        (created, "prop", "__init__"),
        (created, "prop", "list_arguments"),
        (created, "prop", "list_outputs"),
        (created, "prop", "list_auxiliary_states"),
        (created, "prop", "declare_backward_dependency"),
        ("infer_shape", "prop", "infer_shape"),
        ("simple_bind", "prop", "infer_shape"),
        ("simple_bind", "prop", "infer_type"),
        ("simple_bind", "prop", "create_operator"),
        ("forward(is_train=True)", "op", "forward"),
        ("backward()", "op", "backward"),
    ]
    assert [c.seq for c in log.calls] == list(range(1, len(log.calls) + 1))
    assert all(c.done and c.node == "loss" and c.op_type == "tlc_softmax" for c in log.calls)


def test_each_call_shows_what_it_received_and_returned():
    log, _ = softmax_session()
    first = lambda method: log.find(method)[0]
    assert first("list_arguments").result == ["data", "label"]
    assert first("list_auxiliary_states").inherited  # CustomOpProp's default ran
    assert first("list_auxiliary_states").defined_in == "CustomOpProp"
    assert not first("list_arguments").inherited
    deps = first("declare_backward_dependency")
    assert deps.args == {"out_grad": [0], "in_data": [1, 2], "out_data": [3]}
    assert deps.result == [1, 2, 3]  # need_top_grad=False: no out_grad id
    assert first("infer_shape").args == {"in_shape": [[4, 3], []]}  # label unknown: []
    assert first("infer_shape").result == [[[4, 3], [4]], [[4, 3]], []]
    assert first("infer_type").args == {"in_type": ["float32", "float32"]}
    create = first("create_operator")
    assert create.args == {"ctx": "cpu(0)", "in_shapes": [[4, 3], [4]], "in_dtypes": [0, 0]}
    assert str(create.result) == "a Softmax"
    forward = first("forward")
    assert (forward.cls, forward.owner) == ("Softmax", "op")
    assert forward.args["is_train"] == 1 and forward.args["req"] == ["write"]
    assert str(forward.args["in_data"]) == "[data (4, 3), label (4,)]"
    backward = first("backward")
    assert backward.args["req"] == ["write", "write"]
    assert str(backward.args["out_grad"]) == "[output: empty]"  # need_top_grad=False


def test_the_names_and_the_backward_dependency_are_asked_once_at_creation():
    log, ex = softmax_session()
    ex.forward(is_train=True)
    for method in (
        "list_arguments",
        "list_outputs",
        "list_auxiliary_states",
        "declare_backward_dependency",
    ):
        assert len(log.find(method)) == 1, method
    assert len(log.find("create_operator")) == 1  # once per executor
    assert len(log.find("infer_shape", owner="prop")) >= 2  # at infer_shape and at bind


def test_nothing_of_the_op_runs_before_forward():
    log, _ = softmax_session()
    first_op = next(i for i, c in enumerate(log.calls) if c.owner == "op")
    assert log.calls[first_op].action == "forward(is_train=True)"
    assert all(c.owner == "prop" for c in log.calls[:first_op])


def test_what_a_method_prints_is_kept_on_the_call_and_still_printed(capsys):
    log, _ = softmax_session()
    printed = capsys.readouterr().out
    assert "SoftmaxProp built" in printed and "forward got (4, 3)" in printed
    assert log.find("__init__")[0].printed == "SoftmaxProp built\n"
    assert log.find("create_operator")[0].printed == "Softmax op built\n"  # the Op's __init__
    assert log.find("forward")[0].printed == "forward got (4, 3)\n"
    assert log.find("list_arguments")[0].printed == ""


def test_a_second_forward_is_a_section_of_its_own():
    log, ex = softmax_session()
    ex.forward(is_train=False)  # not recorded: the recording has stopped
    assert len(log.find("forward")) == 1
    with log:
        ex.forward(is_train=False)
        ex.forward(is_train=False)
    sections = [label for label, _ in mx.lifecycle.grouped(log.calls)]
    assert sections[-2:] == ["forward(is_train=False)", "forward(is_train=False)"]
    assert log.find("forward")[-1].args["is_train"] == 0


# --- string keyword arguments, auxiliary states, need_top_grad=False ---------------------------
def test_kwargs_arrive_as_strings_with_aux_states_and_no_top_grad():
    with mx.lifecycle.record("tlc_center") as log:
        sym = mx.sym.Custom(mx.sym.Variable("x"), op_type="tlc_center", num_class=10, name="center")
        ex = sym.simple_bind(mx.cpu(), x=(2, 5))
        ex.forward(is_train=True)
        ex.backward()
    init = log.find("__init__")[0]
    assert init.args == {"num_class": "10"}  # the int 10 arrives as the str '10'
    assert str(init.result) == "need_top_grad_=False"
    assert log.find("list_auxiliary_states")[0].result == ["count", "centers", "spare"]
    assert log.find("declare_backward_dependency")[0].result == [1, 2]  # in_data + out_data
    shape_call = log.find("infer_shape")[-1]
    assert shape_call.result == [[[2, 5]], [[2, 5]], [[1], [10, 5], [2]]]
    create = log.find("create_operator")[0]
    assert create.args["in_shapes"] == [[2, 5], [1], [10, 5], [2]]  # arguments, then aux
    forward = log.find("forward")[0]
    assert str(forward.args["aux"]) == "[count (1,), centers (10, 5), spare (2,)]"
    backward = log.find("backward")[0]
    assert str(backward.args["out_grad"]) == "[output: empty]"
    assert str(backward.args["aux"]) == "[count (1,), centers (10, 5), spare (2,)]"
    np.testing.assert_array_equal(ex.aux_dict["center_count"].asnumpy(), [1.0])


# --- a Prop method that raises -----------------------------------------------------------------
def test_a_raising_infer_shape_is_on_the_timeline_and_reaches_the_caller_unchanged():
    RAISED.clear()
    with mx.lifecycle.record() as log:
        sym = mx.sym.Custom(mx.sym.Variable("x"), op_type="tlc_raising", name="bad")
        with pytest.raises(Boom) as info:
            sym.infer_shape(x=(2, 3))
    assert info.value is RAISED[-1]
    call = log.find("infer_shape")[-1]
    assert call.error == "Boom: infer_shape rejects [2, 3]" and not call.handled
    assert call.printed == "checking [[2, 3]]\n"
    assert call.action == "infer_shape" and call.done
    assert "raised Boom" in str(call) and "raised Boom" in log.text()


def test_an_error_the_engine_catches_while_shapes_are_unknown_is_marked_handled():
    with mx.lifecycle.record() as log:
        sym = mx.sym.Custom(mx.sym.Variable("x"), op_type="tlc_raising", name="bad")
        arg_shapes, _, _ = sym.infer_shape_partial()
    assert arg_shapes == [()]
    call = log.find("infer_shape")[0]
    assert call.error == "IndexError: in_shape[0] is empty" and call.handled
    assert "caught by the engine" in call.outcome()


def test_a_raising_prop_init_is_recorded_and_raised():
    @mx.operator.register("tlc_bad_init")
    class BadInitProp(mx.operator.CustomOpProp):
        def __init__(self, size):
            super().__init__()
            self.size = int(size)

    with mx.lifecycle.record() as log:
        with pytest.raises(ValueError, match="invalid literal"):
            mx.sym.Custom(mx.sym.Variable("x"), op_type="tlc_bad_init", size="big")
    [call] = log.calls
    assert call.method == "__init__" and call.args == {"size": "big"}
    assert call.error.startswith("ValueError: invalid literal")


# --- recording on and off, filters, listeners ---------------------------------------------------
def test_nothing_is_recorded_without_a_recording_and_after_stop():
    mx.sym.Custom(mx.sym.Variable("x"), op_type="tlc_softmax")
    log = mx.lifecycle.record()
    assert log.active and log.calls == []
    log.stop()
    mx.sym.Custom(mx.sym.Variable("x"), op_type="tlc_softmax")
    assert not log.active and log.calls == []
    assert repr(log) == "<Recording: 0 calls, stopped>"


def test_op_type_filter_and_two_recordings_at_once():
    everything = mx.lifecycle.record()
    centers = mx.lifecycle.record(["tlc_center"])
    try:
        mx.sym.Custom(mx.sym.Variable("x"), op_type="tlc_softmax", name="a")
        mx.sym.Custom(mx.sym.Variable("y"), op_type="tlc_center", num_class="3", name="b")
    finally:
        everything.stop()
        centers.stop()
    assert {c.node for c in everything.calls} == {"a", "b"}
    assert {c.node for c in centers.calls} == {"b"}
    assert [c.seq for c in centers.calls] == list(range(1, len(centers.calls) + 1))


def test_listeners_hear_each_finished_call_and_clear_forgets():
    heard = []
    log = mx.lifecycle.record()
    log.subscribe(heard.append)
    try:
        mx.sym.Custom(mx.sym.Variable("x"), op_type="tlc_softmax")
    finally:
        log.stop()
    assert [c.method for c in heard] == [c.method for c in log.calls]
    assert all(c.done for c in heard)
    log.clear()
    assert log.calls == [] and "no calls" in log.text()


def test_a_copy_of_an_executor_is_its_own_action():
    log, ex = softmax_session()
    with log:
        ex.copy()
    create = log.find("create_operator")[-1]
    assert create.action.startswith("executor.copy()")
    assert create.target is not None  # the executor it ran on, while it exists


def test_the_timeline_text_is_numbered_grouped_and_free_of_addresses():
    log, _ = softmax_session()
    text = log.text()
    lines = text.splitlines()
    assert lines[0] == "mx.sym.Custom(op_type='tlc_softmax', name='loss'):"
    assert "1. [prop] 'loss' SoftmaxProp.__init__() -> need_top_grad_=False" in text
    assert "| SoftmaxProp built" in text
    assert "(CustomOpProp's default)" in text
    infer = next(line for line in lines if "SoftmaxProp.infer_shape" in line)
    assert "×" in infer  # repeated calls are grouped, not hidden
    assert "0x" not in text and " at " not in text
    assert text == softmax_session()[0].text()
