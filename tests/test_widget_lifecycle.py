"""Lifecycle at trait level: each interaction sets a trait as a click in the page would, and the
rows, detail and inline error follow; the timeline updates live; bad input never escapes."""

import numpy as np
import pytest

import minisym as mx
from minisym_widgets import IndexMap, Lifecycle
from minisym_widgets._base import MAX_MESSAGE_BYTES, message_size
from nets import resnet


class Softmax(mx.operator.CustomOp):
    def __init__(self):
        super().__init__()
        print("op built")

    def forward(self, is_train, req, in_data, out_data, aux):
        print("forward ran")
        x = in_data[0].asnumpy()
        y = np.exp(x - x.max(axis=1, keepdims=True))
        self.assign(out_data[0], req[0], mx.nd.array(y / y.sum(axis=1, keepdims=True)))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], out_data[0])
        self.assign(in_grad[1], req[1], 0)


@mx.operator.register("twl_softmax")
class SoftmaxProp(mx.operator.CustomOpProp):
    def __init__(self, scale="1"):
        super().__init__(need_top_grad=False)
        print("prop built with scale", repr(scale))

    def list_arguments(self):
        return ["data", "label"]

    def infer_shape(self, in_shape):
        return [in_shape[0], (in_shape[0][0],)], [in_shape[0]], []

    def create_operator(self, ctx, shapes, dtypes):
        return Softmax()


@mx.operator.register("twl_raising")
class RaisingProp(mx.operator.CustomOpProp):
    def infer_shape(self, in_shape):
        raise ValueError(f"cannot handle {in_shape}")


@pytest.fixture
def widget():
    w = Lifecycle()
    yield w
    w.stop()
    w.close()


def session(name="loss", scale=2, batch=4):
    """What a learner does in later cells: create, bind, forward, backward."""
    sym = mx.sym.Custom(data=mx.sym.Variable("data"), op_type="twl_softmax", scale=scale, name=name)
    ex = sym.simple_bind(mx.cpu(), data=(batch, 3))
    ex.forward(is_train=True, data=np.random.rand(batch, 3))
    ex.backward()
    return sym, ex


def calls(w, rows=None):
    """(seq, owner, method) of every call or group row, in order."""
    return [
        (r["seq"], r["owner"], r["method"])
        for r in (rows if rows is not None else w.rows)
        if r["kind"] in ("call", "group")
    ]


def row(w, method, kind=None):
    return next(
        r
        for r in w.rows + w.recent
        if r.get("method") == method and (kind is None or r["kind"] == kind)
    )


def assert_small(w):
    assert w.largest_message < MAX_MESSAGE_BYTES
    assert message_size(w.get_state()) < MAX_MESSAGE_BYTES


# --- live update ---------------------------------------------------------------------------------
def test_the_timeline_fills_in_as_the_learner_acts(widget):
    assert widget.recording and widget.total == 0 and widget.rows == []
    sym = mx.sym.Custom(data=mx.sym.Variable("data"), op_type="twl_softmax", name="loss")
    assert [r["label"] for r in widget.rows if r["kind"] == "action"] == [
        "mx.sym.Custom(op_type='twl_softmax', name='loss')"
    ]
    assert [m for _, _, m in calls(widget)] == [
        "__init__",
        "list_arguments",
        "list_outputs",
        "list_auxiliary_states",
        "declare_backward_dependency",
    ]
    ex = sym.simple_bind(mx.cpu(), data=(4, 3))
    bind_rows = widget.rows[[r.get("label") for r in widget.rows].index("simple_bind") :]
    assert "create_operator" in [r.get("method") for r in bind_rows]
    assert all(r["owner"] == "prop" for r in bind_rows if r["kind"] != "action")
    ex.forward(is_train=True, data=np.random.rand(4, 3))
    assert widget.rows[-2] == {"kind": "action", "label": "forward(is_train=True)"}
    assert widget.rows[-1]["owner"] == "op" and widget.rows[-1]["printed"] == "forward ran\n"
    assert widget.total == len(widget.log.calls)
    assert_small(widget)


