"""Catalogue, custom operators: mistakes that run without a word from MXNet and give a wrong
result, each now a ``minisym.MistakeWarning`` at the moment it happens, and the notes an
exception raised inside a CustomOp gets.

Each test is one mistake as a beginner types it, then the same code written correctly, which
must stay silent. A warning leaves the learner's code to run as written: the test checks that
only what that code changed has changed (``tests/catalogue/state.py``).
"""

import ast
import contextlib
import json
import pickle
import warnings

import numpy as np
import pytest

import minisym as mx

from .state import assert_unchanged, snapshot

MistakeWarning = mx.MistakeWarning


@contextlib.contextmanager
def silent():
    """A block in which any MistakeWarning fails the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", MistakeWarning)
        yield


def custom_op(
    op_type,
    backward=None,
    forward=None,
    arguments=("data",),
    aux=(),
    need_top_grad=True,
    infer_shape=None,
    prop_init=None,
):
    """Register ``op_type``: forward doubles in_data[0] unless given, backward is the function
    given (``backward(self, req, out_grad, in_data, out_data, in_grad, aux)``)."""
    fwd, bwd, shapes = forward, backward, infer_shape

    class Op(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux_states):
            if fwd is not None:
                return fwd(self, req, in_data, out_data, aux_states)
            self.assign(out_data[0], req[0], in_data[0] * 2)

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux_states):
            return bwd(self, req, out_grad, in_data, out_data, in_grad, aux_states)

    class Prop(mx.operator.CustomOpProp):
        def __init__(self, **kwargs):
            super().__init__(need_top_grad=need_top_grad)
            if prop_init is not None:
                prop_init(self, **kwargs)

        def list_arguments(self):
            return list(arguments)

        def list_auxiliary_states(self):
            return list(aux)

        def infer_shape(self, in_shape):
            if shapes is not None:
                return shapes(in_shape)
            return in_shape, [in_shape[0]], [in_shape[0]] * len(aux)

        def create_operator(self, ctx, in_shapes, in_dtypes):
            return Op()

    Prop.__name__, Op.__name__ = "MyProp", "MyOp"
    mx.operator.register(op_type)(Prop)
    return op_type


def bound(op_type, grad_req="write", names=("data",), shapes=None, **kwargs):
    """The custom op on variables named after ``names``, bound, with arange data."""
    shapes = shapes or {n: (2, 3) for n in names}
    net = mx.sym.Custom(*[mx.sym.Variable(n) for n in names], op_type=op_type, name="c", **kwargs)
    ex = net.simple_bind(mx.cpu(), grad_req=grad_req, **shapes)
    for k, n in enumerate(names):
        ex.arg_dict[n][:] = np.arange(np.prod(shapes[n])).reshape(shapes[n]) + k
    return ex


# --- an exception inside forward / backward: what each index held ------------------------------
def test_labels_taken_from_the_wrong_index_get_the_slot_map():
    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        labels = in_data[0].asnumpy().astype(int)  # "in_data[0] is the labels"
        probs = in_data[1].asnumpy()
        probs[np.arange(len(labels)), labels] -= 1
        self.assign(in_grad[0], req[0], probs)

    op = custom_op(
        "cat_cm_labels",
        backward,
        arguments=("data", "label"),
        need_top_grad=False,
        infer_shape=lambda s: ([s[0], [s[0][0]]], [s[0]], []),
    )
    ex = bound(
        op,
        grad_req={"data": "write", "label": "null"},
        names=("data", "label"),
        shapes={"data": (4, 10), "label": (4,)},
    )
    ex.forward(is_train=True)
    before = snapshot(ex)
    with pytest.raises(IndexError, match="too many indices") as info:  # NumPy's, as itself
        ex.backward()
    note = info.value.__notes__[0]
    assert note == (
        "(Check each index MyOp.backward used against what it held in this call of Custom 'c' "
        "(op_type='cat_cm_labels'):\n"
        "  out_grad[0]  'output'  empty (not listed in declare_backward_dependency)\n"
        "  in_data[0]   'data'    (4, 10) float32\n"
        "  in_data[1]   'label'   (4,) float32\n"
        "  out_data[0]  'output'  (4, 10) float32\n"
        "  in_grad[0]   'data'    (4, 10) float32  req[0] = 'write'\n"
        "  in_grad[1]   'label'   (4,) float32     req[1] = 'null'\n"
        "  aux: none)"
    )
    assert "(raised in backward of Custom 'c' (op_type='cat_cm_labels'))" in info.value.__notes__
    assert_unchanged(before, ex)


def test_a_broadcast_error_in_forward_gets_the_slot_map_with_req_and_aux():
    def forward(self, req, in_data, out_data, aux):
        centered = in_data[0].asnumpy() - aux[0].asnumpy()  # aux[0] is (3, 2): forgot a .T
        self.assign(out_data[0], req[0], centered)

    op = custom_op(
        "cat_cm_fwdmap",
        forward=forward,
        aux=("mean",),
        infer_shape=lambda s: (s, [s[0]], [[s[0][1], s[0][0]]]),
    )
    ex = bound(op)
    before = snapshot(ex)
    with pytest.raises(ValueError, match="could not be broadcast") as info:  # NumPy's
        ex.forward(data=mx.nd.ones((2, 3)))
    note = info.value.__notes__[0]
    assert note == (
        "(Check each index MyOp.forward used against what it held in this call of Custom 'c' "
        "(op_type='cat_cm_fwdmap'):\n"
        "  in_data[0]   'data'    (2, 3) float32\n"
        "  out_data[0]  'output'  (2, 3) float32  req[0] = 'write'\n"
        "  aux[0]       'mean'    (3, 2) float32)"
    )
    assert_unchanged(before, ex)  # the data given to the failed call was rolled back too


# --- a failed backward's note names only what it changed ---------------------------------------
def test_a_write_that_fails_is_not_counted_as_changing_the_label():
    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], in_data[0] * 2)
        self.assign(in_grad[1], req[1], np.zeros(7))  # the wrong shape: nothing written

    op = custom_op(
        "cat_cm_failwrite",
        backward,
        arguments=("data", "label"),
        need_top_grad=False,
        infer_shape=lambda s: ([s[0], [s[0][0]]], [s[0]], []),
    )
    ex = bound(op, names=("data", "label"), shapes={"data": (2, 3), "label": (2,)})
    ex.forward(is_train=True)
    before = snapshot(ex)
    with pytest.raises(ValueError, match=r"Nothing was written") as info:
        ex.backward()
    note = info.value.__notes__[-1]
    assert note.startswith(
        "(backward stopped after it had already changed grad_dict['data'] "
        "(overwritten, grad_req 'write'); "
    )
    assert "label" not in note  # was: grad_dict['label'] (overwritten, grad_req 'write')
    assert_unchanged(before, ex, ignore=["grad_dict['data']"])


def test_a_backward_that_raises_after_in_grad_0_with_a_null_label():
    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], in_data[0] * 2)
        raise RuntimeError("the label's gradient is not written yet")

    op = custom_op("cat_cm_nulllabel", backward, arguments=("data", "label"), need_top_grad=False)
    ex = bound(op, grad_req={"data": "write", "label": "null"}, names=("data", "label"))
    ex.forward(is_train=True)
    before = snapshot(ex)
    with pytest.raises(RuntimeError, match="not written yet") as info:
        ex.backward()
    note = info.value.__notes__[-1]
    assert note.startswith(
        "(backward stopped after it had already changed grad_dict['data'] "
        "(overwritten, grad_req 'write'); the engine cannot undo that."
    )
    assert "label" not in note
    assert_unchanged(before, ex, ignore=["grad_dict['data']"])


def test_reading_an_aux_state_is_not_counted_as_changing_it():
    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        center = aux[0].asnumpy()  # read to update it later...
        self.assign(in_grad[0], req[0], in_data[0].asnumpy() - center)
        raise RuntimeError("the update of the centers is not written yet")  # ...never reached

    op = custom_op("cat_cm_auxread", backward, aux=("center",), need_top_grad=False)
    ex = bound(op)
    ex.forward(is_train=True)
    before = snapshot(ex)
    with pytest.raises(RuntimeError, match="not written yet") as info:
        ex.backward()
    note = info.value.__notes__[-1]
    assert "grad_dict['data'] (overwritten" in note
    assert "aux_dict" not in note and "took one step" not in note  # was: (written by ...)
    assert_unchanged(before, ex, ignore=["grad_dict['data']"])


# --- a loss reading out_grad ---------------------------------------------------------------------
def test_a_loss_reading_out_grad_is_told_a_loss_makes_its_own_gradient():
    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], out_grad[0] * in_data[0])  # copied from a layer

    op = custom_op("cat_cm_lossreads", backward, need_top_grad=False)
    ex = bound(op)
    ex.forward(is_train=True)
    before = snapshot(ex)
    with pytest.raises(mx.base.MXNetError) as info:
        ex.backward()
    message = str(info.value)
    assert message.startswith(
        "Custom 'c' (op_type='cat_cm_lossreads'): compute backward's gradient without out_grad: "
        "MyProp passes need_top_grad=False, so it is a loss that makes its own gradient and does "
        "not read out_grad (need_top_grad=False leaves out every out_grad; out_grad[0] "
        "('output') is an empty NDArray in backward). If it needs the gradient arriving from "
        "above after all, drop need_top_grad=False from MyProp.__init__ and list out_grad[0] in "
        "MyProp.declare_backward_dependency (lesson 6)."
    )
    assert_unchanged(before, ex)


# --- 4a: overwriting an in_grad whose req is 'add' -----------------------------------------------
OVERWRITES = {
    "slice": lambda self, req, og, g: g[0].__setitem__(slice(None), og[0] * 2),  # g[0][:] = ..
    "assign 'write'": lambda self, req, og, g: self.assign(g[0], "write", og[0] * 2),
    "copyto": lambda self, req, og, g: (og[0] * 2).copyto(g[0]),
}
HOW = {
    "slice": "in_grad[0][:] = ...",
    "assign 'write'": "self.assign(in_grad[0], 'write', ...)",
    "copyto": "x.copyto(in_grad[0])",
}


@pytest.mark.parametrize("how", list(OVERWRITES))
def test_overwriting_an_in_grad_whose_req_is_add(how):
    write = OVERWRITES[how]

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        write(self, req, out_grad, in_grad)

    op = custom_op(f"cat_cm_add_{how.split()[0]}", backward)
    ex = bound(op, grad_req="add")
    ex.grad_dict["data"][:] = 1  # what earlier backward calls accumulated
    ex.forward(is_train=True)
    before = snapshot(ex)
    with pytest.warns(MistakeWarning) as record:
        ex.backward(mx.nd.ones((2, 3)))
    assert len(record) == 1
    assert str(record[0].message) == (
        "Custom 'c' (op_type='cat_cm_add_" + how.split()[0] + "'): add into in_grad[0] ('data') "
        "instead of overwriting it: write self.assign(in_grad[0], req[0], grad), which adds when "
        f"req[0] is 'add' (or in_grad[0][:] += grad). {HOW[how]} replaced the values in_grad[0] "
        "held, but req[0] is 'add' (grad_req='add': gradients accumulate over backward calls, "
        "and those of earlier calls are lost)."
    )
    assert record[0].filename == __file__  # the learner's line, not the engine's
    np.testing.assert_array_equal(ex.grad_dict["data"].asnumpy(), np.full((2, 3), 2.0))
    assert_unchanged(before, ex, ignore=["grad_dict['data']"])  # the code ran as written


ADDS = {
    "assign with req": lambda self, req, og, g: self.assign(g[0], req[0], og[0] * 2),
    "+=": lambda self, req, og, g: g[0].__iadd__(og[0] * 2),
    "[:] +=": lambda self, req, og, g: g[0].__setitem__(slice(None), g[0][:] + og[0] * 2),
    "lesson 6's zero": lambda self, req, og, g: (
        self.assign(g[0], req[0], 0) or self.assign(g[0], req[0], og[0] * 2)
    ),
}


@pytest.mark.parametrize("how", list(ADDS))
@pytest.mark.parametrize("grad_req", ["add", "write"])
def test_adding_into_an_in_grad_stays_silent(how, grad_req):
    add = ADDS[how]

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        add(self, req, out_grad, in_grad)

    op = custom_op(f"cat_cm_ok_{len(how)}_{grad_req}", backward)
    ex = bound(op, grad_req=grad_req)
    ex.grad_dict["data"][:] = 1
    ex.forward(is_train=True)
    with silent():
        ex.backward(mx.nd.ones((2, 3)))
    expected = 3.0 if grad_req == "add" or how == "+=" or how == "[:] +=" else 2.0
    np.testing.assert_array_equal(ex.grad_dict["data"].asnumpy(), np.full((2, 3), expected))


# --- 4b: replacing an entry of the list instead of writing into it ------------------------------
def test_aux_state_replaced_instead_of_written_into():
    def forward(self, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0] * 2)
        aux[0] = aux[0] * 0.9 + in_data[0] * 0.1  # the running mean: a new array in the list

    op = custom_op("cat_cm_auxreplace", forward=forward, aux=("running",))
    ex = bound(op)
    before = snapshot(ex)
    with pytest.warns(MistakeWarning) as record:
        ex.forward(is_train=True)
    assert [str(w.message) for w in record] == [
        "Custom 'c' (op_type='cat_cm_auxreplace'): write into aux[0] ('running') instead of "
        "replacing it: aux[0][:] = new_value. Forward put a new array into the list it received "
        "(aux[0] = ...), which the engine never reads, so the auxiliary state keeps its old "
        "values (MXNet ignores the new one without a word)."
    ]
    assert_unchanged(before, ex, ignore=["outputs[0]"])  # aux_dict['c_running'] as it was

    def forward_fixed(self, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0] * 2)
        aux[0][:] = aux[0] * 0.9 + in_data[0] * 0.1

    fixed = bound(custom_op("cat_cm_auxwrite", forward=forward_fixed, aux=("running",)))
    with silent():
        fixed.forward(is_train=True)
    np.testing.assert_allclose(
        fixed.aux_dict["c_running"].asnumpy(), 0.1 * np.arange(6).reshape(2, 3)
    )


def test_in_grad_replaced_after_reading_it():
    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        in_grad[0] = in_grad[0] * 0 + out_grad[0] * 2  # builds a new array: the list's entry

    ex = bound(custom_op("cat_cm_gradreplace", backward))
    ex.grad_dict["data"][:] = 5
    ex.forward(is_train=True)
    before = snapshot(ex)
    with pytest.warns(MistakeWarning) as record:
        ex.backward(mx.nd.ones((2, 3)))
    assert [str(w.message) for w in record] == [
        "Custom 'c' (op_type='cat_cm_gradreplace'): write into in_grad[0] ('data') instead of "
        "replacing it: self.assign(in_grad[0], req[0], grad). Backward put a new array into the "
        "list it received (in_grad[0] = ...), which the engine never reads, so the engine's "
        "in_grad[0] keeps the values it held before this call (MXNet ignores the new one "
        "without a word)."
    ]
    assert_unchanged(before, ex)  # grad_dict['data'] still holds the 5s


def test_in_grad_replaced_without_reading_it_keeps_its_single_warning():
    """Not reading in_grad[0] at all is what the "did not write" warning (CustomOpWarning)
    already names, with the clue about the list's entry: no second warning."""

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        in_grad[0] = out_grad[0] * 2

    ex = bound(custom_op("cat_cm_gradreplace2", backward))
    ex.forward(is_train=True)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        ex.backward(mx.nd.ones((2, 3)))
    assert [w.category for w in record] == [mx.operator.CustomOpWarning]
    assert "in_grad[0] = ... replaced the entry of the list" in str(record[0].message)


