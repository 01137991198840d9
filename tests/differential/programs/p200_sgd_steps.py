"""SGD on given NDArrays, several steps each: plain, momentum (the state MXNet keeps is the
negative step), weight decay, rescale_grad, and clip_gradient (applied to rescale_grad * grad,
not to the raw gradient, and never to the weight-decay term; 0 or negative means no clipping)."""
import numpy as np

WEIGHT = [1.0, -2.0, 3.0, 0.5]
GRADS = [[10.0, -0.5, 0.2, -3.0], [-4.0, 2.0, 0.1, 6.0], [0.3, -8.0, 1.5, -0.2]]


def steps(mx, momentum=0.0, **kwargs):
    opt = mx.optimizer.SGD(momentum=momentum, **kwargs)
    weight = mx.nd.array(WEIGHT)
    state = opt.create_state(0, weight)
    trace = {"state_is_none": state is None, "weights": [], "states": []}
    for grad in GRADS:
        opt.update(0, weight, mx.nd.array(grad), state)
        trace["weights"].append(weight.asnumpy())
        if state is not None:
            trace["states"].append(state.asnumpy())
    trace["num_update"] = opt.num_update
    return trace


def run(mx):
    return {
        "plain": steps(mx, learning_rate=0.1),
        "default_lr": steps(mx),
        "wd": steps(mx, learning_rate=0.1, wd=0.01),
        "rescale": steps(mx, learning_rate=0.1, rescale_grad=0.25),
        "clip": steps(mx, learning_rate=0.1, clip_gradient=1.0),
        "clip_after_rescale": steps(mx, learning_rate=0.1, rescale_grad=0.5, clip_gradient=1.0),
        "clip_not_wd": steps(mx, learning_rate=0.1, wd=0.5, clip_gradient=0.1),
        "clip_zero_is_off": steps(mx, learning_rate=0.1, clip_gradient=0.0),
        "clip_negative_is_off": steps(mx, learning_rate=0.1, clip_gradient=-1.0),
        "momentum": steps(mx, momentum=0.9, learning_rate=0.1),
        "momentum_wd_rescale_clip": steps(mx, momentum=0.5, learning_rate=0.05, wd=0.1,
                                          rescale_grad=0.5, clip_gradient=2.0),
        "float64_weight": _float64(mx),
    }


def _float64(mx):
    opt = mx.optimizer.SGD(learning_rate=0.1, momentum=0.9)
    weight = mx.nd.array(np.array(WEIGHT), dtype="float64")
    state = opt.create_state(0, weight)
    opt.update(0, weight, mx.nd.array(np.array(GRADS[0]), dtype="float64"), state)
    return {"weight": weight.asnumpy(), "state": state.asnumpy(),
            "state_dtype": np.dtype(state.dtype).name}
