"""mx.symbol_doc.SymbolDoc.get_output_shape, with the examples of MXNet's operator docs."""
from _common import err


def run(mx):
    get = mx.symbol_doc.SymbolDoc.get_output_shape
    out = {}
    data = mx.sym.Variable("letters")
    op = mx.sym.Embedding(data=data, input_dim=26, output_dim=16, name="embed")
    out["embedding"] = get(op, letters=(10, 64))
    flatten = mx.sym.Flatten(data=mx.sym.Variable("data"), name="flat")
    out["flatten"] = get(flatten, data=(2, 3, 4, 5))
    fc = mx.sym.FullyConnected(data=mx.sym.Variable("data"), num_hidden=512, name="FC1")
    out["fc"] = get(fc, data=(128, 100))
    out["fc_repr"] = repr(fc)
    a, b = mx.sym.Variable("a"), mx.sym.Variable("b")
    c = mx.sym.Concat(a, b, dim=1, name="my-concat")
    out["concat"] = get(c, a=(128, 10, 3, 3), b=(128, 15, 3, 3))
    group = mx.sym.Group([fc, flatten])
    out["group"] = get(group, data=(4, 100))
    out["types"] = [type(v).__name__ for v in out["fc"].values()] + [
        type(d).__name__ for d in out["fc"]["FC1_output"]]
    out["is_class"] = [isinstance(mx.symbol_doc.SymbolDoc(), mx.symbol_doc.SymbolDoc)]
    out["unknown"] = err(mx, get, fc, other=(2, 3))
    out["mismatch"] = err(mx, get, c, a=(128, 10, 3, 3), b=(64, 15, 3, 3))
    return out
