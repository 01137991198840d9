"""minisym beside PyTorch and MXNet on the same graphs: one table of the speed figures.

    python benchmarks/speed.py                  # every workload, 3 rounds
    python benchmarks/speed.py --rounds 5 resnet50-infer-1 mobilenet-infer-1

Each engine runs each workload in a fresh process (speed_worker.py); engines alternate within
a round so that a noisy machine hurts all alike; the table gives each engine's median seconds
and the medians of the per-round ratios. The peers are optional, each in its own environment:
``MXNET_PYTHON`` (default: ../shared/tools/mxnet-oracle when it exists) and ``TORCH_PYTHON``
(default: ~/.cache/peer-bench/torch/bin/python when it exists). Figures only: nothing here is
asserted. See benchmarks/README.md.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(HERE))

IMAGENET, CIFAR, BLOCK, DIGITS = (3, 224, 224), (3, 28, 28), (16, 8, 8), (1, 8, 8)

# name: (network, image shape, batch, mode, timed steps)
WORKLOADS = {
    "resnet50-infer-1": ("resnet50", IMAGENET, 1, "infer", 10),
    "resnet50-infer-8": ("resnet50", IMAGENET, 8, "infer", 5),
    "resnet50-train-1": ("resnet50", IMAGENET, 1, "train", 5),
    "resnet50-train-8": ("resnet50", IMAGENET, 8, "train", 3),
    "resnet18-infer-1": ("resnet18", IMAGENET, 1, "infer", 10),
    "resnet18-infer-8": ("resnet18", IMAGENET, 8, "infer", 5),
    "resnet18-train-1": ("resnet18", IMAGENET, 1, "train", 5),
    "resnet18-train-8": ("resnet18", IMAGENET, 8, "train", 3),
    "resnet18-train-32": ("resnet18", IMAGENET, 32, "train", 3),
    "mobilenet-infer-1": ("mobilenet", IMAGENET, 1, "infer", 10),
    "mobilenetv2-infer-1": ("mobilenetv2", IMAGENET, 1, "infer", 10),
    "resnext50-infer-1": ("resnext-50", IMAGENET, 1, "infer", 10),
    "inception-bn-infer-1": ("inception-bn", IMAGENET, 1, "infer", 10),
    "googlenet-infer-1": ("googlenet", IMAGENET, 1, "infer", 10),
    # the small networks the course runs; the block chain is 20 blocks (divide by 20 per block)
    "block-infer-1": ("block", BLOCK, 1, "infer", 50),
    "block-train-1": ("block", BLOCK, 1, "train", 20),
    "block-infer-32": ("block", BLOCK, 32, "infer", 50),
    "block-train-32": ("block", BLOCK, 32, "train", 20),
    "block32x32-infer-1": ("block", (16, 32, 32), 1, "infer", 50),
    "block32x32-train-1": ("block", (16, 32, 32), 1, "train", 20),
    "resnet20cifar-infer-1": ("resnet-20-cifar", CIFAR, 1, "infer", 50),
    "resnet20cifar-train-1": ("resnet-20-cifar", CIFAR, 1, "train", 20),
    "lesson8-infer-32": ("lesson8", DIGITS, 32, "infer", 50),
    "lesson8-train-32": ("lesson8", DIGITS, 32, "train", 20),
}


def engines():
    """{engine: command prefix} for the engines available here; minisym always."""
    found = {"minisym": [sys.executable]}
    mxnet = os.environ.get("MXNET_PYTHON") or ROOT.parent / "shared" / "tools" / "mxnet-oracle"
    if Path(mxnet).exists():
        found["mxnet"] = [str(mxnet)]
    torch = os.environ.get("TORCH_PYTHON") or Path.home() / ".cache/peer-bench/torch/bin/python"
    if Path(torch).exists():
        found["torch"] = [str(torch)]
    return found


def network_symbol(network):
    """The Symbol of ``network``: ResNets from tests/nets.py, the small nets from small_nets.py,
    MXNet's example networks from nets/ (make_speed_nets.py)."""
    from small_nets import block_chain, lesson8_net

    import minisym as mx
    from nets import resnet

    if network in ("resnet18", "resnet50"):
        return resnet(int(network[len("resnet") :]), num_classes=1000)
    if network == "block":
        return block_chain()
    if network == "lesson8":
        return lesson8_net()
    return mx.sym.load(str(HERE / "nets" / f"{network}.json"))


