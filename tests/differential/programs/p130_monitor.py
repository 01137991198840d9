"""mx.mon.Monitor and set_monitor_callback: which names a callback sees (every output, hidden
ones included), and what toc() returns (operator outputs, then arguments and auxiliary states
matching the pattern, with MXNet's default norm statistic). monitor_all's input names follow
per-operator quirks of MXNet and are not recorded (see OBSERVED.md)."""
import numpy as np


def _net(mx):
    data = mx.sym.Variable("data")
    x = mx.sym.FullyConnected(data, num_hidden=3, name="fc")
    x = mx.sym.BatchNorm(x, name="bn")
    return mx.sym.Activation(x, act_type="relu", name="act")


def _bound(mx):
    ex = _net(mx).simple_bind(mx.cpu(), data=(2, 4))
    rng = np.random.RandomState(0)
    for name, arr in sorted(ex.arg_dict.items()):
        arr[:] = rng.standard_normal(arr.shape)
    return ex


def run(mx):
    ex = _bound(mx)
    names = []
    ex.set_monitor_callback(lambda name, arr: names.append(
        name if isinstance(name, str) else name.decode()))
    ex.forward(is_train=True)
    ex = _bound(mx)
    mon = mx.mon.Monitor(1, pattern="fc.*|bn.*")
    mon.install(ex)
    mon.tic()
    ex.forward(is_train=True)
    stats = mon.toc()
    mon.tic()
    ex.forward(is_train=False)
    sorted_mon = mx.mon.Monitor(2, pattern=".*", sort=True)
    sorted_mon.install(ex)
    sorted_mon.tic()
    ex.forward()
    sorted_stats = sorted_mon.toc()
    sorted_mon.tic()  # step 1 of interval 2: not collected
    ex.forward()
    return {
        "callback_names": names,
        "toc": [[step, name, float(text.split("\t")[0]), text.endswith("\t")]
                for step, name, text in stats],
        "toc_sorted_names": [name for _, name, _ in sorted_stats],
        "toc_off_step": sorted_mon.toc(),
    }
