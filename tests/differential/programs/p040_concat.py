"""Concat with dim and three inputs: num_args, listings, shapes (incl. backward filling of a
missing input), mismatch error."""
from _common import err, names, types


def run(mx):
    a = mx.sym.Variable("a")
    b = mx.sym.Variable("b")
    c = mx.sym.Variable("c")
    cat0 = mx.sym.Concat(a, b, c, dim=0, name="cat0")
    cat2 = mx.sym.concat(a, b, c, dim=2, name="cat2")
    cat_neg = mx.sym.Concat(a, b, dim=-1, name="catn")
    return {
        "names": names(cat0),
        "attr_dict": cat0.attr_dict(),
        "tojson": cat2.tojson(),
        "dim0_shape": cat0.infer_shape(a=(1, 3), b=(2, 3), c=(4, 3)),
        "dim2_shape": cat2.infer_shape(a=(2, 3, 1), b=(2, 3, 4), c=(2, 3, 2)),
        "neg_dim_shape": cat_neg.infer_shape(a=(2, 5), b=(2, 1)),
        "default_dim_attrs": mx.sym.Concat(a, b).list_attr(),
        "types": types(cat0.infer_type(a="float64")),
        "mismatch": err(mx, cat0.infer_shape, a=(1, 3), b=(2, 4), c=(4, 3)),
        "bad_dim": err(mx, cat2.infer_shape, a=(2, 3), b=(2, 3), c=(2, 3)),
    }
