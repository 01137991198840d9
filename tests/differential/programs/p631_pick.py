"""pick: axis (default -1, 0, a middle axis), keepdims, mode clip / wrap with indices out of
range and fractional ones; the index given with or without the kept axis; gradient to data (and
zeros to the index) under write and add; partial inference; dtype rule; errors."""
import numpy as np

from _common import err, f32, fwd_bwd, names, node_ops, types
from _partial import inferred


def run(mx):
    rs = np.random.RandomState(631)
    x, i = mx.sym.Variable("x"), mx.sym.Variable("i")
    d2 = f32(rs.randn(3, 4))
    d3 = f32(rs.randn(2, 3, 4))
    res = {"cases": {}}
    for key, params, data, index in [
            ("default", {}, d2, f32([0, 3, 2])),
            ("axis0_keepdims", {"axis": 0, "keepdims": True}, d2, f32([2, 0, 1, 1])),
            ("axis1_clip", {"axis": 1}, d3, f32([[-1, 5, 1, 0], [2, 2, 0.7, 1.6]])),
            ("axis1_wrap", {"axis": 1, "mode": "wrap"}, d3, f32([[-1, 5, 1, 0], [2, -4, 7, 3]])),
            ("index_with_kept_axis", {"axis": 1}, d2, f32([[1], [3], [0]]))]:
        s = mx.sym.pick(x, i, **params)
        res["cases"][key] = {"name": s.name, "attrs": s.list_attr(),
                             "shape": s.infer_shape(x=data.shape, i=index.shape),
                             "run": fwd_bwd(mx, s, {"x": data, "i": index}, rs)}
    s = mx.sym.pick(x, i, axis=1, name="pk")
    ex = s.simple_bind(mx.cpu(), grad_req="add", x=(3, 4), i=(3,))
    ex.arg_dict["x"][:] = d2
    ex.arg_dict["i"][:] = f32([1, 1, 3])
    ex.grad_dict["x"][:] = 1.0
    for _ in range(2):
        ex.forward(is_train=True)
        ex.backward(mx.nd.array(f32([1, 2, 3])))
    res["add"] = {"x": ex.grad_dict["x"].asnumpy(), "i": ex.grad_dict["i"].asnumpy()}
    res["names"] = names(mx.sym.pick(x, name="p2"))
    res["json"] = node_ops(mx.sym.pick(x, i, axis=0, keepdims=True, mode="wrap", name="p3"))
    res["nd_int32_index"] = mx.nd.pick(mx.nd.array(d2), mx.nd.array([0, 2, 3], dtype="int32"))
    res["nd_int32_index"] = res["nd_int32_index"].asnumpy()
    res["partial"] = {
        "index_from_data": inferred(mx, mx.sym.pick(x, i), x=(3, 4)),
        "keepdims_index": inferred(mx, mx.sym.pick(x, i, axis=0, keepdims=True), x=(3, 4)),
        "unknown_size": inferred(mx, mx.sym.pick(x, i, axis=1), x=(0, 4)),
        "nothing_from_index": inferred(mx, mx.sym.pick(x, i, axis=1), i=(3,)),
        "three_d": inferred(mx, mx.sym.pick(x, i, axis=1), x=(2, 3, 4)),
    }
    res["types"] = types(mx.sym.pick(x, i).infer_type(x="float64", i="int32"))
    res["errors"] = {
        "index_shape": err(mx, mx.sym.pick(x, i, axis=1).infer_shape, x=(3, 4), i=(4,)),
        "axis_out_of_range": err(mx, mx.sym.pick(x, i, axis=2).infer_shape, x=(3, 4)),
        "axis_none": err(mx, lambda: mx.sym.pick(x, i, axis=None).infer_shape(x=(3, 4))),
        "index_type_unknown": err(mx, mx.sym.pick(x, i).infer_type, x="float32"),
        "nd_axis_none": err(mx, lambda: mx.nd.pick(mx.nd.array(d2), mx.nd.array([1]),
                                                   axis=None).asnumpy()),
    }
    return res
