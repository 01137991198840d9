"""mx.sym.Group: outputs concatenated in order, duplicates kept, name None; bad inputs."""
from _common import err


def run(mx):
    a = mx.sym.Variable("a")
    b = mx.sym.Variable("b")
    c = mx.sym.Variable("c")
    s1 = a + b
    s2 = c * 2
    fc = mx.sym.FullyConnected(a, num_hidden=2, name="fc")
    g = mx.sym.Group([s1, s2, fc])
    dup = mx.sym.Group([a, a, s1, s1])
    nested = mx.sym.Group([g, c])
    sp = mx.sym.split(a, num_outputs=3, name="sp")
    gsp = mx.sym.Group([sp, b])
    return {
        "outputs": g.list_outputs(),
        "arguments": g.list_arguments(),
        "name": g.name,
        "repr": repr(g),
        "len": len(g),
        "dup_outputs": dup.list_outputs(),
        "dup_arguments": dup.list_arguments(),
        "dup_len": len(dup),
        "nested_outputs": nested.list_outputs(),
        "multi_output_member": gsp.list_outputs(),
        "infer_shape": g.infer_shape(a=(2, 4), b=(2, 4), c=(3,)),
        "empty": err(mx, mx.sym.Group, []),
        "non_symbol": err(mx, mx.sym.Group, [a, 1]),
        "symbol_not_list": err(mx, mx.sym.Group, a),
        "tuple_ok": mx.sym.Group((a, b)).list_outputs(),
    }
