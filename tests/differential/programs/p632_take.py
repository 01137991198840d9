"""take: axis 0 / 1 / -1, 2-D indices, mode clip / wrap / raise (indices out of range,
negative, fractional); a's gradient accumulating rows taken twice (write and add), zeros to the
indices (grad_req 'add' on them raises); partial inference (a's unknown sizes, indices unknown, a unknown raises); dtype rule;
errors by category."""
import numpy as np

from _common import err, f32, fwd_bwd, names, node_ops, types
from _partial import inferred


def run(mx):
    rs = np.random.RandomState(632)
    a, i = mx.sym.Variable("a"), mx.sym.Variable("i")
    w = f32(np.arange(12).reshape(3, 4))
    res = {"cases": {}}
    for key, params, data, index in [
            ("default_2d_indices", {}, w, f32([[0, 2], [1, 1]])),
            ("clip", {}, w, f32([-1, 5, 1, 1, 0.7, -0.5, 2.9])),
            ("wrap", {"mode": "wrap"}, w, f32([-1, 5, 1, 1, -4, -1.5, 3.5])),
            ("raise_in_range", {"mode": "raise"}, w, f32([2, 0, 2])),
            ("axis1_clip", {"axis": 1}, w, f32([3, 0, 9, -2])),
            ("axis1_wrap", {"axis": 1, "mode": "wrap"}, w, f32([5, -1, 1])),
            ("axis_last_3d", {"axis": -1}, f32(rs.randn(2, 3, 4)), f32([[3, 0], [1, 1]]))]:
        s = mx.sym.take(a, i, **params)
        res["cases"][key] = {"name": s.name, "attrs": s.list_attr(),
                             "shape": s.infer_shape(a=data.shape, i=index.shape),
                             "run": fwd_bwd(mx, s, {"a": data, "i": index}, rs)}
    s = mx.sym.take(a, i, axis=0, name="tk")
    head = mx.nd.array(f32(np.arange(16).reshape(4, 4)))

    def add_twice(index_req):
        ex = s.simple_bind(mx.cpu(), grad_req={"a": "add", "i": index_req}, a=(3, 4), i=(4,))
        ex.arg_dict["a"][:] = w
        ex.arg_dict["i"][:] = f32([1, 1, 2, 1])
        ex.grad_dict["a"][:] = 0.5
        for _ in range(2):
            ex.forward(is_train=True)
            ex.backward(head)
        return ex.grad_dict["a"].asnumpy()

    res["add"] = add_twice("null")
    res["add_index_write"] = add_twice("write")
    res["add_to_index"] = err(mx, add_twice, "add")
    res["names"] = names(mx.sym.take(a, name="t2"))
    res["json"] = node_ops(mx.sym.take(a, i, axis=1, mode="wrap", name="t3"))
    res["nd_int32"] = mx.nd.take(mx.nd.array(w), mx.nd.array([2, 0], dtype="int32")).asnumpy()
    res["partial"] = {
        "both": inferred(mx, mx.sym.take(a, i, axis=1), a=(3, 4), i=(2, 5)),
        "a_unknown_size": inferred(mx, mx.sym.take(a, i), a=(0, 4), i=(2,)),
        "a_unknown_other": inferred(mx, mx.sym.take(a, i), a=(3, 0), i=(2,)),
        "indices_unknown": inferred(mx, mx.sym.take(a, i), a=(3, 4)),
        "a_unknown": inferred(mx, mx.sym.take(a, i), i=(2,)),
    }
    res["types"] = types(mx.sym.take(a, i).infer_type(a="float64", i="int32"))
    res["errors"] = {
        "axis_out_of_range": err(mx, mx.sym.take(a, i, axis=2).infer_shape, a=(3, 4), i=(2,)),
        "raise_out_of_range": err(mx, lambda: mx.nd.take(mx.nd.array(w), mx.nd.array([-1, 2]),
                                                         mode="raise").asnumpy()),
        "bad_mode": err(mx, mx.sym.take, a, i, mode="fold"),
        "index_type_unknown": err(mx, mx.sym.take(a, i).infer_type, a="float32"),
    }
    return res
