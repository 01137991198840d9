"""Custom operators: the deliberate differences from MXNet 1.9.1 (clean errors where MXNet
segfaults or hides what went wrong), the trace of which array stands behind each index of the
six lists, the empty arrays backward gets for what it did not declare, and ``mx.nd.Custom``.

What MXNet does the same way is checked against MXNet itself in tests/differential (p400-p405).
"""

import warnings

import numpy as np
import pytest

import minisym as mx


# --- operators used below (op_type names start with 'tco_') ---------------------------------
class Scale(mx.operator.CustomOp):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0] * self.scale)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], out_grad[0] * self.scale)


@mx.operator.register("tco_scale")
class ScaleProp(mx.operator.CustomOpProp):
    def __init__(self, scale="1", mode="plain"):
        super().__init__(need_top_grad=True)
        self.scale = float(scale)
        self.mode = mode

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return Scale(self.scale)


class Boom(Exception):
    """Raised by the operators below; the caller must receive this very object."""


RAISED = []


class Exploding(mx.operator.CustomOp):
    def __init__(self, where):
        super().__init__()
        self.where = where

    def forward(self, is_train, req, in_data, out_data, aux):
        if self.where == "forward":
            RAISED.append(Boom("forward went wrong"))
            raise RAISED[-1]
        self.assign(out_data[0], req[0], in_data[0])

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        RAISED.append(Boom("backward went wrong"))
        raise RAISED[-1]


@mx.operator.register("tco_exploding")
class ExplodingProp(mx.operator.CustomOpProp):
    def __init__(self, where="forward"):
        super().__init__(need_top_grad=True)
        self.where = where

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return Exploding(self.where)


@mx.operator.register("tco_bad_counts")
class BadCountsProp(mx.operator.CustomOpProp):
    def __init__(self, part="outputs"):
        super().__init__()
        self.part = part

    def list_arguments(self):
        return ["data", "weight"]

    def list_auxiliary_states(self):
        return ["state"]

    def infer_shape(self, in_shape):
        s = in_shape[0]
        if self.part == "outputs":
            return [s, s], [s, s], [s]
        if self.part == "inputs":
            return [s], [s], [s]
        if self.part == "aux":
            return [s, s], [s], []
        return ([s, s],)

    def infer_type(self, in_type):
        t = in_type[0]
        return [t, t], [t, t, t], [t]


def bind(sym, grad_req="write", **shapes):
    ex = sym.simple_bind(ctx=mx.cpu(), grad_req=grad_req, **shapes)
    rs = np.random.RandomState(0)
    for array in ex.arg_dict.values():
        array[:] = rs.randn(*array.shape)
    return ex


# --- deliberate difference 2: an unexpected keyword is a TypeError naming it -----------------
def test_unexpected_keyword_is_a_type_error_naming_it_and_the_parameters():
    x = mx.sym.Variable("x")
    with pytest.raises(TypeError) as info:
        mx.sym.Custom(x, op_type="tco_scale", name="sc", sclae=2)
    message = str(info.value)
    assert "'sclae'" in message
    assert "ScaleProp.__init__" in message
    assert "scale, mode" in message  # the parameters it does take
    assert "Custom 'sc' (op_type='tco_scale')" in message
    assert isinstance(info.value, mx.base.MXNetError)


def test_unexpected_keyword_in_the_imperative_form_too():
    with pytest.raises(TypeError, match="scale, mode.*'sclae'"):
        mx.nd.Custom(mx.nd.ones((2, 3)), op_type="tco_scale", sclae=2)


def test_keywords_arrive_as_strings_and_defaults_stay():
    received = []

    @mx.operator.register("tco_receiving")
    class ReceivingProp(ScaleProp):
        def __init__(self, scale="1", mode="plain", flag=False):
            super().__init__(scale, mode)
            received.append({"scale": scale, "mode": mode, "flag": flag})

    sym = mx.sym.Custom(
        mx.sym.Variable("x"), op_type="tco_receiving", name="s", scale=2, flag=False
    )
    # strings, so a Prop must parse them: bool('False') is True
    assert received[0] == {"scale": "2", "mode": "plain", "flag": "False"}
    assert sym.attr_dict()["s"] == {"op_type": "tco_receiving", "scale": "2", "flag": "False"}


