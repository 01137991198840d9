"""Pooling numerics: forward and the data gradient (random head gradient) for max / avg / sum,
valid and full conventions, padding with count_include_pad True and False, global pooling,
1-D pooling, and max pooling with ties inside a window (the gradient goes to one element)."""
import numpy as np

from _common import f32, fwd_bwd


def pool(mx, rs, x, **params):
    """Pool ``x`` with ``params``: forward in train mode, backward with a random head."""
    return fwd_bwd(mx, mx.sym.Pooling(mx.sym.Variable("data"), **params), {"data": x}, rs)


def run(mx):
    rs = np.random.RandomState(102)
    x5 = f32(rs.randn(2, 2, 5, 5))
    x7 = f32(rs.randn(1, 2, 7, 7))
    ramp = f32(np.arange(16).reshape(1, 1, 4, 4))
    negative = -f32(rs.uniform(1.0, 2.0, size=(1, 1, 4, 4)))
    # ties: every 2x2 window of the stride-2 grid holds its maximum twice or more
    ties = f32([[[[1, 1, 0, 2],
                   [0, 1, 2, 2],
                   [3, 0, 5, 5],
                   [3, 3, 5, 5]]]])
    x1d = f32(rs.randn(2, 3, 7))
    return {
        "max_k2_s2_valid": pool(mx, rs, x5, kernel=(2, 2), stride=(2, 2), pool_type="max"),
        "max_k2_s2_full": pool(mx, rs, x5, kernel=(2, 2), stride=(2, 2), pool_type="max",
                               pooling_convention="full"),
        "max_k2_default_stride": pool(mx, rs, x5, kernel=(2, 2), pool_type="max"),
        "avg_k3_s2_valid": pool(mx, rs, x7, kernel=(3, 3), stride=(2, 2), pool_type="avg"),
        "avg_k3_s2_full_ramp": pool(mx, rs, ramp, kernel=(3, 3), stride=(2, 2), pool_type="avg",
                                    pooling_convention="full"),
        "avg_k2_s2_full": pool(mx, rs, x5, kernel=(2, 2), stride=(2, 2), pool_type="avg",
                               pooling_convention="full"),
        "sum_k2_s1_valid": pool(mx, rs, x5, kernel=(2, 2), pool_type="sum"),
        "sum_k3_s2_full": pool(mx, rs, x5, kernel=(3, 3), stride=(2, 2), pool_type="sum",
                               pooling_convention="full"),
        "avg_pad1_count_include_pad_true": pool(mx, rs, x5, kernel=(3, 3), stride=(2, 2),
                                                pad=(1, 1), pool_type="avg",
                                                count_include_pad=True),
        "avg_pad1_count_include_pad_false": pool(mx, rs, x5, kernel=(3, 3), stride=(2, 2),
                                                 pad=(1, 1), pool_type="avg",
                                                 count_include_pad=False),
        "avg_pad1_default_count": pool(mx, rs, x5, kernel=(2, 2), stride=(2, 2), pad=(1, 1),
                                       pool_type="avg"),
        "avg_k3_s2_pad1_full_count_include_pad_false": pool(
            mx, rs, x5, kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg",
            pooling_convention="full", count_include_pad=False),
        "sum_pad1": pool(mx, rs, x5, kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="sum"),
        "max_pad1_negative_input": pool(mx, rs, negative, kernel=(3, 3), stride=(2, 2),
                                        pad=(1, 1), pool_type="max"),
        "global_avg": pool(mx, rs, x5, kernel=(2, 2), global_pool=True, pool_type="avg"),
        "global_max": pool(mx, rs, x7, global_pool=True, kernel=(1, 1), pool_type="max"),
        "global_sum": pool(mx, rs, x5, global_pool=True, kernel=(3, 3), pool_type="sum"),
        "max_ties_k2_s2": pool(mx, rs, ties, kernel=(2, 2), stride=(2, 2), pool_type="max"),
        "max_ties_k3_s1": pool(mx, rs, ties, kernel=(3, 3), pool_type="max"),
        "max_1d_k3_s2_full": pool(mx, rs, x1d, kernel=(3,), stride=(2,), pool_type="max",
                                  pooling_convention="full"),
        "avg_1d_k2_s2_pad1": pool(mx, rs, x1d, kernel=(2,), stride=(2,), pad=(1,),
                                  pool_type="avg"),
    }
