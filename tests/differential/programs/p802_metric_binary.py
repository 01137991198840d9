"""F1, MCC (macro and micro) and PCC on binary batches of different sizes: every count,
precision / recall / fscore properties, local versus global after reset_local, an all-negative
batch (zero terms in MCC's denominator), and the errors of non-binary labels."""
from _common import err

LABELS = [[1, 0, 1, 1], [0, 0, 1], [0, 0], [1, 1, 0, 0, 1]]
PREDS = [[[0.2, 0.8], [0.3, 0.7], [0.9, 0.1], [0.4, 0.6]],
         [[0.8, 0.2], [0.3, 0.7], [0.1, 0.9]],
         [[0.6, 0.4], [0.7, 0.3]],
         [[0.1, 0.9], [0.6, 0.4], [0.3, 0.7], [0.8, 0.2], [0.45, 0.55]]]


def run(mx):
    nd = mx.nd
    out = {}
    for key, make in (("f1_macro", lambda: mx.metric.F1()),
                      ("f1_micro", lambda: mx.metric.F1(average="micro")),
                      ("mcc_macro", lambda: mx.metric.MCC()),
                      ("mcc_micro", lambda: mx.metric.MCC(average="micro")),
                      ("pcc", lambda: mx.metric.PCC())):
        metric = make()
        trace = []
        for step, (label, pred) in enumerate(zip(LABELS, PREDS)):
            metric.update([nd.array(label)], [nd.array(pred)])
            trace.append([list(metric.get()), list(metric.get_global()),
                          float(metric.num_inst), float(metric.global_num_inst)])
            if step == 1:
                metric.reset_local()
                trace.append([list(metric.get()), list(metric.get_global())])
        metric.update([nd.array(LABELS[0]), nd.array(LABELS[1])],
                      [nd.array(PREDS[0]), nd.array(PREDS[1])])
        trace.append([list(metric.get()), list(metric.get_global())])
        out[key] = trace
    f1 = mx.metric.F1(average="micro")
    f1.update([nd.array(LABELS[0])], [nd.array(PREDS[0])])
    stats = f1.metrics
    out["f1_stats"] = [stats.true_positives, stats.false_positives, stats.false_negatives,
                       stats.true_negatives, stats.precision, stats.recall, stats.fscore,
                       stats.total_examples, stats.global_fscore, stats.matthewscc(),
                       stats.matthewscc(use_global=True)]
    out["f1_config"] = sorted(mx.metric.F1(average="micro").get_config().items())
    out["mcc_config"] = sorted(mx.metric.MCC().get_config().items())
    out["pcc_config"] = sorted(mx.metric.PCC().get_config().items())
    for cls in (mx.metric.F1, mx.metric.MCC):
        out[cls.__name__ + "_three_classes"] = err(mx, cls().update, [nd.array([0, 1, 2])],
                                                   [nd.ones((3, 3))])
        out[cls.__name__ + "_label_count"] = err(mx, cls().update, [nd.array([0, 1])],
                                                 [nd.ones((3, 2))])
    pcc = mx.metric.PCC()
    pcc.update([nd.array([0, 1, 2, 2, 1])], [nd.array([[0.8, 0.1, 0.1], [0.1, 0.8, 0.1],
                                                        [0.1, 0.1, 0.8], [0.5, 0.1, 0.4],
                                                        [0.1, 0.3, 0.6]])])
    out["pcc_three_classes"] = [list(pcc.get()), pcc.k, pcc.lcm.tolist()]
    return out
