"""How many threads the kernels use: never more than the cores this process may run on."""
import os

__all__ = ["usable_cores", "configure_threads"]


def usable_cores():
    """The number of CPU cores this process is allowed to use (affinity, not the machine's)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def configure_threads():
    """Cap numba's threads to the usable cores (BLAS threads are OpenBLAS's own)."""
    import numba
    wanted = min(usable_cores(), numba.config.NUMBA_NUM_THREADS)
    numba.set_num_threads(wanted)
    return wanted
