"""The arrays layer: NDArray, the autograd tape its values carry, and saving / loading them.

Below the operators and executors: nothing here imports them at the top of a file. ``mx.nd``
(``minisym/ndarray/``) is the front end that runs operators on these arrays.
"""
