"""Exact tojson() with multi-output ops (SliceChannel, Dropout's hidden mask), heads of a
Group, and arrays longer than 10 elements (written one element per line)."""


def run(mx):
    x = mx.sym.Variable("x")
    sp = mx.sym.SliceChannel(x, num_outputs=3, axis=1, name="sp")
    d = mx.sym.Dropout(sp[1], p=0.2, name="drop")
    g = mx.sym.Group([sp[0], d, sp[2]])
    acc = mx.sym.Variable("v0")
    for i in range(1, 12):
        acc = acc + mx.sym.Variable("v%d" % i)
    many = mx.sym.Concat(*[mx.sym.Variable("c%d" % i) for i in range(11)], name="cat11")
    return {"group": g.tojson(), "split_all": sp.tojson(), "long": acc.tojson(),
            "many_inputs": many.tojson()}
