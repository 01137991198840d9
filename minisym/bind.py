"""``Symbol.bind`` and ``Symbol.simple_bind``: check what you pass, infer every shape and dtype,
and build the Executor."""

import difflib
import math
import warnings

import numpy as np

from . import lifecycle
from .arrays.ndarray import NDArray
from .base import (
    MistakeWarning,
    MXNetError,
    MXNetMemoryError,
    MXNetTypeError,
    MXNetValueError,
    dtype_name,
)
from .context import Context
from .executor import Executor
from .executor_memory import check_executor
from .graph.argument_names import unknown_names_note
from .graph.infer import ShapeKind, TypeKind, infer_graph
from .ops.rules import fmt
from .shape_check import NegativeSizeOverflow, check_shape

__all__ = ["bind", "simple_bind", "reshape_executor", "copy_executor"]

GRAD_REQS = ("null", "write", "add")


def _arrays(names, given, what, required=True):
    """A list in ``names`` order from a list or dict of NDArrays (None where allowed)."""
    if given is None:
        return [None] * len(names)
    if isinstance(given, dict):
        missing = [n for n in names if n not in given]
        if missing and required:
            raise ValueError(
                f"key `{missing[0]}` is missing in `{what}`; it needs "
                f"{names} (simple_bind allocates them all from the data's shape)."
                + _misnamed_keys(given, names, missing, what)
            )
        arrays = [given.get(n) for n in names]
    elif isinstance(given, (list, tuple)):
        if len(given) != len(names):
            raise ValueError(
                f"Length of {what} does not match the number of arguments: got "
                f"{len(given)}, the symbol has {len(names)} {names}"
            )
        arrays = list(given)
    else:
        raise TypeError(
            f"Only accept list of NDArrays or dict of str to NDArray ({what} is "
            f"{type(given).__name__})"
        )
    for name, array in zip(names, arrays):
        if array is None and not required:
            continue
        if not isinstance(array, NDArray):
            raise TypeError(
                f"Only accept list of NDArrays or dict of str to NDArray: {what} "
                f"'{name}' is {type(array).__name__}; wrap it with mx.nd.array(...)"
            )
    return arrays


def _misnamed_keys(given, names, missing, what):
    """' `args` has 'x', not an argument (did you mean 'data'?) ...' for keys that are not
    names; '' when every key is one."""
    unknown = [k for k in given if k not in names]
    if not unknown:
        return ""
    guesses = [
        f"'{k}'"
        + "".join(
            f" (did you mean '{m}'?)"
            for m in difflib.get_close_matches(str(k), missing, n=1, cutoff=0)
        )
        for k in unknown
    ]
    return (
        f" `{what}` has {', '.join(guesses)}, which the symbol has no argument for: a "
        "Variable is known by the name given to mx.sym.Variable, which may differ from the "
        "Python variable holding it (x = mx.sym.Variable('data') is called 'data')."
    )


def grad_req_list(names, grad_req):
    """grad_req as one str per argument; a dict leaves unnamed arguments at 'null'."""
    if isinstance(grad_req, str):
        reqs = [grad_req] * len(names)
    elif isinstance(grad_req, dict):
        reqs = [grad_req.get(n, "null") for n in names]
    elif isinstance(grad_req, (list, tuple)):
        if len(grad_req) != len(names):
            raise ValueError(
                f"grad_req has {len(grad_req)} entries but there are {len(names)} arguments {names}"
            )
        reqs = list(grad_req)
    else:
        raise TypeError("grad_req must be a str, a list or a dict")
    for req in reqs:
        if req not in GRAD_REQS:
            message = f"grad_req must be in {set(GRAD_REQS)}, got {req!r}"
            # MXNet checks a str and looks up list / dict entries in a table (a KeyError).
            raise ValueError(message) if isinstance(grad_req, str) else KeyError(message)
    return reqs


def _entry_tables(symbol, arrays_by_name):
    """Inferred (shapes, dtypes) of every entry, checked against the bound arrays."""
    given_shapes = {n: a.shape for n, a in arrays_by_name.items()}
    given_types = {n: np.dtype(a.dtype) for n, a in arrays_by_name.items()}
    shapes = infer_graph(symbol, given_shapes, ShapeKind)
    dtypes = infer_graph(symbol, given_types, TypeKind)
    return shapes, dtypes


