"""Cold start: import, simple_bind and the first forward of ResNet-18 / -50 (batch 1), with an
empty numba cache and with a warm one. Each measurement runs in a fresh interpreter.

    python benchmarks/cold_start.py
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import json, sys, time
t0 = time.perf_counter()
import minisym as mx
t1 = time.perf_counter()
sys.path.insert(0, {tests!r})
from nets import resnet
ex = resnet({depth}, num_classes=1000).simple_bind(mx.cpu(), data=(1, 3, 224, 224), grad_req="null")
t2 = time.perf_counter()
ex.forward()
t3 = time.perf_counter()
print(json.dumps({{"import": t1 - t0, "simple_bind": t2 - t1, "first_forward": t3 - t2}}))
"""


def measure(depth, cache_dir):
    """Seconds of each phase in a new process using ``cache_dir`` as numba's cache."""
    # MINISYM_SHARED_CACHE=none: an empty cache stays empty (not seeded from the checkout's).
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, MINISYM_SHARED_CACHE="none")
    code = PROBE.format(tests=str(ROOT / "tests"), depth=depth)
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, cwd=ROOT
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    print(f"{'net':>9} {'cache':>6} {'import s':>9} {'simple_bind s':>14} {'first forward s':>16}")
    for depth in (18, 50):
        with tempfile.TemporaryDirectory() as cache:
            for label in ("empty", "warm"):
                t = measure(depth, cache)
                print(
                    f"ResNet-{depth:<2} {label:>6} {t['import']:>9.2f} {t['simple_bind']:>14.2f} "
                    f"{t['first_forward']:>16.2f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
