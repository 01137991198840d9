"""How many threads the kernels use: never more than the cores this process may run on.

numba's pool and the BLAS library NumPy loaded (OpenBLAS, MKL) each start one thread per core
of the *machine*; in a container or a JupyterHub pod limited to 2 of 64 cores both would run 64
threads on 2 cores, and a GEMM's threads that wait for a descheduled sibling make it many times
slower. Both are capped to the usable cores; a smaller number you set (``NUMBA_NUM_THREADS``,
``OPENBLAS_NUM_THREADS``, ``MKL_NUM_THREADS``) is kept.
"""

import os

from . import jit

__all__ = ["usable_cores", "configure_threads", "cap_blas_threads", "workers_spin", "SPIN_COUNT"]


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


# How numba's idle OpenMP workers wait for the next parallel loop. Asleep (OMP_WAIT_POLICY=PASSIVE)
# a wake-up costs ~70 us per loop on 2 cores; spinning a moment first, 3 us. When BLAS runs on one
# thread (the lessons, `make lab`) nothing else wants the other core between loops, so they spin;
# with more BLAS threads spinning workers take the cores BLAS needs (a network ran 4x slower, a
# GEMM 10-50x), so they sleep. A GOMP_SPINCOUNT or OMP_WAIT_POLICY of yours always wins.
SPIN_COUNT = "30000"  # spins, about a third of a millisecond
blas_threads = 1  # the BLAS library's threads, as configure_threads left them


def workers_spin(blas_threads):
    """Whether numba's OpenMP workers should spin between loops: BLAS ({library: threads}) on
    one thread."""
    return bool(blas_threads) and max(blas_threads.values()) == 1


def configure_threads():
    """Cap numba's threads and the BLAS library's threads to the usable cores, and choose how
    numba's workers wait between loops (before numba starts them)."""
    import numba

    cores = usable_cores()
    wanted = min(cores, numba.config.NUMBA_NUM_THREADS)
    global blas_threads
    capped = cap_blas_threads(cores)
    blas_threads = max(capped.values(), default=cores)
    spin = workers_spin(capped)
    if "GOMP_SPINCOUNT" not in os.environ and "OMP_WAIT_POLICY" not in os.environ:
        if spin:
            os.environ["GOMP_SPINCOUNT"] = SPIN_COUNT
            jit.SERIAL_BELOW = jit.SERIAL_BELOW_SPINNING
        else:
            os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    numba.set_num_threads(wanted)  # starts numba's threading layer: OpenMP reads its settings
    return wanted
