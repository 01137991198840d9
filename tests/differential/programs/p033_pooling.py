"""Pooling: max/avg/sum, global_pool, valid/full, stride (defaults to 1), pad,
count_include_pad; listings, attrs, JSON, shapes, errors."""
from _common import err, names


def run(mx):
    data = mx.sym.Variable("data")
    P = mx.sym.Pooling
    cases = {
        "max_k2_default_stride": P(data, kernel=(2, 2), pool_type="max"),
        "max_k2_s2_valid": P(data, kernel=(2, 2), stride=(2, 2)),
        "max_k2_s2_full": P(data, kernel=(2, 2), stride=(2, 2), pooling_convention="full"),
        "avg_k3_s2_p1": P(data, kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="avg"),
        "avg_no_count_pad": P(data, kernel=(3, 3), pad=(1, 1), pool_type="avg",
                              count_include_pad=False),
        "sum_k2": P(data, kernel=(2, 3), pool_type="sum", stride=(1, 2)),
        "global_max": P(data, kernel=(3, 3), global_pool=True),
        "global_avg": P(data, global_pool=True, pool_type="avg"),
        "avg_full_k3_s2": P(data, kernel=(3, 3), stride=(2, 2), pooling_convention="full",
                            pool_type="avg"),
    }
    out = {}
    for key in sorted(cases):
        s = cases[key]
        out[key] = {"attrs": s.list_attr(), "shape": s.infer_shape(data=(2, 3, 5, 5))}
    p1d = P(data, kernel=(3,), stride=(2,), pool_type="max", pooling_convention="full")
    out["pool1d_shape"] = p1d.infer_shape(data=(1, 2, 8))
    out["names"] = names(cases["avg_k3_s2_p1"])
    out["tojson"] = cases["avg_no_count_pad"].tojson()
    out["bad_pool_type"] = err(mx, P, data, kernel=(2, 2), pool_type="median")
    out["bad_convention"] = err(mx, P, data, kernel=(2, 2), pooling_convention="round")
    out["kernel_too_big"] = err(mx, cases["max_k2_s2_valid"].infer_shape, data=(1, 1, 1, 1))
    return out