def write_graph(network, image, batch, folder):
    """The network's symbol JSON and the sidecar of argument shapes (data's included) that
    speed_worker.py and torch_graph.py read."""
    net = network_symbol(network)
    path = Path(folder) / f"{network}-{'x'.join(map(str, image))}-{batch}.json"
    net.save(str(path))
    args, _, aux = net.infer_shape(data=(batch, *image))
    shapes = dict(zip(net.list_arguments(), args)) | dict(zip(net.list_auxiliary_states(), aux))
    path.with_name(path.name + ".shapes.json").write_text(json.dumps(shapes))
    return path


def run_one(command, graph, batch, mode, iters, engine):
    """{'median_s', 'peak_rss_mib'} of one fresh worker process, or None if it failed."""
    env = dict(
        os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "2"), PYTHONPATH=str(HERE)
    )
    out = subprocess.run(
        command + [str(HERE / "speed_worker.py"), engine, str(graph), str(batch), mode, str(iters)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    if out.returncode or not lines:
        print(f"  {engine} failed: {out.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return None
    return json.loads(lines[-1])


def measure(name, available, rounds, folder):
    """{engine: [figures per round]} for one workload."""
    network, image, batch, mode, iters = WORKLOADS[name]
    graph = write_graph(network, image, batch, folder)
    results = {engine: [] for engine in available}
    for r in range(rounds):
        for engine, command in available.items():
            figures = run_one(command, graph, batch, mode, iters, engine)
            results[engine].append(figures)
            shown = f"{figures['median_s']:.4f} s" if figures else "FAIL"
            print(f"  round {r + 1} {name} {engine}: {shown}", file=sys.stderr, flush=True)
    return results


def ratio(results, a, b, key="median_s"):
    """Median over rounds of a's figure / b's figure (rounds where both ran)."""
    pairs = [(x[key], y[key]) for x, y in zip(results.get(a, []), results.get(b, [])) if x and y]
    return statistics.median(p / q for p, q in pairs) if pairs else None


def median_of(results, engine, key="median_s"):
    values = [x[key] for x in results.get(engine, []) if x]
    return statistics.median(values) if values else None


def cold_start_warm():
    """Warm-cache seconds of import + simple_bind + first forward of ResNet-50 (minisym)."""
    sys.path.insert(0, str(HERE))
    import cold_start

    with tempfile.TemporaryDirectory() as cache:
        cold_start.measure(50, cache)  # fills the cache
        t = cold_start.measure(50, cache)
    return sum(t.values())


def table(all_results, available):
    """The table's text: seconds per engine, then the ratios."""
    fmt = lambda v, spec: "-" if v is None else format(v, spec)
    lines = [
        f"{'workload':<22}"
        + "".join(f"{e + ' s':>11}" for e in available)
        + f"{'mini/torch':>11}{'mini/mxnet':>11}{'mxnet/torch':>12}"
    ]
    for name, results in all_results.items():
        lines.append(
            f"{name:<22}"
            + "".join(f"{fmt(median_of(results, e), '.4f'):>11}" for e in available)
            + f"{fmt(ratio(results, 'minisym', 'torch'), '.3f'):>11}"
            + f"{fmt(ratio(results, 'minisym', 'mxnet'), '.3f'):>11}"
            + f"{fmt(ratio(results, 'mxnet', 'torch'), '.3f'):>12}"
        )
    memory = all_results.get("resnet50-train-1")
    if memory:
        lines.append("")
        lines.append(
            "peak RSS MiB, ResNet-50 batch-1 training step (fresh process): "
            + ", ".join(
                f"{e} {fmt(median_of(memory, e, 'peak_rss_mib'), '.0f')}" for e in available
            )
            + f"; minisym/mxnet {fmt(ratio(memory, 'minisym', 'mxnet', 'peak_rss_mib'), '.2f')}"
        )
    return "\n".join(lines)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workloads", nargs="*", default=list(WORKLOADS))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-cold-start", action="store_true")
    args = parser.parse_args(argv)
    available = engines()
    print(f"engines: {', '.join(available)}", file=sys.stderr)
    with tempfile.TemporaryDirectory() as folder:
        results = {name: measure(name, available, args.rounds, folder) for name in args.workloads}
    print(table(results, available))
    if not args.no_cold_start:
        print(
            f"cold start, warm cache (import + simple_bind + first forward, ResNet-50): "
            f"{cold_start_warm():.2f} s"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
