"""MSE, MAE and RMSE: each array passed to update counts as ONE instance, so batches of
different sizes weigh the same (the value is the mean of per-batch means). 1-d arrays become
columns; (n,) labels against (n, 1) predictions; several outputs in one update."""


def state(metric):
    return {"get": list(metric.get()), "name_value": metric.get_name_value(),
            "global": list(metric.get_global()), "sum_metric": float(metric.sum_metric),
            "num_inst": metric.num_inst}


def run(mx):
    nd = mx.nd
    out = {}
    batches = [([1.0, 2.0, 3.0, 4.0], [1.5, 2.0, 2.0, 6.0]), ([0.0], [3.0])]
    for cls in (mx.metric.MSE, mx.metric.MAE, mx.metric.RMSE):
        metric = cls()
        trace = []
        for label, pred in batches:
            metric.update([nd.array(label)], [nd.array(pred)])
            trace.append(state(metric))
        metric.reset_local()
        metric.update([nd.array([[1.0, 2.0], [3.0, 4.0]])], [nd.array([[0.0, 2.0], [3.0, 2.0]])])
        trace.append(state(metric))
        metric.update([nd.array([1.0, 2.0]), nd.array([0.0, 0.0, 0.0])],
                      [nd.array([[2.0], [2.0]]), nd.array([1.0, 1.0, 1.0])])
        trace.append(state(metric))
        out[metric.name] = trace
    return out
