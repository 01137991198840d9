"""MakeLoss vs make_loss (op, name hint, output suffix), BlockGrad vs stop_gradient."""
from _common import err, names, node_ops


def run(mx):
    data = mx.sym.Variable("data")
    ml = mx.sym.MakeLoss(data, grad_scale=0.3, normalization="valid", valid_thresh=0.5)
    ml_lower = mx.sym.make_loss(data)
    ml_named = mx.sym.make_loss(data, name="loss")
    bg = mx.sym.BlockGrad(data)
    sg = mx.sym.stop_gradient(data, name="sg")
    combo = mx.sym.Group([ml_named, mx.sym.BlockGrad(data * 2)])
    return {
        "MakeLoss": [names(ml), node_ops(ml), ml.infer_shape(data=(3, 2))],
        "make_loss": [names(ml_lower), node_ops(ml_lower)],
        "make_loss_named": names(ml_named),
        "make_loss_tojson": ml_named.tojson(),
        "MakeLoss_tojson": ml.tojson(),
        "BlockGrad": [names(bg), node_ops(bg), bg.infer_shape(data=(2, 2))],
        "stop_gradient": [names(sg), node_ops(sg)],
        "stop_gradient_tojson": sg.tojson(),
        "combo_outputs": combo.list_outputs(),
        "backward_through_blockgrad": (bg + mx.sym.Variable("y")).infer_shape(y=(4, 5)),
        "bad_normalization": err(mx, mx.sym.MakeLoss, data, normalization="mean"),
    }
