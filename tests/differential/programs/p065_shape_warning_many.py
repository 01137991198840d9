"""The 'Cannot decide shape' warning lists at most 10 names, then '...' (exact text)."""


def run(mx):
    vs = [mx.sym.Variable("v%02d" % i) for i in range(14)]
    acc = vs[0]
    for v in vs[1:]:
        acc = mx.sym.broadcast_add(acc, v)
    fc = mx.sym.FullyConnected(mx.sym.Variable("x"), num_hidden=3, name="fc")
    few = mx.sym.Group([fc, mx.sym.Variable("p") * 2])
    return {
        "many": acc.infer_shape(),
        "many_one_known": acc.infer_shape(v00=(2, 3)),
        "eleven": mx.sym.Group(vs[:11]).infer_shape(),
        "exactly_ten": mx.sym.Group(vs[:10]).infer_shape(),
        "few_partial_info": few.infer_shape(x=(4, 5)),
        "types_many": mx.sym.Group(vs[:12]).infer_type(),
    }
