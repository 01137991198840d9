"""The exception classes of mx.autograd's mistakes: backward twice without retain_graph,
backward of an array computed outside record(), of one computed from arrays without
attach_grad, when every input has grad_req 'null'; autograd.grad for an array without
attach_grad; head_grads of another length; a bad grad_req; writing into a recorded array
inside record() (x[:] =, +=, out=), and what is allowed there (writing into a variable or a
fresh array)."""
from _common import err


def run(mx):
    res = {}
    x = mx.nd.array([1.0, 2.0])
    x.attach_grad()
    with mx.autograd.record():
        y = x * 2
    y.backward()
    res["backward_twice"] = err(mx, y.backward)
    res["grad_after_failed_backward"] = x.grad.asnumpy()
    z = x * 3
    res["outside_record"] = err(mx, z.backward)
    a = mx.nd.array([1.0, 2.0])
    with mx.autograd.record():
        b = a * 2
    res["no_attach_grad"] = err(mx, b.backward)
    n = mx.nd.array([1.0, 2.0])
    n.attach_grad(grad_req="null")
    with mx.autograd.record():
        m = n * 2
    res["only_null"] = err(mx, m.backward)
    with mx.autograd.record():
        e = x * x
    res["grad_of_unattached"] = err(mx, mx.autograd.grad, e, [mx.nd.ones(2)])
    with mx.autograd.record():
        e = x * x
    res["head_grads_length"] = err(mx, mx.autograd.backward, [e],
                                   head_grads=[mx.nd.ones(2), mx.nd.ones(2)])
    res["bad_grad_req"] = err(mx, mx.nd.ones(2).attach_grad, grad_req="sum")
    with mx.autograd.record():
        r = x * 2
        res["setitem_recorded"] = err(mx, r.__setitem__, slice(None), 5)
        res["iadd_recorded"] = err(mx, r.__iadd__, 1)
        fresh = mx.nd.ones(2)
        res["setitem_fresh"] = err(mx, fresh.__setitem__, slice(None), 5)
        res["relu_out_fresh"] = err(mx, mx.nd.relu, x, out=fresh)
        res["relu_out_recorded"] = err(mx, mx.nd.relu, x, out=r)
        q = x * 1
    q.backward()
    res["after_errors"] = x.grad.asnumpy()
    with mx.autograd.record():
        r = x * 2
    r += 1  # outside record(): allowed, the recorded graph is unchanged
    r.backward()
    res["iadd_outside_record"] = {"r": r.asnumpy(), "grad": x.grad.asnumpy()}
    return res
