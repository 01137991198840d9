"""MakeLoss / make_loss (grad_scale, normalization batch (2-D and 3-D) and valid with
valid_thresh) and BlockGrad / stop_gradient inside a graph: forward values and input gradients.
make_loss accepts grad_scale and normalization but its gradient stays ones.  Loss heads take
backward() without out_grads; BlockGrad(x*2) + x*3 gives x the gradient 3 * head."""
import numpy as np

from _common import f32, train_step


def run(mx):
    rs = np.random.RandomState(110)
    x = mx.sym.Variable("x")
    y = mx.sym.Variable("y")
    xv = f32(rs.randn(3, 4))
    yv = f32(rs.randn(3, 4))
    d = {"x": xv}
    res = {
        "makeloss_square": train_step(mx, mx.sym.MakeLoss(x * x), d),
        "makeloss_grad_scale": train_step(mx, mx.sym.MakeLoss(x * x, grad_scale=0.3), d),
        "makeloss_batch": train_step(mx, mx.sym.MakeLoss(x * 2, normalization="batch"), d),
        "makeloss_batch_3d": train_step(mx, mx.sym.MakeLoss(x * 2, normalization="batch"),
                                        {"x": f32(rs.randn(2, 3, 4))}),
        "makeloss_valid_thresh": train_step(
            mx, mx.sym.MakeLoss(x * y, normalization="valid", valid_thresh=0.5),
            {"x": xv, "y": yv}),
        "makeloss_valid_default_thresh": train_step(
            mx, mx.sym.MakeLoss(x * y, normalization="valid"), {"x": xv, "y": yv}),
        "make_loss_default": train_step(mx, mx.sym.make_loss(mx.sym.exp(x)), d),
        "make_loss_grad_scale_batch": train_step(
            mx, mx.sym.make_loss(mx.sym.exp(x), grad_scale=2.0, normalization="batch"), d),
        "blockgrad_in_graph": train_step(mx, mx.sym.BlockGrad(x * 2) + x * 3, d,
                                         heads=[f32(rs.randn(3, 4))]),
        "stop_gradient_in_graph": train_step(mx, mx.sym.stop_gradient(x * y) + x * 3,
                                             {"x": xv, "y": yv}, heads=[f32(rs.randn(3, 4))]),
        "blockgrad_head_no_out_grad": train_step(mx, mx.sym.BlockGrad(x * 2), d),
        "group_makeloss_blockgrad": train_step(
            mx, mx.sym.Group([mx.sym.MakeLoss(x * y), mx.sym.BlockGrad(x + y)]),
            {"x": xv, "y": yv}),
    }
    return res
