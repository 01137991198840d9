"""``mx.operator``: write your own operator in Python, with MXNet's exact contract.

A CustomOpProp *declares* the operator (its argument, output and auxiliary names, shapes,
types, what backward needs); a CustomOp *computes* it. Built-in operators are the same two
halves in one class (see ``minisym.ops.operator_base.Operator``), so what you learn here is
how every layer works:

    in_data[i], in_grad[i], backward req[i]   <->  list_arguments()[i]
    out_data[j], out_grad[j], forward req[j]  <->  list_outputs()[j]
    aux[k]                                    <->  list_auxiliary_states()[k]
"""

from collections import namedtuple

from .assign import assign as _assign
from .base import MXNetValueError
from .ops.custom import _PROPS, get_prop_class  # noqa: F401 (mx.operator's)
from .ops.custom_checks import CustomOpWarning
from .ops.operator_base import functions
from .symbol.signature import signature_of

__all__ = [
    "CustomOp",
    "CustomOpProp",
    "CustomOpWarning",
    "register",
    "registered",
    "get_all_registered_operators",
    "get_operator_arguments",
    "OperatorArguments",
]


class CustomOp:
    """Base class of what a custom operator computes."""

    def __init__(self):
        pass

    def forward(self, is_train, req, in_data, out_data, aux):
        """Fill ``out_data`` (NDArrays) from ``in_data``; ``req[j]`` says how for output j.
        Write with ``self.assign(out_data[j], req[j], result)``: what forward returns is
        ignored."""

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """Fill ``in_grad`` from ``out_grad`` (the gradient arriving from above, read only);
        ``req[i]`` says how for argument i. Write with ``self.assign(in_grad[i], req[i], grad)``:
        what backward returns is ignored, and an in_grad it never writes becomes zero (with a
        CustomOpWarning). Under req 'add' it adds: overwriting such an in_grad
        (``in_grad[i][:] = grad``) or replacing a list's entry (``aux[0] = x``) warns with a
        ``minisym.MistakeWarning``."""

    def assign(self, dst, req, src):
        """Write ``src`` into ``dst``: 'null' skips, 'write'/'inplace' overwrite, 'add' adds."""
        _assign(dst, req, src)


class CustomOpProp:
    """Base class of what a custom operator declares. Keyword arguments of ``mx.sym.Custom``
    reach ``__init__`` as strings (``flag=False`` as ``'False'``, which is true: testing the
    truth of such a string warns with a ``minisym.MistakeWarning``; convert it first)."""

    def __init__(self, need_top_grad=True):
        self.need_top_grad_ = need_top_grad

    def infer_shape(self, in_shape):
        """(input shapes, output shapes, aux shapes) from ``in_shape`` (lists; [] = unknown)."""
        return in_shape, (in_shape[0],) * len(self.list_outputs()), ()

    def infer_type(self, in_type):
        """(input types, output types, aux types) from ``in_type`` (numpy types; None = unknown)."""
        return (
            in_type,
            [in_type[0]] * len(self.list_outputs()),
            [in_type[0]] * len(self.list_auxiliary_states()),
        )

    def list_outputs(self):
        """Output names, in the order of ``out_data`` / ``out_grad`` / forward ``req``."""
        return ["output"]

    def list_arguments(self):
        """Input names, in the order of ``in_data`` / ``in_grad`` / backward ``req``."""
        return ["data"]

    def list_auxiliary_states(self):
        """Auxiliary state names, in the order of ``aux``."""
        return []

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        """The ids of the arrays backward reads (the head gradient only if need_top_grad)."""
        head = list(out_grad) if self.need_top_grad_ else []
        return head + list(in_data) + list(out_data)

    def create_operator(self, ctx, in_shapes, in_dtypes):
        """The CustomOp that computes; called once per executor at bind."""
        return CustomOp()


def register(reg_name):
    """Decorator: ``@mx.operator.register("softmax")`` makes ``op_type='softmax'`` usable."""

    def do_register(prop_cls):
        if not (isinstance(prop_cls, type) and issubclass(prop_cls, CustomOpProp)):
            raise TypeError(
                f"mx.operator.register('{reg_name}') decorates a subclass of "
                f"mx.operator.CustomOpProp, not {prop_cls!r}"
            )
        _PROPS[reg_name] = prop_cls
        return prop_cls

    return do_register


def registered():
    """{op_type: CustomOpProp subclass} of every registered custom operator."""
    return dict(_PROPS)


OperatorArguments = namedtuple("OperatorArguments", ["narg", "names", "types"])


def get_all_registered_operators():
    """The names of every operator function (``mx.sym.<name>`` / ``mx.nd.<name>``), sorted:
    minisym's registry, so far fewer than MXNet's 1167."""
    return sorted(functions())


def get_operator_arguments(op_name):
    """``OperatorArguments(narg, names, types)``: the inputs, then the parameters, of operator
    ``op_name``, with MXNet's type strings (``'int, required'``, ``'NDArray-or-Symbol'``)."""
    fn = functions().get(op_name)
    if fn is None:
        raise MXNetValueError(
            f"Operator {op_name} is not registered; mx.operator.get_all_registered_operators() "
            "lists the names (a custom operator is 'Custom', with op_type=...)"
        )
    signature = signature_of(fn)
    if signature.variadic:
        names, types = ["data"], ["NDArray-or-Symbol[]"]
        params = list(fn.op_cls.params)
        if fn.op_cls.takes_prop_keywords:  # its other keywords go to your CustomOpProp
            names, types = names + ["op_type"], types + ["string"]
    else:
        names, types = list(signature.inputs), ["NDArray-or-Symbol"] * len(signature.inputs)
        params = list(signature.params)
    names += params
    types += [_type_text(fn.op_cls.params[key]) for key in params]
    return OperatorArguments(len(names), names, types)


def _type_text(param):
    """MXNet's description of a parameter's type: ``'boolean, optional, default=0'``."""
    kind = param.type_name
    if kind.startswith("optional "):  # MXNet's 'Shape or None', 'float or None'
        kind = {"shape_tuple": "Shape", "str": "string"}.get(kind[9:], kind[9:]) + " or None"
    if param.required:
        return f"{kind}, required"
    default = param.default
    if isinstance(default, bool):
        text = str(int(default))
    elif isinstance(default, tuple):
        text = "[" + ",".join(str(d) for d in default) + "]"
    elif isinstance(default, str) and param.choices:
        text = repr(default)
    else:
        text = str(default)
    return f"{kind}, optional, default={text}"
