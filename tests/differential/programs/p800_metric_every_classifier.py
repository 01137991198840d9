"""Every classification and probability metric of mx.metric on the same batches: (n, classes)
scores of two batch sizes, class-id predictions, two outputs in one update, then reset_local
and reset: get, get_global, get_name_value, sum_metric and num_inst after each step."""
from _common import err


def _state(metric):
    return {"get": list(metric.get()), "global": list(metric.get_global()),
            "name_value": metric.get_name_value(),
            "global_name_value": metric.get_global_name_value(),
            "num_inst": float(metric.num_inst)}


def _batches(nd):
    scores_a = nd.array([[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.2, 0.5, 0.3], [0.6, 0.3, 0.1]])
    scores_b = nd.array([[0.05, 0.9, 0.05], [0.3, 0.3, 0.4]])
    return [
        ([nd.array([0, 2, 0, 1])], [scores_a]),
        ([nd.array([1, 0])], [scores_b]),
        ([nd.array([0, 2]), nd.array([1, 1, 2])], [scores_b, nd.array(
            [[0.1, 0.8, 0.1], [0.4, 0.4, 0.2], [0.2, 0.2, 0.6]])]),
    ]


def _trace(mx, metric):
    trace = []
    for labels, preds in _batches(mx.nd):
        metric.update(labels, preds)
        trace.append(_state(metric))
    metric.reset_local()
    trace.append(_state(metric))
    labels, preds = _batches(mx.nd)[0]
    metric.update(labels, preds)
    trace.append(_state(metric))
    metric.reset()
    trace.append(_state(metric))
    return trace


def run(mx):
    nd = mx.nd
    out = {}
    makers = {
        "accuracy": lambda: mx.metric.Accuracy(),
        "top2": lambda: mx.metric.TopKAccuracy(top_k=2),
        "ce": lambda: mx.metric.CrossEntropy(),
        "nll": lambda: mx.metric.NegativeLogLikelihood(eps=1e-3),
        "perplexity_none": lambda: mx.metric.Perplexity(ignore_label=None),
        "perplexity_0": lambda: mx.metric.Perplexity(ignore_label=0),
        "loss": lambda: mx.metric.Loss(),
        "torch": lambda: mx.metric.Torch(),
        "caffe": lambda: mx.metric.Caffe(),
        "pcc": lambda: mx.metric.PCC(),
    }
    for key, make in makers.items():
        out[key] = _trace(mx, make())

    acc = mx.metric.Accuracy()
    acc.update([nd.array([0, 1, 2, 2])], [nd.array([0, 1, 1, 2])])      # class ids
    acc.update([nd.array([[0, 1], [1, 1]])], [nd.array([[0, 1], [0, 1]])])  # 2-d ids
    out["accuracy_class_ids"] = _state(acc)
    out["accuracy_str"] = str(acc)
    acc0 = mx.metric.Accuracy(axis=0)
    acc0.update([nd.array([0, 1, 1])], [nd.array([[0.9, 0.1, 0.2], [0.1, 0.9, 0.8]])])
    out["accuracy_axis0"] = _state(acc0)
    top = mx.metric.TopKAccuracy(top_k=2)
    top.update([nd.array([1, 0, 2])], [nd.array([0.2, 0.5, 0.3])])       # 1-d prediction
    out["top2_one_dim"] = _state(top)

    # Perplexity over a sequence: (batch, time, classes) against (batch, time)
    seq_pred = nd.softmax(nd.array([[[1.0, 2.0, 0.5], [0.2, 0.1, 3.0]],
                                    [[0.3, 0.3, 0.3], [2.0, 1.0, 0.0]]]), axis=-1)
    seq_label = nd.array([[1, 2], [0, 0]])
    for ignore in (None, 0):
        ppl = mx.metric.Perplexity(ignore_label=ignore)
        out[f"perplexity_seq_{ignore}"] = err(mx, ppl.update, [seq_label], [seq_pred])
        out[f"perplexity_seq_{ignore}_state"] = _state(ppl)
    ppl = mx.metric.Perplexity(ignore_label=None, axis=0)
    out["perplexity_axis0"] = err(mx, ppl.update, [nd.array([0, 1])],
                                  [nd.array([[0.6, 0.3], [0.4, 0.7]])])
    out["perplexity_axis0_state"] = _state(ppl)
    ppl = mx.metric.Perplexity(ignore_label=None, axis=1)
    out["perplexity_axis1"] = err(mx, ppl.update, [nd.array([0, 1])],
                                  [nd.array([[0.6, 0.4], [0.3, 0.7]])])
    out["perplexity_axis1_state"] = _state(ppl)
    out["perplexity_mismatch"] = err(mx, mx.metric.Perplexity(None).update,
                                     [nd.array([0, 1, 1])], [nd.array([[0.6, 0.4], [0.3, 0.7]])])

    pcc = mx.metric.PCC()
    pcc.update([nd.array([0, 4, 1])], [nd.array([0, 4, 3])])     # class ids grow the matrix
    out["pcc_grow"] = [_state(pcc), pcc.k]
    pcc.update([nd.array([2, 2])], [nd.array([[0.1, 0.2, 0.7, 0, 0], [0.1, 0.2, 0.3, 0.4, 0]])])
    out["pcc_grow_2"] = [_state(pcc), pcc.k]
    constant = mx.metric.PCC()
    constant.update([nd.array([1, 1])], [nd.array([[0.2, 0.8], [0.3, 0.7]])])
    out["pcc_constant_is_nan"] = _state(constant)

    loss = mx.metric.Loss()
    loss.update(None, nd.array([[1.0, 2.0], [3.0, 4.0]]))     # a lone NDArray
    out["loss_lone"] = _state(loss)
    out["ce_label_mismatch"] = err(mx, mx.metric.CrossEntropy().update, [nd.array([0, 1, 1])],
                                   [nd.array([[0.6, 0.4], [0.3, 0.7]])])
    out["acc_list_mismatch"] = err(mx, mx.metric.Accuracy().update,
                                   [nd.array([0]), nd.array([1])], [nd.array([[0.6, 0.4]])])
    out["top5_of_3_classes"] = err(mx, mx.metric.TopKAccuracy(top_k=5).update,
                                   [nd.array([0, 1])], [nd.array([[0.2, 0.5, 0.3]] * 2)])
    out["top_k_one"] = err(mx, mx.metric.TopKAccuracy, top_k=1)
    return out
