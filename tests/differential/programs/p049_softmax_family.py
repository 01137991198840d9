"""softmax / log_softmax (axis, temperature) and SoftmaxActivation (mode)."""
from _common import err, names, node_ops, types


def run(mx):
    data = mx.sym.Variable("data")
    sm = mx.sym.softmax(data, axis=1, temperature=2.0, name="sm")
    lsm = mx.sym.log_softmax(data, axis=0, name="lsm")
    sm_default = mx.sym.softmax(data)
    sa_ch = mx.sym.SoftmaxActivation(data, mode="channel", name="sa")
    sa_inst = mx.sym.SoftmaxActivation(data)
    return {
        "softmax": [names(sm), sm.list_attr(), sm.infer_shape(data=(2, 3, 4))],
        "softmax_tojson": sm.tojson(),
        "softmax_types": types(sm.infer_type(data="float16")),
        "log_softmax": [names(lsm), node_ops(lsm), lsm.infer_shape(data=(5, 2))],
        "softmax_default": [sm_default.name, node_ops(sm_default)],
        "softmax_activation_channel": [names(sa_ch), node_ops(sa_ch),
                                       sa_ch.infer_shape(data=(2, 3, 4, 4))],
        "softmax_activation_default": [sa_inst.name, node_ops(sa_inst),
                                       sa_inst.infer_shape(data=(3, 7))],
        "softmax_activation_tojson": sa_ch.tojson(),
        "bad_mode": err(mx, mx.sym.SoftmaxActivation, data, mode="spatial"),
        "bad_temperature": err(mx, mx.sym.log_softmax, data, temperature="abc"),
    }
