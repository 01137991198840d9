"""A keyword that is not an argument name: infer_shape / infer_type (and _partial) raise
MXNetError; simple_bind ignores it when the shapes are decidable and raises RuntimeError when
not; bind with a misnamed key raises ValueError. The Variable's name is the one to use."""
from _common import err, types


def run(mx):
    x = mx.sym.Variable("data")  # the Python name differs from the Variable's
    net = mx.sym.FullyConnected(x, num_hidden=4, name="fc1")
    net = mx.sym.SoftmaxOutput(net, name="softmax")
    good = {"data": mx.nd.ones((2, 3)), "fc1_weight": mx.nd.ones((4, 3)),
            "fc1_bias": mx.nd.ones((4,)), "softmax_label": mx.nd.ones((2,))}
    misnamed = dict(good)
    misnamed["x"] = misnamed.pop("data")
    return {
        "infer_shape": err(mx, lambda: net.infer_shape(x=(2, 3))),
        "infer_shape_typo": err(mx, lambda: net.infer_shape(dta=(2, 3))),
        "infer_shape_output": err(mx, lambda: net.infer_shape(fc1_output=(2, 4))),
        "infer_shape_partial": err(mx, lambda: net.infer_shape_partial(x=(2, 3))),
        "infer_type": err(mx, lambda: net.infer_type(x="float32")),
        "infer_type_partial": err(mx, lambda: net.infer_type_partial(x="float32")),
        "simple_bind_only_unknown": err(mx, lambda: net.simple_bind(mx.cpu(), x=(2, 3))),
        "simple_bind_extra": sorted(net.simple_bind(mx.cpu(), data=(2, 3), x=(2, 3)).arg_dict),
        "simple_bind_type_dict_unknown": err(
            mx, lambda: net.simple_bind(mx.cpu(), data=(2, 3), type_dict={"x": "float32"})),
        "bind_misnamed": err(mx, lambda: net.bind(mx.cpu(), misnamed)),
        "bind_extra_key": sorted(net.bind(mx.cpu(), dict(good, x=mx.nd.ones((2, 3)))).arg_dict),
        "fixed_infer_shape": net.infer_shape(data=(2, 3)),
        "fixed_infer_type": types(net.infer_type(data="float32")),
    }