def _check_complete(symbol, shapes, dtypes, given=None):
    """Every entry has a known shape and dtype, or a teaching error naming the first that has
    not (``given``: {name: shape} of the arrays bound, to explain an empty one)."""
    for node in symbol.topo_order():
        for j in range(node.num_outputs):
            shape, dtype = shapes.get((id(node), j)), dtypes.get((id(node), j))
            if shape is None or 0 in shape or dtype is None:
                what = "dtype" if shape is not None and 0 not in shape else "shape"
                where = node.op.where if node.op is not None else f"variable {node.name!r}"
                raise MXNetValueError(
                    f"bind: cannot decide the {what} of {where} output {j} "
                    f"'{node.entry_name(j)}' (shape {fmt(shape)}, dtype {dtype_name(dtype)}) "
                    "from the arrays given; check that operator's shape rule, or print "
                    "symbol.infer_shape_partial(...) to see where inference stops"
                    + zero_size_note(given or {}).replace("You gave", "The arrays given have")
                )


@lifecycle.entry("bind")
def bind(
    symbol,
    ctx,
    args,
    args_grad=None,
    grad_req="write",
    aux_states=None,
    group2ctx=None,
    shared_exec=None,
    *,
    refuse_gradient_less=True,
):
    """An Executor using your NDArrays in place: args (list or dict), args_grad, aux_states.
    ``refuse_gradient_less=False`` (mx.nd under autograd, whose backward refuses instead)
    binds a gradient through an operator without one."""
    if not isinstance(ctx, Context):
        raise TypeError(
            f"Context type error: ctx must be mx.cpu() or mx.gpu(), got {type(ctx).__name__}"
        )
    arg_names = symbol.list_arguments()
    aux_names = symbol.list_auxiliary_states()
    _no_duplicates(symbol, "bind")
    arg_arrays = _arrays(arg_names, args, "args")
    grad_arrays = _arrays(arg_names, args_grad, "args_grad", required=False)
    if aux_names and aux_states is None:
        raise ValueError(
            f"Length of aux_states does not match the number of auxiliary states: "
            f"give aux_states for {aux_names}"
        )
    aux_arrays = _arrays(aux_names, aux_states if aux_names else aux_states or [], "aux_states")
    reqs = grad_req_list(arg_names, grad_req)
    reqs = [r if g is not None else "null" for r, g in zip(reqs, grad_arrays)]
    if refuse_gradient_less:
        refuse_non_differentiable(symbol, reqs)
    named = dict(zip(arg_names, arg_arrays))
    named.update(zip(aux_names, aux_arrays))
    shapes, dtypes = _entry_tables(symbol, named)
    _check_complete(symbol, shapes, dtypes, {n: a.shape for n, a in named.items()})
    for name, grad, array in zip(arg_names, grad_arrays, arg_arrays):
        if grad is not None and grad.shape != array.shape:
            raise MXNetValueError(
                f"bind: gradient array of '{name}' has shape {grad.shape} "
                f"but the argument has {array.shape}"
            )
    check_executor(
        symbol,
        shapes,
        dtypes,
        reqs,
        "bind",
        new_arrays=(),
        given=dict(zip(arg_names, (a.shape for a in arg_arrays))),
    )
    return Executor(
        symbol,
        ctx,
        arg_arrays,
        None if args_grad is None else grad_arrays,
        reqs,
        aux_arrays,
        shapes,
        dtypes,
    )


def _no_duplicates(symbol, where):
    """A teaching error when two variables share a name (arrays are bound by name): two layers
    given the same ``name=``, or two Variables of the same name; MXNet's own text follows."""
    arg_names = symbol.list_arguments()
    names = arg_names + symbol.list_auxiliary_states()
    seen = set()
    for name in names:
        if name in seen:
            mxnet_text = (
                f"Check failed: arg_names.size() == in_args_map.size() "
                f"({len(arg_names)} vs. {len(set(arg_names))}) :"
                if where == "bind"
                else "Input argument NDArray cannot be un-allocated"
            )
            raise MXNetValueError(
                (
                    _same_layer_name(symbol, name)
                    or (
                        f"Two different variables are both named '{name}': give them different "
                        "names (mx.sym.Variable('a1'), mx.sym.Variable('a2')); the executor finds "
                        "arrays by name."
                    )
                )
                + "\n"
                + mxnet_text
            )
        seen.add(name)


