"""Checking an operator: its forward against expected outputs, its backward against expected
gradients, and its backward against finite differences of its forward (``check_numeric_gradient``).

A failed check raises AssertionError naming the slot (``in_grad[0] ('data', list_arguments()[0])
of Custom 'sm'``), the worst elements, and what the wrong values look like. The error carries
what was compared as ``error.mismatch`` (a ``Mismatch``: both arrays, the tolerances, the worst
index), and each callable in ``mismatch_observers`` is called with it just before the raise
(a notebook uses this to draw the mismatch; a traceback renders no picture).
"""

import warnings

import numpy as np

from .. import ndarray as nd
from .. import symbol as sym_api
from ..base import MXNetValueError
from ..context import current_context
from . import explain
from .compare import (
    Mismatch,
    as_numpy,
    default_numeric_eps,
    fmt,
    get_tolerance,
    get_tols,
)

__all__ = [
    "check_numeric_gradient",
    "numeric_grad",
    "check_symbolic_forward",
    "check_symbolic_backward",
    "simple_forward",
    "mismatch_observers",
]

mismatch_observers = []  # callables(mismatch), called when a check fails, before it raises

_FLOATS = (np.float16, np.float32, np.float64)


def _failed(mismatch, message):
    """AssertionError(message) carrying ``mismatch``, to raise once every observer saw it."""
    error = AssertionError(message)
    error.mismatch = mismatch
    for observer in list(mismatch_observers):
        try:
            observer(mismatch)
        except Exception as exc:  # noqa: BLE001 -- the check's own error matters more
            warnings.warn(
                f"{mismatch.check}: the mismatch observer {observer!r} raised "
                f"{type(exc).__name__}: {exc}; remove it from "
                "minisym.test_utils.checks.mismatch_observers. The check's own "
                "error follows.",
                RuntimeWarning,
                stacklevel=3,
            )
    return error


class MissingEntryError(KeyError):
    """A name with no entry (a KeyError, as in MXNet) whose message prints as written."""

    def __str__(self):
        return str(self.args[0])


def _dense_only(stypes, where):
    if any(v not in (None, "default") for v in (stypes or {}).values()):
        raise MXNetValueError(
            f"{where}: minisym has dense arrays only; leave the gradient "
            f"storage types at 'default' (got {stypes})"
        )


def _check_dtype(dtype, where, asnumpy=True):
    if not ((asnumpy and isinstance(dtype, str) and dtype == "asnumpy") or dtype in _FLOATS):
        raise AssertionError(
            f"{where}: dtype must be np.float16, np.float32 or np.float64"
            f"{' or ' + repr('asnumpy') if asnumpy else ''}, got {dtype!r}"
        )


def _to_nd(value, ctx, dtype):
    """An NDArray of ``value`` (NDArrays are used as they are), in ``dtype`` or its own."""
    if isinstance(value, nd.NDArray):
        return value
    value = np.asarray(value)
    return nd.array(value, ctx=ctx, dtype=value.dtype if dtype == "asnumpy" else dtype)


def _parse_location(sym, location, ctx, dtype, where, missing=ValueError):
    """{argument name: NDArray} from a list (in list_arguments() order) or a dict."""
    names = sym.list_arguments()
    if isinstance(location, dict):
        if set(location) != set(names):
            raise ValueError(
                f"{where}: location must give every argument of the symbol, by name: it needs "
                f"{names}, got {sorted(location)}"
            )
    elif isinstance(location, (list, tuple)):
        if len(location) < len(names):
            raise missing(
                f"{where}: location gives {len(location)} arrays but the symbol has "
                f"{len(names)} arguments {names}; nothing for {names[len(location) :]}"
            )
        location = dict(zip(names, location))
    else:
        raise TypeError(
            f"{where}: location must be a list of arrays in list_arguments() order "
            f"or a dict {{name: array}}, got {type(location).__name__}"
        )
    return {k: _to_nd(location[k], ctx, dtype) for k in sorted(location)}


def _parse_aux_states(sym, aux_states, ctx, dtype, where):
    """{aux name: NDArray}, or None when none are given."""
    if aux_states is None:
        return None
    names = sym.list_auxiliary_states()
    if isinstance(aux_states, dict):
        if set(aux_states) != set(names):
            raise ValueError(
                f"{where}: aux_states must give every auxiliary state of the symbol"
                f", by name: it needs {names}, got {sorted(aux_states)}"
            )
    else:
        aux_states = dict(zip(names, aux_states))
    return {k: _to_nd(v, ctx, dtype) for k, v in aux_states.items()}


