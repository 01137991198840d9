"""mx.sym._internal._identity_with_attr_like_rhs (MXNet's test_backward_infer): out = lhs with
lhs, rhs and out sharing one shape and dtype, shapes flowing both ways; values, the gradients
(rhs gets zeros, 'add' keeps what it held), mx.nd and autograd, errors."""
import numpy as np

from _common import err, fwd_bwd, inferred, types


def run(mx):
    lhs, rhs = mx.sym.Variable("lhs"), mx.sym.Variable("rhs")
    like = mx.sym._internal._identity_with_attr_like_rhs
    s = like(lhs, rhs)
    found = {"listing": [s.name, s.list_arguments(), s.list_outputs(),
                         like(lhs).list_arguments(), like().list_arguments(),
                         like(lhs, rhs, name="idl").list_outputs()]}
    found["shapes"] = {
        "lhs": inferred(mx, s.infer_shape, lhs=(2, 3)),
        "rhs": inferred(mx, s.infer_shape, rhs=(2, 3)),
        "halves": inferred(mx, s.infer_shape_partial, lhs=(2, 0), rhs=(0, 3)),
        "differ": inferred(mx, s.infer_shape, lhs=(2, 3), rhs=(3, 2)),
    }
    found["types"] = {
        "rhs": types(s.infer_type(rhs="float64")),
        "lhs": types(s.infer_type(lhs="int32")),
        "differ": err(mx, s.infer_type, lhs="int32", rhs="float32"),
    }
    # MXNet's test_backward_infer: the FullyConnected weight's shape reaches w through rhs
    w, wshift = mx.sym.Variable("weight"), mx.sym.Variable("wshift", shape=(1,))
    wt = like(mx.sym.broadcast_add(w, wshift), w)
    net = mx.sym.FullyConnected(data=mx.sym.Variable("data"), weight=wt, num_hidden=11,
                                no_bias=True)
    found["backward_infer"] = [net.list_arguments(), inferred(mx, net.infer_shape,
                                                             data=(7, 100))]
    rng = np.random.RandomState(0)
    inputs = {"lhs": rng.uniform(-1, 1, (2, 3)).astype(np.float32),
              "rhs": np.full((2, 3), 5, np.float32)}
    found["fwd_bwd"] = fwd_bwd(mx, s, inputs, rng)
    ex = s.simple_bind(mx.cpu(), lhs=(2, 3), grad_req="add")
    ex.grad_dict["rhs"][:] = 3
    ex.grad_dict["lhs"][:] = 1
    ex.forward(is_train=True)
    ex.backward(mx.nd.ones((2, 3)))
    found["add"] = [ex.grad_dict["lhs"].asnumpy(), ex.grad_dict["rhs"].asnumpy()]
    a, b = mx.nd.array(np.arange(6).reshape(2, 3)), mx.nd.zeros((2, 3))
    a.attach_grad()
    b.attach_grad()
    with mx.autograd.record():
        y = mx.nd._internal._identity_with_attr_like_rhs(a, b) * 2
    y.backward()
    found["autograd"] = [y.asnumpy(), a.grad.asnumpy(), b.grad.asnumpy()]
    found["nd"] = [
        mx.nd._internal._identity_with_attr_like_rhs(
            mx.nd.array([[1, 2]], dtype="int32"), mx.nd.zeros((1, 2), dtype="int32")).dtype
        .__name__,
        err(mx, mx.nd._internal._identity_with_attr_like_rhs, a, mx.nd.zeros((3, 2))),
        err(mx, mx.nd._internal._identity_with_attr_like_rhs, a,
            mx.nd.zeros((2, 3), dtype="float64")),
    ]
    return found
