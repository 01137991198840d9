"""Training resumed from a checkpoint with its optimizer states: a Module trains 2 steps,
``save_checkpoint(prefix, 2, save_optimizer_states=True)``, a new ``Module.load(prefix, 2,
load_optimizer_states=True)`` is bound, ``init_optimizer`` restores the states, and it trains 2
more. SGD with momentum then equals the uninterrupted 4 steps. MXNet saves the states without
the optimizer, so update counts start again: Adam's bias correction restarts at t=1 (the
resumed run differs from the uninterrupted one, in both engines), and a scheduler starts over.
Also: which files are written, and the restored states themselves."""
import os
import tempfile

import numpy as np

TOLERANCE = dict(rtol=1e-5, atol=1e-6)


def network(mx):
    data = mx.sym.Variable("data")
    net = mx.sym.FullyConnected(data, num_hidden=4, name="fc1")
    net = mx.sym.Activation(net, act_type="tanh", name="act1")
    net = mx.sym.FullyConnected(net, num_hidden=3, name="fc2")
    return mx.sym.SoftmaxOutput(net, name="softmax")


def batches(mx):
    rs = np.random.RandomState(7)
    return [mx.io.DataBatch([mx.nd.array(rs.randn(5, 6).astype(np.float32))],
                            [mx.nd.array(rs.randint(0, 3, 5).astype(np.float32))])
            for _ in range(4)]


def start_params(mx):
    rs = np.random.RandomState(3)
    shapes = {"fc1_weight": (4, 6), "fc1_bias": (4,), "fc2_weight": (3, 4), "fc2_bias": (3,)}
    return {k: mx.nd.array((rs.randn(*s) * 0.5).astype(np.float32)) for k, s in shapes.items()}


def bound(mx, mod):
    mod.bind(data_shapes=[("data", (5, 6))], label_shapes=[("softmax_label", (5,))])
    return mod


def train(mod, steps):
    for batch in steps:
        mod.forward(batch, is_train=True)
        mod.backward()
        mod.update()


def params(mod):
    args, _ = mod.get_params()
    return {k: v.asnumpy() for k, v in sorted(args.items())}


def resumed(mx, folder, tag, optimizer, optimizer_params):
    data = batches(mx)
    straight = bound(mx, mx.mod.Module(network(mx)))
    straight.init_params(arg_params=start_params(mx))
    straight.init_optimizer(optimizer=optimizer, optimizer_params=optimizer_params)
    train(straight, data)

    first = bound(mx, mx.mod.Module(network(mx)))
    first.init_params(arg_params=start_params(mx))
    first.init_optimizer(optimizer=optimizer, optimizer_params=optimizer_params)
    train(first, data[:2])
    prefix = os.path.join(folder, tag)
    first.save_checkpoint(prefix, 2, save_optimizer_states=True)
    second = bound(mx, mx.mod.Module.load(prefix, 2, load_optimizer_states=True))
    second.init_optimizer(optimizer=optimizer, optimizer_params=optimizer_params)
    restored = second._updater.states
    states = {str(k): ([s.asnumpy() for s in v] if isinstance(v, (tuple, list))
                       else (None if v is None else v.asnumpy()))
              for k, v in sorted(restored.items())}
    train(second, data[2:])
    got, want = params(second), params(straight)
    return {"straight": want, "resumed": got, "states_after_load": states,
            "resumed_equals_straight": all(np.allclose(got[k], want[k], rtol=1e-5, atol=1e-6)
                                           for k in got),
            "files": sorted(f for f in os.listdir(folder) if f.startswith(tag + "-"))}


def run(mx):
    with tempfile.TemporaryDirectory() as folder:
        out = {
            "sgd_momentum": resumed(mx, folder, "sgd", "sgd", (("learning_rate", 0.5),
                                                                ("momentum", 0.9),
                                                                ("wd", 0.01))),
            "adam": resumed(mx, folder, "adam", "adam", (("learning_rate", 0.05),)),
            "rmsprop_centered": resumed(mx, folder, "rms", "rmsprop",
                                        (("learning_rate", 0.01), ("centered", True))),
            "nag": resumed(mx, folder, "nag", "nag", (("learning_rate", 0.2),
                                                      ("momentum", 0.8))),
        }
        # without load_optimizer_states the momentum starts from zero again
        prefix = os.path.join(folder, "sgd")
        fresh = bound(mx, mx.mod.Module.load(prefix, 2))
        fresh.init_optimizer(optimizer="sgd", optimizer_params=(("learning_rate", 0.5),
                                                                 ("momentum", 0.9)))
        out["no_states_loaded"] = sorted(fresh._updater.states)
    return out
