"""_slice_assign / _slice_assign_scalar (also _crop_assign / _crop_assign_scalar) as MXNet
reaches them: mx.sym._internal, mx.nd._internal and NDArray.slice_assign /
slice_assign_scalar (their docstring examples); shapes, dtypes, values, in place with out=,
no gradient, errors."""
import numpy as np

from _common import err, inferred, types


def run(mx):
    lhs, rhs, d = mx.sym.Variable("lhs"), mx.sym.Variable("rhs"), mx.sym.Variable("d")
    internal = mx.sym._internal
    sa = internal._slice_assign(lhs, rhs, begin=(0, 1), end=(2, 3))
    sas = internal._slice_assign_scalar(d, begin=(0, 1), end=(2, 3), scalar=7)
    found = {"listing": [sa.name, sa.list_arguments(), sa.list_outputs(), sas.name,
                         sas.list_arguments(), sas.list_outputs(),
                         internal._crop_assign(lhs, rhs, begin=(0,), end=(1,)).name,
                         internal._crop_assign_scalar(d, begin=(0,), end=(1,)).name,
                         internal._slice_assign(begin=(0,), end=(1,)).list_arguments(),
                         internal._slice_assign(lhs, rhs, (0,), (1,)).list_attr(),
                         internal._slice_assign_scalar(d, 3.5, (0,), (1,)).list_attr(),
                         internal._slice_assign_scalar(d, begin=(0,), end=(1,)).list_attr()]}
    b = mx.sym.Variable("b")
    found["shapes"] = {
        "full": inferred(mx, sa.infer_shape, lhs=(3, 4)),
        "partial": inferred(mx, sa.infer_shape_partial, lhs=(3, 4)),
        "only_rhs": inferred(mx, sa.infer_shape_partial, rhs=(2, 2)),
        "nothing": inferred(mx, sa.infer_shape_partial),
        "unknown_rows": inferred(mx, sa.infer_shape_partial, lhs=(0, 4)),
        "given_rhs": inferred(mx, sa.infer_shape, lhs=(3, 4), rhs=(2, 2)),
        "step": inferred(mx, internal._slice_assign(lhs, rhs, begin=(0, None), end=(2, None),
                                                   step=(1, -1)).infer_shape, lhs=(3, 4)),
        "past_end": inferred(mx, internal._slice_assign(lhs, rhs, begin=(0,), end=(9,))
                            .infer_shape, lhs=(3, 4)),
        "bad_rhs": inferred(mx, sa.infer_shape, lhs=(3, 4), rhs=(2, 3)),
        "too_many_axes": inferred(mx, internal._slice_assign(lhs, rhs, begin=(0, 0, 0),
                                                            end=(1, 1, 1)).infer_shape,
                                 lhs=(3, 4)),
        "scalar": inferred(mx, sas.infer_shape, d=(3, 4)),
        "scalar_unknown_rows": inferred(mx, sas.infer_shape_partial, d=(0, 4)),
        "scalar_nothing": inferred(mx, sas.infer_shape_partial),
        "scalar_from_consumer": inferred(mx, (sas * b).infer_shape_partial, b=(3, 4)),
        "scalar_past_end": inferred(mx, internal._slice_assign_scalar(d, begin=(0,), end=(9,))
                                   .infer_shape, d=(3, 4)),
    }
    found["types"] = {
        "lhs": types(sa.infer_type(lhs="float64")),
        "rhs": types(sa.infer_type(rhs="float64")),
        "differ": err(mx, sa.infer_type, lhs="float64", rhs="float32"),
        "scalar_int": types(sas.infer_type(d="int32")),
    }
    # minisym checks begin / end / step when the symbol is made, MXNet at inference
    found["param_errors"] = [
        err(mx, internal._slice_assign, lhs, rhs),
        err(mx, lambda: internal._slice_assign(lhs, rhs, begin=(0, 0), end=(1,))
            .infer_shape(lhs=(3, 4))),
        err(mx, lambda: internal._slice_assign(lhs, rhs, begin=(0,), end=(1,), step=(0,))
            .infer_shape(lhs=(3, 4))),
    ]
    ex = sa.simple_bind(mx.cpu(), lhs=(3, 4), grad_req="null")
    ex.arg_dict["lhs"][:] = np.arange(12).reshape(3, 4)
    ex.arg_dict["rhs"][:] = -np.ones((2, 2))
    found["forward"] = [ex.forward()[0].asnumpy(), ex.arg_dict["lhs"].asnumpy()]
    step = internal._slice_assign_scalar(d, begin=(None, None), end=(None, None), step=(2, -2),
                                         scalar=7)
    ex = step.simple_bind(mx.cpu(), d=(3, 4), grad_req="null")
    ex.arg_dict["d"][:] = np.arange(12).reshape(3, 4)
    found["forward_scalar"] = [ex.forward()[0].asnumpy(), ex.arg_dict["d"].asnumpy()]
    # MXNet's docstring examples: in place, returning the array itself
    x = mx.nd.ones((2, 2, 2))
    y = x.slice_assign_scalar(0, (0, 0, None), (1, 1, None), (None, None, None))
    found["doc_scalar"] = [y is x, y.asnumpy(), x.asnumpy()]
    x = mx.nd.ones((2, 2, 2))
    assigned = mx.nd.zeros((1, 1, 2))
    y = x.slice_assign(assigned, (0, 0, None), (1, 1, None), (None, None, None))
    found["doc"] = [y is x, y.asnumpy(), x.asnumpy()]
    x = mx.nd.ones((3, 4))
    z = mx.nd._internal._slice_assign(x, mx.nd.zeros((1, 2)), begin=(1, 1), end=(2, 3))
    found["nd_new_array"] = [z is x, z.asnumpy(), x.asnumpy()]
    z = mx.nd._internal._slice_assign_scalar(x, 5, begin=(1,), end=(2,))
    found["nd_scalar"] = [z.asnumpy(), x.asnumpy(), mx.nd._internal._slice_assign_scalar(
        x, scalar=5, begin=(1,), end=(2,), step=(1,)).asnumpy()]
    xi = mx.nd.ones((3, 4), dtype="int32")
    found["nd_int"] = [
        mx.nd._internal._slice_assign_scalar(xi, 2.7, begin=(0,), end=(1,)).asnumpy(),
        mx.nd._internal._slice_assign_scalar(xi, -2.7, begin=(0,), end=(1,)).asnumpy(),
        mx.nd._internal._crop_assign_scalar(xi, 4, begin=(0,), end=(1,)).dtype.__name__]
    found["nd_empty_slice"] = mx.nd._internal._slice_assign_scalar(x, 1, begin=(2,),
                                                                  end=(1,)).asnumpy()
    src, o = mx.nd.ones((3, 4)), mx.nd.zeros((3, 4))
    found["nd_out"] = [mx.nd._internal._slice_assign_scalar(src, 9, begin=(0,), end=(1,),
                                                            out=o) is o,
                       src.asnumpy(), o.asnumpy()]
    x = mx.nd.ones((3, 4))
    found["nd_steps"] = [x.slice_assign(mx.nd.zeros((3, 2)), (None, 0), (None, None),
                                        (None, 2)).asnumpy(),
                         x.slice_assign_scalar(4, (None, -1), (None, None),
                                               (None, -1)).asnumpy()]
    found["nd_errors"] = [
        err(mx, mx.nd._internal._slice_assign, x, mx.nd.zeros((1, 3)), begin=(1, 1),
            end=(2, 3)),
        err(mx, mx.nd._internal._slice_assign, x, mx.nd.zeros((1, 2), dtype="float64"),
            begin=(1, 1), end=(2, 3)),
    ]
    # no gradient: autograd's backward refuses it
    g = mx.nd.ones((3, 4))
    g.attach_grad()
    with mx.autograd.record():
        out = mx.nd._internal._slice_assign_scalar(g * 1, 5, begin=(1,), end=(2,))
    found["autograd"] = [err(mx, out.backward), g.grad.asnumpy()]
    with mx.autograd.record():
        out = mx.nd._internal._slice_assign(g * 1, mx.nd.zeros((1, 4)), begin=(1,), end=(2,))
    found["autograd_rhs"] = err(mx, out.backward)
    return found
