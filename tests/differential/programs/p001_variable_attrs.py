"""Variables: shape, dtype, lr_mult, wd_mult, init (string form), __layout__-style attrs.

Attributes are stored as strings under dunder keys; list_attr() adds the stripped aliases
of the hidden keys (lr_mult, wd_mult); tojson() stores only the dunder keys.
"""
import numpy as np


def run(mx):
    v = mx.sym.Variable("w", shape=(2, 3), dtype="float64", lr_mult=2, wd_mult=0,
                        init="zeros", __layout__="NC")
    h = mx.symbol.Variable("h", shape=(4, 0, 5), dtype=np.float16, lr_mult=2.5, wd_mult=1e-4)
    i = mx.sym.var("idx", dtype="int32", __storage_note__="dense")
    plain = mx.sym.Variable("plain")
    dtypes = {}
    for dt in ["float32", "float64", "float16", "uint8", "int32", "int8", "int64",
               np.float32, np.int64]:
        dtypes[np.dtype(dt).name] = mx.sym.Variable("t", dtype=dt).attr("__dtype__")
    return {
        "name": v.name,
        "outputs": v.list_outputs(),
        "arguments": v.list_arguments(),
        "list_attr": v.list_attr(),
        "attr_dict": v.attr_dict(),
        "attr_shape": v.attr("__shape__"),
        "attr_lr_alias": v.attr("lr_mult"),
        "attr_missing": v.attr("__missing__"),
        "tojson": v.tojson(),
        "h_list_attr": h.list_attr(),
        "h_tojson": h.tojson(),
        "i_list_attr": i.list_attr(),
        "plain_list_attr": plain.list_attr(),
        "plain_attr_dict": plain.attr_dict(),
        "plain_tojson": plain.tojson(),
        "dtype_codes": dtypes,
        "explicit_attr": mx.sym.Variable("x", attr={"__k__": "v", "note": "n"}).list_attr(),
        "list_shape_attr": mx.sym.Variable("p", shape=[2, 3]).list_attr(),
        "len": len(v),
    }
