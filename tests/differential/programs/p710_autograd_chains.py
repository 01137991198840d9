"""mx.autograd on NDArray code: gradients of several operator chains (arithmetic operators with
numbers and broadcasting, indexing and slicing, reshape / T / flatten / expand_dims, dot, sum
and mean, exp / log / sigmoid / tanh / relu, abs and negation, powers, comparisons, concat,
FullyConnected, softmax, SoftmaxOutput's loss gradient), an array used several times, a
float64 chain, head gradients and multiple heads."""
import numpy as np

CHAINS = {
    "poly": lambda mx, w: w * 2 + w * w,
    "rsub_rdiv": lambda mx, w: 3 - w / 2 + 1 / w,
    "powers": lambda mx, w: w ** 2 + 2 ** w + w ** w,
    "neg_abs": lambda mx, w: -w + abs(w - 2.5),
    "broadcast": lambda mx, w: w * mx.nd.array([[1.0], [10.0]]) + w / w.sum(),
    "getitem_row": lambda mx, w: w[0] * 3,
    "getitem_col": lambda mx, w: w[:, 1] * w[:, 0],
    "slice_rows": lambda mx, w: w[1:2] * 5,
    "element": lambda mx, w: w[1, 1] * w,
    "reshape": lambda mx, w: w.reshape((4,)) * mx.nd.array([1, 2, 3, 4]),
    "transpose": lambda mx, w: w.T * mx.nd.array([[1, 2], [3, 4]]),
    "flatten_expand": lambda mx, w: w.flatten() * 2 + w.expand_dims(0)[0],
    "dot": lambda mx, w: mx.nd.dot(w, w),
    "dot_transposed": lambda mx, w: mx.nd.dot(w, w * 2, transpose_a=True),
    "sum_mean": lambda mx, w: w.sum() * w.mean(),
    "sum_axis": lambda mx, w: mx.nd.sum(w * w, axis=1),
    "exp_log": lambda mx, w: mx.nd.log(mx.nd.exp(w) + 1),
    "sigmoid_tanh": lambda mx, w: mx.nd.sigmoid(w) * mx.nd.tanh(w),
    "relu": lambda mx, w: mx.nd.relu(w - 2.5) * w,
    "compare": lambda mx, w: (w > 2) * w + (w <= 2) * w * w,
    "concat": lambda mx, w: mx.nd.concat(w, w * 3, dim=0),
    "softmax": lambda mx, w: mx.nd.softmax(w) * mx.nd.array([[1, 2], [3, 4]]),
    "copy_astype": lambda mx, w: w.copy() * w.astype("float32"),
    "detach": lambda mx, w: w.detach() * w,
    "fluent": lambda mx, w: w.exp().sum(axis=0),
}


def _w(mx, req="write"):
    w = mx.nd.array([[1.0, 2.0], [3.0, 4.0]])
    w.attach_grad(grad_req=req)
    return w


def run(mx):
    res = {}
    for name, chain in CHAINS.items():
        w = _w(mx)
        with mx.autograd.record():
            out = chain(mx, w)
        out.backward()
        res[name] = {"out": out.asnumpy(), "grad": w.grad.asnumpy()}
    # FullyConnected and a SoftmaxOutput loss: gradients of data, weight and bias
    x = mx.nd.array([[1.0, -2.0, 0.5], [0.0, 1.0, 2.0]])
    wt = mx.nd.array([[0.1, 0.2, 0.3], [-0.3, 0.2, 0.1]])
    b = mx.nd.array([0.5, -0.5])
    for a in (x, wt, b):
        a.attach_grad()
    label = mx.nd.array([1, 0])
    with mx.autograd.record():
        fc = mx.nd.FullyConnected(x, wt, b, num_hidden=2)
        loss = mx.nd.SoftmaxOutput(fc, label)
    loss.backward()
    res["fc_softmax_output"] = {"out": loss.asnumpy(), "x": x.grad.asnumpy(),
                                "w": wt.grad.asnumpy(), "b": b.grad.asnumpy()}
    # head gradients, two heads, and float64
    w = _w(mx)
    with mx.autograd.record():
        y = w * 3
    y.backward(mx.nd.array([[1, 10], [100, 1000]]))
    res["head_grad"] = w.grad.asnumpy()
    w = _w(mx)
    with mx.autograd.record():
        h = w * 3
        k = h * h
    mx.autograd.backward([k, h], head_grads=[None, mx.nd.ones((2, 2)) * 2])
    res["two_heads"] = w.grad.asnumpy()
    d = mx.nd.array([1.0, 2.0, 3.0], dtype="float64")
    d.attach_grad()
    with mx.autograd.record():
        e = mx.nd.exp(d) * d
    e.backward()
    res["float64"] = {"grad": d.grad.asnumpy(), "dtype": np.dtype(d.grad.dtype).name}
    # two variables, one read twice by one operator
    p, q = mx.nd.array([1.0, 2.0]), mx.nd.array([3.0, 5.0])
    p.attach_grad()
    q.attach_grad()
    with mx.autograd.record():
        r = mx.nd.elemwise_mul(p, p) * q + q
    r.backward()
    res["two_variables"] = {"p": p.grad.asnumpy(), "q": q.grad.asnumpy()}
    return res
