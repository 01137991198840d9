"""Every optimizer of the course (SGD and Adam aside, which p200-p203 cover) for three steps on
the same two parameters and gradients: weights and states after each step, with weight decay,
lr_mult / wd_mult (by name through param_idx2name and by index), clip_gradient (> 0, 0 and
negative) and rescale_grad. States are recorded with their structure (None, tuples) and dtypes,
also for a float64 weight. SGLD (random) is in p771."""
import numpy as np

# MXNet's float32 arithmetic, copied operation by operation
TOLERANCE = dict(rtol=1e-6, atol=1e-6)

NAMES = {0: "fc_weight", 1: "fc_bias"}
SETTINGS = {
    "nag": [dict(momentum=0.9), dict(momentum=0.0)],
    "signum": [dict(), dict(momentum=0.0), dict(wd_lh=0.05)],
    "rmsprop": [dict(), dict(centered=True), dict(centered=True, clip_weights=1.5),
                dict(clip_weights=0.9)],
    "adagrad": [dict(), dict(eps=1e-3)],
    "adadelta": [dict(), dict(rho=0.5, epsilon=1e-3)],
    "adamax": [dict()],
    "nadam": [dict(), dict(schedule_decay=0.1)],
    "lamb": [dict(), dict(bias_correction=False), dict(lower_bound=0.5, upper_bound=2.0)],
    "ftml": [dict(), dict(beta1=0.9)],
    "ftrl": [dict(), dict(lamda1=0.5, beta=0.5)],
}
COMMON = [
    ("plain", dict(learning_rate=0.1)),
    ("wd_rescale_clip", dict(learning_rate=0.05, wd=0.1, rescale_grad=0.5, clip_gradient=1.0)),
    ("clip_zero", dict(learning_rate=0.1, clip_gradient=0.0)),
    ("clip_negative", dict(learning_rate=0.1, clip_gradient=-1.0)),
]


def data(seed, shapes=((3,), (2, 2))):
    rs = np.random.RandomState(seed)
    return [(rs.randn(*s) * 2).astype(np.float32) for s in shapes]


def flat_state(state):
    """A state as recorded: None, an array, or a list of them (keeping 'tuple' for tuples)."""
    if state is None:
        return None
    if isinstance(state, (tuple, list)):
        return {"tuple": [flat_state(s) for s in state]}
    return state.asnumpy()


def state_dtypes(state):
    if state is None:
        return None
    if isinstance(state, (tuple, list)):
        return [state_dtypes(s) for s in state]
    return np.dtype(state.dtype).name


def steps(mx, name, mults, **kwargs):
    opt = mx.optimizer.create(name, param_idx2name=dict(NAMES), **kwargs)
    if mults:
        opt.set_lr_mult({"fc_weight": 2.0, 1: 0.5})
        opt.set_wd_mult({"fc_bias": 3.0})
    weights = [mx.nd.array(w) for w in data(0)]
    states = [opt.create_state(i, w) for i, w in enumerate(weights)]
    trace = []
    for seed in (1, 2, 3):
        grads = [mx.nd.array(g) for g in data(seed)]
        for i, (w, g, s) in enumerate(zip(weights, grads, states)):
            opt.update(i, w, g, s)
        trace.append({"weights": [w.asnumpy() for w in weights],
                      "states": [flat_state(s) for s in states],
                      "grads_after": [g.asnumpy() for g in grads]})
    return {"trace": trace, "num_update": opt.num_update,
            "counts": sorted(opt._index_update_count.items())}


def run(mx):
    out = {}
    for name, variants in SETTINGS.items():
        for k, extra in enumerate(variants):
            for label, common in COMMON:
                if k > 0 and label in ("clip_zero", "clip_negative"):
                    continue
                kwargs = dict(common, **extra)
                out[f"{name}{k}_{label}"] = steps(mx, name, False, **kwargs)
        out[f"{name}_mults"] = steps(mx, name, True, learning_rate=0.1, wd=0.05,
                                     **variants[0])
        for dtype in ("float32", "float64"):
            opt = mx.optimizer.create(name, **variants[0])
            weight = mx.nd.array(np.ones((2,)), dtype=dtype)
            out[f"{name}_state_dtypes_{dtype}"] = state_dtypes(opt.create_state(0, weight))
    out["registry_case"] = [type(mx.optimizer.create(n)).__name__
                            for n in ("NAG", "RMSProp", "adagrad", "AdaDelta", "ADAMAX", "Nadam",
                                      "lamb", "sgld", "FTML", "signum", "Ftrl", "adam", "sgd",
                                      "ccSGD")]
    out["defaults"] = {n: mx.optimizer.create(n).lr for n in SETTINGS}
    return out
