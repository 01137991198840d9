"""The type checks of an operator call, and what their errors say: an input that is not a
Symbol (an NDArray for mx.nd), a Symbol given as a parameter, a name or attr of the wrong
type. Exception types are MXNet 1.9.1's; the texts say where each argument went and why."""

from ..arrays.ndarray import NDArray
from ..base import MXNetTypeError
from .signature import ordinal, short_repr, signature_of
from .symbol import Symbol

__all__ = ["InputTypeError", "NameTypeError", "check_call_types", "checked_name", "checked_attr"]


class InputTypeError(AssertionError, TypeError):
    """An input that is not a Symbol (an NDArray for mx.nd). MXNet 1.9.1 raises
    AssertionError; the mistake is one of type, so ``except TypeError`` catches it too."""


class NameTypeError(AttributeError, TypeError):
    """A ``name`` that is not a string. MXNet 1.9.1 raises AttributeError (it calls the
    name's ``.encode``); the mistake is one of type, so ``except TypeError`` catches it too."""


def check_call_types(signature, call, array_type):
    """Inputs are ``array_type`` (Symbol, or NDArray for mx.nd) and parameters are not."""
    for position, value in enumerate(call.positional):
        if not isinstance(value, array_type):
            raise InputTypeError(_variadic_type_message(signature, value, position))
    for slot, value in call.inputs.items():
        if not isinstance(value, array_type):
            raise InputTypeError(_input_type_message(signature, slot, value, call.how[slot]))
    for key, value in call.params.items():
        if isinstance(value, (Symbol, NDArray)):
            kind = type(value).__name__
            raise MXNetTypeError(
                f"{signature.where}: parameter {key} got a {kind} ({short_repr(value)}); "
                f"parameters are numbers, strings or tuples, and {kind}s go to the inputs "
                f"({', '.join(signature.inputs) or 'by position'}). {signature.where} takes, "
                f"in this order: {signature.order_text()}."
            )


def _must_be(signature):
    return "must have NDArray type" if signature.kind == "NDArray" else "must be Symbol instances"


def _input_type_message(signature, slot, value, how):
    """Why a non-Symbol (non-NDArray) cannot fill input ``slot``, and what to write."""
    got = (
        f"Argument {slot} {_must_be(signature)}, but got {short_repr(value)} "
        f"({type(value).__name__})"
    )
    numpy_array = type(value).__module__ == "numpy" or isinstance(value, NDArray)
    if signature.kind == "NDArray":
        fix = (
            "Give an NDArray: wrap it with mx.nd.array(...)"
            if numpy_array
            else "Give an NDArray, e.g. mx.nd.array(...)"
        )
    elif numpy_array:
        fix = (
            f"A symbol's inputs are Symbols: make one with mx.sym.Variable('{slot}') and give "
            f"the array when you bind, or compute now with mx.nd.{signature.fn.func_name}"
        )
    else:
        fix = f"Give a Symbol, e.g. mx.sym.Variable('{slot}')"
    if how[0] == "position" and signature.params and not numpy_array:
        example = f"{signature.params[0]}={short_repr(value)}"
        return (
            f"{got}. {signature.where} takes its inputs first ({', '.join(signature.inputs)})"
            f" and then its parameters, so the {ordinal(how[1])} positional argument is the "
            f"input '{slot}'. Give parameters by keyword (e.g. {example}), and None for an "
            f"input you leave out. In order: {signature.order_text()}. {fix}."
        )
    if how[0] == "position":
        return (
            f"{got}: the {ordinal(how[1])} positional argument is the input '{slot}' of "
            f"{signature.where} (in order: {signature.order_text()}). {fix}."
        )
    return f"{got}: {slot} is an input of {signature.where}. {fix}, or leave it out."


def _variadic_type_message(signature, value, position):
    """Why a positional argument of Concat / Custom must be a Symbol (NDArray)."""
    kind = signature.kind
    got = (
        f"Positional arguments {_must_be(signature)}, but got {short_repr(value)} "
        f"({type(value).__name__})"
    )
    if value is None:
        return (
            f"{got} as the {ordinal(position)} argument: {signature.where} takes only the "
            f"{kind}s to combine by position; leave the None out"
        )
    return (
        f"{got} as the {ordinal(position)} argument: {signature.where} takes {kind}s by "
        f"position and its parameters by keyword (e.g. {signature.where}(a, b, dim=0)); "
        + (
            "make a symbol with mx.sym.Variable('name')"
            if kind == "Symbol"
            else "make an NDArray with mx.nd.array(...)"
        )
    )


def checked_name(fn, name):
    """``name`` when it is a string or None; else MXNet's AttributeError, explained."""
    if name is not None and not isinstance(name, str):
        raise NameTypeError(
            f"mx.sym.{fn.func_name}: name must be a string, got {short_repr(name)} "
            f"({type(name).__name__}). Positional arguments fill, in order, "
            f"{signature_of(fn).order_text()}; give parameters by keyword"
        )
    return name


def checked_attr(fn, attr):
    """``attr`` when it is a dict or None; else a TypeError, explained."""
    if attr is not None and not isinstance(attr, dict):
        raise TypeError(
            f"mx.sym.{fn.func_name}: attr must be a dict of strings such as "
            f"{{'__lr_mult__': '2'}}, got {short_repr(attr)} ({type(attr).__name__}). "
            f"Positional arguments fill, in order, {signature_of(fn).order_text()}; give "
            "parameters by keyword"
        )
    return attr
