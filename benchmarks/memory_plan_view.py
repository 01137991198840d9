"""How long MemoryPlanView takes to build, and how much it sends, on the ResNets at batch 1.

    python benchmarks/memory_plan_view.py            # ResNet-50 and -152
    python benchmarks/memory_plan_view.py 50         # one depth

Prints, per depth: the first build in this process (symbol bound, plan described, traits set),
the median of five more, the same from an executor already bound, and the bytes of the state
the page receives. Figures only: nothing here is asserted (the tests check a loose bound).
"""

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def seconds(build):
    start = time.perf_counter()
    view = build()
    return time.perf_counter() - start, view


def measure(depth):
    import minisym as mx
    from minisym_widgets import MemoryPlanView
    from minisym_widgets._base import message_size
    from nets import resnet

    net = resnet(depth, num_classes=1000)
    first, view = seconds(lambda: MemoryPlanView(net, data=(1, 3, 224, 224)))
    again = statistics.median(
        seconds(lambda: MemoryPlanView(net, data=(1, 3, 224, 224)))[0] for _ in range(5)
    )
    executor = net.simple_bind(mx.cpu(), data=(1, 3, 224, 224))
    bound = statistics.median(seconds(lambda: MemoryPlanView(executor))[0] for _ in range(5))
    state = message_size(view.get_state())
    print(
        f"ResNet-{depth:<4} first build {first:6.3f} s   again {again:6.3f} s   "
        f"from an executor {bound:6.3f} s   state {state / 1024:7.1f} KiB   "
        f"({len(view.rows)} buffers, {len(view.steps)} steps)"
    )


if __name__ == "__main__":
    for depth in [int(a) for a in sys.argv[1:]] or [50, 152]:
        measure(depth)
