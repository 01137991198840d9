"""CrossEntropy and NegativeLogLikelihood (per-sample mean of -log(p[label] + eps)), Perplexity
(with and without ignore_label), and Loss (mean of all prediction elements), over batches."""
from _common import err


def state(metric):
    return {"get": list(metric.get()), "name_value": metric.get_name_value(),
            "global": list(metric.get_global()), "num_inst": float(metric.num_inst)}


PROBS1 = [[0.7, 0.2, 0.1], [0.1, 0.1, 0.8], [0.3, 0.4, 0.3]]
PROBS2 = [[0.0, 1.0, 0.0], [0.5, 0.25, 0.25]]


def run(mx):
    nd = mx.nd
    out = {}
    for metric in (mx.metric.CrossEntropy(), mx.metric.NegativeLogLikelihood(),
                   mx.metric.CrossEntropy(eps=0.1), mx.metric.Perplexity(ignore_label=None),
                   mx.metric.Perplexity(ignore_label=1)):
        trace = []
        metric.update([nd.array([0, 2, 1])], [nd.array(PROBS1)])
        trace.append(state(metric))
        metric.update([nd.array([0, 1])], [nd.array(PROBS2)])
        trace.append(state(metric))
        out[metric.name + "_" + str(len(out))] = trace
    out["ce_label_count_mismatch"] = err(mx, mx.metric.CrossEntropy().update,
                                         [nd.array([0, 1])], [nd.array(PROBS1)])

    loss = mx.metric.Loss()
    loss.update(None, [nd.array([[1.0, 2.0], [3.0, 4.0]])])
    out["loss_1"] = state(loss)
    loss.update(None, nd.array([10.0]))
    out["loss_2"] = state(loss)
    return out
