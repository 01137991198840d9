"""Partial shapes through the shape-changing operators: Flatten (nothing until data is wholly
known), Reshape's codes with unknown sizes and the one unknown input size Reshape fills from its
output, legacy target_shape, transpose and expand_dims both ways, slice_axis, SliceChannel
(raises on an unknown split axis, fills data's other sizes from an output), Concat and the
reductions. (Deliberate differences are not recorded: transpose with default axes and data
unknown, Concat inferring an input from its output, a Reshape whose sizes do not match.)"""
from _partial import inferred


def run(mx):
    V = mx.sym.Variable
    a, b, c = V("a"), V("b"), V("c")
    flat = mx.sym.Flatten(a)
    rs = mx.sym.Reshape(a, shape=(0, -1))
    split = mx.sym.split(a, num_outputs=2, axis=1, name="sp")
    squeeze = mx.sym.split(a, num_outputs=3, axis=1, squeeze_axis=True, name="sq")
    last = mx.sym.split(a, num_outputs=2, axis=-1, name="sl")
    cat = mx.sym.Concat(a, b, dim=1)
    return {
        "flatten_batch_unknown": inferred(mx, flat, a=(0, 3, 4)),
        "flatten_middle_unknown": inferred(mx, flat, a=(2, 0, 4)),
        "flatten_nothing_back": inferred(mx, flat + b, b=(2, 12)),
        "flatten_partial_both": inferred(mx, flat + b, a=(0, 3, 4), b=(2, 0)),
        "flatten_1d": inferred(mx, flat, a=(5,)),
        "reshape_keep_infer": inferred(mx, rs, a=(0, 3, 4)),
        "reshape_middle_unknown": inferred(mx, rs, a=(2, 0, 4)),
        "reshape_nothing_back_without_data": inferred(mx, rs + b, b=(2, 12)),
        "reshape_partial_both": inferred(mx, rs + b, a=(0, 3, 4), b=(2, 0)),
        "reshape_one_unknown_from_output": inferred(mx, rs + b, a=(2, 0, 4), b=(2, 12)),
        "reshape_two_unknown_stay": inferred(mx, rs + b, a=(0, 0, 4), b=(2, 12)),
        "reshape_fixed_first": inferred(mx, mx.sym.Reshape(a, shape=(6, -1)), a=(0, 3, 4)),
        "reshape_fixed_back": inferred(mx, mx.sym.Reshape(a, shape=(6, -1)) + b, a=(2, 0, 4),
                                       b=(6, 4)),
        "reshape_merge_code": inferred(mx, mx.sym.Reshape(a, shape=(-3, -2)), a=(0, 3, 4)),
        "reshape_split_code": inferred(mx, mx.sym.Reshape(a, shape=(-4, 2, -1, -2)),
                                       a=(0, 3, 4)),
        "reshape_split_code_back": inferred(mx, mx.sym.Reshape(a, shape=(-4, 2, -1, -2)) + b,
                                            a=(0, 3, 4), b=(2, 3, 3, 4)),
        "reshape_constant_fills_data": inferred(mx, mx.sym.Reshape(a, shape=(2, 3, 4)),
                                                a=(0, 12)),
        "reshape_reverse": inferred(mx, mx.sym.Reshape(a, shape=(-1, 0), reverse=True),
                                    a=(0, 5, 4)),
        "reshape_reverse_back": inferred(mx, mx.sym.Reshape(a, shape=(-1, 0), reverse=True)
                                         + b, a=(0, 5, 4), b=(10, 4)),
        "target_shape_zero_needs_data": inferred(mx, mx.sym.Reshape(a, target_shape=(0, 12)),
                                                 a=(0, 3, 4)),
        "target_shape_fixed_fills_data": inferred(mx, mx.sym.Reshape(a, target_shape=(3, 4)),
                                                  a=(0, 12)),
        "target_shape_keep_highest": inferred(mx, mx.sym.Reshape(a, target_shape=(0, 12),
                                                                 keep_highest=True),
                                              a=(2, 3, 4)),
        "transpose_partial": inferred(mx, mx.sym.transpose(a, axes=(1, 0, 2)), a=(0, 3, 4)),
        "transpose_back_partial": inferred(mx, mx.sym.transpose(a, axes=(1, 0, 2)) + b,
                                           a=(2, 0, 4), b=(5, 0, 0)),
        "transpose_axes_output_only": inferred(mx, mx.sym.transpose(a, axes=(1, 0, 2)) + b,
                                               b=(5, 2, 4)),
        "transpose_default_partial": inferred(mx, mx.sym.transpose(a) + b, a=(0, 2, 0),
                                              b=(5, 0, 3)),
        "expand_dims_partial": inferred(mx, mx.sym.expand_dims(a, axis=1), a=(0, 3)),
        "expand_dims_output_only": inferred(mx, mx.sym.expand_dims(a, axis=-1) + b,
                                            b=(2, 3, 1)),
        "expand_dims_back_partial": inferred(mx, mx.sym.expand_dims(a, axis=1) + b, a=(0, 3),
                                             b=(2, 1, 0)),
        "slice_axis_partial": inferred(mx, mx.sym.slice_axis(a, axis=1, begin=1, end=3),
                                       a=(0, 5)),
        "slice_axis_axis_unknown": inferred(mx, mx.sym.slice_axis(a, axis=1, begin=1, end=3),
                                            a=(2, 0)),
        "slice_axis_nothing_back": inferred(mx, mx.sym.slice_axis(a, axis=1, begin=1, end=3)
                                            + b, a=(0, 5), b=(2, 2)),
        "split_partial": inferred(mx, split, a=(0, 6)),
        "split_axis_unknown_raises": inferred(mx, split, a=(4, 0)),
        "split_one_part_axis_unknown": inferred(mx, mx.sym.split(a, num_outputs=1, axis=1,
                                                                 name="one"), a=(4, 0)),
        "split_nothing_without_data": inferred(mx, split[0] + b, b=(2, 3)),
        "split_back_batch": inferred(mx, split[0] + b, a=(0, 6), b=(2, 3)),
        "split_back_axis_unknown_raises": inferred(mx, split[1] + b, a=(2, 0), b=(2, 3)),
        "split_squeeze_partial": inferred(mx, squeeze, a=(0, 3, 4)),
        "split_squeeze_back": inferred(mx, squeeze[1] + b, a=(0, 3, 0), b=(2, 4)),
        "split_squeeze_axis_unknown_raises": inferred(mx, squeeze, a=(2, 0, 4)),
        "split_last_axis_back": inferred(mx, last[1] + b, a=(0, 0, 6), b=(2, 3, 3)),
        "concat_partial": inferred(mx, cat, a=(0, 3), b=(2, 4)),
        "concat_axis_unknown": inferred(mx, cat, a=(2, 0), b=(2, 4)),
        "concat_back_batch": inferred(mx, cat + c, a=(2, 3), b=(0, 4), c=(0, 7)),
        "concat_back_from_output": inferred(mx, cat + c, a=(0, 3), b=(0, 4), c=(2, 7)),
        "concat_mismatch": inferred(mx, cat, a=(2, 3), b=(3, 4)),
        "concat_rank_mismatch": inferred(mx, cat, a=(2, 3), b=(2, 4, 1)),
        "sum_partial": inferred(mx, mx.sym.sum(a, axis=1), a=(0, 3, 4)),
        "sum_keepdims_partial": inferred(mx, mx.sym.sum(a, axis=1, keepdims=True), a=(0, 0, 4)),
        "sum_all_partial": inferred(mx, mx.sym.sum(a), a=(0, 3)),
        "sum_nothing_back": inferred(mx, mx.sym.sum(a, axis=1) + b, b=(2, 4)),
        "mean_exclude_partial": inferred(mx, mx.sym.mean(a, axis=1, exclude=True), a=(0, 3, 4)),
        "max_partial_back": inferred(mx, mx.sym.max(a, axis=0) + b, a=(2, 0), b=(3,)),
        "sum_axis_out_of_range": inferred(mx, mx.sym.sum(a, axis=3), a=(0, 3)),
    }
