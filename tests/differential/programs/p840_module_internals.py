"""What MXNet's own Module tests read inside a Module: DataParallelExecutorGroup's names,
grad_req, slices, layouts and per-context array lists (param/grad/aux/data/label, None for a
fixed parameter's gradient), the optimizer's idx2name from the group's param_names, and
mod._kvstore / mod._update_on_kvstore before and after init_optimizer on one context and on two
(a 'local' KVStore that holds the updater, the Module's own _updater then None)."""
import numpy as np


def _net(mx):
    data = mx.sym.Variable("data")
    fc = mx.sym.FullyConnected(data, num_hidden=3, name="fc")
    bn = mx.sym.BatchNorm(fc, name="bn")
    return mx.sym.SoftmaxOutput(bn, name="softmax")


def _shapes(lists):
    return [[None if a is None else list(a.shape) for a in per_context] for per_context in lists]


def _group(eg):
    return {
        "class": type(eg).__name__,
        "names": {k: list(getattr(eg, k)) for k in ("param_names", "arg_names", "aux_names",
                                                     "data_names", "label_names",
                                                     "output_names", "fixed_param_names",
                                                     "state_names")},
        "grad_req": dict(eg.grad_req),
        "flags": [eg.for_training, eg.inputs_need_grad, eg.batch_size, eg.num_outputs],
        "slices": [[s.start, s.stop] for s in eg.slices],
        "layouts": [eg.data_layouts, eg.label_layouts, eg.output_layouts],
        "workload": list(eg.workload),
        "contexts": [str(c) for c in eg.contexts],
        "group2ctxs": [g for g in eg.group2ctxs],
        "data_shapes": [[d.name, list(d.shape)] for d in eg.data_shapes],
        "label_shapes": [[d.name, list(d.shape)] for d in eg.label_shapes],
        "param_arrays": _shapes(eg.param_arrays),
        "grad_arrays": _shapes(eg.grad_arrays),
        "aux_arrays": _shapes(eg.aux_arrays),
        "state_arrays": eg.state_arrays,
        "input_grad_arrays": eg.input_grad_arrays,
        "data_arrays": [[[s.start, s.stop, list(a.shape)] for s, a in d] for d in eg.data_arrays],
        "label_arrays": [[[s.start, s.stop, list(a.shape)] for s, a in d]
                         for d in eg.label_arrays],
        "shared_data_arrays": [sorted(d) for d in eg.shared_data_arrays],
        "execs": len(eg.execs),
    }


def _module(mx, context, kvstore="local"):
    mod = mx.mod.Module(_net(mx), context=context, fixed_param_names=["bn_beta"])
    out = {"before_bind": [mod._kvstore, mod._update_on_kvstore]}
    mod.bind(data_shapes=[("data", (4, 5))], label_shapes=[("softmax_label", (4,))])
    mod.init_params()
    out["before_optimizer"] = [mod._kvstore, mod._update_on_kvstore]
    mod.init_optimizer(kvstore=kvstore, optimizer_params={"learning_rate": 0.1, "momentum": 0.9})
    kv = mod._kvstore
    out["kvstore"] = None if kv is None else {"type": kv.type,
                                              "has_updater": kv._updater is not None}
    out["update_on_kvstore"] = mod._update_on_kvstore
    out["module_updater"] = mod._updater is not None
    out["idx2name"] = {str(k): v for k, v in mod._optimizer.idx2name.items()}
    out["idx2name_is_param_names"] = (mod._optimizer.idx2name
                                      == dict(enumerate(mod._exec_group.param_names)))
    out["group"] = _group(mod._exec_group)
    rng = np.random.RandomState(0)
    batch = mx.io.DataBatch([mx.nd.array(rng.rand(4, 5))], [mx.nd.array([0, 1, 2, 0])])
    mod.forward_backward(batch)
    mod.update()
    states = mod._kvstore._updater.states if mod._update_on_kvstore else mod._updater.states
    out["states"] = sorted(str(k) for k in states)
    return out


def run(mx):
    return {
        "one_context": _module(mx, mx.cpu()),
        "one_context_device": _module(mx, mx.cpu(), kvstore="device"),
        "one_context_no_kvstore": _module(mx, mx.cpu(), kvstore=None),
        "two_contexts": _module(mx, [mx.cpu(0), mx.cpu(1)]),
        "two_contexts_no_kvstore": _module(mx, [mx.cpu(0), mx.cpu(1)], kvstore=None),
    }
