"""MXNet reads the optimizer states minisym writes: ``tests/fixtures/minisym_states/`` (written
by ``make_minisym_states.py`` with minisym) holds ``fixed.states`` and checkpoints saved after
2 steps with ``save_optimizer_states=True``. Recorded under MXNet 1.9.1: what
``Updater.set_states`` read, and the parameters after resuming each checkpoint with
``Module.load(prefix, 2, load_optimizer_states=True)`` for 2 more steps; replayed under
minisym, which must agree."""
from _common import fixture_dir, fixture_files
from p774_module_resume_mxnet_states import as_numpy, batches, bound, train

TOLERANCE = dict(rtol=1e-5, atol=1e-6)
CHECKPOINTS = {"sgd": ("sgd", (("learning_rate", 0.5), ("momentum", 0.9), ("wd", 0.01))),
               "rms": ("rmsprop", (("learning_rate", 0.01), ("centered", True)))}


def run(mx):
    import os
    folder = fixture_dir("minisym_states")
    out = {"files": [(name, digest) for name, _, digest in fixture_files("minisym_states")]}
    updater = mx.optimizer.get_updater(mx.optimizer.SGD(momentum=0.9))
    with open(os.path.join(folder, "fixed.states"), "rb") as fin:
        updater.set_states(fin.read())
    out["fixed"] = {str(k): as_numpy(v) for k, v in sorted(updater.states.items())}
    out["fixed_types"] = {str(k): type(v).__name__ for k, v in sorted(updater.states.items())}
    out["fixed_dtypes"] = [str(updater.states[0].dtype.__name__),
                           str(updater.states[2][0].dtype.__name__),
                           str(updater.states[3][0].dtype.__name__)]
    for tag, (optimizer, optimizer_params) in CHECKPOINTS.items():
        mod = bound(mx.mod.Module.load(os.path.join(folder, tag), 2,
                                       load_optimizer_states=True))
        mod.init_optimizer(optimizer=optimizer, optimizer_params=optimizer_params)
        train(mod, batches(mx)[2:])
        args, _ = mod.get_params()
        out[tag] = {k: v.asnumpy() for k, v in sorted(args.items())}
    return out
