"""Write the optimizer states MXNet saves, under tests/fixtures/mxnet_states/.

Run once under a real MXNet 1.9.1 installation (from the project root):

    python tests/differential/make_mxnet_states.py

For each optimizer of program p774 (SGD with momentum, Adam, centered RMSProp) it trains the
program's network 2 steps from its fixed parameters and writes ``TAG-symbol.json``,
``TAG-0002.params`` and ``TAG-0002.states`` with ``save_checkpoint(..., save_optimizer_states=
True)`` (the states are MXNet's pickle). It also writes Updater-style states pickled with
protocol 2 and 5 (``protocol2.states``, ``protocol5.states``), and ``dump_optimizer.states``
(``get_states(dump_optimizer=True)``, which holds the optimizer object: minisym refuses it).
The inputs are fixed, so running it again writes the same values.
"""

import os
import pickle
import sys

import mxnet as mx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "programs"))
import p774_module_resume_mxnet_states as p774  # noqa: E402

FOLDER = os.path.normpath(os.path.join(HERE, "..", "fixtures", "mxnet_states"))


def checkpoints():
    for tag, (optimizer, optimizer_params) in p774.OPTIMIZERS.items():
        mod = p774.bound(mx.mod.Module(p774.network(mx)))
        mod.init_params(arg_params=p774.start_params(mx))
        mod.init_optimizer(optimizer=optimizer, optimizer_params=optimizer_params)
        p774.train(mod, p774.batches(mx)[:2])
        mod.save_checkpoint(os.path.join(FOLDER, tag), 2, save_optimizer_states=True)


def raw_states():
    states = {
        0: (mx.nd.array([1.5, -2.0]), mx.nd.array([[0.25], [4.0]], dtype="float64")),
        1: None,
        "fc_weight": mx.nd.array([[1, 2], [3, 4]], dtype="float16"),
        2: [mx.nd.array([7.0]), (mx.nd.array([8.0]), None)],
    }
    for protocol in (2, 5):
        with open(os.path.join(FOLDER, f"protocol{protocol}.states"), "wb") as fout:
            fout.write(pickle.dumps(states, protocol=protocol))
    updater = mx.optimizer.get_updater(mx.optimizer.SGD(momentum=0.9))
    updater(0, mx.nd.ones((2,)), mx.nd.ones((2,)))
    with open(os.path.join(FOLDER, "dump_optimizer.states"), "wb") as fout:
        fout.write(updater.get_states(dump_optimizer=True))


if __name__ == "__main__":
    assert mx.__version__ == "1.9.1", mx.__version__
    os.makedirs(FOLDER, exist_ok=True)
    checkpoints()
    raw_states()
    print("wrote", sorted(os.listdir(FOLDER)))
