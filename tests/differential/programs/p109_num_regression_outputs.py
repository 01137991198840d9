"""LinearRegressionOutput / LogisticRegressionOutput / MAERegressionOutput numerics: forward
and the implicit-head gradients of data and label, for (N,1) data with an (N,) label and
(N,k) data with an (N,k) label, with and without grad_scale; MAE where some differences are
exactly zero."""
import numpy as np

from _common import f32, fwd_bwd


def reg_case(mx, op, x, label, **params):
    """The regression output ``op``: output and the implicit-head gradients of data and label."""
    sym = getattr(mx.sym, op)(mx.sym.Variable("data"), mx.sym.Variable("label"), **params)
    return fwd_bwd(mx, sym, {"data": x, "label": label})


def run(mx):
    rs = np.random.RandomState(109)
    x1 = f32(rs.randn(4, 1))
    lab1 = f32(rs.randn(4))
    x3 = f32(rs.randn(4, 3))
    lab3 = f32(rs.randn(4, 3))
    prob1 = f32(rs.uniform(0, 1, size=4))
    prob3 = f32(rs.uniform(0, 1, size=(4, 3)))
    return {
        "linear_n1": reg_case(mx, "LinearRegressionOutput", x1, lab1),
        "linear_nk": reg_case(mx, "LinearRegressionOutput", x3, lab3),
        "linear_nk_grad_scale": reg_case(mx, "LinearRegressionOutput", x3, lab3, grad_scale=0.5),
        "logistic_n1": reg_case(mx, "LogisticRegressionOutput", x1, prob1),
        "logistic_nk": reg_case(mx, "LogisticRegressionOutput", x3, prob3),
        "logistic_nk_grad_scale": reg_case(mx, "LogisticRegressionOutput", x3, prob3,
                                           grad_scale=3.0),
        "mae_n1": reg_case(mx, "MAERegressionOutput", x1, lab1),
        "mae_nk": reg_case(mx, "MAERegressionOutput", x3, lab3),
        "mae_zero_difference": reg_case(mx, "MAERegressionOutput", x3,
                                        np.where(np.arange(12).reshape(4, 3) % 2 == 0,
                                                 x3, lab3).astype(np.float32)),
        "mae_nk_grad_scale": reg_case(mx, "MAERegressionOutput", x3, lab3, grad_scale=2.0),
    }