def _same_layer_name(symbol, name):
    """The message for variable ``name`` made twice by two layers of one name, else None."""
    readers = []
    for node in symbol.topo_order():
        if not node.is_variable and any(
            src.is_variable and src.name == name for src, _ in node.inputs
        ):
            readers.append(node)
    layers = [n for n in readers if name.startswith(n.name + "_")]
    if len(layers) < 2 or len({id(n) for n in layers}) < 2:
        return None
    first, second = layers[0], layers[1]
    reads = lambda node: node.inputs[0][0].entry_name(node.inputs[0][1])
    return (
        f"Two layers are both named '{first.name}': rename one, e.g. name="
        f"'{first.name}2' for the {second.op_name} that reads '{reads(second)}'. "
        f"{first.op_name} '{first.name}' (reading '{reads(first)}') and {second.op_name} "
        f"'{second.name}' (reading '{reads(second)}') each make their weights from their "
        f"name, so both have a '{name}', and the executor finds arrays by name."
    )


@lifecycle.entry("simple_bind")
def simple_bind(
    symbol,
    ctx,
    grad_req="write",
    type_dict=None,
    stype_dict=None,
    group2ctx=None,
    shared_arg_names=None,
    shared_exec=None,
    shared_buffer=None,
    **kwargs,
):
    """An Executor with zero-filled arrays allocated from the shapes you give (float32 unless
    ``type_dict`` says otherwise)."""
    kwargs = _without_stray_keywords(symbol, kwargs)
    for name, shape in kwargs.items():  # a bad size raises as in MXNet: unwrapped
        if isinstance(shape, (tuple, list)):
            check_shape(
                shape,
                where="simple_bind",
                name=name,
                mode="bind",
                negative=NegativeSizeOverflow,
                fraction=TypeError,
            )
    _check_type_dict(type_dict)
    try:
        kwargs = given_shapes(kwargs, "simple_bind")
        return _simple_bind(symbol, ctx, grad_req, type_dict, kwargs)
    except (MXNetError, ValueError, KeyError) as exc:  # MXNet reports these as RuntimeError
        lines = "".join(f"{k}: {v}\n" for k, v in kwargs.items())
        # as MXNet, a RuntimeError; one that does not fit in memory is a MemoryError too
        kind = MXNetMemoryError if isinstance(exc, MemoryError) else RuntimeError
        error = kind(f"simple_bind error. Arguments:\n{lines}{exc}")
        for note in getattr(exc, "__notes__", ()):  # what the engine added: keep it in view
            error.add_note(note)
        raise error from exc


def _without_stray_keywords(symbol, kwargs):
    """kwargs less those that are neither shapes nor the names of arguments, with a warning:
    MXNet's simple_bind reads only tuples and ignores the rest (its own tests pass axis=-1)."""
    names = set(symbol.list_arguments()) | set(symbol.list_auxiliary_states())
    stray = {k: v for k, v in kwargs.items() if k not in names and not isinstance(v, (tuple, list))}
    if stray:
        given = ", ".join(f"{k}={v!r}" for k, v in stray.items())
        warnings.warn(
            f"simple_bind ignores {given}: a keyword of simple_bind is the shape of "
            "an argument, and the symbol has no argument of that name (MXNet ignores "
            "it too). If it was meant for an operator, give it where the operator is "
            "made.",
            MistakeWarning,
            stacklevel=5,
        )
    return {k: v for k, v in kwargs.items() if k not in stray}


