"""Optimizers driven through get_updater as Module drives them: lists of indices in one call
(LAMB aggregates them, up to 45 per call), a learning-rate scheduler, Nadam's one momentum
schedule shared by every index, and SGLD's noise (random: only its statistics are recorded)."""
import math

import numpy as np

# MXNet's float32 arithmetic, copied operation by operation
TOLERANCE = dict(rtol=1e-6, atol=1e-6)


def data(seed, n, shape=(4,)):
    rs = np.random.RandomState(seed)
    return [rs.randn(*shape).astype(np.float32) for _ in range(n)]


def listed(mx, name, **kwargs):
    opt = mx.optimizer.create(name, **kwargs)
    updater = mx.optimizer.get_updater(opt)
    weights = [mx.nd.array(w) for w in data(0, 3)]
    trace = []
    for seed in (1, 2, 3):
        grads = [mx.nd.array(g) for g in data(seed, 3)]
        updater([0, 1, 2], grads, weights)
        trace.append([w.asnumpy() for w in weights])
    return {"trace": trace, "counts": sorted(opt._index_update_count.items()),
            "num_update": opt.num_update}


def run(mx):
    out = {}
    for name in ("lamb", "nag", "rmsprop", "ftml", "nadam", "adamax", "signum", "ftrl"):
        out[name] = listed(mx, name, learning_rate=0.05, wd=0.01)
    sched = mx.lr_scheduler.FactorScheduler(step=2, factor=0.5, base_lr=0.1)
    out["lamb_scheduler"] = listed(mx, "lamb", lr_scheduler=sched)
    sched = mx.lr_scheduler.FactorScheduler(step=2, factor=0.5, base_lr=0.1)
    out["rmsprop_scheduler"] = listed(mx, "rmsprop", lr_scheduler=sched)

    # Nadam: one m_schedule for the optimizer, multiplied at every update of any index
    opt = mx.optimizer.Nadam(learning_rate=0.01)
    updater = mx.optimizer.get_updater(opt)
    weights = [mx.nd.array(w) for w in data(4, 2)]
    for seed in (5, 6):
        for i, g in enumerate(data(seed, 2)):
            updater(i, mx.nd.array(g), weights[i])
    out["nadam_shared_schedule"] = {"m_schedule": opt.m_schedule,
                                    "weights": [w.asnumpy() for w in weights]}

    # SGLD: w + (-lr/2)(g + wd*w) + N(0, sqrt(lr)); the noise's mean and spread only
    lr, wd = 0.04, 0.1
    opt = mx.optimizer.SGLD(learning_rate=lr, wd=wd, rescale_grad=0.5, clip_gradient=1.0)
    w0 = np.linspace(-1, 1, 20000).astype(np.float32)
    g0 = np.cos(np.arange(20000)).astype(np.float32) * 3
    weight, grad = mx.nd.array(w0), mx.nd.array(g0)
    mx.random.seed(3)
    opt.update(0, weight, grad, opt.create_state(0, weight))
    g = np.clip(g0 * 0.5, -1, 1)
    noise = weight.asnumpy() - (w0 - lr / 2 * (g + wd * w0))
    out["sgld"] = {"state": opt.create_state(0, weight),
                   "noise_mean_near_0": bool(abs(noise.mean()) < 0.01),
                   "noise_std_near_sqrt_lr": bool(abs(noise.std() - math.sqrt(lr)) < 0.01),
                   "grad_unchanged": bool(np.array_equal(grad.asnumpy(), g0))}
    return out
