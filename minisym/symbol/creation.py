"""Creating symbols: variables, operator calls (with implicit inputs), Group, composition."""

import numpy as np

from .. import attribute
from .. import name as name_mod
from ..base import DTYPE_NP_TO_MX, MXNetTypeError, MXNetValueError
from ..graph import Node, variable_node
from ..ops.params import param_text
from ..shape_check import check_shape
from .call_checks import check_call_types, checked_attr, checked_name
from .signature import signature_of
from .symbol import Symbol, attr_key, check_single_output

__all__ = ["var", "Variable", "Group", "create_op", "make_function", "compose"]

_STORAGE_TYPES = {"default": 0, "row_sparse": 1, "csr": 2}


def var(
    name,
    attr=None,
    shape=None,
    lr_mult=None,
    wd_mult=None,
    dtype=None,
    init=None,
    stype=None,
    **kwargs,
):
    """A variable (an input of the graph) named exactly ``name``; no counter is used."""
    if not isinstance(name, str):
        raise TypeError(
            f"Expect a string for variable `name`; got {type(name).__name__} "
            f"{name!r} — write mx.sym.Variable('{name}')"
        )
    attrs = attribute.current().get(attr)
    if shape is not None:
        if isinstance(shape, (tuple, list)):  # a str or an int is read when inference runs
            check_shape(shape, where="mx.sym.Variable", name=name, mode="infer", keyword="shape")
        attrs["__shape__"] = str(shape)
    if lr_mult is not None:
        attrs["__lr_mult__"] = str(lr_mult)
    if wd_mult is not None:
        attrs["__wd_mult__"] = str(wd_mult)
    if dtype is not None:
        attrs["__dtype__"] = str(_dtype_code(name, dtype))
    if init is not None:
        attrs["__init__"] = init if isinstance(init, str) else init.dumps()
    if stype is not None:
        attrs["__storage_type__"] = str(_STORAGE_TYPES[stype])
    bad = [k for k, v in attrs.items() if not isinstance(v, str)]
    if bad:
        raise ValueError(
            f"Set Attr only accepts string values: attr {bad[0]}="
            f"{attrs[bad[0]]!r} should be {str(attrs[bad[0]])!r}"
        )
    for key, value in kwargs.items():
        if not (key.startswith("__") and key.endswith("__")):
            raise ValueError(
                f"Attribute name={key} is not supported. Additional attributes must "
                "start and end with double underscores, e.g, __yourattr__ "
                f"(write __{key}__={value!r})"
            )
        attrs[key] = str(value)
    return Symbol([(variable_node(name, {attr_key(k): str(v) for k, v in attrs.items()}), 0)])


Variable = var


def _dtype_code(name, dtype):
    """MXNet's type code of ``dtype``, or a TypeError naming the variable and the choices."""
    try:
        return DTYPE_NP_TO_MX[np.dtype(dtype).type]
    except (TypeError, KeyError):
        choices = ", ".join(repr(np.dtype(t).name) for t in DTYPE_NP_TO_MX)
        raise TypeError(
            f"mx.sym.Variable({name!r}): dtype={dtype!r} is not a data type "
            f"MXNet has; use one of {choices} (or the numpy type, e.g. "
            "np.float32)"
        ) from None


def Group(symbols, create_fn=None):
    """One symbol whose outputs are the outputs of ``symbols``, in order (duplicates kept)."""
    if not symbols or any(not isinstance(s, Symbol) for s in symbols):
        raise TypeError(
            "Expected a list of symbols as input (e.g. mx.sym.Group([loss, "
            "mx.sym.BlockGrad(pred)])); got "
            + (repr(symbols) if not symbols else ", ".join(type(s).__name__ for s in symbols))
        )
    return Symbol([entry for s in symbols for entry in s.outputs])


_ONE_WAY = (
    "Operators with variable length input can only accept input Symbols either as "
    "positional or keyword arguments, not both"
)


