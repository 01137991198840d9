"""``mx.nd.<Operator>(...)``: run one registered operator right away on NDArrays.

The same operator class serves both worlds: a symbol records a node, an NDArray call builds a
one-node graph, binds it to your arrays and runs its forward (``is_train=False``).
"""
from ..base import MXNetTypeError
from ..name import NameManager
from ..ops.registry import functions
from .ndarray import NDArray

__all__ = ["install"]


def _imperative(fn):
    """The ``mx.nd`` function for an operator function ``fn`` of the registry."""
    def run(*args, **kwargs):
        from .. import symbol as sym
        from ..context import cpu
        out = kwargs.pop("out", None)
        is_train = kwargs.pop("is_train", False)
        arrays = {}
        placeholders = []
        for i, value in enumerate(args):
            name = f"_in{i}"
            arrays[name] = _as_ndarray(value)
            placeholders.append(sym.Variable(name))
        for key, value in list(kwargs.items()):
            if isinstance(value, NDArray):
                arrays[f"_kw_{key}"] = value
                kwargs[key] = sym.Variable(f"_kw_{key}")
        with NameManager():  # imperative calls must not advance the symbols' name counters
            node_sym = sym.create_op(fn, placeholders, kwargs)
        missing = [n for n in node_sym.list_inputs() if n not in arrays]
        if missing:
            raise MXNetTypeError(f"mx.nd.{fn.func_name}: give every input as an NDArray; "
                                 "missing " + ", ".join(missing))
        args_list = [arrays[n] for n in node_sym.list_arguments()]
        aux_list = [arrays[n] for n in node_sym.list_auxiliary_states()]
        ex = node_sym.bind(cpu(), args_list, grad_req="null", aux_states=aux_list)
        results = ex.forward(is_train=is_train)
        results = [NDArray(r._data.copy(), r.context) for r in results]
        if out is not None:
            targets = out if isinstance(out, (list, tuple)) else [out]
            for target, result in zip(targets, results):
                target[:] = result
            return out
        return results[0] if len(results) == 1 else results
    run.__name__ = fn.func_name
    run.__doc__ = f"Run operator {fn.op_cls.op_name} now on NDArrays (see mx.sym.{fn.func_name})."
    return run


def _as_ndarray(value):
    if isinstance(value, NDArray):
        return value
    raise TypeError(f"mx.nd operators take NDArrays as inputs, got {type(value).__name__}; "
                    "wrap it with mx.nd.array(...)")


def install(namespace):
    """Put one function per registered operator into ``namespace`` (without overwriting)."""
    for func_name, fn in functions().items():
        if func_name not in namespace:
            namespace[func_name] = _imperative(fn)