# --- deliberate difference 4: an exception inside forward/backward reaches the caller --------
@pytest.mark.parametrize("phase", ["forward", "backward"])
def test_exception_inside_the_operator_reaches_the_caller_as_an_mxnet_error_of_its_type(phase):
    del RAISED[:]
    sym = mx.sym.Custom(mx.sym.Variable("x"), op_type="tco_exploding", name="bomb", where=phase)
    ex = bind(sym, x=(2, 3))
    with pytest.raises(Boom) as info:
        ex.forward(is_train=True)
        ex.backward(mx.nd.ones((2, 3)))
    # an MXNetError, as MXNet raises, that is also a Boom and wraps the very object raised
    assert info.value.__context__ is RAISED[-1] and isinstance(info.value, mx.base.MXNetError)
    assert str(info.value) == f"{phase} went wrong"
    notes = "\n".join(getattr(info.value, "__notes__", []))
    assert phase in notes
    assert "Custom 'bomb'" in notes  # the operator and the node
    assert "op_type='tco_exploding'" in notes


# --- infer_shape returning the wrong number of shapes ----------------------------------------
@pytest.mark.parametrize(
    "part, expected, got, label",
    [
        ("outputs", 1, 2, "output shapes"),
        ("inputs", 2, 1, "input shapes"),
        ("aux", 1, 0, "aux state shapes"),
    ],
)
def test_wrong_number_of_shapes_names_the_prop_the_method_and_the_counts(
    part, expected, got, label
):
    sym = mx.sym.Custom(mx.sym.Variable("x"), op_type="tco_bad_counts", name="bad", part=part)
    with pytest.raises(mx.base.MXNetError) as info:
        sym.infer_shape(x=(2, 3))
    message = str(info.value)
    count = f"{expected} entr{'y' if expected == 1 else 'ies'}"  # MXNet: "1 entries"
    assert f"InferShape Error: expecting {count} in returned {label}, got {got}" in message
    assert "BadCountsProp.infer_shape" in message
    assert "Custom 'bad' (op_type='tco_bad_counts')" in message


def test_wrong_number_of_lists_from_infer_shape():
    sym = mx.sym.Custom(mx.sym.Variable("x"), op_type="tco_bad_counts", name="bad", part="one")
    with pytest.raises(
        mx.base.MXNetError,
        match=r"return 2 or 3 lists \(inputs, outputs\[, "
        r"aux\]\) from BadCountsProp.infer_shape",
    ):
        sym.infer_shape(x=(2, 3))


def test_wrong_number_of_types_says_infer_type():
    sym = mx.sym.Custom(mx.sym.Variable("x"), op_type="tco_bad_counts", name="bad", part="none")
    with pytest.raises(mx.base.MXNetError) as info:
        sym.infer_type(x="float32")
    message = str(info.value)
    assert "InferType Error: expecting 1 entry in returned output types, got 3" in message
    assert "BadCountsProp.infer_type" in message


# --- an unregistered op_type lists the registered ones --------------------------------------
def test_unknown_op_type_lists_the_registered_ones():
    with pytest.raises(mx.base.MXNetError) as info:
        mx.sym.Custom(mx.sym.Variable("x"), op_type="tco_scael", name="c")
    message = str(info.value)
    assert "Cannot find custom operator tco_scael" in message  # MXNet's words first
    for registered in ("'tco_scale'", "'tco_exploding'", "'tco_bad_counts'"):
        assert registered in message
    assert "@mx.operator.register('tco_scael')" in message
    assert isinstance(info.value, ValueError)


def test_register_needs_a_custom_op_prop_subclass():
    with pytest.raises(TypeError, match="CustomOpProp"):
        mx.operator.register("tco_not_a_prop")(object)
    assert "tco_not_a_prop" not in mx.operator.registered()


