"""Elementwise operators of two symbols whose shapes differ: every one raises MXNetError at
infer_shape (also when the shapes would broadcast), simple_bind wraps it in RuntimeError, and
the broadcast_* twin the message suggests gives MXNet's shape."""
from _common import err


def _branches(mx):
    data = mx.sym.Variable("data")
    fc1 = mx.sym.FullyConnected(data, num_hidden=10, name="fc1")
    fc2 = mx.sym.FullyConnected(data, num_hidden=5, name="fc2")
    return fc1, fc2


def run(mx):
    fc1, fc2 = _branches(mx)
    b = mx.sym.Variable("b")
    ops = {"+": lambda l, r: l + r, "-": lambda l, r: l - r, "*": lambda l, r: l * r,
           "/": lambda l, r: l / r, "**": lambda l, r: l ** r, "%": lambda l, r: l % r,
           "==": lambda l, r: l == r, "!=": lambda l, r: l != r, ">": lambda l, r: l > r,
           ">=": lambda l, r: l >= r, "<": lambda l, r: l < r, "<=": lambda l, r: l <= r,
           "elemwise_add": mx.sym.elemwise_add, "elemwise_sub": mx.sym.elemwise_sub,
           "elemwise_mul": mx.sym.elemwise_mul, "elemwise_div": mx.sym.elemwise_div}
    out = {}
    for key, op in ops.items():
        out[key] = {
            "no_broadcast": err(mx, lambda: op(fc1, fc2).infer_shape(data=(8, 3))),
            "would_broadcast": err(mx, lambda: op(fc1, b).infer_shape(data=(8, 3), b=(1, 10))),
            "other_rank": err(mx, lambda: op(fc1, b).infer_shape(data=(8, 3), b=(10,))),
            "partial": err(mx, lambda: op(fc1, fc2).infer_shape_partial(data=(8, 3))),
        }
    twins = ["broadcast_add", "broadcast_sub", "broadcast_mul", "broadcast_div",
             "broadcast_power", "broadcast_mod", "broadcast_equal", "broadcast_not_equal",
             "broadcast_greater", "broadcast_greater_equal", "broadcast_lesser",
             "broadcast_lesser_equal"]
    fixed = {}
    for name in twins:
        fn = getattr(mx.sym, name)
        fixed[name] = {
            "row": fn(fc1, b).infer_shape(data=(8, 3), b=(1, 10)),
            "vector": fn(fc1, b).infer_shape(data=(8, 3), b=(10,)),
            "no_broadcast": err(mx, lambda: fn(fc1, fc2).infer_shape(data=(8, 3))),
        }
    return {
        "elementwise": out,
        "simple_bind": err(mx, lambda: (fc1 + fc2).simple_bind(mx.cpu(), data=(8, 3))),
        "broadcast_twins": fixed,
    }
