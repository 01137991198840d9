"""The rest of ``mx.test_utils``: the default context, environment variables for a block, random
dense arrays and shapes (from numpy's global generator, as in MXNet), comparing two optimizers."""

import os
from contextlib import contextmanager

import numpy as np

from .. import ndarray as nd
from ..base import MXNetValueError
from ..context import Context, current_context
from .compare import Mismatch, default_dtype, get_tols

__all__ = [
    "default_context",
    "set_default_context",
    "environment",
    "random_arrays",
    "rand_ndarray",
    "rand_shape_2d",
    "rand_shape_3d",
    "rand_shape_nd",
    "compare_optimizer",
]


def default_context():
    """The context the checks run on: ``mx.current_context()`` (cpu(0) unless changed)."""
    return current_context()


def set_default_context(ctx):
    """Make ``ctx`` the default context (also what ``mx.current_context()`` returns)."""
    Context._default.value = ctx


@contextmanager
def environment(*args):
    """``with environment('NAME', 'value'):`` or ``environment({'A': '1', 'B': None})``: set
    (None: unset) environment variables for the block; the old values come back afterwards."""
    if len(args) == 1 and isinstance(args[0], dict):
        wanted = args[0]
    elif len(args) == 2:
        wanted = {args[0]: args[1]}
    else:
        raise AssertionError(
            "environment takes one dict {name: value} or two arguments: a "
            f"name and a value; got {len(args)} argument(s)"
        )
    saved = {name: os.environ.get(name) for name in wanted}
    _set_environ(wanted)
    try:
        yield
    finally:
        _set_environ(saved)


def _set_environ(values):
    for name, value in values.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def random_arrays(*shapes):
    """Standard-normal float32 numpy arrays of ``shapes`` (one array when one shape is given)."""
    arrays = [
        np.array(np.random.randn(), dtype=default_dtype())
        if len(s) == 0
        else np.random.randn(*s).astype(default_dtype())
        for s in shapes
    ]
    return arrays[0] if len(arrays) == 1 else arrays


def rand_ndarray(
    shape,
    stype="default",
    density=None,
    dtype=None,
    modifier_func=None,
    shuffle_csr_indices=False,
    distribution=None,
    ctx=None,
):
    """A dense NDArray of ``shape`` with standard-normal values (float32 unless ``dtype``)."""
    if stype != "default":
        raise MXNetValueError(
            f"rand_ndarray: minisym has dense arrays only, so stype={stype!r} "
            "is not available; use stype='default'"
        )
    return nd.array(random_arrays(shape), ctx=ctx or default_context(), dtype=dtype)


def _low(allow_zero_size):
    return 0 if allow_zero_size else 1


def rand_shape_2d(dim0=10, dim1=10, allow_zero_size=False):
    """A random 2-d shape, each size in 1..dim (0..dim with allow_zero_size)."""
    low = _low(allow_zero_size)
    return np.random.randint(low, dim0 + 1), np.random.randint(low, dim1 + 1)


def rand_shape_3d(dim0=10, dim1=10, dim2=10, allow_zero_size=False):
    """A random 3-d shape, each size in 1..dim (0..dim with allow_zero_size)."""
    low = _low(allow_zero_size)
    return (
        np.random.randint(low, dim0 + 1),
        np.random.randint(low, dim1 + 1),
        np.random.randint(low, dim2 + 1),
    )


def rand_shape_nd(num_dim, dim=10, allow_zero_size=False):
    """A random shape of ``num_dim`` sizes, each in 1..dim (0..dim with allow_zero_size)."""
    return tuple(np.random.randint(_low(allow_zero_size), dim + 1, size=num_dim))


def _compare_states(s1, s2, rtol, atol, template, index=""):
    """Compare two optimizer states (None, an NDArray, or nested tuples of them); ``template``
    says which, with ``{state}`` standing for ``state`` or ``state[1]``."""
    if s1 is None or s2 is None:
        return
    if isinstance(s1, tuple):
        for i, (a, b) in enumerate(zip(s1, s2)):
            _compare_states(a, b, rtol, atol, template, f"{index}[{i}]")
        return
    _assert_close(s1, s2, rtol, atol, template.format(state=f"state{index}"))


def _assert_close(x1, x2, rtol, atol, what):
    rtol, atol = get_tols(x1, x2, rtol, atol)
    mismatch = Mismatch.find(x1.asnumpy(), x2.asnumpy(), rtol, atol, names=("opt1", "opt2"))
    if mismatch is not None:
        raise AssertionError(mismatch.report(f"compare_optimizer: {what} differ"))


def _uniform_pair(shape, dtype):
    w = nd.random.uniform(shape=shape, ctx=default_context(), dtype=dtype)
    return w.copy(), w


def compare_optimizer(
    opt1,
    opt2,
    shape,
    dtype,
    w_stype="default",
    g_stype="default",
    rtol=1e-4,
    atol=1e-5,
    compare_states=True,
    ntensors=1,
):
    """One update of the same random weight and gradient by both optimizers: their states and
    weights must agree. ``shape`` a list of shapes: opt2 updates them all at once."""
    if w_stype != "default" or g_stype != "default":
        raise MXNetValueError(
            "compare_optimizer: minisym has dense arrays only; use "
            "w_stype='default' and g_stype='default'"
        )
    names = f"{type(opt1).__name__} (opt1) and {type(opt2).__name__} (opt2)"
    if not isinstance(shape, list):
        assert ntensors == 1, "compare_optimizer: ntensors > 1 needs a list of shapes"
        (w1, w2), (g1, g2) = _uniform_pair(shape, dtype), _uniform_pair(shape, dtype)
        state1 = opt1.create_state_multi_precision(0, w1)
        state2 = opt2.create_state_multi_precision(0, w2)
        if compare_states:
            _compare_states(state1, state2, None, None, "the initial {state} of " + names)
        opt1.update_multi_precision(0, w1, g1, state1)
        opt2.update_multi_precision(0, w2, g2, state2)
        if compare_states:
            _compare_states(
                state1, state2, rtol, atol, "the {state} of " + names + " after one update"
            )
        _assert_close(w1, w2, rtol, atol, f"the weights of {names} after one update")
        return
    pairs = [(_uniform_pair(s, dtype), _uniform_pair(s, dtype)) for s in shape]
    w1, w2 = [w[0] for w, _ in pairs], tuple(w[1] for w, _ in pairs)
    g1, g2 = [g[0] for _, g in pairs], tuple(g[1] for _, g in pairs)
    state2 = [opt2.create_state_multi_precision(0, w2[i]) for i in range(ntensors)]
    opt2.update_multi_precision(list(range(ntensors)), w2, g2, state2)
    for i in range(ntensors):
        state1 = opt1.create_state_multi_precision(i, w1[i])
        opt1.update_multi_precision(i, w1[i], g1[i], state1)
        if compare_states:
            _compare_states(
                state1,
                state2[i],
                rtol,
                atol,
                "the {state} of tensor %d of %s after one update" % (i, names),
            )
        _assert_close(
            w1[i], w2[i], rtol, atol, f"the weights of tensor {i} of {names} after one update"
        )
