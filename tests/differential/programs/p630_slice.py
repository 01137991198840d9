"""slice: begin / end / step with None entries and negative values, an int begin, steps
backwards, ends past the data; names, stored attrs, JSON; forward and gradient (req write and
add); partial inference (an unknown size stays unknown, nothing back from the output); errors
by category."""
import numpy as np

from _common import err, f32, fwd_bwd, names, node_ops
from _partial import inferred


def _add_twice(mx, sym, inputs, head):
    """Gradients after two backward calls under grad_req='add'."""
    ex = sym.simple_bind(mx.cpu(), grad_req="add", **{k: v.shape for k, v in inputs.items()})
    for k, v in inputs.items():
        ex.arg_dict[k][:] = v
        ex.grad_dict[k][:] = 1.0
    for _ in range(2):
        ex.forward(is_train=True)
        ex.backward(mx.nd.array(head))
    return {k: ex.grad_dict[k].asnumpy() for k in inputs}


def run(mx):
    rs = np.random.RandomState(630)
    x = mx.sym.Variable("x")
    data = {"x": f32(rs.randn(5, 4, 3))}
    cases = [((0, 1), (2, None), None), ((None, -3), (None, None), (None, -1)),
             ((0, 1), (5, 4), (2, 2)), ((-2,), (None,), None), ((4,), (None,), (-2,)),
             ((1,), (100,), None), ((-100,), (2,), None), ((None, 3, 2), (None, 0, None),
                                                          (2, -1, -1))]
    res = {"cases": []}
    for begin, end, step in cases:
        kw = {} if step is None else {"step": step}
        s = mx.sym.slice(x, begin=begin, end=end, **kw)
        res["cases"].append({"name": s.name, "attrs": s.list_attr(),
                             "shape": s.infer_shape(x=(5, 4, 3)),
                             "run": fwd_bwd(mx, s, data, rs)})
    s = mx.sym.slice(x, begin=1, end=3, name="sl")
    res["int_begin"] = {"attrs": s.list_attr(), "shape": s.infer_shape(x=(5, 4, 3)),
                        "names": names(s), "json": node_ops(s)}
    s = mx.sym.slice(x, begin=(1, None), end=(4, None), step=(2, None))
    res["add"] = _add_twice(mx, s, data, f32(rs.randn(2, 4, 3)))
    res["nd"] = mx.nd.slice(mx.nd.array(np.arange(20).reshape(5, 4)), begin=(None, 3),
                            end=(None, 0), step=(2, -1)).asnumpy()
    res["partial"] = {
        "unknown_size": inferred(mx, mx.sym.slice(x, begin=(0, 1), end=(2, 3)), x=(0, 4)),
        "nothing_back": inferred(mx, mx.sym.slice(x, begin=(0,), end=(2,)) + mx.sym.Variable(
            "z"), z=(2, 4)),
    }
    res["errors"] = {
        "too_many_axes": err(mx, mx.sym.slice(x, begin=(0, 0, 0, 0), end=(1, 1, 1, 1))
                             .infer_shape, x=(5, 4, 3)),
        "lengths_differ": err(mx, lambda: mx.sym.slice(x, begin=(0, 0), end=(1,))
                              .infer_shape(x=(5, 4))),
        "step_zero": err(mx, lambda: mx.sym.slice(x, begin=(0,), end=(1,), step=(0,))
                         .infer_shape(x=(5, 4))),
        "missing_end": err(mx, mx.sym.slice, x, begin=(1,)),
    }
    return res