def refuse_non_differentiable(symbol, reqs):
    """MXNet's error at bind when a gradient would have to pass through an operator without one
    (batch_take, _slice_assign): some grad_req is not 'null' and a gradient from the heads
    reaches that node other than through BlockGrad."""
    if all(req == "null" for req in reqs):
        return
    receives = {id(node) for node, _ in symbol.outputs}
    for node in reversed(symbol.topo_order()):
        if node.is_variable or id(node) not in receives:
            continue
        op = node.op
        if not op.has_gradient:
            raise MXNetError(
                f"Operator {op.op_name} is non-differentiable because it didn't register "
                f"FGradient attribute. {op.where} has no gradient, and a gradient from the "
                "outputs reaches it. Put mx.sym.BlockGrad after it, or bind with "
                "grad_req='null' for every argument"
                + (f"; for a gradient use {op.instead}" if op.instead else "")
            )
        if not op.passes_gradient:
            continue  # passes zeros (BlockGrad): MXNet's zero propagation stops here
        names = op.list_arguments()
        receives.update(
            id(src)
            for name, (src, _) in zip(names, node.arg_inputs)
            if name not in op.no_gradient_inputs
        )


def given_shapes(shapes, where):
    """{name: tuple of ints} from the shapes given by keyword, each checked: an int size (a
    TypeError otherwise) that is not negative (an OverflowError and MXNetError otherwise)."""
    checked = {}
    for name, shape in shapes.items():
        if not isinstance(shape, (tuple, list)):
            raise MXNetTypeError(
                f"{where}: {name}={shape!r} is not a shape; give a tuple of "
                f"sizes, e.g. {name}=(2, 3)"
                + (f" or {name}=({shape},)" if isinstance(shape, int) else "")
            )
        checked[name] = check_shape(shape, where=where, name=name, mode="bind", fraction=TypeError)
    return checked


def _check_type_dict(type_dict):
    """Every dtype in ``type_dict`` is one numpy understands (a TypeError as in MXNet)."""
    for name, dtype in (type_dict or {}).items():
        try:
            np.dtype(dtype)
        except TypeError:
            raise TypeError(
                f"simple_bind: type_dict[{name!r}] is {dtype!r}, which is not a "
                f"data type; give a numpy type or its name, e.g. "
                f"type_dict={{{name!r}: 'float32'}}"
            ) from None


def zero_size_note(shapes):
    """A sentence for shapes given with a 0 size: in MXNet 1.x a 0 means 'unknown', not an
    empty axis, so no executor can be made for an empty batch; '' when there is none."""
    zeros = [f"{n}={fmt_given(s)}" for n, s in shapes.items() if s is not None and 0 in s]
    if not zeros:
        return ""
    return (
        f"\nYou gave {', '.join(zeros)}: a 0 size means 'unknown' to MXNet's shape inference "
        "(as -1 does in these messages), not an empty axis, so it cannot be allocated. Give "
        "every size, at least 1 (an empty batch cannot be run: skip it instead)."
    )


def fmt_given(shape):
    """A shape as typed, zeros shown as 0: ``(0, 5)``."""
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _simple_bind(symbol, ctx, grad_req, type_dict, shapes_given):
    """simple_bind without the RuntimeError wrapping: infer, allocate, build the Executor."""
    arg_names = symbol.list_arguments()
    aux_names = symbol.list_auxiliary_states()
    _no_duplicates(symbol, "simple_bind")
    if isinstance(grad_req, (list, dict)) and not grad_req:
        raise MXNetValueError(
            "simple_bind: grad_req is empty; give 'write', 'add' or 'null' "
            "(or a non-empty list / dict)"
        )
    reqs = grad_req_list(arg_names, grad_req)
    refuse_non_differentiable(symbol, reqs)  # before inference, as in MXNet
    shapes = infer_graph(symbol, {k: tuple(v) for k, v in shapes_given.items()}, ShapeKind)
    missing = [
        (n, shapes.get((id(v), 0)))
        for n, v in _variable_nodes(symbol)
        if shapes.get((id(v), 0)) is None or 0 in shapes.get((id(v), 0))
    ]
    if missing:
        listed = ", ".join(f"{n}: {s if s is not None else 'None'}" for n, s in missing)
        raise MXNetValueError(
            "InferShape pass cannot decide shapes for the following arguments (-1 means unknown "
            f"dimensions). Please consider providing them as inputs:\n{listed}\n"
            f"Give at least the data's shape, e.g. simple_bind(mx.cpu(), {missing[0][0]}=(batch, "
            "...)); weights and labels are inferred from it."
            + unknown_names_note(symbol, shapes_given, "You gave shapes for")
            + zero_size_note(shapes_given)
        )
    given_types = {n: np.dtype(t) for n, t in (type_dict or {}).items()}
    if not type_dict:  # as MXNet: float32 for every argument without its own __dtype__
        attrs = symbol.attr_dict()
        given_types = {
            n: np.dtype(np.float32) for n in arg_names if "__dtype__" not in attrs.get(n, {})
        }
    dtypes = infer_graph(symbol, given_types, TypeKind)
    undecided = [n for n, v in _variable_nodes(symbol) if dtypes.get((id(v), 0)) is None]
    if undecided:
        raise MXNetValueError(
            "InferType pass cannot decide dtypes for the following arguments "
            "(-1 means unknown dtype). Please consider providing them as "
            "inputs:\n"
            + ", ".join(f"{n}: -1" for n in undecided)
            + unknown_names_note(symbol, type_dict, "type_dict names", "\n")
        )
    check_executor(symbol, shapes, dtypes, reqs, "simple_bind", given=shapes_given)
    nodes = dict(_variable_nodes(symbol))
    array = lambda n: NDArray(np.zeros(shapes[(id(nodes[n]), 0)], dtypes[(id(nodes[n]), 0)]), ctx)
    arg_arrays = [array(n) for n in arg_names]
    grad_arrays = [array(n) if r != "null" else None for n, r in zip(arg_names, reqs)]
    aux_arrays = [array(n) for n in aux_names]
    return Executor(symbol, ctx, arg_arrays, grad_arrays, reqs, aux_arrays, shapes, dtypes)


