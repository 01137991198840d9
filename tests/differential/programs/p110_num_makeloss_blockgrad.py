"""MakeLoss / make_loss (grad_scale, normalization batch (2-D and 3-D) and valid with
valid_thresh) and BlockGrad / stop_gradient inside a graph: forward values and input gradients.
make_loss accepts grad_scale and normalization but its gradient stays ones.  Loss heads take
backward() without out_grads; BlockGrad(x*2) + x*3 gives x the gradient 3 * head."""
import numpy as np


def _f32(a):
    return np.asarray(a, dtype=np.float32)


def run_case(mx, sym, inputs, head=None):
    ex = sym.simple_bind(ctx=mx.cpu(), **{k: v.shape for k, v in inputs.items()})
    for k, v in inputs.items():
        ex.arg_dict[k][:] = v
    ex.forward(is_train=True)
    outs = [o.asnumpy() for o in ex.outputs]
    ex.backward(None if head is None else [mx.nd.array(h) for h in head])
    res = {"outs": outs}
    for name in sym.list_arguments():
        res["grad_" + name] = ex.grad_dict[name].asnumpy()
    return res


def run(mx):
    rs = np.random.RandomState(110)
    x = mx.sym.Variable("x")
    y = mx.sym.Variable("y")
    xv = _f32(rs.randn(3, 4))
    yv = _f32(rs.randn(3, 4))
    d = {"x": xv}
    res = {
        "makeloss_square": run_case(mx, mx.sym.MakeLoss(x * x), d),
        "makeloss_grad_scale": run_case(mx, mx.sym.MakeLoss(x * x, grad_scale=0.3), d),
        "makeloss_batch": run_case(mx, mx.sym.MakeLoss(x * 2, normalization="batch"), d),
        "makeloss_batch_3d": run_case(mx, mx.sym.MakeLoss(x * 2, normalization="batch"),
                                      {"x": _f32(rs.randn(2, 3, 4))}),
        "makeloss_valid_thresh": run_case(
            mx, mx.sym.MakeLoss(x * y, normalization="valid", valid_thresh=0.5),
            {"x": xv, "y": yv}),
        "makeloss_valid_default_thresh": run_case(
            mx, mx.sym.MakeLoss(x * y, normalization="valid"), {"x": xv, "y": yv}),
        "make_loss_default": run_case(mx, mx.sym.make_loss(mx.sym.exp(x)), d),
        "make_loss_grad_scale_batch": run_case(
            mx, mx.sym.make_loss(mx.sym.exp(x), grad_scale=2.0, normalization="batch"), d),
        "blockgrad_in_graph": run_case(mx, mx.sym.BlockGrad(x * 2) + x * 3, d,
                                       head=[_f32(rs.randn(3, 4))]),
        "stop_gradient_in_graph": run_case(mx, mx.sym.stop_gradient(x * y) + x * 3,
                                           {"x": xv, "y": yv}, head=[_f32(rs.randn(3, 4))]),
        "blockgrad_head_no_out_grad": run_case(mx, mx.sym.BlockGrad(x * 2), d),
        "group_makeloss_blockgrad": run_case(
            mx, mx.sym.Group([mx.sym.MakeLoss(x * y), mx.sym.BlockGrad(x + y)]),
            {"x": xv, "y": yv}),
    }
    return res
