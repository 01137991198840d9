"""Accuracy and TopKAccuracy over several batches: per-sample averaging, argmax over axis,
predicted classes given directly, labels truncated to int, a single NDArray instead of a list,
get / get_name_value / get_global / reset_local / reset, nan before any update, and errors."""
import math

from _common import err


def state(metric):
    return {"get": list(metric.get()), "name_value": metric.get_name_value(),
            "global": list(metric.get_global()),
            "global_name_value": metric.get_global_name_value(),
            "sum_metric": float(metric.sum_metric), "num_inst": metric.num_inst}


def run(mx):
    nd = mx.nd
    out = {}
    acc = mx.metric.Accuracy()
    out["fresh"] = {"get": [acc.get()[0], math.isnan(acc.get()[1])], "name": acc.name}
    acc.update([nd.array([0, 1, 2])], [nd.array([[0.9, 0.05, 0.05], [0.1, 0.2, 0.7],
                                                 [0.3, 0.3, 0.4]])])
    out["batch1"] = state(acc)
    acc.update([nd.array([1, 1, 0, 0, 2])], [nd.array([[0.1, 0.8, 0.1]] * 5)])
    out["batch2"] = state(acc)
    acc.reset_local()
    out["after_reset_local"] = {"local_nan": math.isnan(acc.get()[1]),
                                "global": list(acc.get_global())}
    acc.update([nd.array([2, 2])], [nd.array([[0, 0, 1.0], [1.0, 0, 0]])])
    out["batch3"] = state(acc)
    acc.reset()
    out["after_reset"] = {"num_inst": acc.num_inst, "global_num_inst": acc.global_num_inst,
                          "global_nan": math.isnan(acc.get_global()[1])}

    acc = mx.metric.Accuracy()
    acc.update([nd.array([0, 1, 2, 1.9])], [nd.array([0, 1, 1, 1])])
    out["pred_classes_truncated_labels"] = state(acc)

    acc = mx.metric.Accuracy(axis=0)
    acc.update([nd.array([0, 1, 1])], [nd.array([[0.9, 0.1, 0.2], [0.1, 0.9, 0.8]])])
    out["axis0"] = state(acc)

    acc = mx.metric.Accuracy()
    acc.update(nd.array([0, 1]), nd.array([[0.9, 0.1], [0.8, 0.2]]))
    out["single_ndarrays"] = state(acc)

    acc = mx.metric.Accuracy()
    acc.update([nd.array([0, 1]), nd.array([1, 1, 1])],
               [nd.array([[0.9, 0.1], [0.8, 0.2]]), nd.array([[0.3, 0.7]] * 3)])
    out["two_outputs"] = state(acc)

    out["acc_named"] = mx.metric.Accuracy(name="my_acc").get_name_value()[0][0]
    out["list_length_mismatch"] = err(mx, mx.metric.Accuracy().update,
                                      [nd.array([0]), nd.array([1])], [nd.array([[1.0, 0]])])
    out["size_mismatch"] = err(mx, mx.metric.Accuracy().update,
                               [nd.array([0, 1, 1])], [nd.array([[1.0, 0], [0, 1.0]])])

    top = mx.metric.TopKAccuracy(top_k=2)
    out["topk_name"] = top.name
    scores = [[0.1, 0.5, 0.3, 0.1], [0.6, 0.1, 0.2, 0.1], [0.25, 0.25, 0.3, 0.2]]
    top.update([nd.array([2, 2, 3])], [nd.array(scores)])
    out["topk_batch1"] = state(top)
    top.update([nd.array([0, 1])], [nd.array([[0.9, 0.05, 0.04, 0.01], [0.1, 0.2, 0.3, 0.4]])])
    out["topk_batch2"] = state(top)
    top = mx.metric.TopKAccuracy(top_k=4)
    top.update([nd.array([3, 0])], [nd.array([[0.1, 0.2, 0.3, 0.4], [0.4, 0.3, 0.2, 0.1]])])
    out["topk_k_equals_classes"] = state(top)
    out["topk_k_above_classes"] = err(mx, mx.metric.TopKAccuracy(top_k=5).update,
                                      [nd.array([3, 0])], [nd.ones((2, 4))])
    top = mx.metric.TopKAccuracy(top_k=2)
    top.update([nd.array([3, 1, 0])], [nd.array([0.1, 0.2, 0.3])])
    out["topk_1d_preds"] = state(top)
    out["topk_one"] = err(mx, mx.metric.TopKAccuracy, top_k=1)
    out["topk_3d"] = err(mx, mx.metric.TopKAccuracy(top_k=2).update, [nd.array([0])],
                         [nd.ones((1, 2, 2))])
    return out
