"""mx.attribute.AttrScope: scoped attrs land on Variables, ops and implicit variables;
nested scopes override outer keys; an explicit attr= wins; hidden keys get aliases."""


def run(mx):
    with mx.attribute.AttrScope(ctx_group="dev1", __data__="x"):
        v = mx.sym.Variable("v")
        w = mx.sym.Variable("w", attr={"ctx_group": "dev5"})
        f = mx.sym.FullyConnected(v, num_hidden=2, name="f")
        with mx.attribute.AttrScope(ctx_group="dev9", __mood__="calm"):
            g = mx.sym.Activation(f, act_type="relu", name="g", attr={"lr_mult": "7"})
    outside = mx.sym.Variable("outside")
    return {
        "v": v.list_attr(),
        "w": w.list_attr(),
        "f": f.list_attr(),
        "g": g.list_attr(),
        "g_attr_ctx": g.attr("ctx_group"),
        "g_attr_dunder_ctx": g.attr("__ctx_group__"),
        "attr_dict": g.attr_dict(),
        "tojson": g.tojson(),
        "outside": outside.list_attr(),
    }
