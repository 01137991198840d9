"""``mx.test_utils``: the dense CPU part of MXNet's test helpers, to check your own operators.

    mx.test_utils.check_numeric_gradient(sym, [x, w])      # backward vs finite differences
    mx.test_utils.check_symbolic_forward(sym, [x], [expected_y])
    mx.test_utils.check_symbolic_backward(sym, [x], [dy], [expected_dx])
    mx.test_utils.assert_almost_equal(a, b)                # per-dtype tolerances

A failed check raises AssertionError naming the slot (``in_grad[0] ('data',
list_arguments()[0]) of Custom 'sm'``), the worst elements and what the wrong values look like.
"""

from ..util import use_np, use_np_array, use_np_shape
from .checks import (
    check_numeric_gradient,
    check_symbolic_backward,
    check_symbolic_forward,
    numeric_grad,
    simple_forward,
)
from .compare import (
    almost_equal,
    assert_allclose,
    assert_almost_equal,
    default_atols,
    default_dtype,
    default_numeric_eps,
    default_rtols,
    get_atol,
    get_rtol,
    get_tolerance,
    get_tols,
    np_reduce,
    same,
)
from .consistency import check_consistency
from .download import download
from .helpers import (
    compare_optimizer,
    default_context,
    environment,
    rand_ndarray,
    rand_shape_2d,
    rand_shape_3d,
    rand_shape_nd,
    random_arrays,
    set_default_context,
)
from .mnist import get_mnist, get_mnist_iterator, get_mnist_ubyte
from .small import (
    DummyIter,
    assert_almost_equal_ignore_nan,
    assert_exception,
    compare_ndarray_tuple,
    discard_stderr,
    random_sample,
)

__all__ = [
    "default_context",
    "set_default_context",
    "default_dtype",
    "default_rtols",
    "default_atols",
    "default_numeric_eps",
    "get_tolerance",
    "get_tols",
    "get_atol",
    "get_rtol",
    "assert_almost_equal",
    "assert_allclose",
    "almost_equal",
    "same",
    "random_arrays",
    "rand_ndarray",
    "rand_shape_2d",
    "rand_shape_3d",
    "rand_shape_nd",
    "np_reduce",
    "environment",
    "numeric_grad",
    "check_numeric_gradient",
    "check_symbolic_forward",
    "check_symbolic_backward",
    "simple_forward",
    "compare_optimizer",
    "download",
    "assert_exception",
    "random_sample",
    "assert_almost_equal_ignore_nan",
    "compare_ndarray_tuple",
    "discard_stderr",
    "DummyIter",
    "check_consistency",
    "get_mnist",
    "get_mnist_ubyte",
    "get_mnist_iterator",
]

# MXNet's test_utils has no __all__, so `from mxnet.test_utils import *` also hands its own
# tests the modules it imports; those tests use these without importing them.
import os
import sys

import numpy as np
import numpy.random as rnd

from ..ndarray import array

__all__ += ["os", "sys", "np", "rnd", "array", "use_np", "use_np_array", "use_np_shape"]
