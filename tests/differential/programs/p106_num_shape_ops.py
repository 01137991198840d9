"""Shape operators, numerics: Flatten, Reshape (special codes, reverse), Concat (3 inputs,
dim 0 and dim 2), transpose, expand_dims, slice_axis, SliceChannel / split (squeeze_axis):
forward outputs and the gradient of every input (random head gradient for every output)."""
import numpy as np

from _common import f32, fwd_bwd


def run(mx):
    rs = np.random.RandomState(106)
    data = mx.sym.Variable("data")
    a, b, c = mx.sym.Variable("a"), mx.sym.Variable("b"), mx.sym.Variable("c")
    x4 = f32(rs.randn(2, 3, 4, 5))
    x3 = f32(rs.randn(2, 6, 4))
    d = {"data": x4}
    return {
        "flatten_4d": fwd_bwd(mx, mx.sym.Flatten(data), d, rs),
        "flatten_3d": fwd_bwd(mx, mx.sym.flatten(data), {"data": x3}, rs),
        "reshape_0_m1": fwd_bwd(mx, mx.sym.Reshape(data, shape=(0, -1)), d, rs),
        "reshape_m3_m2": fwd_bwd(mx, mx.sym.Reshape(data, shape=(-3, -2)), d, rs),
        "reshape_m4": fwd_bwd(mx, mx.sym.Reshape(data, shape=(-4, 1, 2, -2)), d, rs),
        "reshape_reverse": fwd_bwd(mx, mx.sym.reshape(data, shape=(-1, 0), reverse=True),
                                   {"data": x3}, rs),
        "concat_3_inputs_dim0": fwd_bwd(
            mx, mx.sym.Concat(a, b, c, dim=0),
            {"a": f32(rs.randn(1, 3, 2)), "b": f32(rs.randn(2, 3, 2)),
             "c": f32(rs.randn(3, 3, 2))}, rs),
        "concat_3_inputs_dim2": fwd_bwd(
            mx, mx.sym.concat(a, b, c, dim=2),
            {"a": f32(rs.randn(2, 3, 1)), "b": f32(rs.randn(2, 3, 4)),
             "c": f32(rs.randn(2, 3, 2))}, rs),
        "concat_default_dim1": fwd_bwd(
            mx, mx.sym.Concat(a, b), {"a": f32(rs.randn(2, 1)), "b": f32(rs.randn(2, 3))}, rs),
        "transpose_default": fwd_bwd(mx, mx.sym.transpose(data), {"data": x3}, rs),
        "transpose_axes_0231": fwd_bwd(mx, mx.sym.transpose(data, axes=(0, 2, 3, 1)), d, rs),
        "expand_dims_1": fwd_bwd(mx, mx.sym.expand_dims(data, axis=1), {"data": x3}, rs),
        "expand_dims_m1": fwd_bwd(mx, mx.sym.expand_dims(data, axis=-1), {"data": x3}, rs),
        "slice_axis_1_1_3": fwd_bwd(mx, mx.sym.slice_axis(data, axis=1, begin=1, end=3), d, rs),
        "slice_axis_m1_neg": fwd_bwd(mx, mx.sym.slice_axis(data, axis=-1, begin=-3, end=-1),
                                     d, rs),
        "slice_axis_end_none": fwd_bwd(mx, mx.sym.slice_axis(data, axis=2, begin=1, end=None),
                                       d, rs),
        "slicechannel_3": fwd_bwd(mx, mx.sym.SliceChannel(data, num_outputs=3), {"data": x3},
                                  rs),
        "split_axis2": fwd_bwd(mx, mx.sym.split(data, num_outputs=2, axis=2), {"data": x3}, rs),
        "split_squeeze_axis": fwd_bwd(
            mx, mx.sym.split(data, num_outputs=3, axis=1, squeeze_axis=True), d, rs),
        "split_squeeze_last": fwd_bwd(
            mx, mx.sym.SliceChannel(data, num_outputs=4, axis=-1, squeeze_axis=True),
            {"data": x3}, rs),
    }
