"""batch_take (MXNet's docstring and test_batch_take): a (N, M), int32 indices -> a[i, idx[i]]
clipped into range; shapes (no partial inference: a's shape is needed whenever it runs), the
int32 index dtype, values through an executor and mx.nd, no gradient under autograd, errors."""
import numpy as np

from _common import err, inferred, types


def run(mx):
    a, i, b = mx.sym.Variable("a"), mx.sym.Variable("i"), mx.sym.Variable("b")
    s = mx.sym.batch_take(a, i)
    found = {"listing": [s.name, s.list_arguments(), s.list_outputs(),
                         mx.sym.batch_take(a, i, name="bt").list_outputs(),
                         mx.sym.batch_take(a).list_arguments(),
                         mx.sym.batch_take().list_arguments()]}
    y = s * b
    found["shapes"] = {
        "full": inferred(mx, s.infer_shape, a=(3, 4), i=(3,)),
        "column": inferred(mx, s.infer_shape, a=(3, 4), i=(3, 1)),
        "row": inferred(mx, s.infer_shape, a=(3, 4), i=(1, 3)),
        "3d": inferred(mx, s.infer_shape, a=(2, 3, 4), i=(6,)),
        "only_a": inferred(mx, s.infer_shape_partial, a=(3, 4)),
        "only_i": inferred(mx, s.infer_shape_partial, i=(3,)),
        "nothing": inferred(mx, s.infer_shape_partial),
        "count": inferred(mx, s.infer_shape, a=(3, 4), i=(2,)),
        "3d_count": inferred(mx, s.infer_shape, a=(2, 3, 4), i=(2,)),
        "1d": inferred(mx, s.infer_shape, a=(3,), i=(3,)),
        "unknown_rows": inferred(mx, s.infer_shape_partial, a=(0, 4), i=(3,)),
        "unknown_index": inferred(mx, s.infer_shape_partial, a=(3, 4), i=(0,)),
        "from_consumer": inferred(mx, y.infer_shape_partial, b=(3,)),
        "from_consumer_and_a": inferred(mx, y.infer_shape_partial, b=(3,), a=(3, 5)),
        "other_branch": inferred(mx, mx.sym.Group([s, b * 2]).infer_shape_partial, b=(2,)),
        "with_consumer": inferred(mx, y.infer_shape, a=(3, 5), i=(3,)),
    }
    found["types"] = {
        "a": types(s.infer_type(a="float32")),
        "both": types(s.infer_type(a="float64", i="int32")),
        "only_i": types(s.infer_type(i="int32")),
        "only_i_partial": types(s.infer_type_partial(i="int32")),
        "int_a": types(s.infer_type(a="int32")),
        "half": types(s.infer_type(a="float16")),
        "uint8": types(s.infer_type(a="uint8")),
        "from_consumer": types(y.infer_type(b="float64")),
        "float_index": err(mx, s.infer_type, a="float32", i="float32"),
        "int64_index": err(mx, s.infer_type, a="float32", i="int64"),
    }
    found["bind_a_dtype_unknown"] = err(mx, s.simple_bind, mx.cpu(), a=(3, 4), i=(3,),
                                        grad_req="null", type_dict={"i": "int32"})
    ex = s.simple_bind(mx.cpu(), a=(3, 4), i=(3,), grad_req="null",
                       type_dict={"a": "float32", "i": "int32"})
    ex.arg_dict["a"][:] = np.arange(12).reshape(3, 4)
    ex.arg_dict["i"][:] = np.array([-2, 5, 2])
    found["forward_clip"] = [ex.arg_dict["i"].dtype.__name__, ex.forward()[0].asnumpy()]
    ex.arg_dict["i"][:] = np.array([1.7, -0.5, 3.9])
    found["forward_fraction"] = [ex.forward()[0].asnumpy(), ex.arg_dict["i"].asnumpy()]
    found["bind_float_index"] = err(mx, s.simple_bind, mx.cpu(), a=(3, 4), i=(3,),
                                    grad_req="null")
    found["bind_null"] = s.bind(mx.cpu(), {"a": mx.nd.ones((3, 4)),
                                           "i": mx.nd.zeros((3,), dtype="int32")},
                                args_grad={"a": mx.nd.ones((3, 4))},
                                grad_req="null").forward()[0].asnumpy()
    x = mx.nd.array(np.arange(6).reshape(3, 2))
    idx = mx.nd.array([0, 1, 0], dtype="int32")
    out = mx.nd.zeros((3,))
    found["nd"] = {
        "doc": mx.nd.batch_take(x, idx).asnumpy(),
        "dtype": mx.nd.batch_take(x, idx).dtype.__name__,
        "int_a": mx.nd.batch_take(mx.nd.array(np.arange(6).reshape(3, 2), dtype="int32"),
                                  mx.nd.array([0, 1, 9], dtype="int32")).asnumpy(),
        "column_index": mx.nd.batch_take(x, mx.nd.array([[0], [1], [1]],
                                                        dtype="int32")).shape,
        "keywords": mx.nd.batch_take(a=x, indices=idx).asnumpy(),
        "out_is_out": mx.nd.batch_take(x, idx, out=out) is out,
        "out": out.asnumpy(),
        "float_index": err(mx, mx.nd.batch_take, x, mx.nd.array([0, 1, 0])),
        "int64_index": err(mx, mx.nd.batch_take, x, mx.nd.array([0, 1, 1], dtype="int64")),
        "count": err(mx, mx.nd.batch_take, x, mx.nd.array([0, 1], dtype="int32")),
    }
    # no gradient: autograd's backward refuses it; a BlockGrad after it, or a head that does
    # not reach it, is fine
    g = mx.nd.array(np.arange(6).reshape(3, 2))
    g.attach_grad()
    with mx.autograd.record():
        taken = mx.nd.batch_take(g, idx)
    found["autograd"] = [err(mx, taken.backward), g.grad.asnumpy()]
    with mx.autograd.record():
        blocked = mx.nd.BlockGrad(mx.nd.batch_take(g, idx)) + g.sum()
    blocked.backward()
    found["autograd_blocked"] = g.grad.asnumpy()
    with mx.autograd.record():
        mx.nd.batch_take(g, idx)
        other = g * 2
    other.backward()
    found["autograd_other_head"] = g.grad.asnumpy()
    return found
