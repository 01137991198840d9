"""Partial shapes through elementwise operators (symbol with symbol, with a scalar, unary,
comparisons) and broadcast_*: equal-shape operators merge sizes from every input and the
output, both ways; broadcast_* never infers an input and leaves an axis unknown while either
side is unknown."""
from _partial import inferred


def run(mx):
    V = mx.sym.Variable
    a, b, c = V("a"), V("b"), V("c")
    return {
        "add_merges_sizes": inferred(mx, a + b, a=(0, 3), b=(2, 0)),
        "add_back_two_hops": inferred(mx, (a + b) * c, a=(0, 3), c=(2, 0)),
        "sub_one_side": inferred(mx, a - b, b=(2, 3)),
        "compare_merges": inferred(mx, a == b, a=(0, 4), b=(5, 0)),
        "div_rank_conflict": inferred(mx, a / b, a=(0, 3), b=(2, 3, 4)),
        "mul_size_conflict": inferred(mx, a * b, a=(2, 3), b=(4, 0)),
        "scalar_back": inferred(mx, (a * 2) + b, b=(2, 3)),
        "scalar_partial": inferred(mx, a + 1, a=(0, 3)),
        "scalar_compare_back": inferred(mx, (a > 1) + b, a=(0, 3), b=(2, 0)),
        "unary_back": inferred(mx, mx.sym.exp(a) + b, b=(2, 3)),
        "relu_merges": inferred(mx, mx.sym.relu(a) + b, a=(0, 3), b=(2, 0)),
        "broadcast_unknown_axis_stays": inferred(mx, mx.sym.broadcast_add(a, b), a=(0, 3),
                                                 b=(2, 3)),
        "broadcast_with_one": inferred(mx, mx.sym.broadcast_sub(a, b), a=(0, 3), b=(1, 3)),
        "broadcast_same_partial": inferred(mx, mx.sym.broadcast_mul(a, b), a=(0, 3), b=(0, 3)),
        "broadcast_rank": inferred(mx, mx.sym.broadcast_add(a, b), a=(4, 0, 3), b=(3,)),
        "broadcast_one_missing": inferred(mx, mx.sym.broadcast_add(a, b), a=(2, 3)),
        "broadcast_never_back": inferred(mx, mx.sym.broadcast_add(a, b) + c, a=(2, 3),
                                         c=(2, 3)),
        "broadcast_output_only": inferred(mx, mx.sym.broadcast_div(a, b) + c, c=(2, 3)),
        "broadcast_output_fills_itself": inferred(mx, mx.sym.broadcast_add(a, b) + c,
                                                  a=(0, 3), b=(1, 3), c=(2, 3)),
        "broadcast_incompatible": inferred(mx, mx.sym.broadcast_add(a, b), a=(2, 3), b=(4, 3)),
        "broadcast_maximum_partial": inferred(mx, mx.sym.broadcast_maximum(a, b), a=(2, 1, 0),
                                              b=(1, 5, 4)),
    }