def _variable_nodes(symbol):
    """[(name, node)] of every variable, arguments and auxiliary states, in DFS order."""
    return [(n.name, n) for n in symbol.topo_order() if n.is_variable]


@lifecycle.entry("reshape")
def reshape_executor(executor, partial_shaping, allow_up_sizing, new_shapes):
    """A new Executor for ``new_shapes`` that shares memory with ``executor``, as in MXNet.

    Arguments, gradients and auxiliary states that keep their size are the same arrays; those
    that shrink are views of the start of the old memory; growing needs ``allow_up_sizing``
    and gets new arrays. The operators' outputs (``outputs`` included) go into the old
    executor's buffers where they fit, so running one executor overwrites the other's outputs.
    """
    symbol = executor._symbol
    new_shapes = given_shapes(new_shapes, "Executor.reshape")
    unknown = unknown_names_note(symbol, new_shapes, "You gave shapes for", "")
    if unknown:
        raise MXNetValueError(
            f"Executor.reshape: {unknown} Its arguments are {symbol.list_arguments()}."
        )
    shapes = infer_graph(symbol, new_shapes, ShapeKind)
    _check_reshape_memory(executor, shapes, new_shapes, allow_up_sizing)
    nodes = dict(_variable_nodes(symbol))
    arrays = {}
    for names, current in (
        (symbol.list_arguments(), executor.arg_arrays),
        (symbol.list_auxiliary_states(), executor.aux_arrays),
    ):
        for name, old in zip(names, current):
            new_shape = shapes.get((id(nodes[name]), 0))
            if new_shape is None or 0 in new_shape:
                given = ", ".join(f"{k}={tuple(v)}" for k, v in new_shapes.items()) or "nothing"
                raise MXNetValueError(
                    f"Executor.reshape: cannot infer the new shape of '{name}' (got "
                    f"{fmt(new_shape)}) from what you gave ({given}); give it, e.g. "
                    f"reshape({name}=(...)), or the shape of the input it follows from"
                    + zero_size_note(new_shapes)
                )
            arrays[name] = _reshaped(
                name, old, new_shape, name in new_shapes, partial_shaping, allow_up_sizing
            )
    grads = {}
    for name, old in zip(symbol.list_arguments(), executor.grad_arrays or []):
        grads[name] = (
            None
            if old is None
            else _reshaped(name, old, arrays[name].shape, True, True, allow_up_sizing)
        )
    reshaped = bind(
        symbol,
        executor._ctx,
        {n: arrays[n] for n in symbol.list_arguments()},
        args_grad=grads,
        grad_req=dict(zip(symbol.list_arguments(), executor._grad_req)),
        aux_states={n: arrays[n] for n in symbol.list_auxiliary_states()},
    )
    reshaped._reuse_memory(executor)
    return reshaped