# --- 4c: a keyword whose string means the opposite of its value ---------------------------------
def test_a_false_keyword_tested_for_truth():
    seen = {}

    def prop_init(self, flag="True"):
        seen["flag"] = flag
        self.use_bias = bool(flag)  # 'False' is a non-empty string

    op = custom_op("cat_cm_flag", prop_init=prop_init)
    data = mx.sym.Variable("data")
    before = snapshot(data)
    with pytest.warns(MistakeWarning) as record:
        net = mx.sym.Custom(data, op_type=op, name="c", flag=False)
    assert [str(w.message) for w in record] == [
        "Custom 'c' (op_type='cat_cm_flag'): convert the keyword flag in MyProp.__init__ before "
        "testing it, e.g. self.flag = flag == 'True'. Every keyword of mx.sym.Custom reaches "
        "MyProp as a string, and flag='False' is a non-empty string, so it counts as true: the "
        "opposite of what False means."
    ]
    assert record[0].filename == __file__
    assert seen["flag"] == "False" and json.loads(net.tojson())  # still MXNet's str
    assert_unchanged(before, data)


@pytest.mark.parametrize(
    "text, fix",
    [
        ("0", "self.n = int(n)"),
        ("None", "self.n = ast.literal_eval(n)"),
        ("[]", "self.n = ast.literal_eval(n)"),
    ],
)
def test_a_zero_or_none_keyword_tested_for_truth(text, fix):
    def prop_init(self, n="1"):
        self.n = n if n else 1  # "no n given: use 1"

    op = custom_op(f"cat_cm_n{len(text)}{text[0]}", prop_init=prop_init)
    with pytest.warns(MistakeWarning) as record:
        mx.sym.Custom(mx.sym.Variable("data"), op_type=op, name="c", n=text)
    message = str(record[0].message)
    assert message.startswith(
        f"Custom 'c' (op_type='{op}'): convert the keyword n in "
        f"MyProp.__init__ before testing it, e.g. {fix}. "
    )
    assert f"n={text!r} is a non-empty string, so it counts as true" in message