def create_op(fn, args, kwargs):
    """``mx.sym.<fn>(*args, **kwargs)`` for an operator function ``fn`` (an OpFunction).

    Arguments bind as in MXNet's generated functions (minisym/symbol/signature.py): the
    inputs, then the parameters in their documented order, then name, attr, out.
    """
    signature = signature_of(fn)
    call = signature.bind(args, kwargs, lambda value: isinstance(value, Symbol))
    check_call_types(signature, call, Symbol)
    return node_from_call(fn, call)


def node_from_call(fn, call):
    """The Symbol for a bound call whose inputs are Symbols (mx.nd calls come here with one
    placeholder variable per NDArray)."""
    op_cls = fn.op_cls
    params = dict(call.params)
    params.update(attribute.current().get(checked_attr(fn, call.attr)))
    node_name = name_mod.current().get(checked_name(fn, call.name), fn.hint)
    where = f"{op_cls.op_name} {node_name!r}"
    positional, sym_kwargs, how = list(call.positional), dict(call.inputs), dict(call.how)
    if op_cls.key_var_num_args is not None:
        _check_variadic_inputs(fn, positional, sym_kwargs)
        params.setdefault(op_cls.key_var_num_args, len(positional) + len(sym_kwargs))
    attrs = {attr_key(k): param_text(k, v, where) for k, v in params.items()}
    op = op_cls(attrs, node_name)
    input_names = op.list_arguments() + op.list_auxiliary_states()
    if op_cls.key_var_num_args is not None and len(positional) > len(input_names):
        raise MXNetValueError(
            f"{where}: Incorrect number of arguments, requires {len(input_names)}, provided "
            f"{len(positional)}: {op_cls.key_var_num_args}={params[op_cls.key_var_num_args]} "
            f"says how many inputs it takes; give that many, or leave "
            f"{op_cls.key_var_num_args} out (it is counted for you)"
        )
    if op_cls.key_var_num_args is None and positional:  # Custom: by the Prop's argument names
        how.update(_add_positional_inputs(op, input_names, positional, sym_kwargs))
        positional = []
    return Symbol(
        _op_outputs(
            op, node_name, attrs, input_names, positional, sym_kwargs, how, signature_of(fn).inputs
        )
    )


def _check_variadic_inputs(fn, positional, sym_kwargs):
    """Inputs of a variadic operator (Concat) are all positional or all by keyword."""
    if positional and sym_kwargs:
        raise TypeError(
            f"{_ONE_WAY} ({fn.func_name} got {len(positional)} by position and "
            f"{sorted(sym_kwargs)} by keyword)"
        )


def _add_positional_inputs(op, input_names, args, sym_kwargs):
    """Put each positional input of a Custom operator into ``sym_kwargs`` under the Prop's
    argument name it fills; returns how each arrived."""
    if args and sym_kwargs:
        raise TypeError(
            f"{_ONE_WAY} ({op.where} got {len(args)} by position and "
            f"{sorted(sym_kwargs)} by keyword)"
        )
    if len(args) > len(input_names):
        raise TypeError(
            f"{op.where}: takes at most {len(input_names)} input symbols "
            f"{input_names}, got {len(args)} positional arguments"
        )
    for slot, value in zip(input_names, args):
        sym_kwargs[slot] = value
    return {slot: ("position", i) for i, slot in enumerate(input_names[: len(args)])}


def _op_outputs(op, node_name, attrs, input_names, positional, sym_kwargs, how, call_inputs=()):
    """Build the node: positional or named inputs, missing ones as implicit variables."""
    unknown = [k for k in sym_kwargs if k not in input_names]
    if unknown:
        listed = "\n".join(f"\t[{i}]{n}" for i, n in enumerate(input_names))
        unused = (
            f" {op.op_name} has an input {unknown[0]!r}, but with these parameters it "
            f"takes only {input_names}."
            if unknown[0] in call_inputs
            else ""
        )
        raise MXNetTypeError(
            f"{op.where}: keyword argument name {unknown[0]} not found.{unused}"
            f"\nCandidate arguments:\n{listed}"
        )
    inputs, given = [], []
    for index, slot in enumerate(input_names):
        if index < len(positional):
            symbol, arrived = positional[index], ("position", index)
        else:
            symbol, arrived = sym_kwargs.get(slot), how.get(slot, ("keyword", slot))
        given.append(("implicit", None) if symbol is None else arrived)
        if symbol is None:
            var_attrs = dict(attrs)
            var_attrs.update(op.input_var_attrs(index))
            inputs.append((variable_node(f"{node_name}_{slot}", var_attrs), 0))
        else:
            entry = check_single_output(symbol, op.where, f"{index} ({slot!r})")
            if entry[0].is_variable:  # MXNet sets e.g. __init__ on moving stats you pass in
                for key, value in op.input_var_attrs(index).items():
                    entry[0]._set_missing_attr(key, value)
            inputs.append(entry)
    node = Node(op, node_name, attrs, inputs, given)
    return [(node, i) for i in range(op.num_visible_outputs())]


