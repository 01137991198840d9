"""Activation with every act_type; the shortcut ops relu/sigmoid/tanh are separate ops;
unknown or missing act_type raises."""
from _common import err, names, node_ops, types


def run(mx):
    data = mx.sym.Variable("data")
    out = {}
    for act in ["relu", "sigmoid", "tanh", "softrelu", "softsign"]:
        s = mx.sym.Activation(data, act_type=act)
        out[act] = {"name": s.name, "attrs": s.list_attr(), "names": names(s),
                    "shape": s.infer_shape(data=(3, 4))}
    named = mx.sym.Activation(data, act_type="softsign", name="ss")
    out["tojson"] = named.tojson()
    out["type_f16"] = types(named.infer_type(data="float16"))
    out["shortcuts"] = [node_ops(f(data))[-1] for f in (mx.sym.relu, mx.sym.sigmoid, mx.sym.tanh)]
    out["unknown_act_type"] = err(mx, mx.sym.Activation, data, act_type="gelu")
    out["missing_act_type"] = err(mx, mx.sym.Activation, data)
    return out
