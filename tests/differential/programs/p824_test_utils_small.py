"""The small mx.test_utils helpers MXNet's unit tests use: assert_exception, random_sample,
assert_almost_equal_ignore_nan, compare_ndarray_tuple, discard_stderr and DummyIter."""
import numpy as np

from _common import err


def run(mx):
    tu = mx.test_utils
    np.random.seed(3)
    sample = tu.random_sample(list(range(10)), 4)
    nan = np.array([1.0, np.nan, 3.0])
    data = mx.io.NDArrayIter(np.arange(12, dtype=np.float32).reshape(6, 2),
                             np.arange(6, dtype=np.float32), batch_size=2)
    dummy = tu.DummyIter(data)
    batches = [next(dummy).data[0].asnumpy().tolist() for _ in range(4)]
    with tu.discard_stderr():
        quiet = 1
    return {
        "raises_expected": err(mx, tu.assert_exception, lambda: int("x"), ValueError),
        "raises_other": err(mx, tu.assert_exception, lambda: int("x"), KeyError),
        "sample_len": len(sample), "sample_unique": len(set(sample)),
        "sample_too_many": err(mx, tu.random_sample, [1, 2], 3),
        "ignore_nan_same": err(mx, tu.assert_almost_equal_ignore_nan, nan,
                               np.array([1.0, 5.0, 3.0])),
        "ignore_nan_differ": err(mx, tu.assert_almost_equal_ignore_nan, nan,
                                 np.array([2.0, 5.0, 3.0])),
        "tuples_same": err(mx, tu.compare_ndarray_tuple, (np.ones(2), (np.zeros(3),)),
                           (np.ones(2), (np.zeros(3),))),
        "tuples_differ": err(mx, tu.compare_ndarray_tuple, (np.ones(2),), (np.zeros(2),)),
        "tuples_none": err(mx, tu.compare_ndarray_tuple, None, (np.zeros(2),)),
        "dummy_batches": batches, "dummy_batch_size": dummy.batch_size,
        "dummy_provide_data": [list(d[1]) for d in dummy.provide_data],
        "quiet": quiet,
    }
