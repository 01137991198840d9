"""Fast kernels: numba loops where the time goes (im2col / col2im, pooling, batch norm),
NumPy's BLAS for the matrix products. Each has a plain-NumPy reference in
``minisym.ops.nn_reference`` that the tests compare it with."""
from .threads import configure_threads

configure_threads()