def _check_reshape_memory(executor, shapes, new_shapes, allow_up_sizing):
    """Executor.reshape allocates the arrays that grow and a new memory plan: refuse them before
    anything is allocated when they would not fit (growing without ``allow_up_sizing`` is an
    error of its own, reported later)."""
    symbol = executor._symbol
    grads = dict(zip(symbol.list_arguments(), executor.grad_arrays or []))
    grow = 0
    for name, node in _variable_nodes(symbol):
        shape, old = shapes.get((id(node), 0)), executor._data[(id(node), 0)]
        if shape is not None and math.prod(shape) > old.size:
            grow += math.prod(shape) * old.itemsize * (1 if grads.get(name) is None else 2)
    if grow and not allow_up_sizing:
        return
    check_executor(
        symbol,
        shapes,
        {k: a.dtype for k, a in executor._data.items()},
        executor._grad_req,
        "Executor.reshape",
        new_arrays=(),
        given=new_shapes,
        extra=[("arrays that grow (arguments, gradients, aux)", grow)] if grow else (),
    )


def _reshaped(name, old, new_shape, specified, partial_shaping, allow_up_sizing):
    """``old`` in ``new_shape``: itself, a view of its memory when smaller, else new zeros."""
    if new_shape == old.shape:
        return old
    if not specified and not partial_shaping:
        raise MXNetValueError(
            f"Executor.reshape: '{name}' would change shape from {fmt(old.shape)} to "
            f"{fmt(new_shape)}, but you did not give its new shape. This can cause the new "
            "executor to not share parameters with the old one: check the shapes you gave (a "
            "weight changes when the data's feature size does, a label when the batch size "
            f"does). If this is intended, give it too ({name}={new_shape}) or set "
            "partial_shaping=True."
        )
    size = int(np.prod(new_shape))
    if size > old.size and not allow_up_sizing:
        raise MXNetValueError(
            f"Executor.reshape: the new shape {fmt(new_shape)} of '{name}' is larger than its "
            f"current {fmt(old.shape)}, and reshape shares memory with the executor it "
            "reshapes: it cannot grow an array in place. First making a big executor and then "
            "down sizing it is more efficient than the reverse. If you really want to up size, "
            "set allow_up_sizing=True to allocate new arrays (they share no memory with this "
            "executor)."
        )
    if size <= old.size:
        return NDArray(old._data.reshape(-1)[:size].reshape(new_shape), old.context)
    return NDArray(np.zeros(new_shape, old._data.dtype), old.context)


@lifecycle.entry("executor.copy() (a private executor, e.g. a widget's)")
def copy_executor(executor, grad_req=None):
    """A new Executor over copies of ``executor``'s arguments, gradients and auxiliary states.

    What the widgets run on: gradients under 'add' and BatchNorm's moving statistics change as
    it runs, and the learner's own executor must not. ``grad_req`` (str, list or dict) replaces
    the executor's; an argument whose gradient array is missing gets a new zero one.
    """
    symbol = executor._symbol
    names = symbol.list_arguments()
    reqs = executor._grad_req if grad_req is None else grad_req_list(names, grad_req)
    check_executor(
        symbol,
        {k: a.shape for k, a in executor._data.items()},
        {k: a.dtype for k, a in executor._data.items()},
        reqs,
        "Executor.copy",
        given=dict(zip(names, (a.shape for a in executor.arg_arrays))),
    )
    grads = executor.grad_arrays or [None] * len(names)
    new_grads = {}
    for name, req, grad, arg in zip(names, reqs, grads, executor.arg_arrays):
        if req != "null":
            new_grads[name] = (
                grad.copy() if grad is not None else NDArray(np.zeros_like(arg._data), arg.context)
            )
    return bind(
        symbol,
        executor._ctx,
        {n: a.copy() for n, a in zip(names, executor.arg_arrays)},
        args_grad=new_grads,
        grad_req=dict(zip(names, reqs)),
        aux_states={
            n: a.copy() for n, a in zip(symbol.list_auxiliary_states(), executor.aux_arrays)
        },
    )
