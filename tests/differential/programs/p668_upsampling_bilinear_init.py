"""UpSampling's bilinear weight takes its initialiser from the variable's __init__ attribute
('["bilinear", {}]'), whatever initializer Module.init_params is given: the weight after
init_params, and the forward of a small upsampling net (conv, bilinear x2, Pad, LRN)."""
import numpy as np

from _image import seeded


def run(mx):
    data = mx.sym.Variable("data")
    net = mx.sym.Convolution(data, kernel=(3, 3), pad=(1, 1), num_filter=2, name="conv")
    net = mx.sym.UpSampling(net, scale=2, sample_type="bilinear", num_filter=2, name="up")
    net = mx.sym.Pad(net, mode="edge", pad_width=(0, 0, 0, 0, 1, 1, 1, 1))
    net = mx.sym.LRN(net, nsize=3, alpha=0.5)
    mod = mx.mod.Module(net, data_names=["data"], label_names=None, context=mx.cpu())
    mod.bind(data_shapes=[("data", (1, 1, 3, 3))], for_training=False)
    mod.init_params(initializer=mx.init.Constant(0.1))
    args, _ = mod.get_params()
    mod.forward(mx.io.DataBatch([mx.nd.array(seeded((1, 1, 3, 3), 1))]), is_train=False)
    return {"up_weight": args["up_weight"].asnumpy(), "conv_weight": args["conv_weight"].asnumpy(),
            "out": mod.get_outputs()[0].asnumpy(),
            "attrs": net.attr_dict().get("up_weight"),
            "scale3_weight": _scale3(mx)}


def _scale3(mx):
    sym = mx.sym.UpSampling(mx.sym.Variable("x"), scale=3, sample_type="bilinear", num_filter=1,
                            name="u3")
    mod = mx.mod.Module(sym, data_names=["x"], label_names=None, context=mx.cpu())
    mod.bind(data_shapes=[("x", (1, 1, 2, 2))], for_training=False)
    mod.init_params(initializer=mx.init.Uniform(0.5))
    return np.round(mod.get_params()[0]["u3_weight"].asnumpy(), 6)
