"""update_dict with output_names / label_names (a module's outputs and labels by name),
CompositeEvalMetric filtering the dicts for its children, the missing-name error, get_metric;
CustomMetric and mx.metric.np with allow_extra_outputs."""
from collections import OrderedDict

from _common import err


def run(mx):
    nd = mx.nd
    out = {}
    preds = OrderedDict([("softmax_output", nd.array([[0.8, 0.2], [0.3, 0.7], [0.4, 0.6]])),
                         ("reg_output", nd.array([0.5, 1.5, 2.5]))])
    labels = OrderedDict([("softmax_label", nd.array([0, 1, 0])),
                          ("reg_label", nd.array([0.0, 2.0, 2.0]))])
    acc = mx.metric.Accuracy(output_names=["softmax_output"], label_names=["softmax_label"])
    acc.update_dict(labels, preds)
    out["acc_named"] = list(acc.get())
    mse = mx.metric.MSE(output_names=["reg_output"], label_names=["reg_label"])
    mse.update_dict(labels, preds)
    out["mse_named"] = list(mse.get())
    everything = mx.metric.MAE()
    out["unnamed_uses_all"] = err(mx, everything.update_dict, labels, preds)
    out["unnamed_state"] = [list(everything.get()), everything.num_inst]
    out["missing_name"] = err(mx, mx.metric.Accuracy(output_names=["nope"]).update_dict,
                              labels, preds)
    comp = mx.metric.CompositeEvalMetric(output_names=["softmax_output"],
                                         label_names=["softmax_label"])
    comp.add("acc")
    comp.add(mx.metric.F1())
    comp.add(mx.metric.CrossEntropy())
    comp.update_dict(labels, preds)
    out["composite"] = list(comp.get())
    out["composite_global"] = list(comp.get_global())
    out["composite_str"] = str(comp)
    out["composite_metric_1"] = comp.get_metric(1).name
    out["composite_metric_bad"] = type(comp.get_metric(3)).__name__
    comp.reset_local()
    out["composite_after_reset_local"] = [list(comp.get()), list(comp.get_global())]

    def first_only(label, pred):
        return float(abs(label - pred).sum())
    strict = mx.metric.np(first_only)
    out["custom_extra_outputs"] = err(mx, strict.update, [nd.array([1.0])],
                                      [nd.array([1.5]), nd.array([2.0])])
    loose = mx.metric.np(first_only, allow_extra_outputs=True)
    loose.update([nd.array([1.0])], [nd.array([1.5]), nd.array([2.0])])
    out["custom_allow_extra"] = [list(loose.get()), loose.num_inst, loose.name]
    named = mx.metric.np(first_only, name="absdiff")
    named.update_dict(OrderedDict([("l", nd.array([1.0, 2.0]))]),
                      OrderedDict([("p", nd.array([1.0, 4.0]))]))
    out["custom_named"] = [list(named.get()), list(named.get_global())]
    return out
