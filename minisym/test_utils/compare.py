"""Comparing arrays with MXNet's per-dtype tolerances, and saying where and by how much they differ.

``assert_almost_equal(a, b)`` passes when ``|a - b| <= atol + rtol * |b|`` everywhere; the
tolerances default to the larger of the two arrays' dtype defaults (float32: rtol 1e-4, atol
1e-3). When it fails, ``Mismatch`` says which elements differ and by how much, in a few lines.
"""

import numbers

import numpy as np

from ..arrays.ndarray import NDArray

__all__ = [
    "default_dtype",
    "default_rtols",
    "default_atols",
    "default_numeric_eps",
    "get_tolerance",
    "get_tols",
    "get_atol",
    "get_rtol",
    "same",
    "almost_equal",
    "assert_almost_equal",
    "assert_allclose",
    "np_reduce",
    "Mismatch",
    "as_numpy",
]

_FLOAT64 = np.dtype(np.float64)
_INTS = (np.bool_, np.int8, np.uint8, np.int32, np.uint32, np.int64, np.uint64)


def default_dtype():
    """The dtype the checks create arrays with: np.float32."""
    return np.float32


def default_rtols():
    """{np.dtype: relative tolerance}: float16 1e-2, float32 1e-4, float64 1e-5, integers 0."""
    tols = {np.dtype(np.float16): 1e-2, np.dtype(np.float32): 1e-4, np.dtype(np.float64): 1e-5}
    tols.update((np.dtype(t), 0) for t in _INTS)
    return tols


def default_atols():
    """{np.dtype: absolute tolerance}: float16 1e-1, float32 1e-3, float64 1e-20, integers 0."""
    tols = {np.dtype(np.float16): 1e-1, np.dtype(np.float32): 1e-3, np.dtype(np.float64): 1e-20}
    tols.update((np.dtype(t), 0) for t in _INTS)
    return tols


def default_numeric_eps():
    """{np.dtype: finite-difference step}: powers of two, so adding one drops no bits."""
    return {
        np.dtype(np.float16): 1.0 / 2**6,
        np.dtype(np.float32): 1.0 / 2**9,
        np.dtype(np.float64): 1.0 / 2**14,
    }


def get_tolerance(dat, tol, default_tol):
    """``tol`` if it is a number, else ``tol[dtype]`` or ``default_tol[dtype]`` for dat's dtype."""
    if isinstance(tol, numbers.Number):
        return tol
    dtype = np.dtype(dat.dtype)
    return (tol or {}).get(dtype, default_tol[dtype])


def get_tols(x, y, rtol, atol):
    """(rtol, atol) for comparing x and y: the larger default of their two dtypes, unless given."""
    x = np.array(x) if isinstance(x, numbers.Number) else x
    y = np.array(y) if isinstance(y, numbers.Number) else y
    return (
        max(get_tolerance(x, rtol, default_rtols()), get_tolerance(y, rtol, default_rtols())),
        max(get_tolerance(x, atol, default_atols()), get_tolerance(y, atol, default_atols())),
    )


def get_atol(atol=None, dtype=_FLOAT64):
    """``atol``, or the default absolute tolerance of ``dtype`` (float64: 1e-20)."""
    return default_atols()[dtype] if atol is None else atol


def get_rtol(rtol=None, dtype=_FLOAT64):
    """``rtol``, or the default relative tolerance of ``dtype`` (float64: 1e-5)."""
    return default_rtols()[dtype] if rtol is None else rtol


def as_numpy(x):
    """An NDArray's values as numpy; anything else through np.asarray."""
    return x.asnumpy() if isinstance(x, NDArray) else np.asarray(x)


def same(a, b):
    """True when two numpy arrays have the same shape and elements."""
    return np.array_equal(a, b)


def _check_shapes(a, b, names):
    if np.shape(a) != np.shape(b):
        raise AssertionError(
            f"{names[0]} has shape {np.shape(a)} but {names[1]} has shape "
            f"{np.shape(b)}; with use_broadcast=False they must be equal"
        )


def almost_equal(a, b, rtol=None, atol=None, equal_nan=False, use_broadcast=True):
    """True when ``|a - b| <= atol + rtol*|b|`` everywhere (defaults: float64's 1e-5, 1e-20)."""
    if not use_broadcast:
        _check_shapes(a, b, ("a", "b"))
    return bool(np.allclose(a, b, rtol=get_rtol(rtol), atol=get_atol(atol), equal_nan=equal_nan))


