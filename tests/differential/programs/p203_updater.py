"""get_updater: the Updater Module calls as ``updater(index, grad, weight)``. One state per
index, created on first use; lists of indices (SGD aggregates them); update counts; Adam."""
import numpy as np


def arrays(seed, n, shape=(3,)):
    rs = np.random.RandomState(seed)
    return [rs.randn(*shape).astype(np.float32) for _ in range(n)]


def run(mx):
    out = {}
    opt = mx.optimizer.SGD(learning_rate=0.1, momentum=0.9, wd=0.01, rescale_grad=0.5,
                           param_idx2name={0: "a_weight", 1: "a_bias", 2: "b_weight"})
    updater = mx.optimizer.get_updater(opt)
    out["updater_type"] = type(updater).__name__
    weights = [mx.nd.array(w) for w in arrays(0, 3)]
    trace = []
    for step, grads in enumerate([arrays(1, 3), arrays(2, 3), arrays(3, 3)]):
        for index in range(3):
            if step == 2 and index == 2:
                continue  # index 2 is updated only twice
            updater(index, mx.nd.array(grads[index]), weights[index])
        trace.append([w.asnumpy() for w in weights])
    out["sgd_single"] = trace
    out["sgd_states"] = [updater.states[i].asnumpy() for i in range(3)]
    out["sgd_state_keys"] = sorted(updater.states)
    out["sgd_num_update"] = opt.num_update
    out["sgd_counts"] = sorted(opt._index_update_count.items())

    # the same with lists: one call per step, five weights (aggregated in groups of 4)
    opt = mx.optimizer.SGD(learning_rate=0.1, momentum=0.9, clip_gradient=0.5)
    updater = mx.optimizer.get_updater(opt)
    weights = [mx.nd.array(w) for w in arrays(4, 5)]
    trace = []
    for seed in (5, 6):
        grads = [mx.nd.array(g) for g in arrays(seed, 5)]
        updater(list(range(5)), grads, weights)
        trace.append([w.asnumpy() for w in weights])
    out["sgd_lists"] = trace
    out["sgd_lists_counts"] = sorted(opt._index_update_count.items())

    opt = mx.optimizer.Adam(learning_rate=0.01)
    updater = mx.optimizer.get_updater(opt)
    weight = mx.nd.array(arrays(7, 1, (2, 3))[0])
    for grad in arrays(8, 3, (2, 3)):
        updater(0, mx.nd.array(grad), weight)
    out["adam_weight"] = weight.asnumpy()
    out["adam_state"] = [s.asnumpy() for s in updater.states[0]]
    out["adam_state_len"] = len(updater.states[0])

    # plain SGD keeps no state
    updater = mx.optimizer.get_updater(mx.optimizer.SGD(learning_rate=0.1))
    weight = mx.nd.ones((2,))
    updater(3, mx.nd.ones((2,)), weight)
    out["sgd_no_momentum"] = {"weight": weight.asnumpy(), "state": updater.states[3]}
    return out
