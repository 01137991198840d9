"""Convolution numerics, 1-D and 2-D: forward and the gradients of data, weight and bias
(random head gradient) with stride, pad, dilate, num_group, no_bias and a non-square kernel."""
import numpy as np

from _common import f32, fwd_bwd


def conv(mx, rs, data_shape, weight_shape, **params):
    data = mx.sym.Variable("data")
    weight = mx.sym.Variable("weight")
    inputs = {"data": f32(rs.randn(*data_shape)), "weight": f32(rs.randn(*weight_shape))}
    if params.get("no_bias"):
        sym = mx.sym.Convolution(data, weight, **params)
    else:
        inputs["bias"] = f32(rs.randn(weight_shape[0]))
        sym = mx.sym.Convolution(data, weight, mx.sym.Variable("bias"), **params)
    return fwd_bwd(mx, sym, inputs, rs)


def run(mx):
    rs = np.random.RandomState(101)
    return {
        "conv1d_plain": conv(mx, rs, (2, 3, 8), (4, 3, 3), kernel=(3,), num_filter=4),
        "conv1d_stride2_pad1_dilate2": conv(mx, rs, (2, 3, 9), (4, 3, 3), kernel=(3,),
                                             stride=(2,), pad=(1,), dilate=(2,), num_filter=4),
        "conv1d_group3_no_bias": conv(mx, rs, (2, 6, 7), (6, 2, 2), kernel=(2,), num_group=3,
                                      num_filter=6, no_bias=True),
        "conv2d_plain": conv(mx, rs, (2, 3, 5, 5), (2, 3, 3, 3), kernel=(3, 3), num_filter=2),
        "conv2d_stride2_pad1": conv(mx, rs, (2, 3, 7, 7), (4, 3, 3, 3), kernel=(3, 3),
                                    stride=(2, 2), pad=(1, 1), num_filter=4),
        "conv2d_dilate2": conv(mx, rs, (2, 2, 9, 9), (3, 2, 3, 3), kernel=(3, 3), dilate=(2, 2),
                               num_filter=3),
        "conv2d_group2": conv(mx, rs, (2, 4, 6, 6), (6, 2, 3, 3), kernel=(3, 3), num_group=2,
                              num_filter=6),
        "conv2d_kernel3x2_stride1x2_pad2x0_no_bias": conv(
            mx, rs, (2, 3, 6, 7), (4, 3, 3, 2), kernel=(3, 2), stride=(1, 2), pad=(2, 0),
            num_filter=4, no_bias=True),
        "conv2d_group2_dilate2_stride2_pad1": conv(
            mx, rs, (2, 4, 9, 9), (8, 2, 3, 3), kernel=(3, 3), num_group=2, dilate=(2, 2),
            stride=(2, 2), pad=(1, 1), num_filter=8),
    }