# --- arrays backward did not declare arrive empty (shape ()), and reading them fails ---------
SEEN = {}


class Peek(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0] * 2)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        SEEN["lists"] = {"out_grad": out_grad, "in_data": in_data, "out_data": out_data}
        SEEN["shapes"] = {k: [a.shape for a in v] for k, v in SEEN["lists"].items()}
        if SEEN.get("misuse"):
            self.assign(in_grad[0], req[0], out_grad[0] * 2)
        else:
            self.assign(in_grad[0], req[0], 1)


@mx.operator.register("tco_peek")
class PeekProp(mx.operator.CustomOpProp):
    def __init__(self, need_top_grad="True", deps="default"):
        super().__init__(need_top_grad=need_top_grad == "True")
        self.deps = deps

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        if self.deps == "in_data":
            return list(in_data)
        return super().declare_backward_dependency(out_grad, in_data, out_data)

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return Peek()


def test_need_top_grad_false_gives_an_empty_out_grad():
    SEEN.clear()
    sym = mx.sym.Custom(mx.sym.Variable("x"), op_type="tco_peek", name="loss", need_top_grad=False)
    ex = bind(sym, x=(2, 3))
    ex.forward(is_train=True)
    ex.backward()  # a loss head: no out_grads needed
    assert SEEN["shapes"] == {"out_grad": [()], "in_data": [(2, 3)], "out_data": [(2, 3)]}
    empty = SEEN["lists"]["out_grad"][0]
    assert (empty.size, empty.ndim, empty.dtype) == (1, 0, None)  # as in MXNet
    with pytest.raises(mx.base.MXNetError) as info:
        empty.asnumpy()
    message = str(info.value)
    assert "out_grad[0] ('output')" in message
    assert "declare_backward_dependency" in message and "need_top_grad=False" in message
    np.testing.assert_array_equal(ex.grad_dict["x"].asnumpy(), np.ones((2, 3)))


def test_using_an_empty_out_grad_fails_instead_of_giving_zeros():
    SEEN.clear()
    SEEN["misuse"] = True
    sym = mx.sym.Custom(mx.sym.Variable("x"), op_type="tco_peek", name="loss", need_top_grad=False)
    ex = bind(sym, x=(2, 3))
    ex.forward(is_train=True)
    with pytest.raises(mx.base.MXNetError, match="empty NDArray") as info:
        ex.backward()
    assert "(raised in backward of Custom 'loss' (op_type='tco_peek'))" in info.value.__notes__


def test_undeclared_in_data_and_out_data_are_empty():
    SEEN.clear()
    sym = mx.sym.Custom(mx.sym.Variable("x"), op_type="tco_peek", name="p", deps="in_data")
    ex = bind(sym, x=(2, 3))
    ex.forward(is_train=True)
    ex.backward(mx.nd.ones((2, 3)))
    assert SEEN["shapes"] == {"out_grad": [()], "in_data": [(2, 3)], "out_data": [()]}
    with pytest.raises(mx.base.MXNetError, match=r"out_data\[0\] \('output'\)"):
        SEEN["lists"]["out_data"][0] + 1


# --- the trace: which argument stands behind each index -------------------------------------
class AffineLike(mx.operator.CustomOp):
    """data * gamma + beta per channel, with two aux states it counts calls in."""

    def forward(self, is_train, req, in_data, out_data, aux):
        x, gamma, beta = (a.asnumpy() for a in in_data)
        self.assign(out_data[0], req[0], mx.nd.array(x * gamma + beta))
        aux[0][:] = aux[0] + 1

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        g, x, gamma = out_grad[0].asnumpy(), in_data[0].asnumpy(), in_data[1].asnumpy()
        self.assign(in_grad[0], req[0], mx.nd.array(g * gamma))
        self.assign(in_grad[1], req[1], mx.nd.array((g * x).sum(axis=0)))
        self.assign(in_grad[2], req[2], mx.nd.array(g.sum(axis=0)))


