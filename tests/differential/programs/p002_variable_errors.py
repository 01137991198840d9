"""Variable error cases: bad extra attribute names, non-str names, non-str attr values."""
from _common import err


def run(mx):
    V = mx.sym.Variable
    return {
        "bad_attr_plain": err(mx, V, "x", foo=1),
        "bad_attr_leading_only": err(mx, V, "x", __foo=1),
        "bad_attr_trailing_only": err(mx, V, "x", foo__="1"),
        "ok_dunder": err(mx, V, "x", __foo__="1"),
        "name_int": err(mx, V, 3),
        "name_none": err(mx, V, None),
        "name_bytes": err(mx, V, b"x"),
        "attr_value_not_str": err(mx, V, "x", attr={"__k__": 1}),
        "attrscope_value_not_str": err(mx, mx.attribute.AttrScope, __k__=1),
        "dtype_bogus": err(mx, V, "x", dtype="bogus"),
    }
