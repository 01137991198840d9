"""Checks for lesson 4, custom operators: the learner writes one ``backward`` at a time, and
the check puts it into a CustomOp and compares it with what it must compute."""

import warnings

import numpy as np

from ._check import N_, _, check_function, engine_warned, problem, unfinished
from ._req import REQ_VERIFIED, backward_req_problem, req_explains


def _custom(op_type, forward, backward, need_top_grad, arguments):
    """Register a custom operator made of ``forward`` and the learner's ``backward``."""
    import minisym as mx

    op_class = type(
        f"{op_type}_op",
        (mx.operator.CustomOp,),
        {"forward": forward, "backward": unfinished(backward)},
    )

    class Prop(mx.operator.CustomOpProp):
        def __init__(self):
            super().__init__(need_top_grad=need_top_grad)

        def list_arguments(self):
            return list(arguments)

        def infer_shape(self, in_shape):
            data = in_shape[0]
            return [data] + [(data[0],)] * (len(arguments) - 1), [data], []

        def create_operator(self, ctx, shapes, dtypes):
            return op_class()

    mx.operator.register(op_type)(Prop)
    inputs = {name: mx.sym.Variable(name) for name in arguments}
    return mx.sym.Custom(op_type=op_type, name=op_type, **inputs)


def _square_forward(self, is_train, req, in_data, out_data, aux):
    import minisym as mx

    x = in_data[0].asnumpy()
    self.assign(out_data[0], req[0], mx.nd.array(3 * x * x))


def _softmax_forward(self, is_train, req, in_data, out_data, aux):
    import minisym as mx

    x = in_data[0].asnumpy()
    e = np.exp(x - x.max(axis=1, keepdims=True))
    self.assign(out_data[0], req[0], mx.nd.array(e / e.sum(axis=1, keepdims=True)))


def _summary(error):
    """The check's message without its table of worst elements: what differs, and the hints."""
    lines = str(error).splitlines()
    table = [i for i, line in enumerate(lines) if line.strip().startswith("worst ")]
    if not table:
        return "\n".join(lines)
    rows = table[0] + 1
    while rows < len(lines) and (lines[rows].strip().startswith(("index", "(", "..."))):
        rows += 1
    return "\n".join(lines[: table[0]] + lines[rows:])


def _ignores_head(sym, fn, x):
    """Whether backward wrote 6x whatever out_grad was (it did not use the head gradient)."""
    import minisym as mx

    executor = sym.simple_bind(mx.cpu(), data=x.shape)
    executor.arg_dict["data"][:] = x
    executor.forward(is_train=True)
    executor.backward(out_grads=mx.nd.array(np.full(x.shape, 2.0)))
    return np.allclose(executor.grad_dict["data"].asnumpy(), 6 * x, rtol=1e-3)


def _warned(caught):
    """The messages of the engine's custom-operator warnings caught while the check ran."""
    import minisym as mx

    return [
        str(w.message)
        for w in caught
        if issubclass(w.category, (mx.operator.CustomOpWarning, mx.MistakeWarning))
    ]


@check_function(
    "4.1 (square_backward)",
    N_(
        "check_numeric_gradient agrees (in_grad[0] = "
        "out_grad[0] · 6x, the gradient from above times dy/dx), and in_grad[0] is right "
        "{req_verified}."
    ),
    req_verified=REQ_VERIFIED,
)
def square_backward(fn):
    """fn is the backward of y = 3x²: it must write out_grad[0] * 6x into in_grad[0]."""
    import minisym as mx

    sym = _custom("lesson4_square", _square_forward, fn, True, ["data"])
    x = np.random.RandomState(4).uniform(-2, 2, (3, 4))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            mx.test_utils.check_numeric_gradient(sym, [x], numeric_eps=1e-3, rtol=1e-2, atol=1e-3)
        except AssertionError as error:
            said = _warned(caught)
            if said:
                return engine_warned(said[0], _summary(error))
            if _ignores_head(sym, fn, x):
                return problem(
                    _(
                        "multiply by the gradient arriving from above (the chain "
                        "rule): in_grad[0] = out_grad[0] · 6x."
                    ),
                    _summary(error),
                    _("Your backward writes dy/dx = 6x whatever out_grad[0] holds."),
                )
            explained = req_explains(
                fn, mx.operator.CustomOp(), _square_inputs(x), {0: _square_gradient(x)}, _square_fix
            )
            if explained:
                return explained
            flipped = "the sign is flipped" in str(error)
            return problem(
                _("flip the sign of what backward assigns to in_grad[0]: it is out_grad[0] · 6x.")
                if flipped
                else _("change what backward assigns to in_grad[0]: it is out_grad[0] · 6x."),
                _summary(error),
            )
    said = _warned(caught)
    if said:
        return engine_warned(said[0])
    return backward_req_problem(
        fn, mx.operator.CustomOp(), _square_inputs(x), {0: _square_gradient(x)}, _square_fix
    )


def _square_head(x):
    return np.random.RandomState(41).uniform(-1, 1, x.shape)


def _square_inputs(x):
    """What backward receives in a run of the check's own (the head gradient not all ones)."""
    return {
        "names": ["data"],
        "out_grad": [_square_head(x)],
        "in_data": [x],
        "out_data": [3 * x * x],
        "aux": [],
    }


def _square_gradient(x):
    return _square_head(x) * 6 * x


def _square_fix(i):
    return "self.assign(in_grad[0], req[0], grad)"


@check_function(
    "4.2 (softmax_backward)",
    N_("in_grad[0] = softmax(data) − onehot(label) and in_grad[1] = 0, each {req_verified}."),
    req_verified=REQ_VERIFIED,
)
def softmax_backward(fn):
    """fn is the softmax loss's backward: probs - onehot into in_grad[0], 0 into in_grad[1]."""
    import minisym as mx

    sym = _custom("lesson4_softmax", _softmax_forward, fn, False, ["data", "label"])
    rng = np.random.RandomState(4)
    x, y = rng.randn(5, 6), np.array([0, 5, 2, 2, 1])
    p = np.exp(x) / np.exp(x).sum(axis=1, keepdims=True)
    expected = p.copy()
    expected[np.arange(5), y] -= 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            mx.test_utils.check_symbolic_backward(
                sym, {"data": x, "label": y}, None, {"data": expected, "label": np.zeros(5)}
            )
        except AssertionError as error:
            said = _warned(caught)
            if said:
                return engine_warned(said[0], _summary(error))
            return problem(_softmax_change(error), _summary(error))
    said = _warned(caught)
    if said:
        return engine_warned(said[0])
    inputs = {
        "names": ["data", "label"],
        "out_grad": [np.ones_like(p)],
        "in_data": [x, y],
        "out_data": [p],
        "aux": [],
    }
    return backward_req_problem(
        fn, mx.operator.CustomOp(), inputs, {0: expected, 1: 0.0}, _softmax_fix
    )


def _softmax_fix(i):
    return (
        "self.assign(in_grad[0], req[0], grad)" if i == 0 else "self.assign(in_grad[1], req[1], 0)"
    )


def _softmax_change(error):
    """What to change, from what the wrong gradient looks like."""
    if "'label'" in str(error).splitlines()[0]:
        return _("give the label a zero gradient: self.assign(in_grad[1], req[1], 0).")
    return _(
        "compute the gradient of the scores from the probabilities forward wrote "
        "(out_data[0], not in_data[0], the scores), minus 1 at each example's label "
        "(in_data[1])."
    )
