"""nose.tools as MXNet's unit tests use it: assert_raises, raises, ok_, make_decorator."""

import functools
import unittest

_case = unittest.TestCase()
_case.maxDiff = None
assert_raises = _case.assertRaises
assert_equal = _case.assertEqual
assert_true = _case.assertTrue
assert_false = _case.assertFalse
assert_almost_equal = _case.assertAlmostEqual


def ok_(expr, msg=None):
    """Fail with msg unless expr is true."""
    assert expr, msg


def make_decorator(func):
    """Wrap a decorator so the decorated test keeps func's name and metadata."""

    def decorate(newfunc):
        return functools.wraps(func)(newfunc)

    return decorate


def raises(*exceptions):
    """The decorated test passes only if it raises one of exceptions."""

    def decorate(func):
        @functools.wraps(func)
        def newfunc(*args, **kwargs):
            try:
                func(*args, **kwargs)
            except exceptions:
                return
            raise AssertionError(f"{func.__name__} did not raise {exceptions}")

        return newfunc

    return decorate
