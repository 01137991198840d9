"""MXNet reads what minisym writes: the checkpoint minisym wrote (tests/fixtures/minisym_params, prefix
'mlp', epoch 2) loaded and run forward; recorded under MXNet 1.9.1."""
import os

import numpy as np

PREFIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures",
                      "minisym_params", "mlp")


def run(mx):
    sym, arg_params, aux_params = mx.model.load_checkpoint(PREFIX, 2)
    x = np.array([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]], dtype=np.float32)
    exe = sym.simple_bind(mx.cpu(), data=(2, 3), grad_req="null")
    exe.copy_params_from(arg_params, aux_params)
    exe.arg_dict["data"][:] = x
    return {"output": exe.forward(is_train=False)[0].asnumpy()}
