"""attr / list_attr / attr_dict, including the quirk that implicit variables inherit the
op's attribute dict (params and scoped attrs); explicit Variables do not."""
from _common import err


def run(mx):
    data = mx.sym.Variable("data", lr_mult=0.5)
    w = mx.sym.Variable("w", __init__="ones")
    fc = mx.sym.FullyConnected(data, weight=w, num_hidden=3, name="fc1",
                               attr={"__wd_mult__": "0.1"})
    act = mx.sym.Activation(fc, act_type="sigmoid", name="act")
    bn = mx.sym.BatchNorm(act, fix_gamma=False, eps=1e-4, name="bn")
    return {
        "fc_list_attr": fc.list_attr(),
        "fc_attr_num_hidden": fc.attr("num_hidden"),
        "fc_attr_wd": fc.attr("wd_mult"),
        "fc_attr_missing": fc.attr("no_bias"),
        "act_list_attr": act.list_attr(),
        "bn_attr_dict": bn.attr_dict(),
        "fc_attr_dict": fc.attr_dict(),
        "fc_bias_attrs": fc.attr_dict().get("fc1_bias"),
        "w_attrs": fc.attr_dict().get("w"),
        "group_list_attr": mx.sym.Group([fc, act]).list_attr(),
        "group_attr": mx.sym.Group([fc, act]).attr("num_hidden"),
        "internal_attr": bn.get_internals()["fc1_output"].attr("num_hidden"),
        "recursive_deprecated": err(mx, fc.list_attr, recursive=True),
    }
