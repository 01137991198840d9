"""SoftmaxOutput numerics: forward (softmax) and the implicit-head gradient of data and label
(backward() without out_grads) for 2-D data, grad_scale, use_ignore / ignore_label,
normalization null / batch / valid, multi_output on 3-D and 4-D data, preserve_shape,
probability labels (label shape == data shape) and smooth_alpha."""
import numpy as np

from _common import f32, fwd_bwd


def sm_case(mx, x, label, **params):
    """SoftmaxOutput with ``params``: output and the implicit-head gradients of data and label."""
    sym = mx.sym.SoftmaxOutput(mx.sym.Variable("data"), mx.sym.Variable("label"), **params)
    return fwd_bwd(mx, sym, {"data": x, "label": label})


def run(mx):
    rs = np.random.RandomState(108)
    x2 = f32(rs.randn(4, 5) * 2)
    lab2 = f32([1, 2, 0, 2])
    x3 = f32(rs.randn(2, 3, 4) * 2)
    lab3 = f32([[0, 2, 1, 1], [2, 2, 0, 1]])
    x4 = f32(rs.randn(2, 3, 2, 2) * 2)
    lab4 = f32([[1, 0, 2, 2], [0, 1, 1, 2]])
    lab4_spatial = lab4.reshape(2, 2, 2)
    prob = rs.uniform(0.1, 1.0, size=(4, 5))
    prob = f32(prob / prob.sum(axis=1, keepdims=True))
    res = {
        "default_2d": sm_case(mx, x2, lab2),
        "grad_scale_2": sm_case(mx, x2, lab2, grad_scale=2.0),
        "normalization_batch": sm_case(mx, x2, lab2, normalization="batch"),
        "normalization_valid_no_ignored": sm_case(mx, x2, lab2, normalization="valid"),
        "use_ignore_label2_null": sm_case(mx, x2, lab2, use_ignore=True, ignore_label=2),
        "use_ignore_label2_valid": sm_case(mx, x2, lab2, use_ignore=True, ignore_label=2,
                                           normalization="valid"),
        "use_ignore_label2_batch": sm_case(mx, x2, lab2, use_ignore=True, ignore_label=2,
                                           normalization="batch"),
        "ignore_label2_without_use_ignore_valid": sm_case(mx, x2, lab2, ignore_label=2,
                                                          normalization="valid"),
        "grad_scale_3_valid_ignore": sm_case(mx, x2, lab2, grad_scale=3.0, use_ignore=True,
                                             ignore_label=0, normalization="valid"),
        "smooth_alpha_0_1": sm_case(mx, x2, lab2, smooth_alpha=0.1),
        "probability_label": sm_case(mx, x2, prob),
        "probability_label_batch": sm_case(mx, x2, prob, normalization="batch"),
        "probability_label_grad_scale_2": sm_case(mx, x2, prob, grad_scale=2.0),
        "preserve_shape_3d": sm_case(mx, x3, f32([[0, 1, 3], [2, 2, 1]]), preserve_shape=True),
    }
    for norm in ("null", "batch", "valid"):
        res["multi_output_3d_" + norm] = sm_case(mx, x3, lab3, multi_output=True,
                                                 normalization=norm)
        res["multi_output_4d_" + norm] = sm_case(mx, x4, lab4, multi_output=True,
                                                 normalization=norm)
    res["multi_output_4d_spatial_label"] = sm_case(mx, x4, lab4_spatial, multi_output=True)
    res["multi_output_3d_ignore_valid"] = sm_case(mx, x3, lab3, multi_output=True,
                                                  use_ignore=True, ignore_label=1,
                                                  normalization="valid")
    res["multi_output_3d_ignore_null"] = sm_case(mx, x3, lab3, multi_output=True,
                                                 use_ignore=True, ignore_label=1)
    return res
