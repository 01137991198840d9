"""mx.metric.create with names, aliases, lists, callables and instances; CompositeEvalMetric's
flattened names and values; CustomMetric and mx.metric.np (a value per call, or (sum, count));
F1 and MCC in macro and micro averaging; get_config; the registry's errors."""
from _common import err


def run(mx):
    nd = mx.nd
    out = {}
    for name in ("acc", "accuracy", "ACC", "top_k_accuracy", "top_k_acc", "ce", "cross-entropy",
                 "crossentropy", "nll_loss", "mse", "mae", "rmse", "f1", "mcc", "loss",
                 "composite", "perplexity", "torch", "caffe"):
        kwargs = {"top_k": 3} if name.startswith("top_k") else {}
        if name == "perplexity":
            kwargs = {"ignore_label": None}
        try:
            metric = mx.metric.create(name, **kwargs)
            out["create_" + name] = [type(metric).__name__, metric.name]
        except Exception as e:  # noqa: BLE001
            out["create_" + name] = ["raised", type(e).__name__]
    out["create_unknown"] = err(mx, mx.metric.create, "nosuchmetric")
    out["create_number"] = err(mx, mx.metric.create, 3)
    acc = mx.metric.Accuracy()
    out["create_instance_same"] = mx.metric.create(acc) is acc
    out["create_json"] = mx.metric.create('["top_k_accuracy", {"top_k": 4}]').name
    out["acc_config"] = sorted(mx.metric.Accuracy().get_config().items())

    comp = mx.metric.create(["acc", "mse", mx.metric.CrossEntropy()])
    out["composite_type"] = type(comp).__name__
    labels = [nd.array([0, 1, 1])]
    preds = [nd.array([[0.8, 0.2], [0.4, 0.6], [0.7, 0.3]])]
    comp.update(labels, preds)
    comp.update([nd.array([1])], [nd.array([[0.1, 0.9]])])
    out["composite_get"] = list(comp.get())
    out["composite_name_value"] = comp.get_name_value()
    out["composite_global"] = comp.get_global_name_value()
    out["composite_child"] = comp.get_metric(1).name
    out["composite_bad_index_returns"] = type(comp.get_metric(7)).__name__
    comp.reset()
    out["composite_after_reset"] = [m.num_inst for m in comp.metrics]

    def feval(label, pred):
        return float(abs(label - pred.argmax(axis=1)).sum())
    custom = mx.metric.create(feval)
    custom.update(labels, preds)
    custom.update(labels, preds)
    out["custom_scalar"] = [custom.name, list(custom.get()), custom.num_inst]

    def with_count(label, pred):
        return (float((pred.argmax(axis=1) == label).sum()), len(label))
    custom = mx.metric.np(with_count)
    custom.update(labels, preds)
    out["custom_tuple"] = [custom.name, list(custom.get()), custom.num_inst]
    custom = mx.metric.CustomMetric(lambda label, pred: 0.5)
    custom.update(labels, preds)
    out["custom_lambda"] = [custom.name, list(custom.get())]
    out["custom_named"] = mx.metric.CustomMetric(feval, name="mine").name
    out["custom_config"] = err(mx, mx.metric.CustomMetric(feval).get_config)

    f1_labels = [[1, 0, 1, 1], [0, 0, 1]]
    f1_preds = [[[0.2, 0.8], [0.3, 0.7], [0.9, 0.1], [0.4, 0.6]],
                [[0.8, 0.2], [0.3, 0.7], [0.1, 0.9]]]
    for cls in (mx.metric.F1, mx.metric.MCC):
        for average in ("macro", "micro"):
            metric = cls(average=average)
            trace = []
            for label, pred in zip(f1_labels, f1_preds):
                metric.update([nd.array(label)], [nd.array(pred)])
                trace.append([list(metric.get()), list(metric.get_global()),
                              float(metric.num_inst)])
            out[metric.name + "_" + average] = trace
    out["f1_multiclass"] = err(mx, mx.metric.F1().update, [nd.array([0, 1, 2])],
                               [nd.ones((3, 3))])
    return out
