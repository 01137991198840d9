"""A LeNet with a spatial transformer in front, laid out as in MXNet's image-classification
example (a small localisation net: conv, relu, max pool, conv, relu, global avg pool,
FullyConnected(6) named stn_loc; SpatialTransformer to 28x28; conv-tanh-pool twice, two
FullyConnected, SoftmaxOutput), narrower so that the fixture stays small: one training step's
outputs and every gradient."""
import numpy as np

from _image import seeded

TOLERANCE = dict(rtol=2e-3, atol=2e-4)


def localisation(mx, data):
    loc = mx.sym.Convolution(data, num_filter=4, kernel=(5, 5), stride=(2, 2), name="loc_conv1")
    loc = mx.sym.Activation(loc, act_type="relu")
    loc = mx.sym.Pooling(loc, kernel=(2, 2), stride=(2, 2), pool_type="max")
    loc = mx.sym.Convolution(loc, num_filter=6, kernel=(3, 3), pad=(1, 1), name="loc_conv2")
    loc = mx.sym.Activation(loc, act_type="relu")
    loc = mx.sym.Pooling(loc, global_pool=True, kernel=(2, 2), pool_type="avg")
    loc = mx.sym.Flatten(loc)
    return mx.sym.FullyConnected(loc, num_hidden=6, name="stn_loc", attr={"lr_mult": "0.01"})


def network(mx, num_classes=10):
    data = mx.sym.Variable("data")
    data = mx.sym.SpatialTransformer(data=data, loc=localisation(mx, data), target_shape=(28, 28),
                                     transform_type="affine", sampler_type="bilinear")
    net = data
    for i, filters in enumerate((4, 6)):
        net = mx.sym.Convolution(net, kernel=(5, 5), num_filter=filters, name=f"conv{i + 1}")
        net = mx.sym.Activation(net, act_type="tanh")
        net = mx.sym.Pooling(net, pool_type="max", kernel=(2, 2), stride=(2, 2))
    net = mx.sym.Flatten(net)
    net = mx.sym.FullyConnected(net, num_hidden=16, name="fc1")
    net = mx.sym.Activation(net, act_type="tanh")
    net = mx.sym.FullyConnected(net, num_hidden=num_classes, name="fc2")
    return mx.sym.SoftmaxOutput(net, name="softmax")


def run(mx):
    net = network(mx)
    shape = (2, 1, 28, 28)
    arg_shapes, out_shapes, _ = net.infer_shape(data=shape)
    ex = net.simple_bind(mx.cpu(), data=shape)
    for i, (name, s) in enumerate(zip(net.list_arguments(), arg_shapes)):
        if name == "softmax_label":
            ex.arg_dict[name][:] = np.array([3, 7], np.float32)
        elif name == "stn_loc_bias":  # near the identity, off the pixel grid (see p665)
            ex.arg_dict[name][:] = np.array([0.93, 0.04, 0.03, -0.05, 0.96, 0.02], np.float32)
        elif name == "data":
            ex.arg_dict[name][:] = seeded(s, 100, 0, 1)
        else:
            ex.arg_dict[name][:] = seeded(s, i, -0.2, 0.2)
    ex.forward(is_train=True)
    ex.backward()
    grads = {name: ex.grad_dict[name].asnumpy() for name in net.list_arguments()
             if name != "softmax_label"}
    internals = net.get_internals()
    return {"arguments": net.list_arguments(), "outputs": net.list_outputs(),
            "internals": [n for n in internals.list_outputs() if "spatialtransformer" in n],
            "stn_attr": internals["stn_loc_output"].attr("lr_mult"),
            "shapes": [[list(s) for s in arg_shapes], [list(s) for s in out_shapes]],
            "softmax": ex.outputs[0].asnumpy(), "grads": grads}
