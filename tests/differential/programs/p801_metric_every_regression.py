"""MAE, MSE, RMSE and PearsonCorrelation (macro and micro) on the same batches: 1-d and 2-d,
two batch sizes, two outputs in one update, reset_local and reset; PearsonCorrelation's name
'pearsonr', its alias and its shape check."""
from _common import err


def _state(metric):
    return {"get": list(metric.get()), "global": list(metric.get_global()),
            "name_value": metric.get_name_value(), "num_inst": float(metric.num_inst)}


def _batches(nd):
    return [
        ([nd.array([1.0, 2.0, 3.0, 4.0])], [nd.array([1.5, 2.0, 2.5, 5.0])]),
        ([nd.array([[0.0, 1.0], [1.0, 0.5], [2.0, 2.0]])],
         [nd.array([[0.2, 0.9], [0.7, 0.4], [1.0, 2.5]])]),
        ([nd.array([3.0, -1.0]), nd.array([0.5, 0.1, 0.9])],
         [nd.array([2.0, -0.5]), nd.array([0.4, 0.3, 0.7])]),
    ]


def _trace(mx, metric):
    trace = []
    for labels, preds in _batches(mx.nd):
        metric.update(labels, preds)
        trace.append(_state(metric))
    metric.reset_local()
    trace.append(_state(metric))
    labels, preds = _batches(mx.nd)[1]
    metric.update(labels, preds)
    trace.append(_state(metric))
    metric.reset()
    trace.append(_state(metric))
    return trace


def run(mx):
    nd = mx.nd
    out = {}
    makers = {
        "mae": lambda: mx.metric.MAE(),
        "mse": lambda: mx.metric.MSE(),
        "rmse": lambda: mx.metric.RMSE(),
        "pearsonr_macro": lambda: mx.metric.PearsonCorrelation(),
        "pearsonr_micro": lambda: mx.metric.PearsonCorrelation(average="micro"),
    }
    for key, make in makers.items():
        out[key] = _trace(mx, make())
    pr = mx.metric.create("pearsonr")
    out["pearsonr_create"] = [type(pr).__name__, pr.name, sorted(pr.get_config().items())]
    pr.update([nd.array([[1, 0], [0, 1], [0, 1]])], [nd.array([[0.3, 0.7], [0, 1.0], [0.4, 0.6]])])
    out["pearsonr_doc_example"] = list(pr.get())
    out["pearsonr_shape_mismatch"] = err(mx, mx.metric.PearsonCorrelation().update,
                                         [nd.array([1.0, 2.0, 3.0])],
                                         [nd.array([[1.0, 2.0, 3.0]])])
    out["mse_column_vs_row"] = err(mx, mx.metric.MSE().update, [nd.array([1.0, 2.0])],
                                   [nd.array([[1.0], [2.0]])])
    return out