def simple_forward(sym, ctx=None, is_train=False, **inputs):
    """Bind ``sym`` to numpy ``inputs`` by name, run forward: one numpy array, or a list."""
    exe = sym.bind(ctx or current_context(), args={k: nd.array(v) for k, v in inputs.items()})
    exe.forward(is_train=is_train)
    outputs = [x.asnumpy() for x in exe.outputs]
    return outputs[0] if len(outputs) == 1 else outputs


# --------------------------------------------------------------------------- forward
def check_symbolic_forward(
    sym,
    location,
    expected,
    rtol=None,
    atol=None,
    aux_states=None,
    ctx=None,
    equal_nan=False,
    dtype=np.float32,
):
    """Run ``sym`` forward (is_train=False) at ``location``; compare with ``expected`` (a list
    in list_outputs() order, or a dict by output name). Returns the executor's outputs."""
    where = "check_symbolic_forward"
    _check_dtype(dtype, where)
    ctx = ctx or current_context()
    location = _parse_location(sym, location, ctx, dtype, where)
    aux = _parse_aux_states(sym, aux_states, ctx, dtype, where)
    names = sym.list_outputs()
    if isinstance(expected, dict):
        expected = [_lookup(expected, k, where, "expected", "output", names) for k in names]
    grads = {
        k: nd.zeros(v.shape, ctx, v.dtype if dtype == "asnumpy" else dtype)
        for k, v in location.items()
    }
    exe = sym.bind(ctx=ctx, args=location, args_grad=grads, aux_states=aux)
    exe.forward(is_train=False)
    results = [as_numpy(out) for out in exe.outputs]
    for j, (want, out) in enumerate(zip(expected, exe.outputs)):
        rt, at = get_tols(want, out, rtol, atol)
        mismatch = Mismatch.find(
            as_numpy(want), results[j], rt, at, equal_nan, ("expected", "forward")
        )
        if mismatch is None:
            continue
        slot = explain.output_slot(sym, j)
        node, index = sym.outputs[j]
        hints = [
            explain.pattern_hint(want, results[j], ("expected", "forward"), at),
            explain.wrong_index_hint(
                want, names[j], dict(zip(names, results)), lambda k: f"output '{k}'"
            ),
        ]
        fix = (
            "Look at the symbol"
            if node.is_variable
            else f"Look at what forward assigns to out_data[{index}]"
        )
        hints = [h for h in hints if h] + [fix + "."]
        mismatch.found_by(where, slot, names[j], hints)
        raise _failed(mismatch, mismatch.report(f"{where}: {slot} differs from expected", 5, hints))
    return exe.outputs


def _lookup(mapping, key, where, what, kind, names):
    try:
        return mapping[key]
    except KeyError:
        raise MissingEntryError(
            f"{where}: {what} has no entry for {kind} '{key}'; it needs "
            f"one per {kind} {names}, got {sorted(mapping)}"
        ) from None


# --------------------------------------------------------------------------- backward
def _grad_reqs(sym, grad_req):
    names = sym.list_arguments()
    if isinstance(grad_req, str):
        return {k: grad_req for k in names}
    if isinstance(grad_req, (list, tuple)):
        return dict(zip(names, grad_req))
    return dict(grad_req)


def _head_grads(out_grads, ctx, dtype):
    if isinstance(out_grads, (list, tuple)):
        return [_to_nd(g, ctx, dtype) for g in out_grads]
    if isinstance(out_grads, dict):
        return {k: _to_nd(g, ctx, dtype) for k, g in out_grads.items()}
    return out_grads