def assert_almost_equal(
    a,
    b,
    rtol=None,
    atol=None,
    names=("a", "b"),
    equal_nan=False,
    use_broadcast=True,
    mismatches=(10, 10),
):
    """Raise AssertionError saying where a and b (numpy arrays, NDArrays or numbers) differ.

    Tolerances default per dtype (``default_rtols`` / ``default_atols``, the larger of the two);
    the message lists the worst elements, at most ``mismatches[0]`` and never more than five.
    """
    if not use_broadcast:
        _check_shapes(a, b, names)
    rtol, atol = get_tols(a, b, rtol, atol)
    a, b = as_numpy(a), as_numpy(b)
    if a.dtype == np.bool_ and b.dtype == np.bool_:
        rtol = atol = 0
    mismatch = Mismatch.find(a, b, rtol, atol, equal_nan, names)
    if mismatch is not None:
        error = AssertionError(
            mismatch.report(f"{names[0]} and {names[1]} differ", rows=min(mismatches[0], 5))
        )
        error.mismatch = mismatch.found_by("assert_almost_equal")
        raise error


def assert_allclose(a, b, rtol=1e-07, atol=0, equal_nan=True):
    """``assert_almost_equal`` with numpy's assert_allclose defaults (rtol 1e-7, atol 0)."""
    assert_almost_equal(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


def np_reduce(dat, axis, keepdims, numpy_reduce_func):
    """Reduce ``dat`` over ``axis`` (None, an int or a list) one axis at a time with e.g. np.sum."""
    axes = (
        [axis]
        if isinstance(axis, int)
        else (list(axis) if axis is not None else list(range(dat.ndim)))
    )
    out = dat
    for i in sorted(axes, reverse=True):
        out = numpy_reduce_func(out, axis=i)
    if keepdims:
        shape = list(dat.shape)
        for i in axes:
            shape[i] = 1
        out = np.reshape(out, tuple(shape))
    return out


def fmt(x, other=None):
    """``x`` with 4 significant digits, or as many more as it takes to differ from ``other``."""
    for digits in range(4, 11):
        text = f"{x:.{digits}g}"
        if other is None or text != f"{other:.{digits}g}":
            return text
    return text


WORST_KEPT = 100  # indices a Mismatch lists; a message shows five, a picture marks one


def _largest_first(score, k):
    """The flat positions of the ``k`` largest scores, largest first, ties in index order
    (what a stable sort of the whole array gives, without sorting all of it)."""
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    threshold = np.partition(score, score.size - k)[score.size - k]
    candidates = np.flatnonzero(score >= threshold)
    return candidates[np.argsort(-score[candidates], kind="stable")][:k]


class Mismatch:
    """Where two arrays differ beyond ``atol + rtol*|b|``: counts, worst elements, max errors.

    A failed check attaches it to its AssertionError as ``error.mismatch``; what it holds:

    - ``expected`` / ``got``: the two arrays (float64, the same shape ``shape``); ``names``
      says what they are, e.g. ``('numeric', 'symbolic')`` or ``('expected', 'backward')``;
    - ``rtol``, ``atol``: the tolerances; ``bad``: the boolean array of elements outside them;
    - ``worst``: the indices outside tolerance, largest ``|expected - got|`` first, at most
      ``WORST_KEPT`` of them (``worst_index`` is the first); ``count`` of ``size`` elements
      are outside; ``max_abs``, ``max_rel``: the largest errors;
    - ``check`` (e.g. ``'check_numeric_gradient'``), ``slot`` (e.g. ``"in_grad[0] ('data',
      list_arguments()[0]) of Custom 'sm'"``), ``argument`` (``'data'``) and ``hints`` (the
      sentences of the message that say what to change); empty for ``assert_almost_equal``.
    """

    def __init__(self, a, b, bad, absdiff, rtol, atol, names):
        self.a, self.b, self.rtol, self.atol, self.names = a, b, rtol, atol, names
        self.bad = bad
        self.check, self.slot, self.argument, self.hints = "", "", None, []
        self.count, self.size, self.shape = int(bad.sum()), a.size, a.shape
        self.worst = [
            tuple(int(k) for k in np.unravel_index(i, a.shape))
            for i in _largest_first(
                np.where(bad, absdiff, -1.0).ravel(), min(self.count, WORST_KEPT)
            )
        ]
        diff = absdiff[bad]
        self.max_abs = float(np.max(diff))
        with np.errstate(divide="ignore", invalid="ignore"):
            self.max_rel = float(np.max(diff / np.abs(b[bad])))

    @classmethod
    def find(cls, a, b, rtol, atol, equal_nan=False, names=("a", "b")):
        """A Mismatch, or None when a and b are close (ValueError when shapes cannot broadcast)."""
        try:
            a, b = np.broadcast_arrays(np.asarray(a), np.asarray(b))
        except ValueError:
            raise ValueError(
                f"{names[0]} has shape {np.shape(a)} and {names[1]} has shape "
                f"{np.shape(b)}: they cannot be compared, not even by "
                "broadcasting"
            ) from None
        if a.dtype == np.bool_ or b.dtype == np.bool_:  # numpy cannot subtract booleans
            a, b = a.astype(np.int8), b.astype(np.int8)
        close = np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
        if close.all():
            return None
        af, bf = a.astype(np.float64), b.astype(np.float64)
        with np.errstate(invalid="ignore"):
            absdiff = np.where(af == bf, 0.0, np.abs(af - bf))
        return cls(af, bf, ~close, np.nan_to_num(absdiff, nan=np.inf), rtol, atol, names)

    @property
    def expected(self):
        """What the values should be (the numeric gradient, or the expected array)."""
        return self.a

    @property
    def got(self):
        """What the operator computed (the symbolic gradient, or forward's output)."""
        return self.b

    @property
    def worst_index(self):
        """The index of the element outside tolerance with the largest ``|expected - got|``."""
        return self.worst[0]

    def found_by(self, check, slot="", argument=None, hints=()):
        """This mismatch, told which check found it, in which slot, and the message's hints."""
        self.check, self.slot, self.argument = check, slot, argument
        self.hints = [h for h in hints if h]
        return self

    def error_ratio(self):
        """``|expected - got| / (atol + rtol*|got|)`` per element: above 1 is outside tolerance
        (0 where the two are equal, inf where the tolerance is 0 and they differ, or a NaN)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            diff = np.where(self.a == self.b, 0.0, np.abs(self.a - self.b))
            ratio = diff / (self.atol + self.rtol * np.abs(self.b))
        ratio = np.where(diff == 0, 0.0, ratio)
        return np.nan_to_num(ratio, nan=np.inf, posinf=np.inf)

    def relation(self, index):
        """How ``got`` relates to ``expected`` at one element: ``'sign flipped'``, ``'symbolic
        is 0'``, ``'symbolic is 2 times numeric'``, ``'numeric is not finite'``, or ``''``."""
        a, b = float(self.a[index]), float(self.b[index])
        wanted, gotten = self.names
        for value, name in ((b, gotten), (a, wanted)):
            if not np.isfinite(value):
                return f"{name} is not finite"
        for value, name in ((b, gotten), (a, wanted)):
            if value == 0:
                return f"{name} is 0"
        factor = b / a
        if abs(factor + 1) <= 0.02:
            return "sign flipped"
        return "" if abs(factor - 1) <= 0.02 else f"{gotten} is {factor:.3g} times {wanted}"

    def at(self, index):
        """``'at index (3, 1): numeric 0.0412, symbolic -0.0412'`` for one element."""
        a, b = self.a[index], self.b[index]
        where = f" at index {index}" if self.shape else ""
        return f"{where}: {self.names[0]} {fmt(a, b)}, {self.names[1]} {fmt(b, a)}"

    def summary(self):
        """``'3 of 20 elements differ (shape (4, 5)); max abs error ..., max rel error ...'``."""
        return (
            f"{self.count} of {self.size} elements differ (shape {self.shape}); max abs "
            f"error {fmt(self.max_abs)}, max rel error {fmt(self.max_rel)} (rtol={self.rtol}, "
            f"atol={self.atol})"
        )

    def table(self, rows=5):
        """The worst ``rows`` elements, one line each, under a header."""
        shown = self.worst[: max(rows, 1)]
        width = max([len(str(i)) for i in shown] + [len("index")])
        lines = [f"{'index':<{width}}  {self.names[0]:>12}  {self.names[1]:>12}"]
        for i in shown:
            a, b = self.a[i], self.b[i]
            lines.append(f"{str(i):<{width}}  {fmt(a, b):>12}  {fmt(b, a):>12}")
        more = self.count - len(shown)
        title = f"worst {len(shown)} of {self.count}:" if more > 0 else "differing elements:"
        return [title] + ["  " + line for line in lines]

    def report(self, headline, rows=5, hints=()):
        """The whole message: headline at the worst element, summary, table, hints."""
        lines = [headline + self.at(self.worst[0]), "  " + self.summary()]
        if self.size > 1:
            lines += ["  " + line for line in self.table(rows)]
        return "\n".join(lines + ["  " + h for h in hints])
