"""LeakyReLU: leaky (slope), prelu (learned gamma of shape (C,)), elu, rrelu (bounds)."""
from _common import err, names


def run(mx):
    data = mx.sym.Variable("data")
    leaky = mx.sym.LeakyReLU(data, act_type="leaky", slope=0.1, name="leaky")
    prelu = mx.sym.LeakyReLU(data, act_type="prelu", name="prelu")
    elu = mx.sym.LeakyReLU(data, act_type="elu", slope=1.5, name="elu")
    rrelu = mx.sym.LeakyReLU(data, act_type="rrelu", lower_bound=0.1, upper_bound=0.3,
                             name="rrelu")
    return {
        "leaky": names(leaky),
        "leaky_attrs": leaky.list_attr(),
        "leaky_shape": leaky.infer_shape(data=(2, 3)),
        "prelu": names(prelu),
        "prelu_attr_dict": prelu.attr_dict(),
        "prelu_shape_4d": prelu.infer_shape(data=(2, 3, 4, 4)),
        "prelu_shape_2d": prelu.infer_shape(data=(5, 7)),
        "prelu_tojson": prelu.tojson(),
        "elu": names(elu),
        "elu_tojson": elu.tojson(),
        "rrelu": names(rrelu),
        "rrelu_shape": rrelu.infer_shape(data=(2, 3)),
        "rrelu_internals": rrelu.get_internals().list_outputs(),
        "bad_act_type": err(mx, mx.sym.LeakyReLU, data, act_type="swish"),
        "missing_data_shape": prelu.infer_shape_partial(prelu_gamma=(3,)),
    }