def check_symbolic_backward(
    sym,
    location,
    out_grads,
    expected,
    rtol=None,
    atol=None,
    aux_states=None,
    grad_req="write",
    ctx=None,
    grad_stypes=None,
    equal_nan=False,
    dtype=np.float32,
):
    """Run forward (is_train=True) and backward(out_grads); compare the gradients with
    ``expected`` (a list in list_arguments() order, or a dict by argument name), honouring
    ``grad_req`` ('add' compares what was added). Returns {argument: gradient NDArray}."""
    where = "check_symbolic_backward"
    _check_dtype(dtype, where)
    _dense_only(grad_stypes, where)
    ctx = ctx or current_context()
    location = _parse_location(sym, location, ctx, dtype, where)
    aux = _parse_aux_states(sym, aux_states, ctx, dtype, where)
    if isinstance(expected, (list, tuple)):
        expected = dict(zip(sym.list_arguments(), expected))
    for name, value in expected.items():
        _lookup(location, name, where, "location", "argument", sym.list_arguments())
        if np.shape(value) != location[name].shape:
            raise AssertionError(
                f"{where}: expected['{name}'] has shape {np.shape(value)} but "
                f"argument '{name}' has shape {location[name].shape}"
            )
    before = {k: np.random.normal(size=np.shape(v)) for k, v in sorted(expected.items())}
    grads = {
        k: nd.array(
            v, ctx=ctx, dtype=np.asarray(expected[k]).dtype if dtype == "asnumpy" else dtype
        )
        for k, v in before.items()
    }
    reqs = _grad_reqs(sym, grad_req)
    start = {k: g.asnumpy() for k, g in grads.items()}
    exe = sym.bind(ctx=ctx, args=location, args_grad=grads, aux_states=aux, grad_req=reqs)
    exe.forward(is_train=True)
    exe.backward(_head_grads(out_grads, ctx, dtype))
    computed = {k: g.asnumpy() for k, g in grads.items()}
    for name, want in expected.items():
        failure = _gradient_failure(
            sym,
            name,
            _lookup(reqs, name, where, "grad_req", "argument", sym.list_arguments()),
            as_numpy(want),
            computed,
            start,
            rtol,
            atol,
            equal_nan,
            where,
            ("expected", "backward"),
            [],
        )
        if failure:
            raise _failed(*failure)
    return grads


def _gradient_failure(
    sym, name, req, want, computed, start, rtol, atol, equal_nan, where, names, extra_hints
):
    """(mismatch, teaching message) if ``name``'s gradient is not what it should be, else None.

    ``computed``: every checked gradient after backward; ``start``: the same arrays before."""
    got = computed[name]
    if req == "add":
        got = got - start[name]
    elif req == "null":
        want = start[name]
    elif req != "write":
        raise ValueError(
            f"{where}: invalid grad_req {req!r} for argument '{name}'; use 'write', 'add' or 'null'"
        )
    rt, at = get_tols(want, computed[name], rtol, atol)
    mismatch = Mismatch.find(want, got, rt, at, equal_nan, names)
    if mismatch is None:
        return None
    slot = explain.argument_slot(sym, name)
    short = slot.split(" (")[0] if slot.startswith("in_grad") else f"the gradient of '{name}'"
    hints = list(extra_hints)
    if req == "null":
        hints.append(
            "Its req is 'null', so backward must leave it alone, but it changed it: "
            "write through self.assign(in_grad[i], req[i], value), which honours req."
        )
    elif np.array_equal(computed[name], start[name]) or not np.any(got):
        hints.append(
            explain.unwritten_hint(short, req, not np.any(got), explain.custom_owner(sym, name))
        )
    else:
        hints += [
            explain.pattern_hint(want, got, names, at),
            explain.precision_hint(want, got, rt, at),
        ]
    if req != "null":
        others = {k: v for k, v in computed.items() if not np.array_equal(v, start[k])}
        hints.append(
            explain.wrong_index_hint(want, name, others, lambda k: explain.argument_slot(sym, k))
        )
    hints = [h for h in hints if h] + [explain.look_at(sym, name) + "."]
    mismatch.found_by(where, slot, name, hints)
    return mismatch, mismatch.report(f"{where}: {slot} differs", 5, hints)


# --------------------------------------------------------------------------- numeric gradient
def numeric_grad(
    executor, location, aux_states=None, eps=1e-4, use_forward_train=True, dtype=np.float32
):
    """{name: finite-difference gradient of sum(outputs[0])} for each numpy array in
    ``location`` (central differences: x +- eps/2); aux states are reset before each forward."""
    _check_dtype(dtype, "numeric_grad", asnumpy=False)
    for k, v in location.items():
        executor.arg_dict[k][:] = nd.array(v, dtype=dtype)
    grads = {k: np.zeros(np.shape(v), dtype=dtype) for k, v in location.items()}
    for k in location:
        location[k] = v = np.asarray(location[k], order="C")
        if v.dtype.kind != "f":
            continue  # an integer input (a label) has no gradient to approximate
        original = v.copy()
        flat = v.reshape(-1)  # a view: perturbing it perturbs v
        for i in range(flat.size):
            flat[i] += eps / 2.0
            f_plus = _forward_sum(executor, k, v, aux_states, use_forward_train, dtype)
            flat[i] -= eps
            f_minus = _forward_sum(executor, k, v, aux_states, use_forward_train, dtype)
            grads[k].reshape(-1)[i] = (f_plus - f_minus).sum() / eps
            flat[i] = original.reshape(-1)[i]
        executor.arg_dict[k][:] = nd.array(original, dtype=dtype)
    return grads


