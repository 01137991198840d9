"""Speed and memory of the pre-activation ResNet under minisym.

    python benchmarks/resnet.py                 # ResNet-18 and -50, batch 1 and 8
    python benchmarks/resnet.py 50 1 infer      # one configuration

Prints, per configuration: inference and training-step time (median of repeats), and the peak
resident memory of a fresh process with and without the memory plan. Cold start is measured by
benchmarks/cold_start.py. Figures only: nothing here is asserted.
"""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def build(depth, batch, train):
    """A bound executor for ResNet-``depth`` on (batch, 3, 224, 224) with seeded parameters."""
    import minisym as mx
    from nets import resnet

    net = resnet(depth, num_classes=1000)
    req = {
        n: ("write" if train and n not in ("data", "softmax_label") else "null")
        for n in net.list_arguments()
    }
    ex = net.simple_bind(mx.cpu(), data=(batch, 3, 224, 224), grad_req=req)
    rng = np.random.default_rng(0)
    for arr in ex.arg_dict.values():
        arr[:] = rng.standard_normal(arr.shape).astype(np.float32) * 0.05
    ex.arg_dict["softmax_label"][:] = 1
    for name, arr in ex.aux_dict.items():
        arr[:] = 1.0 if name.endswith("var") else 0.0
    return ex


def time_steps(ex, train, repeats):
    """Median seconds of forward (and backward when training) after one warm-up step."""
    times = []
    for _ in range(repeats + 1):
        start = time.perf_counter()
        ex.forward(is_train=train)
        if train:
            ex.backward()
        times.append(time.perf_counter() - start)
    return float(np.median(times[1:]))


def peak_rss_mib():
    """This process's peak resident memory in MiB (Linux)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def one(depth, batch, mode, repeats):
    """Measure one configuration in this process; returns a dict of figures."""
    ex = build(depth, batch, mode == "train")
    seconds = time_steps(ex, mode == "train", repeats)
    return {
        "depth": depth,
        "batch": batch,
        "mode": mode,
        "median_s": seconds,
        "peak_rss_mib": peak_rss_mib(),
        "plan": ex.memory_stats.planned_bytes / 2**20,
        "no_plan": ex.memory_stats.unplanned_bytes / 2**20,
    }


def in_fresh_process(depth, batch, mode, repeats, memory_plan):
    """``one`` run in a new interpreter so peak memory belongs to that configuration alone."""
    env = dict(os.environ, MINISYM_MEMORY_PLAN="1" if memory_plan else "0")
    code = (
        f"import sys, json; sys.path.insert(0, {str(ROOT / 'benchmarks')!r}); "
        f"import resnet; print(json.dumps(resnet.one({depth}, {batch}, {mode!r}, {repeats})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv):
    configs = [(d, b, m) for d in (18, 50) for b in (1, 8) for m in ("infer", "train")]
    if argv:
        configs = [(int(argv[0]), int(argv[1]), argv[2])]
    print(
        f"{'net':>9} {'batch':>5} {'mode':>5} {'median s':>9} {'peak RSS MiB':>13} "
        f"{'no plan':>8} {'buffers MiB':>12} {'unshared':>9}"
    )
    for depth, batch, mode in configs:
        repeats = 5 if batch == 1 else 3
        planned = in_fresh_process(depth, batch, mode, repeats, True)
        unplanned = in_fresh_process(depth, batch, mode, 1, False)
        print(
            f"ResNet-{depth:<2} {batch:>5} {mode:>5} {planned['median_s']:>9.3f} "
            f"{planned['peak_rss_mib']:>13.0f} {unplanned['peak_rss_mib']:>8.0f} "
            f"{planned['plan']:>12.1f} {planned['no_plan']:>9.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main(sys.argv[1:])
