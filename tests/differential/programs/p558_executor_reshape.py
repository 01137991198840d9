"""Executor.reshape shares memory with the executor it reshapes: arguments, gradients and
auxiliary states that keep or lose size are views of the old arrays, and so are the outputs
(running either executor overwrites the other's outputs); what grows (allow_up_sizing=True)
gets new memory. Also its errors: growing without allow_up_sizing, an argument you did not
give changing shape (unless partial_shaping=True), giving nothing."""
import numpy as np
from _common import err


def _shares(small, big):
    """Whether writing into ``small`` shows at the start of ``big``."""
    before = big.asnumpy().copy()
    small[:] = 7.0
    shared = bool(np.all(big.asnumpy().reshape(-1)[:small.size] == 7.0))
    big[:] = before
    return shared


def _outputs_linked(mx, new, old):
    """[does new.forward change old.outputs, does old.forward change new.outputs]."""
    rs = np.random.RandomState(1)
    old.forward()
    seen = [o.asnumpy().copy() for o in old.outputs]
    new.arg_dict["data"][:] = rs.randn(*new.arg_dict["data"].shape)
    new.forward()
    changed_old = any(not np.array_equal(s, o.asnumpy()) for s, o in zip(seen, old.outputs))
    seen = [o.asnumpy().copy() for o in new.outputs]
    old.arg_dict["data"][:] = rs.randn(*old.arg_dict["data"].shape)
    old.forward()
    changed_new = any(not np.array_equal(s, o.asnumpy()) for s, o in zip(seen, new.outputs))
    return [changed_old, changed_new]


def run(mx):
    data = mx.sym.Variable("data")
    fc = mx.sym.FullyConnected(data, num_hidden=3, name="fc")
    net = mx.sym.SoftmaxOutput(mx.sym.Activation(fc, act_type="tanh", name="act"), name="sm")
    two = mx.sym.Group([mx.sym.FullyConnected(fc, num_hidden=2, name="fc2"),
                        mx.sym.BlockGrad(fc, name="bg")])
    rs = np.random.RandomState(0)

    def bound(sym, **kwargs):
        ex = sym.simple_bind(mx.cpu(), data=(4, 5), **kwargs)
        for arr in ex.arg_arrays:
            arr[:] = rs.randn(*arr.shape)
        return ex

    res = {}
    ex = bound(net)
    small = ex.reshape(data=(2, 5), sm_label=(2,))
    res["down_shapes"] = {k: list(v.shape) for k, v in small.arg_dict.items()}
    res["down_output_shapes"] = [list(o.shape) for o in small.outputs]
    res["down_shares_data"] = _shares(small.arg_dict["data"], ex.arg_dict["data"])
    res["down_shares_weight"] = _shares(small.arg_dict["fc_weight"], ex.arg_dict["fc_weight"])
    res["down_shares_grad"] = _shares(small.grad_dict["fc_weight"], ex.grad_dict["fc_weight"])
    res["down_shares_data_grad"] = _shares(small.grad_dict["data"], ex.grad_dict["data"])
    res["down_outputs_linked"] = _outputs_linked(mx, small, ex)
    same = ex.reshape(data=(4, 5))
    res["same_shape_shares_data"] = _shares(same.arg_dict["data"], ex.arg_dict["data"])
    res["same_shape_outputs_linked"] = _outputs_linked(mx, same, ex)

    ex2 = bound(two, grad_req="null")
    res["group_down_outputs_linked"] = _outputs_linked(mx, ex2.reshape(data=(3, 5)), ex2)
    up = ex2.reshape(allow_up_sizing=True, data=(8, 5))
    res["up_output_shapes"] = [list(o.shape) for o in up.outputs]
    res["up_shares_weight"] = _shares(up.arg_dict["fc_weight"], ex2.arg_dict["fc_weight"])
    up.arg_dict["data"][:] = 3.0
    res["up_data_is_new"] = bool(np.all(ex2.arg_dict["data"].asnumpy() != 3.0))
    res["up_outputs_linked"] = _outputs_linked(mx, up, ex2)

    ex3 = bound(net, grad_req={"data": "write", "fc_weight": "add", "fc_bias": "null",
                               "sm_label": "null"})
    r3 = ex3.reshape(data=(3, 5), sm_label=(3,))
    res["grad_req_kept"] = {k: None if v is None else list(v.shape)
                            for k, v in r3.grad_dict.items()}

    bn = mx.sym.BatchNorm(data, name="bn")
    eb = bn.simple_bind(mx.cpu(), data=(4, 3))
    nb = eb.reshape(data=(2, 3))
    res["aux_shared"] = _shares(nb.aux_dict["bn_moving_mean"], eb.aux_dict["bn_moving_mean"])
    res["aux_change_raises"] = err(mx, eb.reshape, data=(2, 4))
    res["aux_change_partial"] = {k: list(v.shape) for k, v in
                                 eb.reshape(data=(2, 2), partial_shaping=True).aux_dict.items()}

    res["up_without_allow_raises"] = err(mx, ex.reshape, data=(8, 5), sm_label=(8,))
    res["label_not_given_raises"] = err(mx, ex.reshape, data=(2, 5))
    res["label_not_given_partial"] = list(ex.reshape(partial_shaping=True, data=(2, 5))
                                          .arg_dict["sm_label"].shape)
    res["weight_change_raises"] = err(mx, ex.reshape, data=(2, 6), sm_label=(2,))
    res["nothing_given_raises"] = err(mx, ex.reshape)
    return res
