"""Module(..., group2ctxs=...) with symbols made under mx.AttrScope(ctx_group=...): each
argument, its gradient and each output report the context its group maps to (one context,
two contexts with one map per context, a map shared by both), merged input gradients and
outputs the first context's group; the values equal a module bound without the map. A group the map does not name fails at bind
(a RuntimeError, as simple_bind's)."""
import numpy as np
from _common import err


def _sym(mx):
    with mx.AttrScope(ctx_group="dev1"):
        a = mx.sym.Variable("a")
        a = a * 2
    with mx.AttrScope(ctx_group="dev2"):
        b = mx.sym.Variable("b")
        c = a + b
    return c


def _run(mx, ctxs, group2ctxs):
    shape = (2, 5)
    rng = np.random.RandomState(1)
    values = [mx.nd.array(rng.rand(*shape)) for _ in range(2)]
    mod = mx.mod.Module(_sym(mx), context=ctxs, data_names=["a", "b"], label_names=None,
                        group2ctxs=group2ctxs)
    mod.bind(data_shapes=[["a", shape], ["b", shape]], inputs_need_grad=True)
    mod.init_params()
    mod.forward(mx.io.DataBatch(data=values), is_train=True)
    mod.backward([mx.nd.ones(shape) * 3])
    ctx = lambda arrays: [str(x.context) for x in arrays]
    return {
        "args": [{k: str(v.context) for k, v in e.arg_dict.items()} for e in mod._exec_group.execs],
        "grads": [{k: str(v.context) for k, v in e.grad_dict.items()}
                  for e in mod._exec_group.execs],
        "exec_outputs": [ctx(e.outputs) for e in mod._exec_group.execs],
        "outputs": ctx(mod.get_outputs()),
        "input_grads": ctx(mod.get_input_grads()),
        "input_grads_split": [ctx(g) for g in mod.get_input_grads(merge_multi_context=False)],
        "group2ctxs": [{k: str(v) for k, v in g.items()} if g else g
                       for g in mod._exec_group.group2ctxs],
        "values": [mod.get_outputs()[0].asnumpy(), [g.asnumpy() for g in mod.get_input_grads()]],
    }


def run(mx):
    return {
        "one": _run(mx, [mx.cpu(0)], {"dev1": mx.cpu(1), "dev2": mx.cpu(2)}),
        "two_lists": _run(mx, [mx.cpu(0), mx.cpu(1)], [{"dev1": mx.cpu(2), "dev2": mx.cpu(3)},
                                                       {"dev1": mx.cpu(4), "dev2": mx.cpu(5)}]),
        "two_shared": _run(mx, [mx.cpu(0), mx.cpu(1)], {"dev1": mx.cpu(2), "dev2": [mx.cpu(3)]}),
        "two_per_context": _run(mx, [mx.cpu(0), mx.cpu(1)],
                                {"dev1": [mx.cpu(2), mx.cpu(4)], "dev2": [mx.cpu(3), mx.cpu(5)]}),
        "group_without_context": err(mx, _run, mx, [mx.cpu(0)], {"dev1": mx.cpu(1)}),
        "none": _run(mx, [mx.cpu(0)], None),
    }
