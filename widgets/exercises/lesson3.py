"""Checks for lesson 3, binding and executing."""
import numpy as np

from ._check import check_function


def _graphs():
    """(name, symbol, values, expected output, head, expected gradients) test cases."""
    import minisym as mx
    A, B, D = (mx.sym.Variable(n) for n in "ABD")
    x = mx.sym.Variable('x')
    values = {'A': [2.0, -1.0], 'B': [3.0, 4.0], 'D': [1.0, 0.5]}
    head = np.array([1.0, 2.0])
    yield ("A * B + D", A * B + D, values, np.array([7.0, -3.5]), head,
           {'A': head * [3.0, 4.0], 'B': head * [2.0, -1.0], 'D': head})
    xs = {'x': [[1.0, -2.0, 3.0]]}
    yield ("relu(x) * 3", mx.sym.Activation(x, act_type='relu') * 3, xs,
           np.array([[3.0, 0.0, 9.0]]), np.ones((1, 3)), {'x': np.array([[3.0, 0.0, 3.0]])})


def _numpy(result, fn, what):
    """``result`` as a NumPy array, or the message for what it is instead."""
    import minisym as mx
    if isinstance(result, list):
        return None, (f"{fn.__name__}() returned a list: forward() returns one NDArray per "
                      f"output; return {what}[0].asnumpy().")
    if isinstance(result, mx.nd.NDArray):
        return None, (f"{fn.__name__}() returned an NDArray; return a NumPy array: "
                      f"{what}.asnumpy().")
    return np.asarray(result), None


@check_function("3.1 (evaluate)", "A * B + D and relu(x) * 3 give the right values.")
def evaluate(fn):
    """fn(symbol, **values) -> the first output as a NumPy array."""
    for name, symbol, values, expected, _, _ in _graphs():
        got, problem = _numpy(fn(symbol, **values), fn, "executor.outputs")
        if problem:
            return problem
        if got.shape != expected.shape or not np.allclose(got, expected):
            return (f"for {name} with {values} it returned {got.tolist()}, expected "
                    f"{expected.tolist()}: bind every argument (args={{name: "
                    "mx.nd.array(value)}}), then forward().")
    return None


@check_function("3.2 (gradients)", "the gradients of A * B + D and relu(x) * 3 are right, "
                "for a head gradient that is not all ones.")
def gradients(fn):
    """fn(symbol, head, **values) -> {argument: NumPy gradient}."""
    import minisym as mx
    for name, symbol, values, _, head, expected in _graphs():
        got = fn(symbol, mx.nd.array(head), **values)
        if not isinstance(got, dict) or sorted(got) != sorted(expected):
            return (f"for {name} it returned {type(got).__name__} "
                    f"{sorted(got) if isinstance(got, dict) else ''}; return a dict with one "
                    f"NumPy gradient per argument: {sorted(expected)}.")
        for arg, want in expected.items():
            grad, problem = _numpy(got[arg], fn, f"grads['{arg}']")
            if problem:
                return problem
            if np.allclose(grad, want / head) and not np.allclose(head, 1):
                return (f"for {name}, d/d{arg} is {grad.tolist()}, the gradient for a head "
                        f"gradient of ones; pass the head: backward(out_grads=head).")
            if grad.shape != want.shape or not np.allclose(grad, want):
                return (f"for {name} with head {head.tolist()}, d/d{arg} is {grad.tolist()}, "
                        f"expected {want.tolist()}: give bind args_grad (one zeros array per "
                        "argument), run forward(is_train=True), then backward(out_grads=head).")
    return None
