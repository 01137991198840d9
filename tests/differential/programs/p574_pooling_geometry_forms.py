"""The stride / pad forms MXNet 1.9.1 accepts: Pooling takes longer tuples than its kernel
(pad=(0, 0, 0) on a 2-D kernel) and reads their first len(kernel) values; Convolution wants
exactly one value per kernel dimension; () means the default."""
import numpy as np

from _common import err


def run(mx):
    x = mx.sym.Variable("x")
    d2 = np.arange(64, dtype=np.float32).reshape(1, 1, 8, 8)
    d1 = np.arange(8, dtype=np.float32).reshape(1, 1, 8)
    res = {}
    for key, kw in {"pad_000": dict(pad=(0, 0, 0)), "pad_115": dict(pad=(1, 1, 5)),
                    "pad_107": dict(pad=(1, 0, 7)), "stride_239": dict(stride=(2, 3, 9)),
                    "stride_23_pad_0100": dict(stride=(2, 3), pad=(0, 1, 0, 0)),
                    "avg_pad_000": dict(pad=(0, 0, 0), pool_type="avg"),
                    "empty_stride": dict(stride=()), "empty_pad": dict(pad=())}.items():
        k = dict(kernel=(2, 2), pool_type="max")
        k.update(kw)
        pool = mx.sym.Pooling(x, **k)
        res[key] = {"shape": pool.infer_shape(x=d2.shape)[1],
                    "values": mx.nd.Pooling(mx.nd.array(d2), **k).asnumpy()}
    res["1d_stride_22_pad_000"] = mx.nd.Pooling(mx.nd.array(d1), kernel=(2,), stride=(2, 2),
                                                pad=(0, 0, 0)).asnumpy()
    res["1d_pad_10"] = mx.nd.Pooling(mx.nd.array(d1), kernel=(2,), stride=(2,),
                                     pad=(1, 0)).asnumpy()
    res["3d_stride_2222"] = mx.nd.Pooling(mx.nd.ones((1, 1, 4, 4, 4)), kernel=(2, 2, 2),
                                          stride=(2, 2, 2, 2)).shape
    res["global_pad_000"] = mx.sym.Pooling(x, kernel=(1, 1), global_pool=True,
                                           pad=(0, 0, 0)).infer_shape(x=(1, 1, 8, 8))[1]
    conv = dict(kernel=(3, 3), num_filter=2)
    res["conv_empty_forms"] = [mx.sym.Convolution(x, **conv, **kw).infer_shape(x=(1, 1, 8, 8))[1]
                               for kw in (dict(pad=()), dict(stride=()), dict(dilate=()))]
    res["errors"] = {
        "pool_pad_too_short": err(mx, lambda: mx.sym.Pooling(
            x, kernel=(2, 2), pad=(0,)).infer_shape(x=(1, 1, 8, 8))),
        "pool_stride_int": err(mx, lambda: mx.sym.Pooling(
            x, kernel=(2, 2), stride=1).infer_shape(x=(1, 1, 8, 8))),
        "conv_pad_000": err(mx, lambda: mx.sym.Convolution(
            x, pad=(0, 0, 0), **conv).infer_shape(x=(1, 1, 8, 8))),
        "conv_pad_int": err(mx, lambda: mx.sym.Convolution(
            x, pad=0, **conv).infer_shape(x=(1, 1, 8, 8))),
        "conv_stride_111": err(mx, lambda: mx.sym.Convolution(
            x, stride=(1, 1, 1), **conv).infer_shape(x=(1, 1, 8, 8))),
        "conv_1d_pad_000": err(mx, lambda: mx.sym.Convolution(
            x, kernel=(3,), num_filter=2, pad=(0, 0, 0)).infer_shape(x=(1, 1, 8))),
    }
    return res
