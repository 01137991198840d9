"""Adam on given NDArrays: the bias correction folded into the learning rate with t counted per
index, weight decay added to the gradient before clipping, rescale_grad, and the (mean, var)
state after each step."""
import numpy as np

WEIGHT = [1.0, -2.0, 3.0, 0.5]
GRADS = [[10.0, -0.5, 0.2, -3.0], [-4.0, 2.0, 0.1, 6.0], [0.3, -8.0, 1.5, -0.2],
         [1.0, 1.0, -1.0, 0.0]]


def steps(mx, **kwargs):
    opt = mx.optimizer.Adam(**kwargs)
    weight = mx.nd.array(WEIGHT)
    mean, var = opt.create_state(0, weight)
    trace = {"weights": [], "means": [], "vars": []}
    for grad in GRADS:
        opt.update(0, weight, mx.nd.array(grad), (mean, var))
        trace["weights"].append(weight.asnumpy())
        trace["means"].append(mean.asnumpy())
        trace["vars"].append(var.asnumpy())
    return trace


def per_index_t(mx):
    """Index 1 starts later: its bias correction uses its own count, not num_update."""
    opt = mx.optimizer.Adam(learning_rate=0.1)
    w0, w1 = mx.nd.array(WEIGHT), mx.nd.array(WEIGHT)
    s0, s1 = opt.create_state(0, w0), opt.create_state(1, w1)
    for grad in GRADS[:3]:
        opt.update(0, w0, mx.nd.array(grad), s0)
    opt.update(1, w1, mx.nd.array(GRADS[0]), s1)
    return {"w0": w0.asnumpy(), "w1": w1.asnumpy(), "num_update": opt.num_update,
            "counts": sorted(opt._index_update_count.items())}


def run(mx):
    return {
        "defaults": steps(mx),
        "lr": steps(mx, learning_rate=0.1),
        "betas_eps": steps(mx, learning_rate=0.05, beta1=0.5, beta2=0.9, epsilon=1e-3),
        "wd": steps(mx, learning_rate=0.1, wd=0.1),
        "rescale": steps(mx, learning_rate=0.1, rescale_grad=0.25),
        "clip_wd_rescale": steps(mx, learning_rate=0.1, wd=0.5, rescale_grad=0.5,
                                 clip_gradient=1.0),
        "per_index_t": per_index_t(mx),
        "default_lr": mx.optimizer.Adam().learning_rate,
    }
