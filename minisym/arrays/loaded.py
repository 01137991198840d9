"""What ``mx.nd.load`` returns: a plain list or dict, except that using it as an NDArray
(``loaded.asnumpy()``, ``loaded.shape``, ``loaded + 1``) says how to index it."""

from .ndarray import NDArray

__all__ = ["LoadedList", "LoadedDict"]


def _is_array_attribute(name):
    """True for a public NDArray attribute that the container itself lacks."""
    return not name.startswith("_") and hasattr(NDArray, name)


class _Loaded:
    """Shared by LoadedList and LoadedDict: the teaching AttributeError and TypeError."""

    where = "mx.nd.load"

    def __getattr__(self, name):
        python_text = f"'{type(self).__mro__[2].__name__}' object has no attribute '{name}'"
        if _is_array_attribute(name):
            call = "()" if callable(getattr(NDArray, name)) else ""
            raise AttributeError(f"{self._index_first(f'.{name}{call}')} ({python_text})")
        raise AttributeError(python_text)

    def _arithmetic(self, op, dunder, other, reflected):
        """The TypeError Python gives for ``loaded <op> other``, the way to index it first."""
        if isinstance(other, NDArray):
            return NotImplemented  # the NDArray's own reflected operator decides, as before
        python = type(self).__mro__[2]
        base = getattr(python, dunder, None)
        python_text = None
        try:
            result = NotImplemented if base is None else base(self, other)
        except TypeError as exc:
            python_text = str(exc)
        else:
            if result is not NotImplemented:
                return result
        if python_text is None:
            names = (type(other).__name__, python.__name__)
            left, right = names if reflected else names[::-1]
            python_text = f"unsupported operand type(s) for {op}: '{left}' and '{right}'"
        raise TypeError(f"{self._index_first(f' {op} ...')} ({python_text})")


def _operators(cls, ops):
    """Give ``cls`` the teaching TypeError for each (dunder, symbol, reflected) in ``ops``."""
    for dunder, symbol, reflected in ops:

        def method(self, other, _symbol=symbol, _reflected=reflected, _dunder=dunder):
            return self._arithmetic(_symbol, _dunder, other, _reflected)

        method.__name__ = dunder
        setattr(cls, dunder, method)
    return cls


_ARITHMETIC = [
    ("__add__", "+", False),
    ("__radd__", "+", True),
    ("__sub__", "-", False),
    ("__rsub__", "-", True),
    ("__truediv__", "/", False),
    ("__rtruediv__", "/", True),
    ("__pow__", "**", False),
    ("__matmul__", "@", False),
]
_REPEAT = [("__mul__", "*", False), ("__rmul__", "*", True)]  # list * 2 repeats: left alone


class LoadedList(_Loaded, list):
    """The list of NDArrays ``mx.nd.load`` read from a file saved without names."""

    def _index_first(self, use):
        count = len(self)
        span = f", loaded[0] to loaded[{count - 1}]" if count > 1 else ""
        return (
            f"index the list {self.where} returned first: loaded[0]{use} (it holds "
            f"{count} NDArray(s){span}; it is a list, not an NDArray)"
        )


class LoadedDict(_Loaded, dict):
    """The dict {name: NDArray} ``mx.nd.load`` read from a file saved with names."""

    def _index_first(self, use):
        names = list(self)
        first = names[0] if names else "arg:fc1_weight"
        shown = ", ".join(repr(n) for n in names[:3]) + (", ..." if len(names) > 3 else "")
        return (
            f"index the dict {self.where} returned by name first: "
            f"loaded[{first!r}]{use} (it holds {len(names)} NDArray(s) named "
            f"{shown or 'nothing'}; it is a dict, not an NDArray)"
        )


_operators(LoadedList, _ARITHMETIC)
_operators(LoadedDict, _ARITHMETIC + _REPEAT)

# Named as the built-ins they extend, so that type(loaded).__name__ is 'list' / 'dict' as in
# MXNet (code that records or prints it sees no difference); the module path tells them apart.
LoadedList.__name__ = "list"
LoadedDict.__name__ = "dict"
