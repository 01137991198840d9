"""Checkpoints that are not there: do_checkpoint's numbering (epoch + 1, every period-th), and
load_checkpoint / load_params / Module.load of an epoch that was not saved, of a prefix with no
files, and of a checkpoint whose -symbol.json is missing; a listed epoch loads."""
import os
import shutil
import tempfile

import numpy as np
from _common import err


def _mlp(mx):
    x = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=3, name="fc1")
    return mx.sym.SoftmaxOutput(x, name="softmax")


def _fit(mx, prefix, num_epoch, period):
    rng = np.random.RandomState(0)
    train = mx.io.NDArrayIter(rng.standard_normal((8, 5)).astype(np.float32),
                              np.array([0, 1, 2, 0, 1, 2, 0, 1], np.float32), batch_size=4)
    mod = mx.mod.Module(_mlp(mx))
    args = {"fc1_weight": mx.nd.array(rng.standard_normal((3, 5)) * 0.3),
            "fc1_bias": mx.nd.array(np.zeros(3))}
    mod.fit(train, num_epoch=num_epoch, arg_params=args,
            epoch_end_callback=mx.callback.do_checkpoint(prefix, period=period))
    return mod


def run(mx):
    tmp = tempfile.mkdtemp()
    try:
        every = os.path.join(tmp, "every")
        _fit(mx, every, 3, 1)
        second = os.path.join(tmp, "second")
        _fit(mx, second, 5, 2)
        files = sorted(os.listdir(tmp))
        out = {
            "files": files,
            "load_epoch_0": err(mx, mx.model.load_checkpoint, every, 0),
            "load_epoch_4": err(mx, mx.model.load_checkpoint, every, 4),
            "load_odd_epoch": err(mx, mx.model.load_checkpoint, second, 3),
            "load_params_missing": err(mx, mx.model.load_params, every, 9),
            "module_load_missing": err(mx, mx.mod.Module.load, every, 0),
            "no_such_prefix": err(mx, mx.model.load_checkpoint, os.path.join(tmp, "evry"), 1),
            "no_such_folder": err(mx, mx.model.load_checkpoint,
                                  os.path.join(tmp, "nowhere", "every"), 1),
        }
        symbol, arg_params, _ = mx.model.load_checkpoint(every, 3)
        out["listed_epoch_loads"] = {"arguments": symbol.list_arguments(),
                                     "params": sorted(arg_params)}
        loaded = mx.mod.Module.load(second, 4)
        loaded.bind(data_shapes=[("data", (2, 5))], for_training=False)
        loaded.forward(mx.io.DataBatch([mx.nd.ones((2, 5))]), is_train=False)
        out["module_load_forward"] = loaded.get_outputs()[0].asnumpy()
        os.remove(every + "-symbol.json")
        out["symbol_missing"] = err(mx, mx.model.load_checkpoint, every, 1)
        out["symbol_missing_module"] = err(mx, mx.mod.Module.load, every, 1)
        out["symbol_missing_params_still_load"] = sorted(mx.model.load_params(every, 1)[0])
    finally:
        shutil.rmtree(tmp)
    return out
