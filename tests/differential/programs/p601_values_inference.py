"""Shape and type inference of the value and elementwise operators: forward, backward (the
output's shape gives the input's) and partial; where's condition rules; add_n's sizes from
any input; zeros with an unknown size; Cast's and softmin's dtype rules."""
from _common import err, types


def _types_or_error(mx, sym, **given):
    """infer_type_partial's dtype names, or the exception class it raised."""
    failed = err(mx, sym.infer_type_partial, **given)
    return types(sym.infer_type_partial(**given)) if "returned" in failed else failed


def run(mx):
    x, y, c, o = (mx.sym.Variable(n) for n in ("x", "y", "c", "o"))
    unary = {"identity": mx.sym.identity(x), "cast": mx.sym.cast(x, dtype="int32"),
             "clip": mx.sym.clip(x, -1, 1), "zeros_like": mx.sym.zeros_like(x),
             "ones_like": mx.sym.ones_like(x), "hard_sigmoid": mx.sym.hard_sigmoid(x),
             "smooth_l1": mx.sym.smooth_l1(x, scalar=2.0), "softmin": mx.sym.softmin(x),
             "sign": mx.sym.sign(x), "round": mx.sym.round(x), "rsqrt": mx.sym.rsqrt(x),
             "logical_not": mx.sym.logical_not(x), "sin": mx.sym.sin(x)}
    out = {}
    for name, s in unary.items():
        out[name] = {
            "forward": s.infer_shape(x=(2, 3)),
            "partial": s.infer_shape_partial(x=(0, 3)),
            "backward": (s + o).infer_shape(o=(2, 3)),
            "f16": types(s.infer_type(x="float16")),
            "i32": types(s.infer_type(x="int32")),
            "type_backward": _types_or_error(mx, s + o, o="float64"),
        }
    w = mx.sym.where(c, x, y)
    out["where"] = {
        "same": w.infer_shape(c=(2, 3), x=(2, 3)),
        "rows": w.infer_shape(c=(2,), x=(2, 3)),
        "from_y": w.infer_shape(c=(2, 3), y=(2, 3)),
        "from_output": (w + o).infer_shape(c=(2, 3), o=(2, 3)),
        "no_condition": w.infer_shape_partial(x=(2, 3)),
        "condition_only": w.infer_shape_partial(c=(2, 3)),
        "condition_partial": w.infer_shape_partial(c=(0, 3), x=(2, 3)),
        "rows_wrong": err(mx, w.infer_shape, c=(3,), x=(2, 3)),
        "types": types(w.infer_type(c="int32", x="float64")),
        "types_partial": types(w.infer_type_partial(x="float64")),
        "types_from_y": types(w.infer_type(c="float32", y="float16")),
    }
    s = mx.sym.add_n(x, y, c)
    out["add_n"] = {
        "one": s.infer_shape(x=(2, 3)),
        "pieces": s.infer_shape_partial(x=(0, 3), y=(2, 0)),
        "from_output": (s + o).infer_shape(o=(2, 3)),
        "conflict": err(mx, s.infer_shape, x=(2, 3), y=(3, 2)),
        "types": types(s.infer_type(y="float16")),
        "types_conflict": err(mx, s.infer_type, x="float16", y="float32"),
    }
    z = mx.sym.zeros((0, 3))
    out["zeros"] = {
        "alone": mx.sym.zeros((2, 3)).infer_shape(),
        "unknown_size": z.infer_shape_partial(),
        "unknown_from_consumer": (z + x).infer_shape(x=(2, 3)),
        "conflict": err(mx, (mx.sym.zeros((2, 3)) + x).infer_shape, x=(3, 3)),
        "types": types(mx.sym.ones((2,), dtype="int8").infer_type()),
        "type_conflict": err(mx, (mx.sym.ones((2,), dtype="int32") + x).infer_type,
                             x="float32"),
    }
    out["cast"] = {
        "from_output_type": types((mx.sym.cast(x, dtype="int32") + y).infer_type_partial(
            y="int32")),
        "conflict": err(mx, (mx.sym.cast(x, dtype="int32") + y).infer_type, y="float64"),
    }
    for op in ("softmin", "softmax", "log_softmax"):
        make = getattr(mx.sym, op)
        out[op + "_dtype"] = {
            "given": types(make(x, dtype="float64").infer_type(x="float16")),
            "data_unknown": types(make(x, dtype="float64").infer_type_partial()),
            "from_output": types((make(x) + o).infer_type_partial(o="float64")),
        }
    return out
