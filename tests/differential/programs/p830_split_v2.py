"""split_v2 (mx.sym / mx.nd / fluent, over _split_v2; MXNet's docstring and test_split_v2):
equal and unequal sections, split points, squeeze_axis, shapes flowing back to data, dtypes,
auto-names, values and gradients through an executor and autograd, and the errors."""
import numpy as np

from _common import err, fwd_bwd, inferred, types


def _shapes(mx, sym, partial=False, **shapes):
    """infer_shape(_partial) as lists, or what it raised."""
    return inferred(mx, sym.infer_shape_partial if partial else sym.infer_shape, **shapes)


def run(mx):
    x = mx.sym.Variable("x")
    rng = np.random.RandomState(0)
    data = rng.uniform(-1, 1, (3, 7, 2)).astype(np.float32)
    found = {}
    syms = {
        "sections": mx.sym.split_v2(x, 3, axis=1),
        "points": mx.sym.split_v2(x, (2, 5), axis=1),
        "one_point": mx.sym.split_v2(x, (1,), axis=0),
        "squeeze": mx.sym.split_v2(x, 3, axis=0, squeeze_axis=True),
        "last_axis": mx.sym.split_v2(x, 2, axis=-1),
        "positional": mx.sym.split_v2(x, (3,), 1, False),
        "whole": mx.sym.split_v2(x, ()),
        "one": mx.sym.split_v2(x, 1, axis=1),
        "internal": mx.sym._internal._split_v2(x, indices=(0, 4), axis=1),
        "internal_sections": mx.sym._internal._split_v2(x, sections=2, indices=(), axis=2),
        "fluent": x.split_v2(7, axis=1),
    }
    found["outputs"] = {k: s.list_outputs() for k, s in syms.items()}
    found["names"] = [syms["sections"].name, syms["sections"][1].name,
                      syms["sections"].list_arguments(),
                      syms["sections"].get_internals().list_outputs()]
    found["json_attrs"] = {k: s.list_attr() for k, s in syms.items()}
    found["shapes"] = {k: _shapes(mx, s, x=data.shape) for k, s in syms.items()}
    found["fwd_bwd"] = {k: fwd_bwd(mx, s, {"x": data}, rng)
                        for k, s in syms.items() if k not in ("whole", "one")}
    found["fwd_bwd_one"] = fwd_bwd(mx, syms["one"], {"x": data}, rng)
    # unequal sections from an int: 7 in 3 is 3, 2, 2 (empty parts are left out: minisym reads
    # a 0 size as unknown)
    found["unequal"] = [_shapes(mx, mx.sym.split_v2(x, n, axis=1), x=(2, 7)) for n in (3, 4, 7)]
    # MXNet's docstring: x (3, 2, 1) split on axis 1 in 2, on axis 0 in 3, at (1,), squeezed
    doc = mx.nd.array([[[1], [2]], [[3], [4]], [[5], [6]]])
    found["docstring"] = [[p.asnumpy() for p in mx.nd.split_v2(doc, 2, axis=1)],
                          [p.asnumpy() for p in mx.nd.split_v2(doc, 3, axis=0)],
                          [p.asnumpy() for p in mx.nd.split_v2(doc, (1,), axis=0)],
                          [p.asnumpy() for p in mx.nd.split_v2(doc, 3, axis=0,
                                                               squeeze_axis=True)]]
    found["squeeze_2d"] = _shapes(mx, mx.sym.split_v2(x, 3, axis=1, squeeze_axis=True), x=(2, 3))
    # partial inference: other sizes stay unknown, data's sizes come back from the outputs
    found["partial"] = _shapes(mx, syms["sections"], partial=True, x=(0, 7))
    found["partial_nothing"] = _shapes(mx, syms["sections"], partial=True)
    a, b = mx.sym.Variable("a"), mx.sym.Variable("b")
    pts = mx.sym.split_v2(x, (2,), axis=1)
    both = mx.sym.Group([pts[0] * a, pts[1] * b])
    found["back_both"] = _shapes(mx, both, partial=True, a=(3, 2), b=(3, 5))
    found["back_first"] = _shapes(mx, both, partial=True, a=(3, 2))
    sq = mx.sym.split_v2(x, 2, axis=1, squeeze_axis=True)
    found["back_squeeze"] = _shapes(mx, mx.sym.Group([sq[0] * a, sq[1] * b]), partial=True,
                                    x=(0, 2, 0), a=(3, 4))
    eq = mx.sym.split_v2(x, 2, axis=1)
    eq_both = mx.sym.Group([eq[0] * a, eq[1] * b])
    found["back_equal"] = _shapes(mx, eq_both, partial=True, x=(0, 4, 0), a=(3, 2, 4))
    found["back_from_second"] = _shapes(mx, eq_both, partial=True, x=(0, 5, 0), b=(3, 2, 4))
    found["one_output_of_three"] = _shapes(mx, mx.sym.split_v2(x, 3)[0], x=(6, 2))
    # dtypes: data's dtype must be known (no inference from the outputs)
    found["types"] = types(syms["points"].infer_type(x="float64"))
    found["types_int"] = types(syms["sections"].infer_type(x="int32"))
    found["type_errors"] = [err(mx, syms["points"].infer_type),
                            err(mx, syms["points"].infer_type_partial)]
    # errors
    found["errors"] = {
        "axis_unknown": err(mx, syms["points"].infer_shape, x=(3, 0, 2)),
        "axis_unknown_partial": err(mx, syms["points"].infer_shape_partial, x=(3, 0, 2)),
        "axis_unknown_via_output": err(mx, both.infer_shape_partial, x=(3, 0, 4), a=(3, 2, 4)),
        "point_past_end": err(mx, mx.sym.split_v2(x, (2, 9), axis=1).infer_shape, x=(2, 7)),
        "points_decrease": err(mx, mx.sym.split_v2(x, (5, 2), axis=1).infer_shape, x=(2, 7)),
        "negative_point": err(mx, mx.sym.split_v2(x, (-1,)).infer_shape, x=(3, 2)),
        "squeeze_not_1": err(mx, mx.sym.split_v2(x, 3, axis=1, squeeze_axis=True).infer_shape,
                             x=(2, 4)),
        "axis_too_big": err(mx, mx.sym.split_v2(x, 3, axis=2).infer_shape, x=(2, 7)),
        "axis_too_small": err(mx, mx.sym.split_v2(x, 3, axis=-3).infer_shape, x=(2, 7)),
        "first_point_not_0": err(mx, mx.sym._internal._split_v2(x, indices=(1, 2),
                                                               axis=0).infer_shape, x=(3, 5)),
        "list": err(mx, mx.sym.split_v2, x, [1, 2]),
        "numpy_int": err(mx, mx.sym.split_v2, x, np.int64(2)),
        "bool": err(mx, mx.sym.split_v2, x, True),
        "float_point": err(mx, mx.sym.split_v2, x, (1.5,)),
        "name": err(mx, mx.sym.split_v2, x, 2, name="sp"),
        "no_indices": err(mx, mx.sym._internal._split_v2, x, axis=0),
    }
    # mx.nd: equal sections computed in Python (a ValueError otherwise), split points
    nd = mx.nd.array(np.arange(12).reshape(3, 4))
    found["nd"] = {
        "sections": [o.asnumpy() for o in mx.nd.split_v2(nd, 2, axis=1)],
        "points": [o.asnumpy() for o in mx.nd.split_v2(nd, (1, 3), axis=1)],
        "rows": [o.asnumpy() for o in mx.nd.split_v2(nd, 3)],
        "squeeze": [o.asnumpy() for o in mx.nd.split_v2(nd, 3, squeeze_axis=True)],
        "one_is_an_array": type(mx.nd.split_v2(nd, 1)).__name__,
        "one_point_list": type(mx.nd.split_v2(nd, (1,))).__name__,
        "negative_axis": mx.nd.split_v2(nd, 2, axis=-1)[0].shape,
        "fluent": [o.shape for o in nd.split_v2(2, axis=1)],
        "internal": [o.shape for o in mx.nd._internal._split_v2(nd, indices=(0, 1), axis=0)],
        "internal_sections": [o.shape for o in mx.nd._internal._split_v2(nd, sections=3,
                                                                         indices=(), axis=1)],
        "int32": [o.asnumpy() for o in mx.nd.split_v2(mx.nd.array(np.arange(6),
                                                                  dtype="int32"), 3)],
        "unequal": err(mx, mx.nd.split_v2, nd, 2, axis=0),
        "four_rows": err(mx, mx.nd.split_v2, nd, 4),
        "list": err(mx, mx.nd.split_v2, nd, [1], axis=0),
        "float": err(mx, mx.nd.split_v2, nd, 2.0),
        "axis_out": err(mx, mx.nd.split_v2, nd, 2, axis=5),
        "decrease": err(mx, mx.nd.split_v2, nd, (2, 1)),
    }
    g = mx.nd.array(np.arange(12).reshape(3, 4))
    g.attach_grad()
    with mx.autograd.record():
        parts = mx.nd.split_v2(g, (1,), axis=1)
        y = (parts[0] * 2).sum() + (parts[1] * 3).sum()
    y.backward()
    found["autograd"] = g.grad.asnumpy()
    return found
