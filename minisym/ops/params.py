"""Operator parameters: MXNet stores every parameter as a string; these parse them back.

``Param(int, required=True)`` declares a parameter; ``parse_params`` turns the string attributes
of a node (``{'kernel': '(3, 3)'}``) into Python values (``(3, 3)``) with MXNet's defaults.
"""

import ast
import difflib

import numpy as np

from ..base import MXNetTypeError, MXNetValueError

__all__ = [
    "Param",
    "REQUIRED",
    "parse_params",
    "param_text",
    "shape_tuple",
    "literal_tuple",
    "is_int",
    "optional",
    "boolean",
    "dtype_str",
]

REQUIRED = object()


def boolean(text):
    """'True'/'False'/'1'/'0' (any case) -> bool."""
    lowered = text.strip().lower()
    if lowered in ("true", "1"):
        return True
    if lowered in ("false", "0"):
        return False
    raise ValueError(f"expected True or False, got {text!r}")


def literal_tuple(text, fits):
    """``text`` as a Python literal, one value or a tuple / list of them, as a tuple; None
    unless every value ``fits``."""
    try:
        value = ast.literal_eval(text.strip()) if text.strip() else ()
    except (ValueError, SyntaxError):  # its message would show an ast node's memory address
        return None
    values = tuple(value) if isinstance(value, (tuple, list)) else (value,)
    return values if all(fits(v) for v in values) else None


def is_int(value):
    """Whether ``value`` is an int (not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)


def shape_tuple(text):
    """'(3, 3)', '[3, 3]', '3' or '()' -> a tuple of ints."""
    shape = literal_tuple(text, is_int)
    if shape is None:
        raise ValueError(f"expected a tuple of ints such as (3, 3), got {text!r}")
    return shape


def optional(parse):
    """A parser that also accepts 'None'."""

    def parse_optional(text):
        return None if text.strip() == "None" else parse(text)

    parse_optional.__name__ = f"optional {getattr(parse, '__name__', 'value')}"
    return parse_optional


def dtype_str(text):
    """A dtype name such as 'float32' (numpy dtypes pass through their name)."""
    try:
        return np.dtype(text.strip()).name
    except TypeError as exc:
        raise ValueError(f"expected a dtype name such as 'float32', got {text!r}") from exc


def param_text(key, value, where):
    """How MXNet stores a parameter: ``str(value)``, with NumPy scalars printed as NumPy 1.x
    prints them (so ``(np.int64(2), np.int64(0))`` is ``'(2, 0)'`` under NumPy 2 too), dtypes by
    name. A NumPy array is refused, as MXNet refuses its text ``'[2 0 1]'``."""
    if key == "dtype" and not isinstance(value, str):
        return np.dtype(value).name
    if isinstance(value, np.ndarray) and value.ndim > 0:
        as_tuple = tuple(value.tolist()) if value.ndim == 1 else None
        fix = (
            f"pass a tuple: {key}={_text(as_tuple, True)}"
            if as_tuple is not None
            else f"pass a tuple of numbers, e.g. {key}=tuple(array.ravel().tolist())"
        )
        raise MXNetValueError(
            f"{where}: parameter {key} is a NumPy array {np.array2string(value, separator=', ')}"
            f"; MXNet stores parameters as text and cannot read an array's text "
            f"{str(value)!r} back; {fix}"
        )
    return _text(value, top=True)


def _text(value, top):
    """``str(value)`` at the top level, ``repr`` inside tuples and lists, as Python prints
    them, except that NumPy scalars are always printed by ``str`` (``2``, not ``np.int64(2)``)."""
    if isinstance(value, (np.generic, np.ndarray)):  # a NumPy scalar or 0-d array
        item = value.item()
        if isinstance(item, (str, bytes)):
            return str(item) if top else repr(item)
        return str(value)
    if isinstance(value, tuple):
        inner = ", ".join(_text(v, False) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(_text(v, False) for v in value) + "]"
    return str(value) if top else repr(value)


_TYPE_NAMES = {
    int: "int",
    float: "float",
    boolean: "boolean",
    shape_tuple: "Shape(tuple)",
    str: "string",
    dtype_str: "dtype",
}


class Param:
    """One operator parameter: how to parse it, its MXNet default, allowed values, a check."""

    def __init__(self, parse, default=REQUIRED, choices=None, check=None, doc=""):
        self.parse = parse
        self.default = default
        self.choices = tuple(choices) if choices else None
        self.check = check
        self.doc = doc

    @property
    def required(self):
        """Whether the parameter has no default and must be given."""
        return self.default is REQUIRED

    @property
    def type_name(self):
        """How errors and docs name the type: ``int``, ``Shape(tuple)``, ``{'max', 'avg'}``."""
        if self.choices:
            return "{" + ", ".join(repr(c) for c in self.choices) + "}"
        return _TYPE_NAMES.get(self.parse, getattr(self.parse, "__name__", "value"))

    def read(self, text, where, key):
        """Parse the string ``text`` for parameter ``key`` of ``where`` (e.g. "Pooling 'pool1'")."""
        if self.choices:
            if text not in self.choices:
                raise MXNetValueError(
                    f"{where}: {key}={text!r} is not allowed; choose one of "
                    + ", ".join(repr(c) for c in self.choices)
                )
            return text
        try:
            value = self.parse(text)
        except (ValueError, SyntaxError, RecursionError, MemoryError) as exc:
            # a crafted text (a symbol file's '1+1+...+1') nests too deeply for the parser
            detail = str(exc) if len(text) <= 80 else "it is not one"
            shown = repr(text) if len(text) <= 80 else repr(text[:60]) + f"... ({len(text)} chars)"
            raise MXNetValueError(
                f"{where}: parameter {key}={shown} cannot be read as {self.type_name} ({detail})"
            ) from None
        if self.check is not None:
            problem = self.check(value)
            if problem:
                raise MXNetValueError(f"{where}: {key}={text} is invalid: {problem}")
        return value


def parse_params(schema, attrs, where):
    """Values for every parameter of ``schema`` from the string ``attrs``; defaults filled in.

    Keys of the form ``__x__`` are user attributes and ignored; any other unknown key is a
    TypeError that lists the operator's parameters.
    """
    unknown = [
        k for k in attrs if k not in schema and not (k.startswith("__") and k.endswith("__"))
    ]
    if unknown:
        known = ", ".join(schema) or "(none)"
        close = difflib.get_close_matches(unknown[0], list(schema), n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise MXNetTypeError(
            f"{where}: unknown parameter {unknown[0]!r}.{hint} Its parameters are: {known}. "
            f"(Attributes of your own must look like __{unknown[0]}__.)"
        )
    values = {}
    for key, param in schema.items():
        if key in attrs:
            values[key] = param.read(attrs[key], where, key)
        elif param.required:
            raise MXNetValueError(
                f"{where}: required parameter {key!r} ({param.type_name}) is "
                f"missing; pass {key}=... when you create it"
            )
        else:
            values[key] = param.default
    return values
