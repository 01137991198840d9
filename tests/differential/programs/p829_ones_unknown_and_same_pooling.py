"""mx.sym.ones / zeros with -1 sizes take them from the operator that reads them (MXNet's
test_transpose_infer_shape_back / _mixed), and 1-D Pooling with pooling_convention='same'
(out = ceil(in / stride), windows clipped at the end; avg and sum, which MXNet's oneDNN build
computes; max only its shape, as MXNet's test does) and its two refusals."""
import numpy as np
from _common import err


def run(mx):
    found = {}
    o1, o2 = mx.sym.ones(shape=[2, 3]), mx.sym.ones(shape=[-1, -1])
    found["back"] = (o1 + mx.sym.transpose(o2)).bind(mx.cpu(), args={}).forward()[0].asnumpy()
    o1, o2 = mx.sym.ones(shape=[2, -1]), mx.sym.zeros(shape=[3, -1])
    found["mixed"] = (o1 + mx.sym.transpose(o2)).bind(mx.cpu(), args={}).forward()[0].asnumpy()
    found["json"] = mx.sym.ones(shape=(2, -1), name="o").tojson()
    x = mx.nd.array(np.arange(22).reshape(1, 2, 11) % 7)
    for pool_type in ("avg", "sum"):
        for kernel, stride in ((2, 2), (4, 3)):
            found[f"{pool_type}_{kernel}_{stride}"] = mx.nd.Pooling(
                x, kernel=(kernel,), stride=(stride,), pad=(0, 0, 0), pool_type=pool_type,
                pooling_convention="same").asnumpy()
    found["max_shape"] = mx.nd.Pooling(mx.nd.array(np.random.rand(1, 1, 10)), kernel=2,
                                       stride=2, pad=(0, 0, 0), pool_type="max",
                                       pooling_convention="same").shape
    found["refuses_2d"] = err(mx, lambda: mx.nd.Pooling(
        mx.nd.ones((1, 1, 4, 4)), kernel=(2, 2), pooling_convention="same"))
    found["refuses_pad"] = err(mx, lambda: mx.nd.Pooling(
        x, kernel=(2,), pad=(1,), pooling_convention="same"))
    return found