def test_keywords_converted_properly_stay_silent():
    seen = {}

    def prop_init(self, flag="True", n="1", shape="(2, 3)", prefix=""):
        seen.update(
            flag=flag == "True",
            n=int(n),
            f=float(n),
            shape=ast.literal_eval(shape),
            prefix=prefix if prefix else "none",
            true=bool(str(flag)),
            member=flag in ("False", "0"),
            key={flag: 1}["False"],
            json=json.dumps(flag),
            pickled=pickle.loads(pickle.dumps(flag)),
            lower=flag.lower(),
            is_str=isinstance(flag, str),
            name=type(flag).__name__,
        )

    op = custom_op("cat_cm_converted", prop_init=prop_init)
    with silent():
        mx.sym.Custom(
            mx.sym.Variable("data"), op_type=op, name="c", flag=False, n=0, shape=(3, 4), prefix=""
        )
    assert seen == {
        "flag": False,
        "n": 0,
        "f": 0.0,
        "shape": (3, 4),
        "prefix": "none",
        "true": True,
        "member": True,
        "key": 1,
        "json": '"False"',
        "pickled": "False",
        "lower": "false",
        "is_str": True,
        "name": "str",
    }
    assert type(seen["pickled"]) is str  # a plain str once pickled


def test_lesson_5_keywords_converted_in_init_stay_silent():
    def prop_init(self, num_class, alpha):
        self.num_class = int(num_class)
        self.alpha = float(alpha)

    op = custom_op("cat_cm_lesson5", prop_init=prop_init)
    with silent():
        net = mx.sym.Custom(mx.sym.Variable("data"), op_type=op, name="c", num_class=0, alpha=0.0)
    assert net.outputs[0][0].op.prop.num_class == 0


def test_need_top_grad_passed_on_as_the_string_it_arrived_as():
    class Op(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            self.assign(out_data[0], req[0], in_data[0] * 2)

    @mx.operator.register("cat_cm_ntg")
    class LossProp(mx.operator.CustomOpProp):
        def __init__(self, need_top_grad="True"):
            super().__init__(need_top_grad=need_top_grad)  # 'False' is true

        def create_operator(self, ctx, in_shapes, in_dtypes):
            return Op()

    data = mx.sym.Variable("data")
    before = snapshot(data)
    with pytest.warns(MistakeWarning) as record:
        mx.sym.Custom(data, op_type="cat_cm_ntg", name="c", need_top_grad=False)
    assert [str(w.message) for w in record] == [
        "Custom 'c' (op_type='cat_cm_ntg'): convert the keyword need_top_grad in "
        "LossProp.__init__ before testing it, e.g. super().__init__(need_top_grad=need_top_grad "
        "== 'True'). Every keyword of mx.sym.Custom reaches LossProp as a string, and "
        "need_top_grad='False' is a non-empty string, so it counts as true: the opposite of "
        "what False means."
    ]
    assert record[0].filename == __file__
    assert_unchanged(before, data)
