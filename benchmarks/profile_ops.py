"""Where minisym's time goes in one of speed.py's workloads: milliseconds per step by operator
type and phase, and the share of the convolutions' GEMMs called from Python (those the
image-by-image kernels call inside numba are in their operator's row only).

    python benchmarks/profile_ops.py resnet50-train-1
    python benchmarks/profile_ops.py lesson8-train-32 --steps 20

Times the path a bound executor runs with nothing watching (fusions included: a BatchNorm
fused with its ReLU shows as ``BatchNorm forward_relu``), by wrapping the one function every
operator call goes through. The timers cost about a microsecond a call: compare rows, not
this script's step time with speed.py's.
"""

import argparse
import collections
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import speed  # noqa: E402 -- beside this script
import speed_worker  # noqa: E402


def timed_calls(seconds):
    """Wrap the executor's operator call so that ``seconds[(operator, method)]`` adds up."""
    from minisym import executor

    call = executor._call

    def timed(op, phase, method, *args):
        start = time.perf_counter()
        try:
            return call(op, phase, method, *args)
        finally:
            seconds[(type(op).__name__, method.__name__)] += time.perf_counter() - start

    executor._call = timed


def timed_gemms(seconds):
    """Wrap the convolution kernels' ``np.matmul`` so that ``seconds['GEMM']`` adds up.

    Only after the kernels have compiled: numba reads ``np`` of the module when it compiles."""
    from minisym.kernels import conv

    matmul = np.matmul

    class Timed:
        def __getattr__(self, name):
            return getattr(np, name)

        @staticmethod
        def matmul(*args, **kwargs):
            start = time.perf_counter()
            try:
                return matmul(*args, **kwargs)
            finally:
                seconds["GEMM"] += time.perf_counter() - start

    conv.np = Timed()


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workload", choices=sorted(speed.WORKLOADS))
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args(argv)
    network, image, batch, mode, _ = speed.WORKLOADS[args.workload]
    seconds = collections.defaultdict(float)
    with tempfile.TemporaryDirectory() as folder:
        graph = speed.write_graph(network, image, batch, folder)
        step = speed_worker.mx_step("minisym", str(graph), batch, mode == "train")
        for _ in range(2):
            step()
        timed_calls(seconds)
        timed_gemms(seconds)
        step()
        seconds.clear()
        start = time.perf_counter()
        for _ in range(args.steps):
            step()
        total = (time.perf_counter() - start) / args.steps
    per_step = {key: value / args.steps for key, value in seconds.items()}
    gemm = per_step.pop("GEMM", 0.0)
    print(f"{args.workload}: {total * 1e3:.2f} ms a step ({args.steps} steps)")
    for (operator, method), value in sorted(per_step.items(), key=lambda kv: -kv[1]):
        print(f"  {operator:<24} {method:<16} {value * 1e3:9.2f} ms {value / total:6.1%}")
    label = "of which GEMMs called from Python"
    print(f"  {label:<41} {gemm * 1e3:9.2f} ms {gemm / total:6.1%}")


if __name__ == "__main__":
    main(sys.argv[1:])
