"""How many threads the kernels use: never more than the cores this process may run on.

numba's pool and the BLAS library NumPy loaded (OpenBLAS, MKL) each start one thread per core
of the *machine*; in a container or a JupyterHub pod limited to 2 of 64 cores both would run 64
threads on 2 cores, and a GEMM's threads that wait for a descheduled sibling make it many times
slower. Both are capped to the usable cores; a smaller number you set (``NUMBA_NUM_THREADS``,
``OPENBLAS_NUM_THREADS``, ``MKL_NUM_THREADS``) is kept.
"""

import os

__all__ = ["usable_cores", "configure_threads", "cap_blas_threads"]


def usable_cores():
    """The number of CPU cores this process is allowed to use (affinity, not the machine's)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def cap_blas_threads(cores):
    """Lower each loaded BLAS library's thread count to ``cores`` (never raise it); returns
    {library: threads} as set, or {} when threadpoolctl is missing."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return {}
    capped = {}
    for lib in ThreadpoolController().select(user_api="blas").lib_controllers:
        wanted = min(lib.num_threads, cores)
        if wanted != lib.num_threads:
            lib.set_num_threads(wanted)
        capped[lib.internal_api] = wanted
    return capped


def configure_threads():
    """Cap numba's threads and the BLAS library's threads to the usable cores."""
    import numba

    cores = usable_cores()
    wanted = min(cores, numba.config.NUMBA_NUM_THREADS)
    numba.set_num_threads(wanted)
    cap_blas_threads(cores)
    return wanted
