"""mx.autograd through the layers a symbolic network uses, called as mx.nd operators:
Convolution, BatchNorm (training: batch statistics, and its moving statistics after backward;
train_mode=False: the moving ones), Activation, Pooling, Flatten, FullyConnected and a
SoftmaxOutput loss; gradients of the data and of every weight, and BlockGrad stopping one;
backward(train_mode=False) of a BatchNorm recorded in training (the moving-statistics
gradient, moving statistics unchanged)."""
import numpy as np

TOLERANCE = dict(rtol=1e-4, atol=1e-5)


def _ramp(mx, shape, scale, offset=0.0):
    values = offset + scale * np.arange(int(np.prod(shape)), dtype=np.float64)
    return mx.nd.array(np.sin(values).reshape(shape))


def _net(mx, p, label, train):
    with mx.autograd.record(train_mode=train):
        conv = mx.nd.Convolution(p["x"], p["cw"], p["cb"], kernel=(3, 3), num_filter=2,
                                 pad=(1, 1))
        bn = mx.nd.BatchNorm(conv, p["gamma"], p["beta"], p["mean"], p["var"],
                             fix_gamma=False)
        act = mx.nd.Activation(bn, act_type="relu")
        # max pooling's gradient recorded with train_mode=False is wrong in MXNet 1.9.1 (its
        # MKLDNN backward has no workspace from an inference forward): avg there
        pool = mx.nd.Pooling(act, kernel=(2, 2), stride=(2, 2),
                             pool_type="max" if train else "avg")
        fc = mx.nd.FullyConnected(mx.nd.Flatten(pool), p["fw"], p["fb"], num_hidden=3)
        out = mx.nd.SoftmaxOutput(fc, label)
    out.backward()
    return out


def run(mx):
    res = {}
    for train in (True, False):
        p = {"x": _ramp(mx, (2, 1, 4, 4), 0.37), "cw": _ramp(mx, (2, 1, 3, 3), 0.61, 1.0),
             "cb": mx.nd.array([0.1, -0.2]), "gamma": mx.nd.array([1.5, 0.5]),
             "beta": mx.nd.array([0.1, 0.2]), "mean": mx.nd.array([0.05, -0.05]),
             "var": mx.nd.array([1.2, 0.8]), "fw": _ramp(mx, (3, 8), 0.23, 2.0),
             "fb": mx.nd.array([0.0, 0.1, -0.1])}
        for key in ("x", "cw", "cb", "gamma", "beta", "fw", "fb"):
            p[key].attach_grad()
        out = _net(mx, p, mx.nd.array([0, 2]), train)
        res["train" if train else "predict"] = {
            "out": out.asnumpy(),
            "grads": {k: p[k].grad.asnumpy() for k in ("x", "cw", "cb", "gamma", "beta", "fw",
                                                       "fb")},
            "moving_mean": p["mean"].asnumpy(), "moving_var": p["var"].asnumpy()}
    x = _ramp(mx, (2, 2, 2, 2), 1.0)
    g, b = mx.nd.array([1.5, 0.5]), mx.nd.array([0.1, 0.2])
    m, v = mx.nd.array([0.05, -0.05]), mx.nd.array([1.2, 0.8])
    x.attach_grad()
    g.attach_grad()
    res["batchnorm_backward_predict"] = {}
    for forward_train, backward_train in ((True, False), (False, False), (False, True)):
        with mx.autograd.record(train_mode=forward_train):
            y = mx.nd.BatchNorm(x, g, b, m, v, fix_gamma=False)
            z = (y * _ramp(mx, (2, 2, 2, 2), 0.5)).sum()
        z.backward(train_mode=backward_train)
        res["batchnorm_backward_predict"][f"{forward_train}_{backward_train}"] = {
            "x": x.grad.asnumpy(), "gamma": g.grad.asnumpy(), "moving_mean": m.asnumpy(),
            "moving_var": v.asnumpy()}
    x, w = mx.nd.array([1.0, 2.0]), mx.nd.array([3.0, 4.0])
    x.attach_grad()
    w.attach_grad()
    with mx.autograd.record():
        y = mx.nd.BlockGrad(x * w) + x * w
    y.backward()
    res["block_grad"] = {"x": x.grad.asnumpy(), "w": w.grad.asnumpy()}
    return res
