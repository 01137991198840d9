"""Module over two contexts (data parallelism, as DataParallelExecutorGroup does it): each batch
split across cpu(0) and cpu(1), outputs merged by concatenation or per context, input gradients
likewise, gradients summed before the update, and the parameters after two SGD-with-momentum
steps -- equal to one context's. Also uneven work_load_list slices and update_metric."""
import numpy as np

TOLERANCE = dict(rtol=2e-3, atol=2e-4)  # a whole network trained for two steps


def _net(mx):
    data = mx.sym.Variable("data")
    x = mx.sym.FullyConnected(data, num_hidden=5, name="fc1")
    x = mx.sym.Activation(x, act_type="tanh", name="tanh")
    x = mx.sym.FullyConnected(x, num_hidden=3, name="fc2")
    return mx.sym.SoftmaxOutput(x, name="softmax")


def _train(mx, contexts, work_load_list=None, batch=6):
    rng = np.random.RandomState(3)
    mod = mx.mod.Module(_net(mx), context=contexts, work_load_list=work_load_list)
    mod.bind(data_shapes=[("data", (batch, 4))], label_shapes=[("softmax_label", (batch,))],
             inputs_need_grad=True)
    shapes = dict(zip(mod.symbol.list_arguments(), mod.symbol.infer_shape(data=(batch, 4))[0]))
    args = {n: mx.nd.array(rng.standard_normal(shapes[n]) * 0.5)
            for n in ("fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias")}
    mod.init_params(arg_params=args)
    mod.init_optimizer(optimizer="sgd", optimizer_params=(("learning_rate", 0.1),
                                                          ("momentum", 0.9), ("wd", 0.01)))
    metric = mx.metric.create(["acc", "ce"])
    record = {}
    for step in range(2):
        data = mx.nd.array(rng.standard_normal((batch, 4)))
        label = mx.nd.array(rng.randint(0, 3, size=(batch,)))
        batch_ = mx.io.DataBatch(data=[data], label=[label])
        mod.forward(batch_, is_train=True)
        mod.backward()
        record[f"out{step}"] = mod.get_outputs()[0].asnumpy()
        record[f"input_grad{step}"] = mod.get_input_grads()[0].asnumpy()
        per_context = mod.get_outputs(merge_multi_context=False)
        record[f"out_split{step}"] = [[o.asnumpy() for o in outs] for outs in per_context]
        record[f"out_split_contexts{step}"] = [[str(o.context) for o in outs]
                                               for outs in per_context]
        grads = mod.get_input_grads(merge_multi_context=False)
        record[f"input_grad_split{step}"] = [[g.asnumpy() for g in gs] for gs in grads]
        mod.update_metric(metric, batch_.label)
        mod.update()
        arg_params, _ = mod.get_params()
        record[f"params{step}"] = {k: v.asnumpy() for k, v in sorted(arg_params.items())}
    record["metric"] = metric.get_name_value()
    record["output_shapes"] = [[n, list(s)] for n, s in mod.output_shapes]
    record["data_shapes"] = [[d.name, list(d.shape)] for d in mod.data_shapes]
    return record


def run(mx):
    return {
        "one": _train(mx, mx.cpu(0)),
        "two": _train(mx, [mx.cpu(0), mx.cpu(1)]),
        "three_uneven": _train(mx, [mx.cpu(0), mx.cpu(1), mx.cpu(2)], work_load_list=[1, 2, 3]),
        "two_weighted": _train(mx, [mx.cpu(0), mx.cpu(1)], work_load_list=[3, 1], batch=7),
    }
