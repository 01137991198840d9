"""mx.model.save_checkpoint / load_checkpoint: the two files (JSON text and .params bytes, arg:/aux:
names) and what comes back, for a net with BatchNorm auxiliary states."""
import os
import shutil
import tempfile

import numpy as np


def net(mx):
    data = mx.sym.Variable("data")
    body = mx.sym.Convolution(data, kernel=(3, 3), num_filter=2, name="conv")
    body = mx.sym.BatchNorm(body, name="bn")
    body = mx.sym.FullyConnected(mx.sym.Flatten(body, name="flat"), num_hidden=3, name="fc")
    return mx.sym.SoftmaxOutput(body, name="softmax")


def params(mx):
    ramp = lambda shape, scale: mx.nd.array(np.arange(np.prod(shape)).reshape(shape) * scale)
    args = {"conv_weight": ramp((2, 1, 3, 3), 0.1), "conv_bias": ramp((2,), 1.0),
            "bn_gamma": ramp((2,), 0.5), "bn_beta": ramp((2,), -0.5),
            "fc_weight": ramp((3, 8), 0.01), "fc_bias": ramp((3,), 2.0)}
    aux = {"bn_moving_mean": ramp((2,), 0.25), "bn_moving_var": ramp((2,), 1.5) + 1}
    return args, aux


def run(mx):
    tmp = tempfile.mkdtemp()
    try:
        prefix = os.path.join(tmp, "model")
        args, aux = params(mx)
        symbol = net(mx)
        mx.model.save_checkpoint(prefix, 7, symbol, args, aux)
        files = sorted(os.listdir(tmp))
        with open(prefix + "-symbol.json", encoding="utf-8") as f:
            json_text = f.read()
        with open(prefix + "-0007.params", "rb") as f:
            params_hex = f.read().hex()
        raw = mx.nd.load(prefix + "-0007.params")
        loaded, arg_params, aux_params = mx.model.load_checkpoint(prefix, 7)
        mx.model.save_checkpoint(os.path.join(tmp, "nosym"), 12, None, {"w": args["fc_bias"]}, {})
        no_symbol_files = sorted(f for f in os.listdir(tmp) if f.startswith("nosym"))
    finally:
        shutil.rmtree(tmp)
    return {
        "files": files,
        "json_equals_tojson": json_text == symbol.tojson(),
        "params_hex": params_hex,
        "raw_keys": list(raw.keys()),
        "loaded_tojson_equal": loaded.tojson() == symbol.tojson(),
        "arg_params": {k: v.asnumpy() for k, v in arg_params.items()},
        "arg_order": list(arg_params.keys()),
        "aux_params": {k: v.asnumpy() for k, v in aux_params.items()},
        "no_symbol_files": no_symbol_files,
    }
