"""Write optimizer states with minisym, for MXNet to read back.

Run from the project root with minisym (no MXNet needed):

    python tests/differential/make_minisym_states.py

It writes ``tests/fixtures/minisym_states/``: ``fixed.states`` (``Updater.get_states()`` of
fixed values: arrays of several dtypes, None, tuples, a list), and, for SGD with momentum and
centered RMSProp, the checkpoint ``TAG-symbol.json``, ``TAG-0002.params``, ``TAG-0002.states``
of program p774's network after 2 steps. The files are committed; program p775 (recorded under
MXNet 1.9.1) resumes them, and ``tests/test_optimizer_states.py`` checks that minisym still
writes exactly the bytes of ``fixed.states``.
"""

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT_ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
OUT = os.path.join(PROJECT_ROOT, "tests", "fixtures", "minisym_states")
CHECKPOINTS = {
    "sgd": ("sgd", (("learning_rate", 0.5), ("momentum", 0.9), ("wd", 0.01))),
    "rms": ("rmsprop", (("learning_rate", 0.01), ("centered", True))),
}


def fixed_states(mx):
    """The bytes of Updater.get_states() for fixed, exactly representable states."""
    ramp = np.arange(6, dtype=np.float64).reshape(2, 3) * 0.25 - 0.5
    updater = mx.optimizer.get_updater(mx.optimizer.SGD(momentum=0.9))
    updater.states = {
        0: mx.nd.array(ramp, dtype="float32"),
        1: None,
        2: (mx.nd.array(ramp[0], dtype="float64"), mx.nd.array([1.5])),
        3: [mx.nd.array([[2.0]], dtype="float16"), (None, mx.nd.array([-1.0]))],
    }
    return updater.get_states()


def checkpoints(mx):
    sys.path.insert(0, os.path.join(HERE, "programs"))
    import p774_module_resume_mxnet_states as p774

    for tag, (optimizer, optimizer_params) in CHECKPOINTS.items():
        mod = p774.bound(mx.mod.Module(p774.network(mx)))
        mod.init_params(arg_params=p774.start_params(mx))
        mod.init_optimizer(optimizer=optimizer, optimizer_params=optimizer_params)
        p774.train(mod, p774.batches(mx)[:2])
        mod.save_checkpoint(os.path.join(OUT, tag), 2, save_optimizer_states=True)


if __name__ == "__main__":
    sys.path.insert(0, PROJECT_ROOT)
    import minisym as mx

    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "fixed.states"), "wb") as fout:
        fout.write(fixed_states(mx))
    checkpoints(mx)
    print("wrote", sorted(os.listdir(OUT)))
