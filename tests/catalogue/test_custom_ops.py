"""Catalogue, custom operators: mistakes a learner makes writing a CustomOpProp / CustomOp.

Each test is one mistake as a beginner types it; it asserts the exception type (a Python
exception raised inside the operator reaches the caller as itself, README difference 4), the
parts of the message or note that teach (operator, node, slot, expected vs given, the fix), and
that the learner's executor or symbol is what it was before the failed call.
"""

import numpy as np
import pytest

import minisym as mx

from .state import assert_unchanged, snapshot

CustomOpWarning = mx.operator.CustomOpWarning


def make_op(
    op_type,
    forward=None,
    backward=None,
    infer_shape=None,
    infer_type=None,
    list_arguments=None,
    backward_deps=None,
    arguments=("data",),
):
    """Register a custom op whose methods are the functions given (MXNet's defaults
    otherwise): forward doubles its first input, backward doubles the head gradient."""
    fwd, bwd, ishape, itype, largs, deps = (
        forward,
        backward,
        infer_shape,
        infer_type,
        list_arguments,
        backward_deps,
    )

    class Op(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            if fwd is not None:
                return fwd(self, req, in_data, out_data)
            self.assign(out_data[0], req[0], in_data[0] * 2)

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            if bwd is not None:
                return bwd(self, req, out_grad, in_data, in_grad)
            for i in range(len(in_grad)):
                self.assign(in_grad[i], req[i], out_grad[0] * 2)

    class Prop(mx.operator.CustomOpProp):
        def list_arguments(self):
            return largs(self) if largs is not None else list(arguments)

        def infer_shape(self, in_shape):
            if ishape is not None:
                return ishape(in_shape)
            return in_shape, [in_shape[0]], []

        def infer_type(self, in_type):
            if itype is not None:
                return itype(in_type)
            return super().infer_type(in_type)

        def declare_backward_dependency(self, out_grad, in_data, out_data):
            if deps is not None:
                return deps(out_grad, in_data, out_data)
            return super().declare_backward_dependency(out_grad, in_data, out_data)

        def create_operator(self, ctx, shapes, dtypes):
            return Op()

    Prop.__name__, Op.__name__ = "MyProp", "MyOp"
    mx.operator.register(op_type)(Prop)
    return op_type


def _bound(op_type, shape=(2, 3), grad_req="write", **inputs):
    """The custom op on variable(s) named after its arguments, bound, with arange data."""
    names = inputs.get("names", ("data",))
    sym = mx.sym.Custom(*[mx.sym.Variable(n) for n in names], op_type=op_type, name="c")
    ex = sym.simple_bind(mx.cpu(), grad_req=grad_req, **{n: shape for n in names})
    for k, n in enumerate(names):
        ex.arg_dict[n][:] = np.arange(np.prod(shape)).reshape(shape) + k
    return ex


# --- declaring ----------------------------------------------------------------------------------
def test_unexpected_keyword_reaches_the_prop_as_a_type_error():
    op = make_op("cat_co_plain")
    data = mx.sym.Variable("data")
    before = snapshot(data)
    with pytest.raises(TypeError) as info:  # MXNet 1.9.1 segfaults (README difference 2)
        mx.sym.Custom(data, op_type=op, name="c", scale=3)
    message = str(info.value)
    assert "Custom 'c' (op_type='cat_co_plain')" in message
    assert "got an unexpected keyword argument 'scale'" in message
    assert "goes to the Prop, as a string" in message
    assert_unchanged(before, data)


def test_op_type_that_was_never_registered():
    with pytest.raises(mx.base.MXNetError) as info:
        mx.sym.Custom(mx.sym.Variable("data"), op_type="cat_co_sofmax", name="c")
    message = str(info.value)
    assert "Cannot find custom operator cat_co_sofmax" in message
    assert "@mx.operator.register('cat_co_sofmax')" in message


def test_list_arguments_returning_a_string():
    op = make_op("cat_co_strargs", list_arguments=lambda self: "data")
    with pytest.raises(TypeError) as info:  # was "Two variables are both named 'c_a'"
        mx.sym.Custom(mx.sym.Variable("data"), op_type=op, name="c")
    message = str(info.value)
    assert "Custom 'c' (op_type='cat_co_strargs')" in message
    assert message.startswith(
        "Custom 'c' (op_type='cat_co_strargs'): return a list of names "
        "(strs) from MyProp.list_arguments, e.g. return ['data'"
    )
    assert "the str 'data', which would be read letter by letter" in message


def test_list_arguments_that_raises():
    def broken(self):
        raise RuntimeError("forgot the label")

    op = make_op("cat_co_raiseargs", list_arguments=broken)
    with pytest.raises(RuntimeError, match="forgot the label") as info:
        mx.sym.Custom(mx.sym.Variable("data"), op_type=op, name="c")
    assert (
        "(raised in MyProp.list_arguments of Custom 'c' (op_type='cat_co_raiseargs'), which "
        "mx.sym.Custom calls when it creates the node)"
    ) in info.value.__notes__


def test_infer_shape_returning_too_few_shapes():
    op = make_op("cat_co_fewshapes", infer_shape=lambda ins: (ins, [], []))
    net = mx.sym.Custom(mx.sym.Variable("data"), op_type=op, name="c")
    before = snapshot(net)
    with pytest.raises(mx.base.MXNetError) as info:
        net.infer_shape(data=(2, 3))
    message = str(info.value)
    assert message.startswith(
        "Custom 'c' (op_type='cat_co_fewshapes'): return one shape per "
        "name in ['output'] from MyProp.infer_shape: "
    )
    assert "InferShape Error: expecting 1 entry in returned output shapes, got 0" in message
    assert_unchanged(before, net)


def test_infer_shape_returning_a_shape_where_a_list_of_shapes_belongs():
    op = make_op("cat_co_flatshape", infer_shape=lambda ins: (ins, [2, 3], []))
    net = mx.sym.Custom(mx.sym.Variable("data"), op_type=op, name="c")
    with pytest.raises(
        mx.base.MXNetError,
        match=r"expecting 1 entry in returned output "
        r"shapes, got 2",
    ):
        net.infer_shape(data=(2, 3))
    op = make_op("cat_co_intshape", infer_shape=lambda ins: (ins, [3], []))
    net = mx.sym.Custom(mx.sym.Variable("data"), op_type=op, name="c")
    with pytest.raises(TypeError) as info:  # was: object of type 'int' has no len()
        net.infer_shape(data=(2, 3))
    assert "from MyProp.infer_shape, each shape a list of ints" in str(info.value)
    assert "it returned 3 (int) where a shape belongs" in str(info.value)
    assert "return in_shape, [[4, 3]], []" in str(info.value)


def test_infer_shape_that_raises():
    op = make_op("cat_co_raiseshape", infer_shape=lambda ins: ins[0][0] / 0)
    net = mx.sym.Custom(mx.sym.Variable("data"), op_type=op, name="c")
    before = snapshot(net)
    with pytest.raises(ZeroDivisionError) as info:  # as itself (README difference 4)
        net.infer_shape(data=(2, 3))
    assert (
        "(raised in MyProp.infer_shape of Custom 'c' (op_type='cat_co_raiseshape'), called "
        "with in_shape=[[2, 3]])"
    ) in info.value.__notes__
    assert_unchanged(before, net)


def test_infer_type_returning_something_that_is_not_a_dtype():
    op = make_op("cat_co_badtype", infer_type=lambda ins: (ins, ["float32s"], []))
    net = mx.sym.Custom(mx.sym.Variable("data"), op_type=op, name="c")
    with pytest.raises(TypeError) as info:  # was numpy's "data type 'foo' not understood"
        net.infer_type(data=np.float32)
    message = str(info.value)
    assert message.startswith(
        "Custom 'c' (op_type='cat_co_badtype'): return numpy types such "
        "as np.float32 from MyProp.infer_type"
    )
    assert "it returned 'float32s' for output 0 'output', which is not a data type MXNet" in message
    assert "in_type[0]" in message


def test_infer_shape_that_gives_the_output_a_wrong_shape():
    op = make_op("cat_co_wrongout", infer_shape=lambda ins: (ins, [[ins[0][1]]], []))
    ex = _bound(op)
    before = snapshot(ex)
    with pytest.raises(ValueError) as info:
        ex.forward()
    message = str(info.value)
    assert "assign: src has shape (2, 3) but dst out_data[0] ('output') of Custom 'c'" in message
    assert "has shape (3,)" in message and "the shape your infer_shape returned" in message
    assert "(raised in forward of Custom 'c' (op_type='cat_co_wrongout'))" in info.value.__notes__
    assert_unchanged(before, ex)


# --- computing ----------------------------------------------------------------------------------
def test_assign_with_a_misspelled_req():
    op = make_op(
        "cat_co_badreq", forward=lambda self, req, i, o: self.assign(o[0], "wrte", i[0] * 2)
    )
    ex = _bound(op)
    before = snapshot(ex)
    with pytest.raises(mx.base.MXNetError) as info:  # MXNet ignores it: out_data never written
        ex.forward()
    message = str(info.value)
    assert "assign: req='wrte' is not one of 'null', 'write', 'inplace', 'add'" in message
    assert "out_data[0] ('output') of Custom 'c' (op_type='cat_co_badreq')" in message
    assert "self.assign(out_data[0], req[0], result)" in message
    assert_unchanged(before, ex)


def test_assign_of_a_wrongly_shaped_result():
    op = make_op(
        "cat_co_badshape", forward=lambda self, req, i, o: self.assign(o[0], req[0], i[0][:, :2])
    )
    ex = _bound(op)
    before = snapshot(ex)
    with pytest.raises(
        ValueError,
        match=r"assign: src has shape \(2, 2\) but dst out_data\[0\] "
        r"\('output'\) .*has shape \(2, 3\).*Nothing was "
        r"written",
    ):
        ex.forward(data=mx.nd.ones((2, 3)))
    assert_unchanged(before, ex)  # the data given was rolled back too


def test_forward_that_raises_reaches_the_caller_as_itself():
    def boom(self, req, in_data, out_data):
        raise ValueError("my forward is not finished")

    op = make_op("cat_co_raisefwd", forward=boom)
    ex = _bound(op)
    before = snapshot(ex)
    with pytest.raises(ValueError, match="my forward is not finished") as info:
        ex.forward(is_train=True, data=mx.nd.ones((2, 3)) * 9)
    assert "(raised in forward of Custom 'c' (op_type='cat_co_raisefwd'))" in info.value.__notes__
    assert_unchanged(before, ex)  # arg_dict['data'] is not the 9s given to the failed call


def test_backward_that_raises_before_writing_anything():
    def boom(self, req, out_grad, in_data, in_grad):
        raise ValueError("my backward is not finished")

    op = make_op("cat_co_raisebwd", backward=boom)
    ex = _bound(op)
    ex.forward(is_train=True)
    before = snapshot(ex)
    with pytest.raises(ValueError, match="my backward is not finished") as info:
        ex.backward(mx.nd.ones((2, 3)))
    assert (
        "(backward stopped before writing any gradient or auxiliary state: every array of "
        "this executor is as it was.)"
    ) in info.value.__notes__
    assert_unchanged(before, ex)


def test_backward_that_raises_after_adding_some_gradients_says_which():
    def half_done(self, req, out_grad, in_data, in_grad):
        self.assign(in_grad[0], req[0], out_grad[0] * 2)  # 'a' gets its gradient added...
        raise RuntimeError("the gradient of 'b' is not written yet")  # ...then it stops

    op = make_op(
        "cat_co_halfbwd",
        backward=half_done,
        arguments=("a", "b"),
        infer_shape=lambda ins: (ins, [ins[0]], []),
    )
    ex = _bound(op, grad_req="add", names=("a", "b"))
    ex.forward(is_train=True)
    ex.grad_dict["a"][:] = 1
    ex.grad_dict["b"][:] = 1
    before = snapshot(ex)
    with pytest.raises(RuntimeError, match="not written yet") as info:
        ex.backward(mx.nd.ones((2, 3)))
    note = info.value.__notes__[-1]
    assert "backward stopped after it had already changed grad_dict['a'] (added to" in note
    assert "grad_req 'add')" in note and "'b'" not in note
    assert "reset what was added to (e.g. ex.grad_dict['a'][:] = 0)" in note
    np.testing.assert_allclose(ex.grad_dict["a"].asnumpy(), np.full((2, 3), 3.0))
    assert_unchanged(before, ex, ignore=["grad_dict['a']"])  # all else as it was, 'b' too


def test_forward_that_writes_into_its_input():
    def overwrite(self, req, in_data, out_data):
        in_data[0][:] = 0  # "I do not need the input any more"
        self.assign(out_data[0], req[0], 1)

    op = make_op("cat_co_writein", forward=overwrite)
    ex = _bound(op)
    data = ex.arg_dict["data"].asnumpy()
    with pytest.warns(CustomOpWarning) as record:
        ex.forward()
    message = str(record[0].message)
    assert message.startswith(
        "Custom 'c' (op_type='cat_co_writein'): compute into a new array "
        "instead (x = in_data[0].copy())"
    )
    assert "forward wrote into in_data[0] ('data'), which it only reads" in message
    assert "The write went into a private copy" in message
    np.testing.assert_array_equal(ex.arg_dict["data"].asnumpy(), data)  # MXNet would zero it


def test_forward_that_keeps_its_input_for_backward():
    """Forward keeps in_data[0] (not declared for backward) and backward reads it later: the
    memory plan has given that buffer to later operators by then, so it would hold their
    values and the gradient would be silently wrong; the kept array gets its own copy."""

    class Square(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            self.saved = in_data[0]  # the mistake: the array itself, not a copy
            self.assign(out_data[0], req[0], in_data[0] * in_data[0])

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            self.assign(in_grad[0], req[0], 2 * self.saved * out_grad[0])

    @mx.operator.register("cat_co_keep")
    class SquareProp(mx.operator.CustomOpProp):
        def declare_backward_dependency(self, out_grad, in_data, out_data):
            return [out_grad[0]]  # "backward does not need in_data"

        def create_operator(self, ctx, shapes, dtypes):
            return Square()

    x = mx.sym.Variable("x")
    y = mx.sym.Custom(x * 2, op_type="cat_co_keep", name="sq")
    z = ((((y * 3) + 1) * 5) + 7) * 0.5  # later nodes that reuse the freed buffer
    ex = z.simple_bind(mx.cpu(), x=(2, 3))
    ex.arg_dict["x"][:] = np.arange(6).reshape(2, 3)
    with pytest.warns(CustomOpWarning) as record:
        ex.forward(is_train=True)
    message = str(record[0].message)
    assert message.startswith(
        "Custom 'sq' (op_type='cat_co_keep'): keep a copy yourself "
        "(self.saved = in_data[0].copy()), or declare it in "
        "declare_backward_dependency and read it from backward's "
        "in_data[0]: forward kept in_data[0] ('data') after it returned"
    )
    ex.backward(mx.nd.ones((2, 3)))
    expected = 0.5 * 5 * 3 * 2 * (2 * np.arange(6).reshape(2, 3)) * 2  # d z / d x
    np.testing.assert_allclose(ex.grad_dict["x"].asnumpy(), expected)


def test_forward_that_returns_its_result():
    op = make_op("cat_co_returns", forward=lambda self, req, i, o: i[0] * 2)
    ex = _bound(op)
    with pytest.warns(CustomOpWarning) as record:
        ex.forward()
    message = str(record[0].message)
    assert message.startswith(
        "Custom 'c' (op_type='cat_co_returns'): write each result into "
        "its output instead of returning it: self.assign(out_data[0], "
        "req[0], result)"
    )
    assert "forward returned an NDArray (2, 3), and the engine ignores what forward" in message
    np.testing.assert_array_equal(ex.outputs[0].asnumpy(), np.zeros((2, 3)))


def test_reading_an_input_that_does_not_exist():
    op = make_op("cat_co_offbyone", forward=lambda self, req, i, o: self.assign(o[0], req[0], i[1]))
    ex = _bound(op)
    before = snapshot(ex)
    with pytest.raises(IndexError) as info:
        ex.forward()
    message = str(info.value)
    assert message.startswith(
        "Custom 'c' (op_type='cat_co_offbyone'): use an index from 0 to 0 "
        "(in_data[0] is 'data'); in_data[1] does not exist: in_data has 1 "
        "entry, one per name the Prop declares"
    )
    assert "follow list_arguments()" in message
    assert_unchanged(before, ex)


def test_nan_from_a_custom_operator_flows_on_without_crashing():
    op = make_op(
        "cat_co_nan", forward=lambda self, req, i, o: self.assign(o[0], req[0], np.log(i[0] - 3))
    )
    ex = _bound(op)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = ex.forward(is_train=True)[0].asnumpy()
    assert np.isnan(out[0, :3]).all() and np.isneginf(out[1, 0])  # log(<0), log(0)
    ex.backward(mx.nd.ones((2, 3)))
    np.testing.assert_array_equal(ex.grad_dict["data"].asnumpy(), np.full((2, 3), 2.0))
