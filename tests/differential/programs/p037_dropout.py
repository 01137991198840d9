"""Dropout with p, mode='always', axes: one visible output (mask hidden), JSON, shapes."""
from _common import err, names, types


def run(mx):
    data = mx.sym.Variable("data")
    d = mx.sym.Dropout(data, p=0.3, mode="always", axes=(2, 3), name="drop")
    d2 = mx.sym.Dropout(data, p=0.0)
    return {
        "names": names(d),
        "len": len(d),
        "attr_dict": d.attr_dict(),
        "tojson": d.tojson(),
        "internals": d.get_internals().list_outputs(),
        "shape": d.infer_shape(data=(2, 3, 4, 5)),
        "type": types(d.infer_type(data="float16")),
        "p0_attrs": d2.list_attr(),
        "bad_mode": err(mx, mx.sym.Dropout, data, mode="sometimes"),
        "bad_p": err(mx, mx.sym.Dropout, data, p=1.5),
    }
