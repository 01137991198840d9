"""Checks for lesson 3, binding and executing."""

import numpy as np

from ._check import N_, _, check_function, problem


def _graphs():
    """(name, symbol, values, expected output, head, expected gradients) test cases."""
    import minisym as mx

    A, B, D = (mx.sym.Variable(n) for n in "ABD")
    x = mx.sym.Variable("x")
    values = {"A": [2.0, -1.0], "B": [3.0, 4.0], "D": [1.0, 0.5]}
    head = np.array([1.0, 2.0])
    yield (
        "A * B + D",
        A * B + D,
        values,
        np.array([7.0, -3.5]),
        head,
        {"A": head * [3.0, 4.0], "B": head * [2.0, -1.0], "D": head},
    )
    xs = {"x": [[1.0, -2.0, 3.0]]}
    yield (
        "relu(x) * 3",
        mx.sym.Activation(x, act_type="relu") * 3,
        xs,
        np.array([[3.0, 0.0, 9.0]]),
        np.ones((1, 3)),
        {"x": np.array([[3.0, 0.0, 3.0]])},
    )


def _numpy(result, fn, what):
    """``result`` as a NumPy array, or the message for what it is instead."""
    import minisym as mx

    if isinstance(result, list):
        return None, problem(
            _(
                "return one NumPy array, {what}.asnumpy(): forward() returns "
                "a list, one NDArray per output."
            ).format(what=what),
            _("{function}() returned a list.").format(function=fn.__name__),
        )
    if isinstance(result, mx.nd.NDArray):
        return None, problem(
            _("return a NumPy array: {what}.asnumpy().").format(what=what),
            _("{function}() returned an NDArray.").format(function=fn.__name__),
        )
    return np.asarray(result), None


@check_function("3.1 (evaluate)", N_("A * B + D and relu(x) * 3 give the right values."))
def evaluate(fn):
    """fn(symbol, **values) -> the first output as a NumPy array."""
    for name, symbol, values, expected, _head, _grads in _graphs():
        got, found = _numpy(fn(symbol, **values), fn, "executor.outputs[0]")
        if found:
            return found
        if got.shape != expected.shape or not np.allclose(got, expected):
            return problem(
                _("bind every argument (args={name: mx.nd.array(value)}), then run forward()."),
                _("For {name} with {values} it returned {got}, expected {expected}.").format(
                    name=name, values=values, got=got.tolist(), expected=expected.tolist()
                ),
            )
    return None


@check_function(
    "3.2 (gradients)",
    N_(
        "the gradients of A * B + D and relu(x) * 3 are right, "
        "for a head gradient that is not all ones."
    ),
)
def gradients(fn):
    """fn(symbol, head, **values) -> {argument: NumPy gradient}."""
    import minisym as mx

    for name, symbol, values, _output, head, expected in _graphs():
        got = fn(symbol, mx.nd.array(head), **values)
        if not isinstance(got, dict) or sorted(got) != sorted(expected):
            keys = sorted(got) if isinstance(got, dict) else ""
            return problem(
                _("return a dict with one NumPy gradient per argument: {names}.").format(
                    names=sorted(expected)
                ),
                _("For {name} it returned {kind} {keys}.").format(
                    name=name, kind=type(got).__name__, keys=keys
                ),
            )
        for arg, want in expected.items():
            grad, found = _numpy(got[arg], fn, f"grads['{arg}']")
            if found:
                return found
            if np.allclose(grad, want / head) and not np.allclose(head, 1):
                return problem(
                    _("pass the head gradient: backward(out_grads=head)."),
                    _(
                        "For {name} with head {head}, d/d{arg} is {grad}, the gradient "
                        "for a head gradient of ones."
                    ).format(name=name, head=head.tolist(), arg=arg, grad=grad.tolist()),
                )
            if grad.shape != want.shape or not np.allclose(grad, want):
                return problem(
                    _(
                        "give bind args_grad (one zeros array per argument), run "
                        "forward(is_train=True), then backward(out_grads=head)."
                    ),
                    _("For {name} with head {head}, d/d{arg} is {grad}, expected {want}.").format(
                        name=name,
                        head=head.tolist(),
                        arg=arg,
                        grad=grad.tolist(),
                        want=want.tolist(),
                    ),
                )
    return None
