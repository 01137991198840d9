"""``mx.nd.<Operator>(...)``: run one registered operator right away on NDArrays.

The same operator class serves both worlds: a symbol records a node, an NDArray call builds a
one-node graph, binds it to your arrays and runs its forward (``is_train`` is
``mx.autograd.is_training()``: False unless inside ``record()`` or ``train_mode()``). Arguments
bind as ``mx.sym``'s do (minisym/symbol/signature.py), with ``out, name`` after the parameters.
Inside ``mx.autograd.record()``, a call with an input that has a gradient keeps its executor
on the tape (minisym/autograd.py), and ``backward`` later calls the operator's own backward.
"""

import numpy as np

from .. import autograd
from .. import bind as binding
from .. import symbol as sym
from ..arrays.ndarray import NDArray
from ..base import MXNetTypeError, MXNetValueError
from ..context import cpu
from ..name import NameManager
from ..ops.operator_base import functions
from ..symbol.call_checks import check_call_types
from ..symbol.creation import function_doc, node_from_call
from ..symbol.signature import signature_of

__all__ = ["install", "imperative_function"]


def imperative_function(fn):
    """The ``mx.nd`` function for an operator function ``fn`` of the registry."""
    signature = signature_of(fn, imperative=True)

    def run(*args, **kwargs):
        is_train = kwargs.pop("is_train", None)
        call = signature.bind(args, kwargs, lambda value: isinstance(value, NDArray))
        return _run(fn, signature, call, is_train)

    run.__name__ = run.__qualname__ = fn.func_name
    run.__signature__ = signature.python_signature()
    run.__doc__ = function_doc(fn, "NDArray")
    return run


def _run(fn, signature, call, is_train):
    """Bind a one-node graph of ``call`` to its NDArrays, run forward, return the outputs."""
    check_call_types(signature, call, NDArray)
    arrays = {}
    for i, value in enumerate(call.positional):
        arrays[f"_in{i}"] = value
        call.positional[i] = sym.Variable(f"_in{i}")
    for slot, value in call.inputs.items():  # named after the input they fill: errors say 'weight'
        arrays[slot] = value
        call.inputs[slot] = sym.Variable(slot)
    out, call.out, call.name = call.out, None, None  # mx.nd ignores name
    with NameManager():  # imperative calls must not advance the symbols' name counters
        node_sym = node_from_call(fn, call)
    _check_every_input_given(signature, node_sym)
    args_list = [arrays[n] for n in node_sym.list_arguments()]
    _check_not_empty(signature, node_sym, args_list)
    aux_list = [arrays[n] for n in node_sym.list_auxiliary_states()]
    is_train = autograd.is_training() if is_train is None else is_train
    recording = autograd.is_recording()
    sources = [autograd.source_of(a) for a in args_list] if recording else []
    if any(sources):  # backward will need this node: bind it with gradient buffers
        grads = [
            NDArray(np.zeros(a.shape, a._data.dtype)) if src else None
            for a, src in zip(args_list, sources)
        ]
        reqs = ["write" if src else "null" for src in sources]
        ex = binding.bind(
            node_sym,
            cpu(),
            args_list,
            args_grad=grads,
            grad_req=reqs,
            aux_states=aux_list,
            refuse_gradient_less=False,
        )
    else:
        ex = node_sym.bind(cpu(), args_list, grad_req="null", aux_states=aux_list)
    with autograd.pause(train_mode=is_train):  # as MXNet, operators run unrecorded inside
        outputs = ex.forward(is_train=is_train)
    results = [NDArray(r._data.copy(), r.context) for r in outputs]
    if recording:
        node = autograd.OperatorNode(ex, sources) if any(sources) else None
        autograd.tag_outputs(results, node)
    if out is not None:
        targets = out if isinstance(out, (list, tuple)) else [out]
        for target, result in zip(targets, results):
            autograd.check_not_recorded(target, f"{signature.where}(..., out=y)")
            target[:] = result
            target._ag = result._ag
        return out
    return results[0] if len(results) == 1 else results


def _check_every_input_given(signature, node_sym):
    """mx.nd creates no variables: every input the operator uses must be an NDArray."""
    node = node_sym.outputs[0][0]
    names = node.op.list_arguments() + node.op.list_auxiliary_states()
    missing = [slot for slot, how in zip(names, node.given) if how[0] == "implicit"]
    if missing:
        raise MXNetTypeError(
            f"{signature.where}: give every input as an NDArray; missing "
            + ", ".join(repr(slot) for slot in missing)
            + f" (with these parameters it takes {', '.join(names)}). In order, "
            f"{signature.where} takes {signature.order_text()}"
        )


def _check_not_empty(signature, node_sym, args_list):
    """An operator never runs on an array with a 0 size: MXNet 1.9.1 reads a 0 as 'unknown'
    and its shape inference refuses it, so say that instead of failing in bind."""
    slots = node_sym.outputs[0][0].op.list_arguments()
    for slot, array in zip(slots, args_list):
        if 0 in array.shape:
            raise MXNetValueError(
                f"{signature.where}: input '{slot}' is an empty array (shape {array.shape}): "
                "MXNet's operators read a 0 size as 'unknown' and cannot run on it. Give at "
                "least one element on every axis (skip an empty batch: if x.size == 0: ...)."
            )


def install(namespace):
    """Put one function per registered operator into ``namespace`` (without overwriting)."""
    for func_name, fn in functions().items():
        if func_name not in namespace and fn.namespace is None:  # _contrib_X: ndarray/contrib.py
            namespace[func_name] = imperative_function(fn)
