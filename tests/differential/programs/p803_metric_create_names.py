"""mx.metric.create for every registered name and alias (any case), with arguments by position
and keyword, configs that rebuild the metric, dicts and JSON strings; the registry's errors."""
from _common import err

NAMES = ("acc", "accuracy", "Accuracy", "top_k_accuracy", "top_k_acc", "topkaccuracy", "ce",
         "cross-entropy", "crossentropy", "nll_loss", "negativeloglikelihood", "pearsonr",
         "pearsoncorrelation", "pcc", "mcc", "MCC", "f1", "F1", "mae", "mse", "rmse", "RMSE",
         "perplexity", "loss", "torch", "caffe", "composite", "compositeevalmetric")


def run(mx):
    out = {}
    for name in NAMES:
        kwargs = {}
        if "top" in name.lower():
            kwargs = {"top_k": 3}
        if name == "perplexity":
            kwargs = {"ignore_label": -1}
        try:
            metric = mx.metric.create(name, **kwargs)
        except Exception as e:  # noqa: BLE001 -- the class is recorded, not the text
            out["create_" + name] = ["raised", type(e).__name__]
            continue
        out["create_" + name] = [type(metric).__name__, metric.name,
                                 metric.output_names, metric.label_names]
    out["positional_top_k"] = mx.metric.create("top_k_accuracy", 4).name
    out["positional_perplexity"] = mx.metric.create("perplexity", 0).ignore_label
    out["named"] = mx.metric.create("acc", name="my-acc", output_names=["softmax_output"],
                                    label_names=["softmax_label"]).get_config()
    for name in ("acc", "f1", "mcc", "ce", "rmse", "pearsonr", "pcc", "loss"):
        config = mx.metric.create(name).get_config()
        rebuilt = mx.metric.create(**config)
        out["config_" + name] = [sorted(config.items()), type(rebuilt).__name__, rebuilt.name]
    out["dict"] = mx.metric.create({"metric": "top_k_accuracy", "top_k": 2}).name
    out["json_list"] = mx.metric.create('["mcc", {"average": "micro"}]').get_config()
    out["json_dict"] = mx.metric.create('{"metric": "f1", "name": "f"}').name
    comp = mx.metric.create(["acc", "f1", "pearsonr"])
    out["composite_names"] = [m.name for m in comp.metrics]
    out["composite_config"] = [c["metric"] for c in comp.get_config()["metrics"]]
    out["unknown"] = err(mx, mx.metric.create, "accuracy5")
    out["number"] = err(mx, mx.metric.create, 3)
    out["instance_with_args"] = err(mx, mx.metric.create, mx.metric.Accuracy(), axis=0)
    out["perplexity_missing_ignore"] = err(mx, mx.metric.create, "perplexity")
    out["bad_keyword"] = err(mx, mx.metric.create, "acc", top_k=3)
    return out
