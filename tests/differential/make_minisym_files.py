"""Write ``.params`` files and a checkpoint with minisym, for MXNet to read back.

Run from the project root with minisym (no MXNet needed):

    python tests/differential/make_minisym_files.py

It writes ``tests/fixtures/minisym_params/``. The files are committed; program p321 loads them
(recorded under MXNet 1.9.1, so the fixture says what MXNet read) and program p341 runs the
minisym-written checkpoint forward. ``tests/test_serialization.py`` checks that minisym still
writes exactly these bytes (``build_files``). The values are fixed: no random numbers.
"""

import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT_ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
OUT = os.path.join(PROJECT_ROOT, "tests", "fixtures", "minisym_params")


def ramp(mx, shape, dtype, scale=1.0, offset=0.0):
    """Distinct, exactly representable values: ``offset + scale * (0, 1, 2, ...)``."""
    values = offset + scale * np.arange(int(np.prod(shape)), dtype=np.float64)
    return mx.nd.array(values.reshape(shape).astype(dtype), dtype=dtype)


def params_files(mx):
    """{file name: data passed to mx.nd.save}."""
    return {
        "dict_mixed.params": {
            "conv_weight": ramp(mx, (2, 1, 3, 3), "float32", 0.0625, -0.5),
            "conv_bias": ramp(mx, (2,), "float32", 0.5, 0.25),
            "gain": ramp(mx, (3,), "float64", 1.0 / 7.0, 2.0),
            "ids": ramp(mx, (2, 2), "int32", -3, 9),
            "name with spaces / unicode é": ramp(mx, (1,), "float32", 1, 42),
        },
        "list_mixed.params": [
            ramp(mx, (3, 2), "float32", -0.75, 3),
            ramp(mx, (2, 1, 2), "float64", 1e-3, -1e5),
            ramp(mx, (6,), "int32", 123456, -300000),
        ],
        "dtypes.params": {
            "f16": ramp(mx, (2, 2), "float16", 0.25, -1),
            "u8": ramp(mx, (3,), "uint8", 100, 5),
            "i8": ramp(mx, (3,), "int8", -60, 100),
            "i64": ramp(mx, (2,), "int64", 2.0**41, -7),
            "b": mx.nd.array([0, 1], dtype="bool"),
        },
        "single.params": ramp(mx, (1, 3), "float32", 2.5, -1),
        "empty_dict.params": {},
    }


def checkpoint_net(mx):
    data = mx.sym.Variable("data")
    net = mx.sym.FullyConnected(data, num_hidden=4, name="fc1")
    net = mx.sym.Activation(net, act_type="tanh", name="act1")
    net = mx.sym.FullyConnected(net, num_hidden=2, name="fc2")
    return mx.sym.SoftmaxOutput(net, name="softmax")


def checkpoint_params(mx):
    """Fixed weights for checkpoint_net with 3 inputs."""
    return {
        "fc1_weight": mx.nd.array(np.cos(np.arange(12).reshape(4, 3) * 0.9) * 0.7),
        "fc1_bias": mx.nd.array([0.0, 0.1, -0.1, 0.2]),
        "fc2_weight": mx.nd.array(np.sin(np.arange(8).reshape(2, 4) * 1.3)),
        "fc2_bias": mx.nd.array([0.05, -0.05]),
    }


def build_files(mx, out_dir):
    """Write every file into ``out_dir``; return their names, sorted."""
    os.makedirs(out_dir, exist_ok=True)
    for name, data in params_files(mx).items():
        mx.nd.save(os.path.join(out_dir, name), data)
    with mx.name.NameManager():
        net = checkpoint_net(mx)
    mx.model.save_checkpoint(os.path.join(out_dir, "mlp"), 2, net, checkpoint_params(mx), {})
    return sorted(os.listdir(out_dir))


def main():
    if PROJECT_ROOT not in sys.path:
        sys.path.insert(0, PROJECT_ROOT)
    import minisym as mx

    for name in build_files(mx, OUT):
        print("wrote", os.path.relpath(os.path.join(OUT, name)))


if __name__ == "__main__":
    main()
