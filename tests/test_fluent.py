"""Fluent methods (minisym/fluent.py), Symbol.eval, and the module-level arithmetic of mx.nd
(minisym/ndarray/arithmetic.py), as MXNet 1.9.1 has them."""

import inspect
import operator

import numpy as np
import pytest

import minisym as mx
from minisym.base import MXNetError
from minisym.fluent import FLUENT_NAMES
from minisym.ops.operator_base import functions

x = mx.sym.Variable("x")


# --- which methods exist --------------------------------------------------------------------------
@pytest.mark.parametrize("cls", [mx.sym.Symbol, mx.nd.NDArray])
def test_a_fluent_name_is_a_method_exactly_when_its_operator_is_registered(cls):
    registered = set(functions())
    for name in FLUENT_NAMES:
        operator_name = "cast" if name == "astype" else name
        own = name in ("reshape", "astype", "flatten", "expand_dims") and cls is mx.nd.NDArray
        assert hasattr(cls, name) == (operator_name in registered or own), name
    assert not hasattr(x, "sort")  # MXNet has it; minisym has no sort operator: no stub either
    with pytest.raises(AttributeError):
        mx.nd.ones(2).topk()


# --- Symbol ---------------------------------------------------------------------------------------
def test_symbol_methods_build_the_node_the_function_builds():
    with mx.name.NameManager():
        by_method = [x.sum(axis=1), x.softmax(), x.reshape((0, -1)), x.argmax(1), abs(x)]
    with mx.name.NameManager():
        by_function = [
            mx.sym.sum(x, axis=1),
            mx.sym.softmax(x),
            mx.sym.reshape(x, (0, -1)),
            mx.sym.argmax(x, 1),
            mx.sym.abs(x),
        ]
    for method, function in zip(by_method, by_function):
        assert method.tojson() == function.tojson()
    assert [s.name for s in by_method] == ["sum0", "softmax0", "reshape0", "argmax0", "abs0"]
    assert x.sum(axis=1, name="total").name == "total"
    assert x.flatten(inplace=True).list_arguments() == ["x"]  # MXNet ignores inplace here


def test_symbol_methods_infer_and_run():
    net = x.reshape((0, -1)).softmax().max(axis=1)
    assert net.infer_shape(x=(2, 3, 2))[1] == [(2,)]
    data = np.arange(12.0).reshape(2, 3, 2)
    (out,) = net.eval(x=mx.nd.array(data))
    flat = data.reshape(2, 6)
    soft = np.exp(flat - flat.max(1, keepdims=True))
    np.testing.assert_allclose(out.asnumpy(), (soft / soft.sum(1, keepdims=True)).max(1), rtol=1e-6)


def test_methods_have_the_functions_signature_and_say_what_they_call():
    assert str(inspect.signature(mx.sym.Symbol.sum)) == (
        "(self, axis=_Null, keepdims=_Null, exclude=_Null, name=None, attr=None, out=None, "
        "**kwargs)"
    )
    assert "x.sum(...) is mx.nd.sum(x, ...)" in mx.nd.NDArray.sum.__doc__
    assert "x.argmax(...) is mx.sym.argmax(x, ...)" in mx.sym.Symbol.argmax.__doc__


# --- Symbol.eval ----------------------------------------------------------------------------------
def test_eval_binds_runs_forward_and_returns_a_list():
    y = mx.sym.Variable("y")
    outs = (x + y).eval(ctx=mx.cpu(), x=mx.nd.ones((2, 3)), y=mx.nd.ones((2, 3)) * 2)
    assert isinstance(outs, list) and len(outs) == 1
    assert outs[0].asnumpy().tolist() == [[3.0] * 3] * 2
    both = mx.sym.Group([x * 2, x + y]).eval(x=mx.nd.ones(2), y=mx.nd.ones(2))
    assert [o.asnumpy().tolist() for o in both] == [[2.0, 2.0], [2.0, 2.0]]
    (dropped,) = mx.sym.Dropout(x, p=0.5).eval(x=mx.nd.ones((2, 3)))  # is_train=False
    assert dropped.asnumpy().tolist() == [[1.0] * 3] * 2


def test_eval_errors_are_binds():
    y = mx.sym.Variable("y")
    with pytest.raises(ValueError, match="key `y` is missing in `args`"):
        (x + y).eval(x=mx.nd.ones(2))
    with pytest.raises(TypeError, match=r"mx\.nd\.array"):
        (x * 2).eval(x=np.ones(2))


# --- NDArray --------------------------------------------------------------------------------------
def test_ndarray_methods_compute_what_the_functions_compute():
    a = mx.nd.array([[1.0, 5, 3], [4, 2, 6]])
    assert a.sum().asnumpy().tolist() == [21.0]  # MXNet has no 0-d arrays: (1,)
    assert a.sum(1).asnumpy().tolist() == [9.0, 12.0]
    assert a.argmax(axis=1).asnumpy().tolist() == [1.0, 2.0]
    assert a.argmax().asnumpy().tolist() == [5.0]
    assert a.argmin(axis=0, keepdims=True).asnumpy().tolist() == [[0.0, 1.0, 0.0]]
    assert a.transpose().shape == (3, 2) and a.transpose((1, 0)).shape == (3, 2)
    assert a.max().asnumpy().tolist() == [6.0] and a.min(axis=0).asnumpy().tolist() == [1, 2, 3]
    assert a.mean(axis=1).asnumpy().tolist() == [3.0, 4.0]
    assert (-a).abs().asnumpy().tolist() == a.asnumpy().tolist()
    np.testing.assert_allclose(a.softmax(axis=0).asnumpy(), mx.nd.softmax(a, axis=0).asnumpy())
    assert [p.shape for p in a.split(3, axis=1)] == [(2, 1)] * 3
    assert a.slice_axis(1, 0, 2).asnumpy().tolist() == [[1.0, 5.0], [4.0, 2.0]]


