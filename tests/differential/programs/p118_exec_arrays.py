"""Executor arrays: bind uses the caller's NDArrays in place (mutating one after bind changes
the next forward), arg_dict aliases the executor's inputs, outputs exist with the right shapes
before the first forward, simple_bind with type_dict float64 (dtypes of args, grads, aux and
outputs), forward() defaults to inference, forward with keyword arrays (and its errors),
copy_params_from (cast, aux, unknown names, allow_extra_params)."""
import numpy as np
from _common import err, f32


def dtypes(arrays):
    return {k: (None if v is None else np.dtype(v.dtype).name) for k, v in sorted(arrays.items())}


def run(mx):
    rs = np.random.RandomState(118)
    x = mx.sym.Variable("x")
    w = mx.sym.Variable("w")
    res = {}

    # bind: the caller's arrays are used in place
    # (3,4) with (2,4) -> (3,2): FullyConnected without bias, written with elementwise ops
    net = mx.sym.sum(mx.sym.broadcast_mul(mx.sym.expand_dims(x, axis=1),
                                          mx.sym.expand_dims(w, axis=0)), axis=2)
    xa = mx.nd.array(f32(rs.randn(3, 4)))
    wa = mx.nd.array(f32(rs.randn(2, 4)))
    ex = net.bind(mx.cpu(), {"x": xa, "w": wa})
    first = ex.forward()[0].asnumpy()
    xa[:] = f32(rs.randn(3, 4))
    second = ex.forward()[0].asnumpy()
    wa[:] = 0
    third = ex.forward()[0].asnumpy()
    res["bind_in_place"] = {"first": first, "after_mutating_x": second,
                            "after_zeroing_w": third,
                            "changed": bool(not np.array_equal(first, second)),
                            "arg_dict_sees_mutation": ex.arg_dict["x"].asnumpy()}
    ex.arg_dict["w"][:] = f32(rs.randn(2, 4))
    res["bind_in_place"]["after_writing_arg_dict"] = ex.forward()[0].asnumpy()
    res["bind_in_place"]["user_array_sees_arg_dict_write"] = wa.asnumpy()
    res["bind_in_place"]["arg_arrays_order"] = [a.shape for a in ex.arg_arrays]

    # outputs exist before the first forward (values are not defined yet: shapes only)
    fc = mx.sym.FullyConnected(x, w, num_hidden=2, no_bias=True, name="fc")
    group = mx.sym.Group([fc, mx.sym.sum(x, axis=0), mx.sym.SliceChannel(x, num_outputs=2)])
    ex = group.simple_bind(ctx=mx.cpu(), x=(3, 4), w=(2, 4))
    res["outputs_before_forward"] = {"shapes": [o.shape for o in ex.outputs],
                                     "names": sorted(ex.output_dict),
                                     "count": len(ex.outputs)}
    ex.arg_dict["x"][:] = f32(rs.randn(3, 4))
    ex.arg_dict["w"][:] = f32(rs.randn(2, 4))
    returned = ex.forward()
    res["forward_returns_outputs"] = {"len": len(returned),
                                      "values": [o.asnumpy() for o in returned],
                                      "same_as_outputs": all(
                                          np.array_equal(a.asnumpy(), b.asnumpy())
                                          for a, b in zip(returned, ex.outputs))}

    # simple_bind with type_dict float64
    bn = mx.sym.BatchNorm(mx.sym.FullyConnected(x, w, num_hidden=3, name="fc2"), name="bn")
    ex = bn.simple_bind(ctx=mx.cpu(), type_dict={"x": "float64"}, x=(4, 5))
    res["type_dict_float64"] = {"args": dtypes(ex.arg_dict), "grads": dtypes(ex.grad_dict),
                                "aux": dtypes(ex.aux_dict),
                                "outputs": [np.dtype(o.dtype).name for o in ex.outputs]}
    values = {"x": rs.randn(4, 5), "w": rs.randn(3, 5) * 0.5, "fc2_bias": rs.randn(3),
              "bn_gamma": rs.uniform(0.5, 1.5, size=3), "bn_beta": rs.randn(3)}
    for k, v in values.items():
        ex.arg_dict[k][:] = v
    ex.aux_dict["bn_moving_var"][:] = 1.0
    ex.forward(is_train=True)
    ex.backward(mx.nd.array(rs.randn(4, 3), dtype="float64"))
    res["type_dict_float64"]["out"] = ex.outputs[0].asnumpy()
    res["type_dict_float64"]["grad_x"] = ex.grad_dict["x"].asnumpy()
    res["type_dict_float64"]["grad_w"] = ex.grad_dict["w"].asnumpy()
    ex = (x * 2).simple_bind(ctx=mx.cpu(), type_dict={"x": np.float64}, x=(2,))
    res["type_dict_numpy_type"] = dtypes(ex.arg_dict)

    # forward() defaults to is_train=False: BatchNorm uses the moving stats, Dropout is identity
    net = mx.sym.Dropout(mx.sym.BatchNorm(x, fix_gamma=False, name="bn"), p=0.5)
    ex = net.simple_bind(ctx=mx.cpu(), x=(4, 3))
    ex.arg_dict["x"][:] = f32(rs.randn(4, 3) * 3 + 1)
    ex.arg_dict["bn_gamma"][:] = f32([1.0, 2.0, 0.5])
    ex.arg_dict["bn_beta"][:] = f32([0.0, 1.0, -1.0])
    ex.aux_dict["bn_moving_mean"][:] = f32([0.5, -0.5, 1.0])
    ex.aux_dict["bn_moving_var"][:] = f32([2.0, 1.0, 0.5])
    default = ex.forward()[0].asnumpy()
    explicit = ex.forward(is_train=False)[0].asnumpy()
    res["forward_default_is_inference"] = {"default": default,
                                           "equal_to_is_train_false": bool(
                                               np.array_equal(default, explicit))}

    # forward with keyword arrays: copied into arg_dict
    net = x * w
    ex = net.simple_bind(ctx=mx.cpu(), x=(2, 3), w=(2, 3))
    xv, wv = f32(rs.randn(2, 3)), f32(rs.randn(2, 3))
    out_np = ex.forward(is_train=True, x=xv, w=wv)[0].asnumpy()
    xv2 = f32(rs.randn(2, 3))
    nd_in = mx.nd.array(xv2)
    out_nd = ex.forward(x=nd_in)[0].asnumpy()
    nd_in[:] = 0
    res["forward_kwargs"] = {"numpy": out_np, "ndarray": out_nd,
                             "arg_dict_x": ex.arg_dict["x"].asnumpy(),
                             "copied_not_aliased": bool(
                                 np.array_equal(ex.arg_dict["x"].asnumpy(), xv2)),
                             "unknown_name": err(mx, ex.forward, y=xv),
                             "wrong_shape": err(mx, ex.forward, x=f32(np.ones((3, 3)))),
                             "not_an_array": err(mx, ex.forward, x=[[1, 2, 3], [4, 5, 6]])}
    ex.backward(mx.nd.ones((2, 3)))
    res["forward_kwargs"]["grad_w_after_kwarg_forward"] = ex.grad_dict["w"].asnumpy()

    # copy_params_from
    net = mx.sym.BatchNorm(mx.sym.FullyConnected(x, num_hidden=2, name="fc"), name="bn")
    ex = net.simple_bind(ctx=mx.cpu(), x=(3, 4))
    arg_params = {"fc_weight": mx.nd.array(np.arange(8).reshape(2, 4) / 8.0, dtype="float64"),
                  "fc_bias": mx.nd.array([0.5, -0.5])}
    aux_params = {"bn_moving_mean": mx.nd.array([0.25, 0.75]),
                  "bn_moving_var": mx.nd.array([2.0, 3.0])}
    ex.copy_params_from(arg_params, aux_params)
    res["copy_params_from"] = {
        "fc_weight": ex.arg_dict["fc_weight"].asnumpy(),
        "fc_bias": ex.arg_dict["fc_bias"].asnumpy(),
        "moving_mean": ex.aux_dict["bn_moving_mean"].asnumpy(),
        "moving_var": ex.aux_dict["bn_moving_var"].asnumpy(),
        "untouched_gamma": ex.arg_dict["bn_gamma"].asnumpy(),
        "source_not_aliased": bool(ex.arg_dict["fc_bias"] is not arg_params["fc_bias"]),
        "unknown_arg": err(mx, ex.copy_params_from, {"extra": mx.nd.ones((2,))}),
        "unknown_aux": err(mx, ex.copy_params_from, {}, {"extra": mx.nd.ones((2,))}),
        "unknown_arg_allowed": err(mx, ex.copy_params_from, {"extra": mx.nd.ones((2,))},
                                   allow_extra_params=True),
        "unknown_aux_allowed": err(mx, ex.copy_params_from, {}, {"extra": mx.nd.ones((2,))},
                                   allow_extra_params=True),
    }
    arg_params["fc_bias"][:] = 9.0
    res["copy_params_from"]["after_mutating_source"] = ex.arg_dict["fc_bias"].asnumpy()
    return res
