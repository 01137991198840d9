"""Write the MXNet-produced ``.params`` files and checkpoint under tests/fixtures/.

Run once under a real MXNet 1.9.1 installation (from the project root):

    python tests/differential/make_mxnet_params.py

It writes

- ``tests/fixtures/mxnet_params/``: arrays saved with ``mx.nd.save`` (a dict and a list,
  float32, float64 and int32, plus the other dtypes MXNet saves); program p320 loads them;
- ``tests/fixtures/mxnet_checkpoint/``: ``mlp-symbol.json`` and ``mlp-0003.params`` from
  ``mx.model.save_checkpoint`` (a small MLP with fixed weights); program p340 runs it forward.

The values are fixed (no random numbers), so running it again writes the same bytes.
"""

import os
import sys

import mxnet as mx
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.normpath(os.path.join(HERE, "..", "fixtures"))
PARAMS_DIR = os.path.join(FIXTURES, "mxnet_params")
CHECKPOINT_DIR = os.path.join(FIXTURES, "mxnet_checkpoint")


def ramp(shape, dtype, scale=1.0, offset=0.0):
    """Distinct, exactly representable values: ``offset + scale * (0, 1, 2, ...)``."""
    values = offset + scale * np.arange(int(np.prod(shape)), dtype=np.float64)
    return mx.nd.array(values.reshape(shape).astype(dtype), dtype=dtype)


def params_files():
    """{file name: data passed to mx.nd.save}."""
    return {
        "dict_mixed.params": {
            "fc1_weight": ramp((3, 4), "float32", 0.25, -1.5),
            "fc1_bias": ramp((3,), "float32", 0.5),
            "scale": ramp((2, 2), "float64", 1.0 / 3.0, 0.1),
            "counts": ramp((2, 3), "int32", 7, -10),
        },
        "list_mixed.params": [
            ramp((2, 3, 2), "float32", 0.125),
            ramp((4,), "float64", -2.5, 1e10),
            ramp((1, 5), "int32", 1000, -2000),
        ],
        "dtypes.params": {
            "f16": ramp((3,), "float16", 0.5),
            "u8": ramp((4,), "uint8", 60),
            "i8": ramp((4,), "int8", -50, 70),
            "i64": ramp((2,), "int64", 2.0**40, 3),
            "b": mx.nd.array([1, 0, 1], dtype="bool"),
        },
        "single.params": ramp((2, 2), "float32", 1.5),
        "empty_list.params": [],
    }


def checkpoint_net():
    data = mx.sym.Variable("data")
    net = mx.sym.FullyConnected(data, num_hidden=5, name="fc1")
    net = mx.sym.Activation(net, act_type="relu", name="relu1")
    net = mx.sym.FullyConnected(net, num_hidden=3, name="fc2")
    return mx.sym.SoftmaxOutput(net, name="softmax")


def checkpoint_params():
    """Fixed, varied weights for checkpoint_net with 4 inputs."""
    return {
        "fc1_weight": mx.nd.array(np.sin(np.arange(20).reshape(5, 4) * 0.7) * 0.8),
        "fc1_bias": mx.nd.array([0.1, -0.2, 0.05, 0.0, 0.3]),
        "fc2_weight": mx.nd.array(np.cos(np.arange(15).reshape(3, 5) * 0.4) * 0.9),
        "fc2_bias": mx.nd.array([0.2, -0.1, 0.0]),
    }


def main():
    if not mx.__version__.startswith("1.9.1"):
        sys.exit("these files must be written by MXNet 1.9.1, not %s" % mx.__version__)
    os.makedirs(PARAMS_DIR, exist_ok=True)
    for name, data in sorted(params_files().items()):
        path = os.path.join(PARAMS_DIR, name)
        mx.nd.save(path, data)
        print("wrote", os.path.relpath(path))
    os.makedirs(CHECKPOINT_DIR, exist_ok=True)
    with mx.name.NameManager():
        net = checkpoint_net()
    prefix = os.path.join(CHECKPOINT_DIR, "mlp")
    mx.model.save_checkpoint(prefix, 3, net, checkpoint_params(), {})
    print(
        "wrote", os.path.relpath(prefix + "-symbol.json"), os.path.relpath(prefix + "-0003.params")
    )


if __name__ == "__main__":
    main()
