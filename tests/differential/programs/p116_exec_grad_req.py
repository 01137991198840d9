"""Executor grad_req semantics: 'add' accumulates across backward calls and is never zeroed
(the spec's 1+2+2+2 = 7 example), 'write' overwrites, 'null' gives None in grad_dict;
grad_req as a dict (missing names mean 'null') and as a list, under simple_bind and bind;
fan-out inside one graph is summed within a single backward, whatever the req."""
import numpy as np

from _common import f32


def grads(ex):
    return {k: (None if v is None else v.asnumpy()) for k, v in sorted(ex.grad_dict.items())}


def run(mx):
    rs = np.random.RandomState(116)
    x = mx.sym.Variable("x")
    w = mx.sym.Variable("w")
    b = mx.sym.Variable("b")
    res = {}

    # the spec's example: grads bound as ones, y = 2x, three backward calls with a ones head
    y = 2 * x
    ex = y.bind(mx.cpu(), {"x": mx.nd.array(f32([1, 2, 3]))},
                args_grad={"x": mx.nd.ones((3,))}, grad_req="add")
    ex.forward(is_train=True)
    steps = []
    for _ in range(3):
        ex.backward(mx.nd.ones((3,)))
        steps.append(ex.grad_dict["x"].asnumpy())
    res["add_bound_ones_three_backwards"] = steps

    # 'add' with a forward before every backward, random heads, simple_bind (zero-filled)
    ex = (x * x).simple_bind(ctx=mx.cpu(), grad_req="add", x=(2, 3))
    ex.arg_dict["x"][:] = f32(rs.randn(2, 3))
    steps = []
    for _ in range(3):
        ex.forward(is_train=True)
        ex.backward(mx.nd.array(f32(rs.randn(2, 3))))
        steps.append(ex.grad_dict["x"].asnumpy())
    res["add_simple_bind_forward_each_time"] = steps

    # 'write' overwrites whatever the grad array held
    ex = y.bind(mx.cpu(), {"x": mx.nd.array(f32([1, 2, 3]))},
                args_grad={"x": mx.nd.ones((3,)) * 5}, grad_req="write")
    ex.forward(is_train=True)
    steps = []
    for _ in range(2):
        ex.backward(mx.nd.array(f32(rs.randn(3))))
        steps.append(ex.grad_dict["x"].asnumpy())
    res["write_overwrites"] = steps

    # grad_req as a str, dict and list on one graph (two forward/backward steps each)
    prod = x * w * b  # elementwise: no gradient depends on another argument's req
    shapes = {"x": (3, 4), "w": (3, 4), "b": (3, 4)}
    values = {k: f32(rs.randn(*s)) for k, s in sorted(shapes.items())}
    heads = [f32(rs.randn(3, 4)) for _ in range(2)]

    def bound(grad_req):
        ex = prod.simple_bind(ctx=mx.cpu(), grad_req=grad_req, **shapes)
        for k, v in values.items():
            ex.arg_dict[k][:] = v
        for h in heads:
            ex.forward(is_train=True)
            ex.backward(mx.nd.array(h))
        return ex

    ex = bound("null")
    res["null_string"] = {"keys": sorted(ex.grad_dict), "grads": grads(ex),
                          "grad_arrays_none": [g is None for g in ex.grad_arrays]}
    ex = bound({"w": "write"})
    res["dict_missing_means_null"] = {"keys": sorted(ex.grad_dict), "grads": grads(ex),
                                      "grad_arrays_none": [g is None for g in ex.grad_arrays]}
    ex = bound({"w": "add", "x": "write"})
    res["dict_add_and_write"] = grads(ex)
    ex = bound(["write", "null", "add"])  # list_arguments() order: x, w, b
    res["list_form"] = {"order": prod.list_arguments(), "grads": grads(ex),
                        "grad_arrays_none": [g is None for g in ex.grad_arrays]}
    ex = bound("write")
    res["write_all"] = grads(ex)
    ex = bound("add")
    res["add_all_two_steps"] = grads(ex)

    # bind with args_grad as a dict with a missing entry, and a list with a None entry
    args = {k: mx.nd.array(v) for k, v in values.items()}
    ex = prod.bind(mx.cpu(), args, args_grad={"w": mx.nd.zeros((3, 4))}, grad_req="write")
    ex.forward(is_train=True)
    ex.backward(mx.nd.array(heads[0]))
    res["bind_args_grad_dict_partial"] = grads(ex)
    ex = prod.bind(mx.cpu(), [args["x"], args["w"], args["b"]],
                 args_grad=[mx.nd.zeros((3, 4)), None, mx.nd.ones((3, 4))],
                 grad_req=["write", "null", "add"])
    ex.forward(is_train=True)
    ex.backward(mx.nd.array(heads[0]))
    res["bind_args_grad_list_with_none"] = grads(ex)

    # fan-out: x used several times in one graph is summed within one backward
    xv = f32(rs.randn(2, 3))
    head = f32(rs.randn(2, 3))
    fan = x * x + x + mx.sym.tanh(x)
    for req in ("write", "add"):
        ex = fan.bind(mx.cpu(), {"x": mx.nd.array(xv)}, args_grad={"x": mx.nd.ones((2, 3))},
                      grad_req=req)
        ex.forward(is_train=True)
        ex.backward(mx.nd.array(head))
        res["fan_out_" + req] = ex.grad_dict["x"].asnumpy()
    twice = mx.sym.Concat(x, x, dim=0)
    ex = twice.simple_bind(ctx=mx.cpu(), x=(2, 3))
    ex.arg_dict["x"][:] = xv
    ex.forward(is_train=True)
    ex.backward(mx.nd.array(f32(rs.randn(4, 3))))
    res["fan_out_concat_x_x"] = ex.grad_dict["x"].asnumpy()
    return res
