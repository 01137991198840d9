"""multi_precision=True with float16 weights, for every optimizer: the state layout (SGD and NAG
keep (state, float32 master), the others (master, state)), the float16 weight and the float32
master after 2 steps (LAMB's one-index kernel leaves the master unchanged; its list kernel, the
Updater's, does not), and the float16 warning without multi_precision."""
import numpy as np

TOLERANCE = dict(rtol=2e-3, atol=1e-3)
NAMES = ["sgd", "nag", "signum", "adam", "adamax", "nadam", "lamb", "ftml", "adagrad",
         "rmsprop", "adadelta", "ftrl"]


def layout(state):
    if state is None:
        return None
    if isinstance(state, (tuple, list)):
        return [layout(s) for s in state]
    return np.dtype(state.dtype).name


def run(mx):
    out = {}
    rs = np.random.RandomState(0)
    w0 = rs.randn(5).astype(np.float16)
    grads = [rs.randn(5).astype(np.float16) for _ in range(2)]
    for name in NAMES:
        extra = {"momentum": 0.9} if name in ("sgd", "nag") else {}
        opt = mx.optimizer.create(name, multi_precision=True, learning_rate=0.05, wd=0.01,
                                  **extra)
        weight = mx.nd.array(w0, dtype="float16")
        state = opt.create_state_multi_precision(0, weight)
        for g in grads:
            opt.update_multi_precision(0, weight, mx.nd.array(g, dtype="float16"), state)
        master = state[1] if name in ("sgd", "nag") else state[0]
        out[name] = {"layout": layout(state), "weight": weight.asnumpy().astype(np.float32),
                     "weight_dtype": np.dtype(weight.dtype).name, "master": master.asnumpy()}
    # LAMB through the Updater (lists: multi_mp_lamb_update, which updates the master too)
    opt = mx.optimizer.create("lamb", multi_precision=True, learning_rate=0.05, wd=0.01)
    updater = mx.optimizer.get_updater(opt)
    weights = [mx.nd.array(w0, dtype="float16"), mx.nd.array(w0[:2], dtype="float16")]
    for g in grads:
        updater([0, 1], [mx.nd.array(g, dtype="float16"), mx.nd.array(g[:2], dtype="float16")],
                weights)
    out["lamb_updater"] = {"weights": [w.asnumpy().astype(np.float32) for w in weights],
                           "masters": [updater.states[i][0].asnumpy() for i in (0, 1)]}
    opt = mx.optimizer.create("rmsprop")
    opt.create_state_multi_precision(0, mx.nd.array(w0, dtype="float16"))
    return out
