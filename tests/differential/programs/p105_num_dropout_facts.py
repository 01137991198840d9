"""Dropout: only deterministic facts (the masks are random and are checked elsewhere by
statistics).  Inference is the identity, p=0 is the identity (values and gradient), and in
training every output is 0 or x/(1-p), with the gradient equal to the head gradient times
the same factor; axes=(2,3) shares one mask value per (n, c); mode='always' also drops at
inference."""
import numpy as np

from _common import bind_inputs, f32


def run(mx):
    rs = np.random.RandomState(105)
    data = mx.sym.Variable("data")
    x = f32(rs.uniform(0.5, 2.0, size=(4, 3, 5, 5)) * np.sign(rs.randn(4, 3, 5, 5)))
    head = f32(rs.randn(4, 3, 5, 5))
    res = {}

    ex = bind_inputs(mx, mx.sym.Dropout(data, p=0.5), {"data": x})
    out = ex.forward(is_train=False)[0].asnumpy()
    res["p05_inference_out"] = out
    res["p05_inference_is_identity"] = bool(np.array_equal(out, x))
    res["num_outputs"] = len(ex.outputs)
    res["default_forward_is_identity"] = bool(np.array_equal(ex.forward()[0].asnumpy(), x))

    ex = bind_inputs(mx, mx.sym.Dropout(data, p=0.0), {"data": x})
    out = ex.forward(is_train=True)[0].asnumpy()
    ex.backward([mx.nd.array(head)])
    res["p0_train_out"] = out
    res["p0_train_grad"] = ex.grad_dict["data"].asnumpy()
    res["p0_train_is_identity"] = bool(np.array_equal(out, x))
    res["p0_train_grad_is_head"] = bool(np.array_equal(ex.grad_dict["data"].asnumpy(), head))

    ex = bind_inputs(mx, mx.sym.Dropout(data, p=0.0, mode="always"), {"data": x})
    res["always_p0_inference_is_identity"] = bool(
        np.array_equal(ex.forward(is_train=False)[0].asnumpy(), x))

    for key, p, mode, is_train in (("p05_train", 0.5, "training", True),
                                   ("p02_train", 0.2, "training", True),
                                   ("always_p05_inference", 0.5, "always", False)):
        ex = bind_inputs(mx, mx.sym.Dropout(data, p=p, mode=mode), {"data": x})
        out = ex.forward(is_train=is_train)[0].asnumpy()
        scale = np.float32(1.0 / (1.0 - p))
        kept = out != 0
        res[key] = {
            "out_is_0_or_scaled_x": bool(np.allclose(out[kept], x[kept] * scale, rtol=1e-6)),
            "some_kept_some_dropped": bool(kept.any() and (~kept).any()),
        }
        if is_train:
            ex.backward([mx.nd.array(head)])
            grad = ex.grad_dict["data"].asnumpy()
            res[key]["grad_is_head_times_mask_over_keep"] = bool(
                np.allclose(grad, head * kept * scale, rtol=1e-6, atol=0))

    ex = bind_inputs(mx, mx.sym.Dropout(data, p=0.5, axes=(2, 3)), {"data": x})
    out = ex.forward(is_train=True)[0].asnumpy()
    kept = (out != 0).reshape(4 * 3, 25)
    res["axes_23_train"] = {
        "mask_constant_over_axes": bool(np.all(kept.all(axis=1) | (~kept).all(axis=1))),
        "out_is_0_or_2x": bool(np.allclose(out[out != 0], 2 * x[out != 0], rtol=1e-6)),
    }
    return res
