"""Module over several contexts, the learner's mistakes and the less common paths: a
work_load_list of the wrong length, a batch smaller than the number of contexts (at bind and at
forward), shares adding up to 0, group2ctxs of the wrong length; a smaller batch re-split at
forward; BatchNorm's moving statistics averaged over contexts by get_params; head gradients
sliced per context; a per-context scalar loss merged; update_metric with pre-sliced labels;
fit and score over two contexts; a label with fewer examples than the data."""
import numpy as np

from _common import err

TOLERANCE = dict(rtol=2e-3, atol=2e-4)


def _mlp(mx):
    data = mx.sym.Variable("data")
    x = mx.sym.FullyConnected(data, num_hidden=3, name="fc1")
    return mx.sym.SoftmaxOutput(x, name="softmax")


def _bind(mx, sym, contexts, batch, **kwargs):
    mod = mx.mod.Module(sym, context=contexts, **kwargs)
    mod.bind(data_shapes=[("data", (batch, 4))], label_shapes=[("softmax_label", (batch,))])
    return mod


def _errors(mx, out):
    two = [mx.cpu(0), mx.cpu(1)]
    out["work_load_wrong_length"] = err(mx, mx.mod.Module, _mlp(mx), context=two,
                                        work_load_list=[1])
    out["batch_below_contexts"] = err(mx, _bind, mx, _mlp(mx), [mx.cpu(i) for i in range(3)], 2)
    out["zero_share_empty"] = err(mx, _bind, mx, _mlp(mx), two, 4, work_load_list=[1, 0])
    out["shares_sum_zero"] = err(mx, _bind, mx, _mlp(mx), two, 4, work_load_list=[1, -1])
    out["share_too_small"] = err(mx, _bind, mx, _mlp(mx), two, 3, work_load_list=[1, 5])
    out["group2ctxs_list"] = err(mx, _bind, mx, _mlp(mx), two, 4,
                                 group2ctxs=[{"a": mx.cpu(0)}])
    out["group2ctxs_dict"] = err(mx, _bind, mx, _mlp(mx), two, 4,
                                 group2ctxs={"a": [mx.cpu(0), mx.cpu(1), mx.cpu(2)]})
    for key, contexts in (("short_label_one", [mx.cpu(0)]), ("short_label_two", two)):
        mod = _bind(mx, _mlp(mx), contexts, 4)
        mod.init_params(mx.init.Constant(0.1))
        out[key] = err(mx, mod.forward, mx.io.DataBatch([mx.nd.ones((4, 4))],
                                                        [mx.nd.array([0, 1, 2])]))
    mod = _bind(mx, _mlp(mx), two, 4)
    mod.init_params(mx.init.Constant(0.1))
    one = mx.io.DataBatch([mx.nd.ones((1, 4))], [mx.nd.array([0])])
    out["forward_batch_of_one"] = err(mx, mod.forward, one, is_train=False)
    three = mx.io.DataBatch([mx.nd.array(np.arange(12).reshape(3, 4) / 10)],
                            [mx.nd.array([0, 1, 2])])
    mod.forward(three, is_train=False)
    out["forward_three"] = [[list(o.shape) for o in outs]
                            for outs in mod.get_outputs(merge_multi_context=False)]
    out["forward_three_merged"] = mod.get_outputs()[0].asnumpy()
    out["forward_three_output_shapes"] = [[n, list(s)] for n, s in mod.output_shapes]


def _batchnorm(mx, out, rng):
    data = mx.sym.Variable("data")
    x = mx.sym.FullyConnected(data, num_hidden=3, name="fc1")
    x = mx.sym.BatchNorm(x, fix_gamma=False, momentum=0.5, name="bn")
    sym = mx.sym.SoftmaxOutput(x, name="softmax")
    for key, contexts in (("bn_one", [mx.cpu(0)]), ("bn_two", [mx.cpu(0), mx.cpu(1)])):
        mod = _bind(mx, sym, contexts, 6)
        mod.init_params(mx.init.Constant(0.2), force_init=True)
        batch = mx.io.DataBatch([mx.nd.array(np.linspace(-1, 1, 24).reshape(6, 4) ** 3)],
                                [mx.nd.array([0, 1, 2, 0, 1, 2])])
        mod.forward(batch, is_train=True)
        _, aux = mod.get_params()
        out[key] = {k: v.asnumpy() for k, v in sorted(aux.items())}


def _heads_and_losses(mx, out, rng):
    data = mx.sym.Variable("data")
    fc = mx.sym.FullyConnected(data, num_hidden=2, name="fc1")
    loss = mx.sym.MakeLoss(mx.sym.sum(fc), name="total")
    sym = mx.sym.Group([fc, loss])
    mod = mx.mod.Module(sym, label_names=None, context=[mx.cpu(0), mx.cpu(1)])
    mod.bind(data_shapes=[("data", (4, 3))], inputs_need_grad=True)
    mod.init_params(mx.init.Constant(0.5))
    batch = mx.io.DataBatch([mx.nd.array(rng.standard_normal((4, 3)))], None)
    mod.forward(batch, is_train=True)
    heads = [mx.nd.array(rng.standard_normal((4, 2))), mx.nd.array([1.0])]
    out["group_output_shapes"] = [[n, list(s)] for n, s in mod.output_shapes]
    out["group_outputs"] = [o.asnumpy() for o in mod.get_outputs()]
    out["group_outputs_split"] = [[list(o.shape) for o in outs]
                                  for outs in mod.get_outputs(merge_multi_context=False)]
    out["group_heads_two_contexts"] = err(mx, mod.backward, heads)


def _metric_and_fit(mx, out, rng):
    mod = _bind(mx, _mlp(mx), [mx.cpu(0), mx.cpu(1)], 4)
    mod.init_params(mx.init.Constant(0.1))
    x = rng.standard_normal((4, 4)).astype(np.float32)
    batch = mx.io.DataBatch([mx.nd.array(x)], [mx.nd.array([0, 1, 2, 1])])
    mod.forward(batch, is_train=False)
    for average in ("macro", "micro"):
        metric = mx.metric.PearsonCorrelation(average=average, output_names=["softmax_output"])
        onehot = mx.nd.one_hot(mx.nd.array([0, 1, 2, 1]), 3)
        mod.update_metric(metric, [onehot])
        out[f"update_metric_pearson_{average}"] = [list(metric.get()), metric.num_inst]
    metric = mx.metric.create("acc")
    mod.update_metric(metric, [[mx.nd.array([0, 1])], [mx.nd.array([2, 2])]], pre_sliced=True)
    out["update_metric_pre_sliced"] = [list(metric.get()), metric.num_inst]
    mod = mx.mod.Module(_mlp(mx), context=[mx.cpu(0), mx.cpu(1)])
    data = rng.standard_normal((12, 4)).astype(np.float32)
    labels = (data[:, 0] > 0).astype(np.float32) + (data[:, 1] > 0)
    train = mx.io.NDArrayIter(data, labels, batch_size=4)
    mod.fit(train, num_epoch=2, optimizer_params=(("learning_rate", 0.5),),
            initializer=mx.init.Constant(0.05), eval_metric="ce")
    out["fit_params"] = {k: v.asnumpy() for k, v in sorted(mod.get_params()[0].items())}
    out["fit_score"] = mod.score(train, ["acc", "ce", "mcc"])
    out["fit_predict"] = mod.predict(train).asnumpy()


def run(mx):
    out = {}
    rng = np.random.RandomState(5)
    _errors(mx, out)
    _batchnorm(mx, out, rng)
    _heads_and_losses(mx, out, rng)
    _metric_and_fit(mx, out, rng)
    return out
