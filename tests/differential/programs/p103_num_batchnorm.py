"""BatchNorm numerics: train and test mode, fix_gamma True/False, use_global_stats,
output_mean_var, axis=-1 on 3-D data, 2-D data.  Records the outputs, the gradients of data,
gamma and beta, the gamma array after forward (fix_gamma overwrites it), and moving_mean /
moving_var after forward and after backward (MXNet's CPU path updates them in backward)."""
import numpy as np

from _common import f32


def bn_case(mx, rs, shape, is_train=True, backward=True, grad_req="write", **params):
    axis = params.get("axis", 1)
    c = shape[axis]
    data = mx.sym.Variable("data")
    sym = mx.sym.BatchNorm(data, mx.sym.Variable("gamma"), mx.sym.Variable("beta"),
                           mx.sym.Variable("moving_mean"), mx.sym.Variable("moving_var"),
                           name="bn", **params)
    ex = sym.simple_bind(ctx=mx.cpu(), grad_req=grad_req, data=shape)
    ex.arg_dict["data"][:] = f32(rs.randn(*shape) * 2.0 + 0.5)
    ex.arg_dict["gamma"][:] = f32(rs.uniform(1.5, 2.5, size=c))
    ex.arg_dict["beta"][:] = f32(rs.randn(c))
    ex.aux_dict["moving_mean"][:] = f32(rs.randn(c) * 0.5)
    ex.aux_dict["moving_var"][:] = f32(rs.uniform(0.5, 1.5, size=c))
    ex.forward(is_train=is_train)
    mx.nd.waitall()
    res = {"outputs": [o.asnumpy() for o in ex.outputs],
           "gamma_after_forward": ex.arg_dict["gamma"].asnumpy(),
           "moving_mean_after_forward": ex.aux_dict["moving_mean"].asnumpy(),
           "moving_var_after_forward": ex.aux_dict["moving_var"].asnumpy()}
    if backward:
        ex.backward([mx.nd.array(f32(rs.randn(*o.shape))) for o in ex.outputs])
        mx.nd.waitall()
        res["moving_mean_after_backward"] = ex.aux_dict["moving_mean"].asnumpy()
        res["moving_var_after_backward"] = ex.aux_dict["moving_var"].asnumpy()
        for name in ("data", "gamma", "beta"):
            g = ex.grad_dict[name]
            res["grad_" + name] = None if g is None else g.asnumpy()
    return res


def run(mx):
    rs = np.random.RandomState(103)
    return {
        "train_fix_gamma_true": bn_case(mx, rs, (2, 3, 4, 4)),
        "train_fix_gamma_false": bn_case(mx, rs, (2, 3, 4, 4), fix_gamma=False),
        "train_eps_momentum": bn_case(mx, rs, (3, 2, 3, 3), fix_gamma=False, eps=1e-5,
                                      momentum=0.8),
        "test_fix_gamma_false": bn_case(mx, rs, (2, 3, 4, 4), is_train=False, backward=False,
                                        fix_gamma=False),
        "test_fix_gamma_true": bn_case(mx, rs, (2, 3, 4, 4), is_train=False, backward=False),
        "use_global_stats": bn_case(mx, rs, (2, 3, 4, 4), fix_gamma=False,
                                    use_global_stats=True),
        "use_global_stats_fix_gamma_true": bn_case(mx, rs, (2, 3, 4, 4), use_global_stats=True),
        "output_mean_var_train": bn_case(mx, rs, (2, 3, 4, 4), fix_gamma=False,
                                         output_mean_var=True),
        "output_mean_var_test": bn_case(mx, rs, (2, 3, 4, 4), is_train=False, backward=False,
                                        fix_gamma=False, output_mean_var=True),
        "axis_minus1_3d": bn_case(mx, rs, (2, 3, 4), fix_gamma=False, axis=-1),
        "data_2d": bn_case(mx, rs, (5, 3), fix_gamma=False),
    }
