"""BatchNorm fix_gamma=True overwrites the gamma array with 1 during forward only when the
executor computes some gradient, on its own so that it can be dropped separately.

Observed in MXNet 1.9.1 (CPU): with grad_req 'write' or 'add' for any argument -- even when
gamma's own req is 'null' -- gamma becomes 1 after forward, in training and in inference
mode.  With grad_req='null' for everything, or bind(args_grad=None), gamma keeps its value.
The output always treats gamma as 1."""
import numpy as np

from _common import f32


def gamma_after_forward(mx, x, grad_req, is_train, use_bind=False):
    sym = mx.sym.BatchNorm(mx.sym.Variable("data"), name="bn")
    if use_bind:
        args = {"data": mx.nd.array(x), "bn_gamma": mx.nd.array(f32([2.0, 3.0, 4.0])),
                "bn_beta": mx.nd.zeros((3,))}
        aux = {"bn_moving_mean": mx.nd.zeros((3,)), "bn_moving_var": mx.nd.ones((3,))}
        ex = sym.bind(mx.cpu(), args, args_grad=None, grad_req=grad_req, aux_states=aux)
    else:
        ex = sym.simple_bind(ctx=mx.cpu(), grad_req=grad_req, data=x.shape)
        ex.arg_dict["data"][:] = x
        ex.arg_dict["bn_gamma"][:] = f32([2.0, 3.0, 4.0])
        ex.aux_dict["bn_moving_var"][:] = 1.0
    out = ex.forward(is_train=is_train)[0].asnumpy()
    mx.nd.waitall()
    return {"gamma": ex.arg_dict["bn_gamma"].asnumpy(), "out": out}


def run(mx):
    x = f32(np.random.RandomState(126).randn(2, 3, 2, 2))
    return {
        "all_null_train": gamma_after_forward(mx, x, "null", True),
        "all_null_inference": gamma_after_forward(mx, x, "null", False),
        "bind_no_args_grad": gamma_after_forward(mx, x, "write", False, use_bind=True),
        "gamma_null_data_write_inference": gamma_after_forward(mx, x, {"data": "write"}, False),
        "gamma_write_only_inference": gamma_after_forward(mx, x, {"bn_gamma": "write"}, False),
        "all_add_inference": gamma_after_forward(mx, x, "add", False),
        "all_write_train": gamma_after_forward(mx, x, "write", True),
    }