def make_function(fn):
    """The Python function ``mx.sym.<fn.func_name>`` for an OpFunction."""

    def op_function(*args, **kwargs):
        return create_op(fn, args, kwargs)

    op_function.__name__ = op_function.__qualname__ = fn.func_name
    op_function.__signature__ = signature_of(fn).python_signature()
    op_function.__doc__ = function_doc(fn, "Symbol")
    return op_function


def function_doc(fn, returns):
    """The docstring of ``mx.sym.<name>`` / ``mx.nd.<name>``: signature, what it computes,
    the positional order and the auto-names."""
    cls, signature = fn.op_cls, signature_of(fn, returns == "NDArray")
    params = ", ".join(
        f"{k}={'<required>' if p.required else repr(p.default)}" for k, p in cls.params.items()
    )
    inputs = "*data" if signature.variadic else ", ".join(signature.inputs)
    order = (
        ""
        if signature.variadic
        else f"\n\nPositional arguments fill, in order: {signature.order_text()}."
    )
    return (
        f"{fn.func_name}({inputs}{', ' + params if params else ''}) -> {returns}"
        f"\n\n{(cls.__doc__ or '').strip()}{order}\n\nCreates operator {cls.op_name!r}; "
        f"auto-names are {fn.hint}0, {fn.hint}1, ..."
    )


def compose(symbol, *args, **kwargs):
    """A copy of ``symbol`` whose free variables named in ``kwargs`` are replaced by symbols."""
    name = kwargs.pop("name", None)
    if args and kwargs:
        raise TypeError(
            "compose only accept input Symbols either as positional or keyword arguments, not both"
        )
    if any(not isinstance(v, Symbol) for v in list(args) + list(kwargs.values())):
        raise TypeError("Compose expect `Symbol` as arguments")
    if args:
        raise MXNetTypeError(
            "General composition only support kwargs for now: write "
            f"sym({symbol.list_arguments()[0]}=other_symbol)"
        )
    variables = {n.name for n in symbol.topo_order() if n.is_variable}
    missing = [k for k in kwargs if k not in variables]
    if missing:
        raise MXNetValueError(
            f"compose: {missing[0]!r} is not a variable of this symbol; its "
            f"variables are {sorted(variables)}"
        )
    replace = {k: check_single_output(v, "compose", k) for k, v in kwargs.items()}
    rebuilt = {}
    for node in symbol.topo_order():
        if node.is_variable:
            rebuilt[id(node)] = replace.get(node.name, (node, 0))
            continue
        inputs = [_follow(rebuilt, src, idx) for src, idx in node.inputs]
        if all(new == (src, idx) for new, (src, idx) in zip(inputs, node.inputs)):
            rebuilt[id(node)] = (node, None)
        else:
            rebuilt[id(node)] = (Node(node.op, node.name, node.attrs, inputs, node.given), None)
    outputs = [_follow(rebuilt, node, idx) for node, idx in symbol.outputs]
    if name and len({id(n) for n, _ in outputs}) == 1 and not outputs[0][0].is_variable:
        head = outputs[0][0]
        renamed = Node(head.op, name, head.attrs, head.inputs, head.given)
        outputs = [(renamed, idx) for _, idx in outputs]
    return Symbol(outputs)


def _follow(rebuilt, node, index):
    """The entry that replaces ``(node, index)`` after composition."""
    new_node, new_index = rebuilt[id(node)]
    return (new_node, index if new_index is None else new_index)
