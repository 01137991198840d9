"""Module: bind, init_params with given values, init_optimizer (SGD with momentum and wd; Adam),
forward / backward / update twice, get_outputs, get_input_grads, get_params, update_metric,
score, predict, and data / label / output shapes."""
import numpy as np

TOLERANCE = dict(rtol=2e-3, atol=2e-4)  # a whole network trained for two steps


def _net(mx):
    data = mx.sym.Variable("data")
    x = mx.sym.Convolution(data, kernel=(3, 3), pad=(1, 1), num_filter=4, no_bias=True,
                           name="conv")
    x = mx.sym.BatchNorm(x, fix_gamma=False, name="bn")
    x = mx.sym.Activation(x, act_type="relu", name="relu")
    x = mx.sym.Pooling(x, kernel=(2, 2), stride=(2, 2), pool_type="max", name="pool")
    x = mx.sym.FullyConnected(mx.sym.Flatten(x), num_hidden=3, name="fc")
    return mx.sym.SoftmaxOutput(x, name="softmax")


def _params(mod, rng):
    """Seeded values for every parameter and auxiliary state of ``mod``."""
    arg_shapes, _, aux_shapes = mod.symbol.infer_shape(data=(4, 2, 6, 6))
    names = mod.symbol.list_arguments()
    args = {n: rng.standard_normal(s).astype(np.float32) * 0.3
            for n, s in zip(names, arg_shapes) if n not in ("data", "softmax_label")}
    aux = dict(zip(mod.symbol.list_auxiliary_states(),
                   [np.zeros(aux_shapes[0], np.float32), np.ones(aux_shapes[1], np.float32)]))
    return args, aux


def _steps(mx, optimizer, optimizer_params):
    rng = np.random.RandomState(0)
    mod = mx.mod.Module(_net(mx), data_names=("data",), label_names=("softmax_label",))
    mod.bind(data_shapes=[("data", (4, 2, 6, 6))], label_shapes=[("softmax_label", (4,))],
             inputs_need_grad=True)
    args, aux = _params(mod, rng)
    mod.init_params(arg_params={k: mx.nd.array(v) for k, v in args.items()},
                    aux_params={k: mx.nd.array(v) for k, v in aux.items()})
    mod.init_optimizer(optimizer=optimizer, optimizer_params=optimizer_params)
    metric = mx.metric.create("acc")
    record = {}
    for step in range(2):
        batch = mx.io.DataBatch(data=[mx.nd.array(rng.standard_normal((4, 2, 6, 6)))],
                                label=[mx.nd.array([0, 1, 2, 1])])
        mod.forward(batch, is_train=True)
        mod.backward()
        record[f"out{step}"] = mod.get_outputs()[0].asnumpy()
        record[f"input_grad{step}"] = mod.get_input_grads()[0].asnumpy()
        mod.update()
        mod.update_metric(metric, batch.label)
        arg_params, aux_params = mod.get_params()
        record[f"params{step}"] = {k: v.asnumpy() for k, v in sorted(arg_params.items())}
        record[f"aux{step}"] = {k: v.asnumpy() for k, v in sorted(aux_params.items())}
    record["metric"] = metric.get_name_value()
    return mod, record, rng


def run(mx):
    mod, sgd, rng = _steps(mx, "sgd", (("learning_rate", 0.1), ("momentum", 0.9), ("wd", 0.01)))
    _, adam, _ = _steps(mx, "adam", (("learning_rate", 0.01),))
    data = rng.standard_normal((8, 2, 6, 6)).astype(np.float32)
    labels = np.array([0, 1, 2, 0, 1, 2, 0, 1], np.float32)
    it = mx.io.NDArrayIter(data, labels, batch_size=4)
    return {
        "sgd": sgd,
        "adam": adam,
        "predict": mod.predict(it).asnumpy(),
        "score": mod.score(it, "acc"),
        "data_shapes": [[d.name, list(d.shape)] for d in mod.data_shapes],
        "label_shapes": [[d.name, list(d.shape)] for d in mod.label_shapes],
        "output_shapes": [[n, list(s)] for n, s in mod.output_shapes],
    }
