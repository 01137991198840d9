"""Optimizer states that MXNet wrote, resumed: ``tests/fixtures/mxnet_states/`` holds
checkpoints MXNet 1.9.1 saved after 2 steps with ``save_optimizer_states=True`` (written by
``make_mxnet_states.py``: SGD with momentum, Adam, centered RMSProp). Both engines load each
with ``Module.load(prefix, 2, load_optimizer_states=True)``, train 2 more steps and record the
parameters; minisym reads MXNet's pickled ``.states`` by parsing them, never unpickling. The
states ``Updater.set_states`` reads from raw pickles (protocol 2 and the default) are recorded
too."""
import os

import numpy as np

from _common import fixture_dir, fixture_files

TOLERANCE = dict(rtol=1e-5, atol=1e-6)
OPTIMIZERS = {
    "sgd": ("sgd", (("learning_rate", 0.5), ("momentum", 0.9), ("wd", 0.01))),
    "adam": ("adam", (("learning_rate", 0.05),)),
    "rms": ("rmsprop", (("learning_rate", 0.01), ("centered", True))),
}


def network(mx):
    data = mx.sym.Variable("data")
    net = mx.sym.FullyConnected(data, num_hidden=4, name="fc1")
    net = mx.sym.Activation(net, act_type="tanh", name="act1")
    net = mx.sym.FullyConnected(net, num_hidden=3, name="fc2")
    return mx.sym.SoftmaxOutput(net, name="softmax")


def batches(mx):
    rs = np.random.RandomState(11)
    return [mx.io.DataBatch([mx.nd.array(rs.randn(5, 6).astype(np.float32))],
                            [mx.nd.array(rs.randint(0, 3, 5).astype(np.float32))])
            for _ in range(4)]


def start_params(mx):
    rs = np.random.RandomState(5)
    shapes = {"fc1_weight": (4, 6), "fc1_bias": (4,), "fc2_weight": (3, 4), "fc2_bias": (3,)}
    return {k: mx.nd.array((rs.randn(*s) * 0.5).astype(np.float32)) for k, s in shapes.items()}


def bound(mod):
    mod.bind(data_shapes=[("data", (5, 6))], label_shapes=[("softmax_label", (5,))])
    return mod


def train(mod, steps):
    for batch in steps:
        mod.forward(batch, is_train=True)
        mod.backward()
        mod.update()


def as_numpy(state):
    if isinstance(state, (tuple, list)):
        return [as_numpy(s) for s in state]
    return None if state is None else state.asnumpy()


def run(mx):
    folder = fixture_dir("mxnet_states")
    out = {"files": [(name, digest) for name, _, digest in fixture_files("mxnet_states")]}
    for tag, (optimizer, optimizer_params) in OPTIMIZERS.items():
        mod = bound(mx.mod.Module.load(os.path.join(folder, tag), 2,
                                       load_optimizer_states=True))
        mod.init_optimizer(optimizer=optimizer, optimizer_params=optimizer_params)
        loaded = {str(k): as_numpy(v) for k, v in sorted(mod._updater.states.items())}
        train(mod, batches(mx)[2:])
        args, _ = mod.get_params()
        out[tag] = {"states_loaded": loaded,
                    "params": {k: v.asnumpy() for k, v in sorted(args.items())}}
    for name in ("protocol2.states", "protocol5.states"):
        updater = mx.optimizer.get_updater(mx.optimizer.SGD(momentum=0.9))
        with open(os.path.join(folder, name), "rb") as fin:
            updater.set_states(fin.read())
        out[name] = {str(k): as_numpy(v) for k, v in sorted(updater.states.items(), key=str)}
    return out
