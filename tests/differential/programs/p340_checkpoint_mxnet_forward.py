"""A checkpoint written by MXNet 1.9.1 (tests/fixtures/mxnet_checkpoint, prefix 'mlp', epoch 3):
load_checkpoint + simple_bind + copy_params_from, forward on a fixed input."""
import os

import numpy as np

PREFIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures",
                      "mxnet_checkpoint", "mlp")


def run(mx):
    sym, arg_params, aux_params = mx.model.load_checkpoint(PREFIX, 3)
    x = np.linspace(-1.0, 1.0, 8).reshape(2, 4).astype(np.float32)
    exe = sym.simple_bind(mx.cpu(), data=(2, 4), grad_req="null")
    exe.copy_params_from(arg_params, aux_params, allow_extra_params=False)
    exe.arg_dict["data"][:] = x
    out = exe.forward(is_train=False)
    return {
        "arguments": sym.list_arguments(),
        "param_names": sorted(arg_params),
        "aux_names": sorted(aux_params),
        "output": out[0].asnumpy(),
    }