def test_repeated_calls_are_one_row_with_a_count(widget):
    session()
    group = row(widget, "infer_shape", "group")
    assert group["count"] == len(group["seqs"]) > 1
    assert group["seqs"] == list(range(group["seqs"][0], group["seqs"][0] + group["count"]))
    assert not group["expanded"]


def test_stop_and_the_record_button(widget):
    session()
    before = widget.total
    widget.stop()
    assert not widget.recording and not widget.log.active
    session("again")
    assert widget.total == before
    widget.recording = True  # the button
    assert widget.log.active
    session("third")
    assert widget.total > before and "third" in widget.nodes
    assert widget.text().startswith("Lifecycle (recording;")


# --- selecting a call ----------------------------------------------------------------------------
def test_clicking_a_call_shows_everything_it_received_returned_and_printed(widget):
    kept = session()  # a call offers the index map while its symbol / executor exists
    init = row(widget, "__init__")
    widget.selected = init["seq"]
    detail = dict(widget.detail)
    assert detail["argument scale"] == "'2'"  # the int 2 arrived as the str '2'
    assert detail["returned"] == "need_top_grad_=False"
    assert detail["printed"] == "prop built with scale '2'\n"
    assert "as a str" in detail["when"]
    assert row(widget, "__init__")["selected"]
    widget.selected = row(widget, "create_operator")["seq"]
    detail = dict(widget.detail)
    assert detail["caused by"] == "simple_bind" and detail["printed"] == "op built\n"
    assert "index map" in detail
    del kept
    widget.selected = row(widget, "forward")["seq"]
    assert "index map" not in dict(widget.detail)  # the executor is gone
    widget.selected = 0
    assert widget.detail == [] and widget.error == ""


def test_selecting_a_call_of_a_group_expands_it(widget):
    session()
    group = row(widget, "infer_shape", "group")
    widget.selected = group["seqs"][1]
    group = row(widget, "infer_shape", "group")
    assert group["expanded"] and group["selected"]  # a click on it again selects none
    members = [r for r in widget.rows if r["kind"] == "member"]
    assert [r["seq"] for r in members] == group["seqs"]
    assert [r["selected"] for r in members].count(True) == 1
    assert dict(widget.detail)["argument in_shape"] == "[[4, 3], [4]]"
    widget.selected = group["seqs"][0]
    assert dict(widget.detail)["argument in_shape"] == "[[4, 3], []]"  # label not known yet


def test_an_inherited_method_says_the_default_ran(widget):
    session()
    r = row(widget, "list_auxiliary_states")
    assert r["default"] == "CustomOpProp's default"
    widget.selected = r["seq"]
    assert "does not override it" in dict(widget.detail)["call"]


# --- filters -------------------------------------------------------------------------------------
def test_show_prop_or_op_only(widget):
    session()
    widget.show = "op"
    assert [m for _, _, m in calls(widget)] == ["forward", "backward"]
    widget.show = "prop"
    assert {o for _, o, _ in calls(widget)} == {"prop"}
    widget.show = "all"
    assert {o for _, o, _ in calls(widget)} == {"prop", "op"}
    assert "only the" not in widget.text()


def test_node_filter(widget):
    session("a")
    session("b")
    assert widget.nodes == ["a", "b"]
    widget.node = "b"
    nodes = {r["node"] for r in widget.rows if r["kind"] != "action"}
    assert nodes == {"b"} and "node 'b'" in widget.text()
    widget.node = ""
    assert {r["node"] for r in widget.rows if r["kind"] != "action"} == {"a", "b"}


# --- bad input -----------------------------------------------------------------------------------
def test_bad_filters_and_selections_are_shown_not_raised(widget):
    session()
    rows = list(widget.rows)
    widget.show = "everything"
    assert "show='everything' is not one of 'all', 'prop', 'op'" in widget.error
    assert widget.rows == rows
    widget.node = "nope"
    assert "no call of a node named 'nope'" in widget.error and "['loss']" in widget.error
    widget.selected = 999
    assert f"no call #999; this timeline has calls 1–{widget.total}" in widget.error
    assert widget.detail == []
    widget.selected = -3
    assert "no call #-3" in widget.error
    widget.show = "op"  # still usable
    assert widget.error == "" and [m for _, _, m in calls(widget)] == ["forward", "backward"]