@mx.operator.register("tco_affine")
class AffineLikeProp(mx.operator.CustomOpProp):
    def list_arguments(self):
        return ["data", "gamma", "beta"]

    def list_auxiliary_states(self):
        return ["moving_mean", "moving_var"]

    def infer_shape(self, in_shape):
        c = [in_shape[0][1]] if in_shape[0] else []
        return [in_shape[0], c, c], [in_shape[0]], [c, c]

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return AffineLike()


class DenseLike(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        x, w, b = (a.asnumpy() for a in in_data)
        self.assign(out_data[0], req[0], mx.nd.array(x @ w.T + b))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        g, x, w = out_grad[0].asnumpy(), in_data[0].asnumpy(), in_data[1].asnumpy()
        self.assign(in_grad[0], req[0], mx.nd.array(g @ w))
        self.assign(in_grad[1], req[1], mx.nd.array(g.T @ x))
        self.assign(in_grad[2], req[2], mx.nd.array(g.sum(axis=0)))


@mx.operator.register("tco_dense")
class DenseLikeProp(mx.operator.CustomOpProp):
    def __init__(self, num_hidden):
        super().__init__()
        self.num_hidden = int(num_hidden)

    def list_arguments(self):
        return ["data", "weight", "bias"]

    def infer_shape(self, in_shape):
        n, k = (in_shape[0] + [None, None])[:2] if in_shape[0] else (None, None)
        if n is None:
            return in_shape, [[]]
        return [in_shape[0], [self.num_hidden, k], [self.num_hidden]], [[n, self.num_hidden]]

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return DenseLike()


def traced(sym, grad_req, **shapes):
    ex = bind(sym, grad_req=grad_req, **shapes)
    trace = ex.enable_trace()
    ex.forward(is_train=True)
    ex.backward(mx.nd.ones(ex.outputs[0].shape))
    return ex, trace


def slots(call):
    """{label: (name, entry, req)} of one traced call."""
    return {s.label: (s.name, s.entry, s.req) for s in call.slots}


def dense_nets():
    x = mx.sym.Variable("x")
    return {
        "custom": mx.sym.Custom(x, op_type="tco_dense", name="fc", num_hidden=4),
        "builtin": mx.sym.FullyConnected(x, num_hidden=4, name="fc"),
    }


@pytest.mark.parametrize("kind", ["custom", "builtin"])
@pytest.mark.parametrize("grad_req", ["write", "add", "null"])
def test_trace_slot_by_slot_dense(kind, grad_req):
    _, trace = traced(dense_nets()[kind], grad_req, x=(2, 3))
    op = "Custom" if kind == "custom" else "FullyConnected"
    forward = trace.find("fc", "forward")
    assert len(forward) == 1 and forward[0].op == op and forward[0].is_train is True
    assert slots(forward[0]) == {
        "in_data[0]": ("data", "x", None),
        "in_data[1]": ("weight", "fc_weight", None),
        "in_data[2]": ("bias", "fc_bias", None),
        "out_data[0]": ("output", "fc_output", "write"),
    }
    backward = trace.find("fc", "backward")
    if grad_req == "null":
        assert backward == []  # nothing needs a gradient: backward is not called
        return
    assert len(backward) == 1
    assert slots(backward[0]) == {
        "in_data[0]": ("data", "x", None),
        "in_data[1]": ("weight", "fc_weight", None),
        "in_data[2]": ("bias", "fc_bias", None),
        "out_data[0]": ("output", "fc_output", None),
        "in_grad[0]": ("data", "grad of x", grad_req),
        "in_grad[1]": ("weight", "grad of fc_weight", grad_req),
        "in_grad[2]": ("bias", "grad of fc_bias", grad_req),
        "out_grad[0]": ("output", "grad of fc_output", None),
    }
    shapes = {s.label: s.shape for s in backward[0].slots}
    assert shapes["in_grad[1]"] == (4, 3) and shapes["out_grad[0]"] == (2, 4)


def test_trace_custom_and_builtin_dense_agree_with_a_mixed_grad_req():
    grad_req = {"x": "null", "fc_weight": "add", "fc_bias": "write"}
    tables = {}
    grads = {}
    for kind, sym in dense_nets().items():
        ex, trace = traced(sym, grad_req, x=(2, 3))
        (backward,) = trace.find("fc", "backward")
        tables[kind] = slots(backward)
        grads[kind] = {k: v.asnumpy() for k, v in ex.grad_dict.items() if v is not None}
    assert tables["custom"] == tables["builtin"]
    assert [tables["custom"][f"in_grad[{i}]"][2] for i in range(3)] == ["null", "add", "write"]
    for name in grads["builtin"]:
        np.testing.assert_allclose(grads["custom"][name], grads["builtin"][name], rtol=1e-5)


def affine_nets():
    x = mx.sym.Variable("x")
    return {
        "custom": mx.sym.Custom(x, op_type="tco_affine", name="bn"),
        "builtin": mx.sym.BatchNorm(x, name="bn"),
    }


@pytest.mark.parametrize("kind", ["custom", "builtin"])
@pytest.mark.parametrize("grad_req", ["write", "add", "null"])
def test_trace_slot_by_slot_with_aux(kind, grad_req):
    _, trace = traced(affine_nets()[kind], grad_req, x=(4, 3))
    (forward,) = trace.find("bn", "forward")
    table = slots(forward)
    common = {
        "in_data[0]": ("data", "x", None),
        "in_data[1]": ("gamma", "bn_gamma", None),
        "in_data[2]": ("beta", "bn_beta", None),
        "out_data[0]": ("output", "bn_output", "write"),
        "aux[0]": ("moving_mean", "bn_moving_mean", None),
        "aux[1]": ("moving_var", "bn_moving_var", None),
    }
    assert {k: table[k] for k in common} == common
    # BatchNorm also has its hidden outputs mean and var; the custom op declares only output
    extra = sorted(set(table) - set(common))
    assert extra == ([] if kind == "custom" else ["out_data[1]", "out_data[2]"])
    backward = trace.find("bn", "backward")
    if grad_req == "null":
        assert backward == []
        return
    table = slots(backward[0])
    for i, (name, entry) in enumerate([("data", "x"), ("gamma", "bn_gamma"), ("beta", "bn_beta")]):
        assert table[f"in_grad[{i}]"] == (name, f"grad of {entry}", grad_req)
        assert table[f"in_data[{i}]"] == (name, entry, None)
    assert table["aux[0]"] == ("moving_mean", "bn_moving_mean", None)
    assert table["aux[1]"] == ("moving_var", "bn_moving_var", None)
    assert table["out_grad[0]"] == ("output", "grad of bn_output", None)
    assert not any(label.startswith("aux_grad") for label in table)  # aux get no gradient


def test_trace_req_of_an_input_that_is_another_operators_output():
    x = mx.sym.Variable("x")
    hidden = mx.sym.Activation(x, act_type="tanh", name="act")
    sym = mx.sym.Custom(hidden, op_type="tco_dense", name="fc", num_hidden=2)
    _, trace = traced(sym, {"x": "add", "fc_weight": "null", "fc_bias": "write"}, x=(2, 3))
    (backward,) = trace.find("fc", "backward")
    table = slots(backward)
    # an intermediate array is written into a fresh buffer, whatever the arguments' grad_req
    assert table["in_data[0]"] == ("data", "act_output", None)
    assert table["in_grad[0]"] == ("data", "grad of act_output", "write")
    assert table["in_grad[1]"] == ("weight", "grad of fc_weight", "null")
    assert table["in_grad[2]"] == ("bias", "grad of fc_bias", "write")


def test_req_seen_inside_the_operator_matches_the_trace():
    seen = []

    class Recording(DenseLike):
        def forward(self, is_train, req, in_data, out_data, aux):
            seen.append(("forward", list(req)))
            super().forward(is_train, req, in_data, out_data, aux)

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            seen.append(("backward", list(req)))
            super().backward(req, out_grad, in_data, out_data, in_grad, aux)

    @mx.operator.register("tco_dense_recording")
    class RecordingProp(DenseLikeProp):
        def create_operator(self, ctx, in_shapes, in_dtypes):
            return Recording()

    sym = mx.sym.Custom(
        mx.sym.Variable("x"), op_type="tco_dense_recording", name="fc", num_hidden=2
    )
    _, trace = traced(sym, ["add", "write", "null"], x=(2, 3))
    assert seen == [("forward", ["write"]), ("backward", ["add", "write", "null"])]
    (backward,) = trace.find("fc", "backward")
    assert [backward.slot(f"in_grad[{i}]").req for i in range(3)] == ["add", "write", "null"]


# --- mx.nd.Custom: the imperative form -----------------------------------------------------
def test_nd_custom_runs_a_custom_operator_on_ndarrays():
    x = mx.nd.array(np.arange(6, dtype=np.float32).reshape(2, 3))
    y = mx.nd.Custom(x, op_type="tco_scale", scale=3)
    assert isinstance(y, mx.nd.NDArray)
    np.testing.assert_array_equal(y.asnumpy(), x.asnumpy() * 3)
    np.testing.assert_array_equal(x.asnumpy(), np.arange(6).reshape(2, 3))  # input untouched


def test_nd_custom_with_several_inputs_outputs_and_aux():
    x = mx.nd.array(np.arange(12, dtype=np.float32).reshape(4, 3))
    gamma, beta = mx.nd.ones((3,)) * 2, mx.nd.ones((3,))
    mean, var = mx.nd.zeros((3,)), mx.nd.zeros((3,))
    out = mx.nd.Custom(x, gamma, beta, mean, var, op_type="tco_affine")
    np.testing.assert_array_equal(out.asnumpy(), x.asnumpy() * 2 + 1)
    np.testing.assert_array_equal(mean.asnumpy(), np.ones(3))  # the aux array is updated in place
    mx.nd.Custom(x, gamma, beta, mean, var, op_type="tco_affine")
    np.testing.assert_array_equal(mean.asnumpy(), np.full(3, 2.0))


def test_nd_custom_errors_are_the_symbolic_ones():
    with pytest.raises(mx.base.MXNetError, match="Cannot find custom operator tco_nope"):
        mx.nd.Custom(mx.nd.ones((2,)), op_type="tco_nope")
    del RAISED[:]
    with pytest.raises(Boom):
        mx.nd.Custom(mx.nd.ones((2,)), op_type="tco_exploding")
    assert RAISED  # forward ran and its exception came through


def test_nd_custom_out_list_receives_every_output():
    x = mx.nd.array(np.arange(12, dtype=np.float32).reshape(4, 3))
    gamma, beta = mx.nd.ones((3,)), mx.nd.ones((3,))
    targets = [mx.nd.zeros((4, 3))]
    mx.nd.Custom(
        x, gamma, beta, mx.nd.zeros((3,)), mx.nd.zeros((3,)), op_type="tco_affine", out=targets
    )
    assert isinstance(targets[0], mx.nd.NDArray)
    np.testing.assert_array_equal(targets[0].asnumpy(), x.asnumpy() + 1)


class _InPlaceProbe(mx.operator.CustomOp):
    """Tries both kinds of write on its input, as MXNet users sometimes do by mistake."""

    seen = []

    def forward(self, is_train, req, in_data, out_data, aux):
        try:
            in_data[0] += 1
        except ValueError as exc:
            self.seen.append(str(exc))
        in_data[0][:] = 5  # not blocked, as in MXNet, but it goes into a private copy
        self.assign(out_data[0], req[0], in_data[0])


@mx.operator.register("tco_inplace_probe")
class _InPlaceProbeProp(mx.operator.CustomOpProp):
    def create_operator(self, ctx, shapes, dtypes):
        return _InPlaceProbe()


def test_inputs_are_read_only_for_in_place_arithmetic_only():
    _InPlaceProbe.seen.clear()
    x = mx.sym.Variable("x")
    ex = mx.sym.Custom(x, op_type="tco_inplace_probe").simple_bind(mx.cpu(), x=(2,))
    with pytest.warns(mx.operator.CustomOpWarning, match=r"wrote into in_data\[0\] \('data'\)"):
        ex.forward(x=np.array([1.0, 2.0]))
    (message,) = _InPlaceProbe.seen
    assert "readonly" in message and "self.assign" in message
    # MXNet would change the bound argument; minisym keeps it (README: Differences)
    assert ex.arg_dict["x"].asnumpy().tolist() == [1.0, 2.0]
    assert ex.outputs[0].asnumpy().tolist() == [5.0, 5.0]


class _OffByOne(mx.operator.CustomOp):
    """The seed-001 confusion: reads in_data[2] when the Prop declares two arguments."""

    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[2])


