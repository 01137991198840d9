"""Partial shapes through a custom operator: the Prop's infer_shape receives an unknown size as
-1 ([-1, 3]) and an unknown shape as [], and a -1 it returns stays unknown (0 in what
infer_shape_partial returns). Recorded: the distinct in_shape lists the Prop saw while some
size is unknown. (How often it is called differs: once everything is known MXNet stops asking
the Prop, minisym asks once more; not recorded.)"""
from _partial import inferred


def run(mx):
    seen = []

    class PartialProp(mx.operator.CustomOpProp):
        def __init__(self):
            super().__init__(need_top_grad=True)

        def list_arguments(self):
            return ["data", "weight"]

        def infer_shape(self, in_shape):
            seen.append([list(s) for s in in_shape])
            data = list(in_shape[0])
            return [data, [data[1]]], [data], []

    mx.operator.register("p556_partial")(PartialProp)

    def distinct():
        out = sorted({repr(s): s for s in seen}.values(), key=repr)
        seen.clear()
        return out

    a, b = mx.sym.Variable("a"), mx.sym.Variable("b")
    cu = mx.sym.Custom(a, op_type="p556_partial", name="cu")
    res = {"batch_unknown": inferred(mx, cu, a=(0, 3))}
    res["batch_unknown_seen"] = distinct()
    res["batch_from_consumer"] = inferred(mx, cu + b, a=(0, 3), b=(2, 0))
    res["batch_from_consumer_seen"] = distinct()
    res["known"] = inferred(mx, cu, a=(2, 3))
    return res