def test_flatten_and_expand_dims_copy_unless_inplace_as_in_mxnet():
    for make, shares in [
        (lambda t: t.flatten(), False),
        (lambda t: t.flatten(inplace=True), True),
        (lambda t: t.expand_dims(0), False),
        (lambda t: t.expand_dims(0, inplace=True), True),
        (lambda t: t.reshape((3, 2)), True),
    ]:
        t = mx.nd.array([[1.0, 5, 3], [4, 2, 6]])
        made = make(t)
        made[:] = 7
        assert (t.asnumpy() == 7).all() == shares
    assert mx.nd.ones((2, 3, 4)).flatten().shape == (2, 12)


# --- mx.nd.add, subtract, ... ---------------------------------------------------------------------
PYTHON = {
    "add": operator.add,
    "subtract": operator.sub,
    "multiply": operator.mul,
    "divide": operator.truediv,
    "modulo": operator.mod,
    "power": operator.pow,
    "maximum": max,
    "minimum": min,
    "equal": operator.eq,
    "not_equal": operator.ne,
    "greater": operator.gt,
    "greater_equal": operator.ge,
    "lesser": operator.lt,
    "lesser_equal": operator.le,
    "logical_and": lambda p, q: bool(p) and bool(q),
    "logical_or": lambda p, q: bool(p) or bool(q),
    "logical_xor": lambda p, q: bool(p) != bool(q),
}


@pytest.mark.parametrize("name", sorted(PYTHON))
def test_arithmetic_broadcasts_two_arrays_and_takes_numbers_on_either_side(name):
    f, py = getattr(mx.nd, name), PYTHON[name]
    a = np.array([[1.0, 2, 3], [4, 5, 6]], np.float32)
    c = np.array([3.0, 2, 1], np.float32)
    both = f(mx.nd.array(a), mx.nd.array(c))
    expected = [[float(py(p, q)) for p, q in zip(row, c)] for row in a]  # Python's own maths
    np.testing.assert_allclose(both.asnumpy(), expected, rtol=1e-6)
    assert both.dtype == np.float32
    left = f(mx.nd.array(a), 2).asnumpy()
    right = f(2, mx.nd.array(a)).asnumpy()
    np.testing.assert_allclose(left, [[float(py(p, 2)) for p in row] for row in a], rtol=1e-6)
    np.testing.assert_allclose(right, [[float(py(2, p)) for p in row] for row in a], rtol=1e-6)
    number = f(2, 3)
    assert not isinstance(number, mx.nd.NDArray) and number == py(2, 3)


def test_two_numbers_give_mxnets_python_results():
    assert mx.nd.add(2, 3) == 5 and type(mx.nd.add(2, 3)) is int
    assert mx.nd.divide(2, 3) == 2 / 3
    assert mx.nd.maximum(2.5, 3) == 3 and type(mx.nd.maximum(2.5, 3)) is int
    assert mx.nd.equal(2, 2) == 1 and type(mx.nd.equal(2, 2)) is int
    assert mx.nd.true_divide is mx.nd.divide


def test_a_number_is_cast_to_the_arrays_dtype():
    i = mx.nd.array([[1, 2, 3], [4, 5, 6]], dtype="int32")
    assert mx.nd.multiply(i, 2.5).asnumpy().tolist() == [[2, 4, 6], [8, 10, 12]]  # times 2
    assert mx.nd.divide(i, 2.5).asnumpy().tolist() == [[0, 1, 1], [2, 2, 3]]
    assert mx.nd.greater(2.5, i).asnumpy().tolist() == [[1, 0, 0], [0, 0, 0]]  # i < 2
    assert mx.nd.add(i, 2.5).dtype == np.int32


def test_arithmetic_mistakes_keep_mxnets_exception_types():
    a = mx.nd.ones((2, 3))
    with pytest.raises(
        TypeError,
        match=r"type <class 'numpy.ndarray'> not supported: "
        r"mx.nd.add: the right operand is ndarray \(2, 3\).*"
        r"mx.nd.array",
    ):
        mx.nd.add(a, np.ones((2, 3)))
    with pytest.raises(AssertionError, match=r"mx.nd.subtract: the left operand is ndarray"):
        mx.nd.subtract(np.ones((2, 3)), a)
    with pytest.raises(AssertionError, match=r"the right operand is ndarray"):
        mx.nd.add(2, np.ones(2))
    with pytest.raises(TypeError, match=r"the right operand is str '2'.*float\('2'\)"):
        mx.nd.multiply(a, "2")
    assert mx.nd.multiply(a, float("2")).asnumpy().tolist() == [[2.0] * 3] * 2
    with pytest.raises(MXNetError, match="cannot be broadcast"):
        mx.nd.add(a, mx.nd.ones((3, 2)))
    with pytest.raises(MXNetError):
        mx.nd.add(a, mx.nd.ones((2, 3), dtype="float64"))
