"""FullyConnected numerics: forward and the gradients of data, weight and bias (random head
gradient), for the default, no_bias=True, and flatten=False on 3-D data (with and without bias)."""
import numpy as np


def _f32(a):
    return np.asarray(a, dtype=np.float32)


def fwd_bwd(mx, sym, inputs, rs):
    """simple_bind, feed every argument, forward in train mode, backward with a random head."""
    ex = sym.simple_bind(ctx=mx.cpu(), **{k: v.shape for k, v in inputs.items()})
    for k, v in inputs.items():
        ex.arg_dict[k][:] = v
    ex.forward(is_train=True)
    res = {"out": ex.outputs[0].asnumpy()}
    ex.backward([mx.nd.array(_f32(rs.randn(*o.shape))) for o in ex.outputs])
    for name in sym.list_arguments():
        res["grad_" + name] = ex.grad_dict[name].asnumpy()
    return res


def run(mx):
    rs = np.random.RandomState(100)
    data = mx.sym.Variable("data")
    weight = mx.sym.Variable("weight")
    bias = mx.sym.Variable("bias")
    res = {}

    x4 = _f32(rs.randn(2, 3, 2, 2))
    res["default_4d"] = fwd_bwd(
        mx, mx.sym.FullyConnected(data, weight, bias, num_hidden=5),
        {"data": x4, "weight": _f32(rs.randn(5, 12)), "bias": _f32(rs.randn(5))}, rs)

    x2 = _f32(rs.randn(4, 6))
    res["no_bias"] = fwd_bwd(
        mx, mx.sym.FullyConnected(data, weight, num_hidden=3, no_bias=True),
        {"data": x2, "weight": _f32(rs.randn(3, 6))}, rs)

    x3 = _f32(rs.randn(2, 3, 4))
    res["flatten_false_3d"] = fwd_bwd(
        mx, mx.sym.FullyConnected(data, weight, bias, num_hidden=5, flatten=False),
        {"data": x3, "weight": _f32(rs.randn(5, 4)), "bias": _f32(rs.randn(5))}, rs)

    res["flatten_false_no_bias_3d"] = fwd_bwd(
        mx, mx.sym.FullyConnected(data, weight, num_hidden=2, flatten=False, no_bias=True),
        {"data": x3, "weight": _f32(rs.randn(2, 4))}, rs)

    res["flatten_true_3d"] = fwd_bwd(
        mx, mx.sym.FullyConnected(data, weight, bias, num_hidden=3),
        {"data": x3, "weight": _f32(rs.randn(3, 12)), "bias": _f32(rs.randn(3))}, rs)
    return res
