"""Error categories of bind / simple_bind mistakes: wrong args length, missing key, non-NDArray
values, bad grad_req strings (bind, simple_bind, dict form), missing or short aux_states,
args_grad of the wrong length, a non-Context ctx, empty grad_req list / dict, and
inconsistent shapes.  Also: args_grad=None leaves grad_arrays None and backward still runs.
(grad_dict in that case, and a bad string inside a grad_req dict, are in p127.)"""
import numpy as np
from _common import err


def run(mx):
    x = mx.sym.Variable("x")
    z = mx.sym.Variable("z")
    xz = x * z
    ones = mx.nd.ones((3,))
    bn = mx.sym.BatchNorm(x, name="bn")
    bn_args = {"x": mx.nd.ones((2, 3)), "bn_gamma": mx.nd.ones((3,)), "bn_beta": mx.nd.ones((3,))}
    res = {
        "args_list_too_long": err(mx, xz.bind, mx.cpu(), [ones, ones, ones]),
        "args_list_too_short": err(mx, xz.bind, mx.cpu(), [ones]),
        "args_dict_missing_key": err(mx, xz.bind, mx.cpu(), {"x": ones}),
        "args_dict_extra_key": err(mx, xz.bind, mx.cpu(), {"x": ones, "z": ones, "q": ones}),
        "args_numpy_value_dict": err(mx, xz.bind, mx.cpu(), {"x": ones, "z": np.ones(3)}),
        "args_numpy_value_list": err(mx, xz.bind, mx.cpu(), [ones, np.ones(3)]),
        "args_not_a_container": err(mx, xz.bind, mx.cpu(), ones),
        "ctx_not_a_context": err(mx, xz.bind, "cpu", {"x": ones, "z": ones}),
        "grad_req_bad_string_bind": err(mx, xz.bind, mx.cpu(), {"x": ones, "z": ones},
                                        args_grad={"x": mx.nd.zeros((3,))}, grad_req="sum"),
        "grad_req_bad_string_simple_bind": err(mx, xz.simple_bind, mx.cpu(), grad_req="sum",
                                               x=(3,), z=(3,)),
        "grad_req_empty_list_simple_bind": err(mx, xz.simple_bind, mx.cpu(), grad_req=[],
                                               x=(3,), z=(3,)),
        "grad_req_empty_dict_simple_bind": err(mx, xz.simple_bind, mx.cpu(), grad_req={},
                                               x=(3,), z=(3,)),
        "args_grad_list_wrong_length": err(mx, xz.bind, mx.cpu(), [ones, ones],
                                           args_grad=[mx.nd.zeros((3,))]),
        "aux_states_missing": err(mx, bn.bind, mx.cpu(), bn_args),
        "aux_states_dict_missing_key": err(mx, bn.bind, mx.cpu(), bn_args,
                                           aux_states={"bn_moving_mean": mx.nd.zeros((3,))}),
        "aux_states_list_too_short": err(mx, bn.bind, mx.cpu(), bn_args,
                                         aux_states=[mx.nd.zeros((3,))]),
        "aux_states_ok": err(mx, bn.bind, mx.cpu(), bn_args,
                             aux_states={"bn_moving_mean": mx.nd.zeros((3,)),
                                         "bn_moving_var": mx.nd.ones((3,))}),
        "bind_inconsistent_shapes": err(mx, xz.bind, mx.cpu(), {"x": ones, "z": mx.nd.ones((4,))}),
        "simple_bind_inconsistent_shapes": err(mx, xz.simple_bind, mx.cpu(), x=(3,), z=(4,)),
        "simple_bind_shape_inferred_from_partner": err(mx, xz.simple_bind, mx.cpu(), x=(3,)),
    }
    ex = (x * 2).bind(mx.cpu(), {"x": mx.nd.array(np.arange(3, dtype=np.float32))})
    res["no_args_grad"] = {
        "grad_arrays_is_none": ex.grad_arrays is None,
        "forward": ex.forward(is_train=True)[0].asnumpy(),
        "backward": err(mx, ex.backward, mx.nd.ones((3,))),
    }
    return res