def test_a_prop_that_raises_is_a_red_row_and_the_learner_gets_the_exception(widget):
    sym = mx.sym.Custom(mx.sym.Variable("x"), op_type="twl_raising", name="bad")
    with pytest.raises(ValueError, match="cannot handle"):
        sym.infer_shape(x=(2, 3))
    failed = [r for r in widget.rows if r.get("method") == "infer_shape"][-1]
    assert failed["error"] and failed["result"].startswith("raised ValueError: cannot handle")
    widget.selected = failed["seq"]
    assert "reached your code" in dict(widget.detail)["raised"]
    assert widget.error == ""  # the widget itself is fine


def test_a_handled_error_is_not_shown_as_a_failure(widget):
    mx.sym.Custom(mx.sym.Variable("x"), op_type="twl_raising", name="bad").infer_shape_partial()
    handled = row(widget, "infer_shape")
    assert handled["handled"] and not handled["error"]
    assert "caught by the engine" in handled["result"]


# --- the index map -------------------------------------------------------------------------------
def test_opening_the_index_map_of_a_node(widget):
    kept = session()
    widget.index_map = "loss"
    assert widget.error == ""
    assert len(widget.panel.children) == 1 and isinstance(widget.panel.children[0], IndexMap)
    assert widget.panel.children[0].node == "loss"
    widget.index_map = ""
    assert widget.panel.children == ()
    assert kept[1].outputs  # the learner's executor is untouched and alive


def test_the_index_map_needs_a_bound_or_inferred_node(widget):
    mx.sym.Custom(data=mx.sym.Variable("data"), op_type="twl_softmax", name="only_created")
    widget.index_map = "only_created"
    assert "so far it was only created" in widget.error
    widget.index_map = "missing"
    assert "no call of it was recorded" in widget.error
    assert widget.panel.children == ()


# --- many calls, big networks, fallbacks ---------------------------------------------------------
def test_a_long_run_keeps_the_start_and_the_end_and_small_messages():
    w = Lifecycle(limit=30, tail=4)
    try:
        _, ex = session()
        for _ in range(60):
            ex.forward(is_train=False)
        assert len(calls(w)) <= 30 and w.rows[0]["kind"] == "action"
        assert [m for _, _, m in calls(w, w.recent)] == ["forward"] * 4
        assert calls(w, w.recent)[-1][0] == w.total
        assert w.gap.startswith("calls ") and "widget.log.calls has them all" in w.gap
        assert f"... {w.gap}" in w.text() and len(w.text().splitlines()) < 80
        assert w.html().count("<tr>") < 60
        assert_small(w)
        w.limit = 1000  # everything fits again
        assert w.gap == "" and w.recent == [] and len(calls(w)) > 30
    finally:
        w.stop()


def test_resnet50_with_a_custom_head_stays_under_the_message_cap():
    w = Lifecycle("twl_softmax")
    try:
        body = resnet(50, small_input=True).get_internals()["fc1_output"]
        head = mx.sym.Custom(data=body, op_type="twl_softmax", name="loss")
        ex = head.simple_bind(mx.cpu(), data=(1, 3, 32, 32))
        ex.forward(is_train=True)
        w.selected = row(w, "create_operator")["seq"]
        assert dict(w.detail)["argument in_shapes"] == "[[1, 10], [1]]"
        w.show = "op"
        assert_small(w)
    finally:
        w.stop()


def test_an_existing_recording_and_the_deterministic_fallbacks():
    with mx.lifecycle.record() as log:
        session()
    w = Lifecycle(log=log)
    assert not w.recording and w.total == len(log.calls)
    text = w.text()
    assert text.splitlines()[0] == f"Lifecycle (stopped; {len(log.calls)} calls)"
    assert "1. [prop] 'loss' SoftmaxProp.__init__(scale='2') -> need_top_grad_=False" in text
    assert repr(w) == text
    html = w.html()
    assert 'class="msw msw-lifecycle"' in html and "SoftmaxProp.create_operator" in html
    assert "0x" not in html and "0x" not in text
    with mx.lifecycle.record() as again:
        session()
    assert Lifecycle(log=again).text() == text
    bundle = w._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert data["text/plain"] == text and data["text/html"] == html
