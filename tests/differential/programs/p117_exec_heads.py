"""Executor head gradients: backward with out_grads as one NDArray or as a list (two-output
Group), a head that is also consumed inside the graph (Group([h, tanh(h)])), the error when a
non-loss head gets no out_grad (also inside a Group with a loss; BlockGrad fixes it), and loss
heads (SoftmaxOutput, MakeLoss, LinearRegressionOutput, BlockGrad) ignoring a given out_grad."""
import numpy as np
from _common import bind_inputs, err, f32


def run(mx):
    rs = np.random.RandomState(117)
    x = mx.sym.Variable("x")
    w = mx.sym.Variable("w")
    lab = mx.sym.Variable("lab")
    xv = f32(rs.randn(2, 3))
    wv = f32(rs.randn(2, 3))
    labv = f32([2, 0])
    values = {"x": xv, "w": wv, "lab": labv}
    res = {}

    def bound(sym):
        ex = bind_inputs(mx, sym, {k: v for k, v in values.items() if k in sym.list_arguments()})
        ex.forward(is_train=True)
        return ex

    # one NDArray for a single output, and the same head given as a one-element list
    h1, h2 = f32(rs.randn(2, 3)), f32(rs.randn(2, 3))
    single = mx.sym.tanh(x) * w
    ex = bound(single)
    ex.backward(mx.nd.array(h1))
    res["single_ndarray"] = {"x": ex.grad_dict["x"].asnumpy(), "w": ex.grad_dict["w"].asnumpy()}
    ex = bound(single)
    ex.backward([mx.nd.array(h1)])
    res["single_list"] = {"x": ex.grad_dict["x"].asnumpy(), "w": ex.grad_dict["w"].asnumpy()}

    # a two-output Group takes a list in list_outputs() order
    two = mx.sym.Group([x * w, mx.sym.exp(x)])
    ex = bound(two)
    ex.backward([mx.nd.array(h1), mx.nd.array(h2)])
    res["group_two_outputs_list"] = {"outputs": two.list_outputs(),
                                     "x": ex.grad_dict["x"].asnumpy(),
                                     "w": ex.grad_dict["w"].asnumpy()}

    # a head that is also an input of another head: both head gradients reach it
    h = x * w
    consumed = mx.sym.Group([h, mx.sym.tanh(h)])
    ex = bound(consumed)
    outs = [o.asnumpy() for o in ex.outputs]
    ex.backward([mx.nd.array(h1), mx.nd.array(h2)])
    res["head_consumed_internally"] = {"outs": outs, "x": ex.grad_dict["x"].asnumpy(),
                                       "w": ex.grad_dict["w"].asnumpy()}
    ex = bound(consumed)
    res["head_consumed_internally_one_head"] = err(mx, ex.backward, mx.nd.array(h1))

    # the missing head gradient error
    res["non_loss_no_out_grad"] = err(mx, bound(single).backward)
    ex = bound(single)
    ex.forward(is_train=False)
    res["non_loss_no_out_grad_after_inference_forward"] = err(mx, ex.backward)
    sm = mx.sym.SoftmaxOutput(x, lab, name="sm")
    res["group_loss_and_non_loss_no_out_grad"] = err(mx, bound(mx.sym.Group([sm, x * 2])).backward)
    res["group_loss_and_non_loss_one_out_grad"] = err(
        mx, bound(mx.sym.Group([sm, x * 2])).backward, mx.nd.array(h1))
    ex = bound(mx.sym.Group([sm, x * 2]))
    ex.backward([mx.nd.array(h1), mx.nd.array(h2)])
    res["group_loss_and_non_loss_two_out_grads"] = ex.grad_dict["x"].asnumpy()
    ex = bound(mx.sym.Group([x * 2, sm]))
    ex.backward(mx.nd.array(h1))
    res["group_non_loss_first_one_out_grad"] = ex.grad_dict["x"].asnumpy()
    ex = bound(mx.sym.Group([sm, mx.sym.BlockGrad(x * 2)]))
    ex.backward()
    res["group_loss_and_blockgrad_no_out_grad"] = ex.grad_dict["x"].asnumpy()

    # loss heads (and BlockGrad) ignore a given out_grad
    w2 = mx.sym.Variable("w2")
    for key, sym in (("softmaxoutput", sm),
                     ("makeloss", mx.sym.MakeLoss(mx.sym.square(x) * w, grad_scale=0.5)),
                     ("linearregression", mx.sym.LinearRegressionOutput(x * w, w2)),
                     ("blockgrad", mx.sym.BlockGrad(x * w))):
        loss_values = dict(values, w2=h2)
        ex = bind_inputs(mx, sym, {a: loss_values[a] for a in sym.list_arguments()})
        ex.forward(is_train=True)
        ex.backward()
        without = {a: ex.grad_dict[a].asnumpy() for a in sorted(ex.grad_dict)}
        ex.forward(is_train=True)
        ex.backward(mx.nd.array(f32(rs.randn(*ex.outputs[0].shape)) * 100))
        given = {a: ex.grad_dict[a].asnumpy() for a in sorted(ex.grad_dict)}
        res["ignore_" + key] = {"without_out_grad": without, "with_out_grad": given,
                                "same": all(np.array_equal(without[a], given[a])
                                            for a in without)}
    return res
