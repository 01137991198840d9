"""backward() without head gradients when a head only reshapes a loss (the Faster R-CNN's
cls_prob_reshape, bbox_loss_reshape): MXNet needs no head gradient there, and one given is
ignored; a head that reshapes a non-loss output still needs one (MXNetError)."""
import numpy as np

from _common import err


def _bind(mx, net):
    ex = net.simple_bind(mx.cpu(), x=(2, 4), w=(3, 4))
    ex.arg_dict["x"][:] = np.arange(8).reshape(2, 4) / 8
    ex.arg_dict["w"][:] = np.arange(12).reshape(3, 4) / 12 - 0.4
    ex.forward(is_train=True)
    return ex


def run(mx):
    x, w = mx.sym.var("x"), mx.sym.var("w")
    fc = mx.sym.FullyConnected(x, weight=w, num_hidden=3, no_bias=True, name="fc")
    nets = {
        "reshaped_softmax": mx.sym.Reshape(mx.sym.SoftmaxOutput(fc, name="sm"), shape=(1, -1)),
        "reshaped_make_loss": mx.sym.Reshape(mx.sym.MakeLoss(fc * fc, grad_scale=0.5),
                                             shape=(1, -1)),
        "group": mx.sym.Group([mx.sym.Reshape(mx.sym.SoftmaxOutput(fc, name="sm2"),
                                              shape=(1, -1)),
                               mx.sym.BlockGrad(mx.sym.Reshape(fc, shape=(1, -1)))]),
    }
    res = {}
    for key, net in nets.items():
        ex = _bind(mx, net)
        ex.backward()
        without = ex.grad_dict["w"].asnumpy().copy()
        ex.backward([mx.nd.ones(o.shape) * 5 for o in ex.outputs])
        res[key] = {"without_heads": without, "with_heads": ex.grad_dict["w"].asnumpy()}
    plain = _bind(mx, mx.sym.Reshape(fc, shape=(1, -1)))
    res["reshaped_fc_needs_a_head"] = err(mx, plain.backward)
    return res
