"""The small helpers of ``mx.test_utils`` that MXNet's own unit tests call: expecting an
exception, a random sample, comparing with NaN ignored or tuple by tuple, silencing stderr, and an
iterator that repeats one batch."""

import os
import sys
from contextlib import contextmanager

import numpy as np

from ..io import DataIter
from .compare import assert_almost_equal

__all__ = [
    "assert_exception",
    "random_sample",
    "assert_almost_equal_ignore_nan",
    "compare_ndarray_tuple",
    "discard_stderr",
    "DummyIter",
]


def assert_exception(f, exception_type, *args, **kwargs):
    """Call ``f(*args, **kwargs)``; AssertionError unless it raises ``exception_type``."""
    try:
        f(*args, **kwargs)
    except exception_type:
        return
    raise AssertionError(
        f"{getattr(f, '__name__', f)} was expected to raise {exception_type.__name__}, and returned"
    )


def random_sample(population, k):
    """``k`` elements of the list ``population``, in an order drawn from numpy's generator."""
    assert 0 <= k <= len(population), f"cannot draw {k} of {len(population)} elements"
    shuffled = population[:]
    np.random.shuffle(shuffled)
    return shuffled[:k]


def assert_almost_equal_ignore_nan(a, b, rtol=None, atol=None, names=("a", "b")):
    """assert_almost_equal(a, b) where positions that are NaN in either count as equal."""
    a, b = np.copy(a), np.copy(b)
    either = np.logical_or(np.isnan(a), np.isnan(b))
    a[either], b[either] = 0, 0
    assert_almost_equal(a, b, rtol, atol, names)


def compare_ndarray_tuple(t1, t2, rtol=None, atol=None):
    """assert_almost_equal on each pair of (nested) tuples of arrays; None on a side skips."""
    if t1 is None or t2 is None:
        return
    if not isinstance(t1, tuple):
        assert_almost_equal(t1, t2, rtol=rtol, atol=atol)
        return
    for s1, s2 in zip(t1, t2):
        compare_ndarray_tuple(s1, s2, rtol, atol)


@contextmanager
def discard_stderr():
    """``with discard_stderr():`` sends file descriptor 2 (C code's output too) to /dev/null."""
    try:
        fileno = sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):  # a notebook's stderr has no descriptor
        yield
        return
    saved = os.dup(fileno)
    with open(os.devnull, "w") as nowhere:
        os.dup2(nowhere.fileno(), fileno)
        try:
            yield
        finally:
            os.dup2(saved, fileno)
            os.close(saved)


class DummyIter(DataIter):
    """Returns the first batch of ``real_iter`` forever (for timing a network without I/O)."""

    def __init__(self, real_iter):
        super().__init__()
        self.real_iter = real_iter
        self.provide_data = real_iter.provide_data
        self.provide_label = real_iter.provide_label
        self.batch_size = real_iter.batch_size
        self.the_batch = next(real_iter)

    def __iter__(self):
        return self

    def next(self):
        """The first batch of the real iterator, again; never StopIteration."""
        return self.the_batch
