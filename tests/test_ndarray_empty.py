"""``mx.nd.empty``: MXNet leaves the memory as it was; minisym fills a fixed sentinel that is
visibly wrong (NaN, the integer minimum), the same on every machine, so a result read before
it is written shows, and lesson 3's stored output is stable."""

import numpy as np
import pytest

import minisym as mx


@pytest.mark.parametrize(
    ("dtype", "expected"),
    [
        ("float32", np.nan),
        ("float64", np.nan),
        ("float16", np.nan),
        ("int32", -(2**31)),
        ("int64", -(2**63)),
        ("int8", -128),
        ("uint8", 0),
    ],
)
def test_empty_holds_the_sentinel_of_its_dtype(dtype, expected):
    values = mx.nd.empty((2, 3), dtype=dtype).asnumpy()
    assert values.dtype == np.dtype(dtype) and values.shape == (2, 3)
    np.testing.assert_array_equal(values, np.full((2, 3), expected, dtype))


def test_an_empty_array_is_an_ordinary_one_once_written():
    out = mx.nd.empty(3)
    out[:] = mx.nd.array([1, 2, 3])
    np.testing.assert_array_equal(out.asnumpy(), [1, 2, 3])
    assert str(mx.nd.empty(1)) == "\n[nan]\n<NDArray 1 @cpu(0)>"
