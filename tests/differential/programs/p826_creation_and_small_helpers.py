"""What MXNet's docstrings and unit tests create and call besides operators: mx.nd.eye /
mx.sym.eye, linspace (endpoint, integer dtype), mx.nd.moveaxis, NDArray.tostype('default'),
mx.base.py_str."""
import json

import numpy as np


def run(mx):
    x = mx.nd.array(np.arange(24).reshape(2, 3, 4))
    dense = x.tostype("default")
    dense[:] = 0
    eye = mx.sym.eye(3, 4, k=-1)
    node = json.loads(eye.tojson())["nodes"][0]
    return {
        "nd_eye": mx.nd.eye(3, 4, 1).asnumpy(), "nd_eye_square": mx.nd.eye(2).asnumpy(),
        "nd_eye_int": str(mx.nd.eye(2, dtype="int32").dtype.__name__),
        "sym_eye": eye.eval()[0].asnumpy(), "sym_eye_node": [node["op"], node["attrs"]],
        "sym_eye_shape": eye.infer_shape(),
        "nd_linspace": mx.nd.linspace(0, 1, 5).asnumpy(),
        "nd_linspace_open": mx.nd.linspace(0, 1, 5, endpoint=False).asnumpy(),
        "nd_linspace_int": mx.nd.linspace(0, 10, 3, dtype="int32").asnumpy().tolist(),
        "sym_linspace": mx.sym.linspace(2, 3, 3).eval()[0].asnumpy(),
        "moveaxis": [mx.nd.moveaxis(x, 0, -1).shape, mx.nd.moveaxis(x, 2, 0).shape,
                     mx.nd.moveaxis(x, -1, 1).asnumpy()],
        "tostype_copy": [dense.shape, float(x.asnumpy().sum())],
        "py_str": mx.base.py_str("café".encode()),
    }
