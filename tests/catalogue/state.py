"""A learner's state before and after a call that fails: it must not change.

    before = snapshot(executor)          # or a Symbol, Module, NDArray, or a list of them
    with pytest.raises(ValueError, match="..."):
        executor.forward(data=bad)
    assert_unchanged(before, executor)

A snapshot copies every value the learner could see: a Symbol's JSON, an Executor's argument,
gradient, auxiliary and output arrays, a Module's parameters, auxiliary states and optimizer
state, an NDArray's values. ``assert_unchanged`` names the first array that changed.
"""

import copy

import numpy as np

import minisym as mx


def _arrays(prefix, named):
    return {
        f"{prefix}[{name!r}]": None if a is None else np.array(a.asnumpy(), copy=True)
        for name, a in named.items()
    }


def _executor(ex):
    state = _arrays("arg_dict", ex.arg_dict)
    state.update(_arrays("grad_dict", ex.grad_dict))
    state.update(_arrays("aux_dict", ex.aux_dict))
    state.update(_arrays("outputs", dict(enumerate(ex.outputs))))
    return state


def _module(mod):
    state = {}
    if mod.params_initialized:
        args, auxs = mod.get_params()
        state.update(_arrays("arg_params", args))
        state.update(_arrays("aux_params", auxs))
    if getattr(mod, "executor", None) is not None:
        state.update({f"executor.{k}": v for k, v in _executor(mod.executor).items()})
    updater = getattr(mod, "_updater", None)
    if updater is not None and hasattr(updater, "states"):
        state["optimizer states"] = copy.deepcopy(
            {k: _numpy_tree(v) for k, v in updater.states.items()}
        )
    return state


def _numpy_tree(value):
    if isinstance(value, mx.nd.NDArray):
        return value.asnumpy().copy()
    if isinstance(value, (list, tuple)):
        return type(value)(_numpy_tree(v) for v in value)
    return value


def snapshot(obj):
    """{what: copy of its value} for a Symbol, Executor, Module, NDArray or a list of them."""
    if isinstance(obj, (list, tuple)):
        return [snapshot(o) for o in obj]
    if isinstance(obj, mx.sym.Symbol):
        return {"tojson()": obj.tojson()}
    if isinstance(obj, mx.nd.NDArray):
        return {"values": obj.asnumpy().copy()}
    if isinstance(obj, mx.executor.Executor):
        return _executor(obj)
    if isinstance(obj, mx.mod.BaseModule):
        return _module(obj)
    raise TypeError(f"snapshot: no state known for {type(obj).__name__}")


def _same(a, b):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (
            isinstance(a, np.ndarray)
            and isinstance(b, np.ndarray)
            and a.shape == b.shape
            and a.dtype == b.dtype
            and np.array_equal(a, b, equal_nan=True)
        )
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def assert_unchanged(before, obj, ignore=()):
    """Fail, naming what changed, unless ``obj`` holds what ``before`` recorded; the entries
    named in ``ignore`` (``"grad_dict['a']"``, ...) are left out: those a failed call says it
    could not undo."""
    after = snapshot(obj)
    if isinstance(before, list):
        for i, (b, a) in enumerate(zip(before, after)):
            _compare(b, a, f"object {i}: ", ignore)
        return
    _compare(before, after, "", ignore)


def _compare(before, after, where, ignore=()):
    assert before.keys() == after.keys(), (
        f"{where}entries changed: {sorted(set(before) ^ set(after))}"
    )
    for key in before:
        if key not in ignore:
            assert _same(before[key], after[key]), f"{where}{key} changed by the failed call"