def _forward_sum(executor, name, value, aux_states, is_train, dtype):
    executor.arg_dict[name][:] = nd.array(value, dtype=dtype)
    for key, val in (aux_states or {}).items():
        executor.aux_dict[key][:] = nd.array(val, dtype=dtype)
    executor.forward(is_train=is_train)
    return executor.outputs[0].asnumpy()


def _grad_nodes(sym, grad_nodes, location, where):
    """{argument: grad_req} to check, from None (all), a list of names, or a dict."""
    if grad_nodes is None:
        reqs = {k: "write" for k in sym.list_arguments()}
    elif isinstance(grad_nodes, (list, tuple)):
        reqs = {k: "write" for k in grad_nodes}
    elif isinstance(grad_nodes, dict):
        reqs = dict(grad_nodes)
    else:
        raise ValueError(
            f"{where}: grad_nodes must be None, a list of argument names or a dict "
            f"{{name: grad_req}}, got {type(grad_nodes).__name__} {grad_nodes!r}"
        )
    unknown = [k for k in reqs if k not in location]
    if unknown:
        raise MissingEntryError(
            f"{where}: grad_nodes names {unknown}, which the symbol does not "
            f"have; its arguments are {sym.list_arguments()}"
        )
    return reqs


def check_numeric_gradient(
    sym,
    location,
    aux_states=None,
    numeric_eps=None,
    rtol=None,
    atol=None,
    grad_nodes=None,
    use_forward_train=True,
    ctx=None,
    grad_stype_dict=None,
    dtype=np.float32,
):
    """Compare backward with finite differences of forward, at ``location`` (a list in
    list_arguments() order, or a dict). The output is multiplied by a random projection and
    summed (make_loss), so backward receives that projection as its head gradient."""
    where = "check_numeric_gradient"
    _check_dtype(dtype, where, asnumpy=False)
    _dense_only(grad_stype_dict, where)
    ctx = ctx or current_context()
    location = _parse_location(sym, location, ctx, dtype, where, missing=MissingEntryError)
    aux = _parse_aux_states(sym, aux_states, ctx, dtype, where)
    reqs = _grad_nodes(sym, grad_nodes, location, where)
    if len(sym.list_outputs()) != 1:
        raise MXNetValueError(
            f"{where}: the symbol has {len(sym.list_outputs())} outputs "
            f"{sym.list_outputs()}; it checks one at a time: pass sym[0], ..."
        )
    out_shape = sym.infer_shape(**{k: v.shape for k, v in location.items()})[1][0]
    loss = sym_api.make_loss(sym * sym_api.Variable("__random_proj"))
    args = dict(
        location, __random_proj=nd.array(np.random.rand(*out_shape) + 0.1, ctx=ctx, dtype=dtype)
    )
    before = {k: np.random.normal(0, 0.01, size=location[k].shape) for k in reqs}
    before["__random_proj"] = np.random.normal(0, 0.01, size=out_shape)
    grads = {k: nd.array(v, ctx=ctx, dtype=dtype) for k, v in before.items()}
    start = {k: g.asnumpy() for k, g in grads.items()}
    exe = loss.bind(ctx, grad_req=reqs, args=args, args_grad=grads, aux_states=aux)
    exe.forward(is_train=True)
    eps = get_tolerance(exe.outputs[0], numeric_eps, default_numeric_eps())
    if dtype in (np.float32, np.float16) and eps < 1e-5:
        raise AssertionError(
            f"{where}: numeric_eps={eps} is too small for {np.dtype(dtype).name}"
            ": finite differences would be rounding noise; use at least 1e-5, "
            "or dtype=np.float64"
        )
    exe.backward()
    computed = {k: exe.grad_dict[k].asnumpy() for k in reqs}
    numeric = numeric_grad(
        exe,
        {k: location[k].asnumpy() for k in reqs},
        None if aux is None else {k: v.asnumpy() for k, v in aux.items()},
        eps=eps,
        use_forward_train=use_forward_train,
        dtype=dtype,
    )
    extra = explain.loss_head_hints(sym) + [explain.forward_mode_hint(sym, use_forward_train)]
    explained = (
        f"  (numeric: finite differences of forward, eps={fmt(eps)}; symbolic: what "
        "backward wrote, given a random projection as the gradient from above)"
    )
    for name, req in reqs.items():
        failure = _gradient_failure(
            sym,
            name,
            req,
            numeric[name],
            computed,
            start,
            rtol,
            atol,
            False,
            where,
            ("numeric", "symbolic"),
            extra,
        )
        if failure:
            mismatch, message = failure
            raise _failed(mismatch, f"{message}\n{explained}")