@mx.operator.register("tco_off_by_one")
class _OffByOneProp(mx.operator.CustomOpProp):
    def list_arguments(self):
        return ["data", "label"]

    def create_operator(self, ctx, shapes, dtypes):
        return _OffByOne()


def test_an_index_out_of_range_says_what_each_index_is():
    net = mx.sym.Custom(mx.sym.Variable("x"), mx.sym.Variable("y"), op_type="tco_off_by_one")
    ex = net.simple_bind(mx.cpu(), x=(2,), y=(2,))
    with pytest.raises(IndexError) as caught:
        ex.forward()
    text = str(caught.value)
    assert "in_data[2] does not exist" in text
    assert "in_data[0] is 'data', in_data[1] is 'label'" in text
    assert "list_arguments()" in text


# --- how a CustomOp wrote its arrays ------------------------------------------------------------
class OverwritingOp(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        if self.how == "overwrite":
            out_data[0][:] = in_data[0] * 2
        else:
            self.assign(out_data[0], req[0], in_data[0] * 2)


@mx.operator.register("tco_overwrite")
class OverwritingProp(mx.operator.CustomOpProp):
    def __init__(self, how):
        super().__init__()
        self.how = how

    def create_operator(self, ctx, in_shapes, in_dtypes):
        op = OverwritingOp()
        op.how = self.how
        return op


@pytest.mark.parametrize("how", ["overwrite", "assign"])
def test_an_out_data_whose_req_is_add_warns_only_when_overwritten(how):
    """An executor's forward asks for 'write' or 'null'; a runner given 'add' accumulates."""
    sym = mx.sym.Custom(mx.sym.Variable("x"), op_type="tco_overwrite", name="o", how=how)
    runner = sym.outputs[0][0].op.create_runner(mx.cpu(), [(2, 3)], [np.float32])
    out = np.ones((2, 3), np.float32)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        runner.forward(True, ["add"], [np.ones((2, 3), np.float32)], [out], [])
    messages = [str(w.message) for w in record if w.category is mx.MistakeWarning]
    if how == "assign":
        assert messages == [] and (out == 3).all()
        return
    assert messages == [
        "Custom 'o' (op_type='tco_overwrite'): add into out_data[0] ('output') instead of "
        "overwriting it: write self.assign(out_data[0], req[0], result), which adds when req[0] "
        "is 'add' (or out_data[0][:] += result). out_data[0][:] = ... replaced the values "
        "out_data[0] held, but req[0] is 'add' (the result is added to what the output holds, "
        "which is lost)."
    ]
    assert (out == 2).all()


def test_a_write_that_fails_leaves_the_array_untouched():
    from minisym.ops.custom_checks import SlotName, WatchedNDArray

    array = WatchedNDArray(np.zeros((2, 3)), mx.cpu(), slot=SlotName("in_grad", 0, "d", "op"))
    with pytest.raises(ValueError):
        array[:] = np.ones(7)
    assert (array.exposed, array.written) == (False, False)
    array[:] = 1
    assert (array.exposed, array.written) == (True, True)
