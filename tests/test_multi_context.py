"""Module over several contexts: the batch split by work_load_list as MXNet splits it, results
equal to one context's, per-context outputs and gradients, metrics per slice, and the messages
for a batch that cannot be split or a work_load_list that does not fit."""

import warnings

import numpy as np
import pytest

import minisym as mx
from minisym.module.executor_group import split_batch

TWO = [mx.cpu(0), mx.cpu(1)]


def mlp():
    data = mx.sym.Variable("data")
    x = mx.sym.FullyConnected(data, num_hidden=5, name="fc1")
    x = mx.sym.Activation(x, act_type="tanh", name="tanh")
    x = mx.sym.FullyConnected(x, num_hidden=3, name="fc2")
    return mx.sym.SoftmaxOutput(x, name="softmax")


def bound(contexts, batch=6, work_load_list=None, sym=None, group2ctxs=None, **bind_kwargs):
    mod = mx.mod.Module(
        mlp() if sym is None else sym,
        context=contexts,
        work_load_list=work_load_list,
        group2ctxs=group2ctxs,
    )
    mod.bind(
        data_shapes=[("data", (batch, 4))],
        label_shapes=[("softmax_label", (batch,))],
        **bind_kwargs,
    )
    return mod


def batch_of(rng, size):
    return mx.io.DataBatch(
        [mx.nd.array(rng.standard_normal((size, 4)))], [mx.nd.array(rng.randint(0, 3, size=size))]
    )


def train(contexts, work_load_list=None, batch=6, steps=2):
    """Outputs, input gradients and parameters after SGD-with-momentum steps."""
    rng = np.random.RandomState(0)
    mod = bound(contexts, batch, work_load_list, inputs_need_grad=True)
    mod.init_params(mx.init.Xavier(rnd_type="gaussian", magnitude=2))
    mod.set_params(
        {
            n: mx.nd.array(rng.standard_normal(a.shape) * 0.5)
            for n, a in mod.get_params()[0].items()
        },
        {},
    )
    mod.init_optimizer(optimizer_params=(("learning_rate", 0.1), ("momentum", 0.9), ("wd", 0.01)))
    seen = []
    for _ in range(steps):
        mod.forward(batch_of(rng, batch), is_train=True)
        mod.backward()
        seen.append((mod.get_outputs()[0].asnumpy(), mod.get_input_grads()[0].asnumpy()))
        mod.update()
    return mod, seen, {k: v.asnumpy() for k, v in mod.get_params()[0].items()}


@pytest.mark.parametrize(
    "contexts, work_load_list, batch",
    [
        (TWO, None, 6),
        ([mx.cpu(i) for i in range(3)], [1, 2, 3], 6),
        (TWO, [3, 1], 7),
        ("gpu", None, 4),
    ],
)
def test_several_contexts_train_like_one(contexts, work_load_list, batch):
    if contexts == "gpu":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the once-only "no GPU backend" note
            contexts = [mx.gpu(0), mx.gpu(1)]
    _, one_seen, one_params = train(mx.cpu(), batch=batch)
    mod, seen, params = train(contexts, work_load_list, batch)
    for (out, grad), (out1, grad1) in zip(seen, one_seen):
        np.testing.assert_allclose(out, out1, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(grad, grad1, rtol=1e-5, atol=1e-6)
    for name, value in one_params.items():
        np.testing.assert_allclose(params[name], value, rtol=1e-5, atol=1e-6)
    for executor in mod._exec_group.execs[1:]:  # every context holds the same weights
        np.testing.assert_array_equal(
            executor.arg_dict["fc1_weight"].asnumpy(), mod.executor.arg_dict["fc1_weight"].asnumpy()
        )


def test_batch_is_split_as_mxnet_splits_it():
    contexts = [mx.cpu(i) for i in range(4)]
    assert split_batch(6, [1, 2, 3], contexts[:3]) == [slice(0, 1), slice(1, 3), slice(3, 6)]
    assert split_batch(7, [3, 1], TWO) == [slice(0, 5), slice(5, 7)]
    assert split_batch(5, [1, 1], TWO) == [slice(0, 2), slice(2, 5)]  # round half to even
    assert split_batch(5, [1] * 4, contexts) == [slice(0, 1), slice(1, 2), slice(2, 3), slice(3, 5)]
    mod = bound([mx.cpu(i) for i in range(3)], batch=6, work_load_list=[1, 2, 3])
    assert [e.arg_dict["data"].shape for e in mod._exec_group.execs] == [(1, 4), (2, 4), (3, 4)]
    assert mod.output_shapes == [("softmax_output", (6, 3))]


def test_outputs_and_input_grads_per_context():
    rng = np.random.RandomState(1)
    mod = bound(TWO, batch=5, inputs_need_grad=True)
    mod.init_params()
    mod.forward(batch_of(rng, 5), is_train=True)
    mod.backward()
    split = mod.get_outputs(merge_multi_context=False)
    assert [[o.shape for o in outs] for outs in split] == [[(2, 3), (3, 3)]]
    assert [[str(o.context) for o in outs] for outs in split] == [["cpu(0)", "cpu(1)"]]
    np.testing.assert_array_equal(
        np.concatenate([o.asnumpy() for o in split[0]]), mod.get_outputs()[0].asnumpy()
    )
    grads = mod.get_input_grads(merge_multi_context=False)
    assert [[g.shape for g in gs] for gs in grads] == [[(2, 4), (3, 4)]]
    assert mod.get_input_grads()[0].shape == (5, 4)
    assert mod.executor is mod._exec_group.execs[0]  # what the widgets show: the first context


def test_update_metric_runs_once_per_context_slice():
    rng = np.random.RandomState(2)
    mod = bound(TWO, batch=4)
    mod.init_params()
    batch = batch_of(rng, 4)
    mod.forward(batch, is_train=False)
    acc, mse = mx.metric.Accuracy(), mx.metric.MSE()
    mod.update_metric(acc, batch.label)
    mod.update_metric(mse, [mx.nd.one_hot(batch.label[0], 3)])
    assert acc.num_inst == 4  # per sample: the same as one context
    assert mse.num_inst == 2  # per array: one per context, as in MXNet
    pre = mx.metric.Accuracy()
    mod.update_metric(pre, [[batch.label[0][:2]], [batch.label[0][2:]]], pre_sliced=True)
    assert pre.get() == acc.get()


def test_batchnorm_statistics_are_averaged_over_contexts():
    data = mx.sym.Variable("data")
    net = mx.sym.BatchNorm(
        mx.sym.FullyConnected(data, num_hidden=2, name="fc"),
        fix_gamma=False,
        momentum=0.0,
        name="bn",
    )
    net = mx.sym.SoftmaxOutput(net, name="softmax")
    mod = bound(TWO, batch=4, sym=net)
    mod.init_params(mx.init.Constant(0.5))
    x = np.array([[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [5, 5, 5, 5]], np.float32)
    mod.forward(mx.io.DataBatch([mx.nd.array(x)], [mx.nd.array([0, 1, 0, 1])]), is_train=True)
    mod.backward()  # MXNet's CPU path updates them here
    mod.init_optimizer(optimizer_params=(("learning_rate", 0.0),))
    mod.update()  # get_params reads the contexts after one
    fc = x.sum(axis=1) * 0.5  # every unit the same (biases start at 0)
    slices = [fc[:2], fc[2:]]  # momentum 0: each context's batch statistics
    aux = mod.get_params()[1]
    np.testing.assert_allclose(
        aux["bn_moving_mean"].asnumpy(), np.mean([s.mean() for s in slices]), rtol=1e-6
    )
    np.testing.assert_allclose(
        aux["bn_moving_var"].asnumpy(),  # (1 + 9) / 2, not var(fc) = 14
        np.mean([s.var() for s in slices]),
        rtol=1e-5,
    )


def test_a_batch_smaller_than_the_contexts_is_refused_with_the_fix():
    three = [mx.cpu(i) for i in range(3)]
    with pytest.raises(ValueError) as info:
        bound(three, batch=2)
    text = str(info.value)
    assert text.startswith("Too many slices. Some splits are empty.")
    assert "Module.bind: a batch of 2 split over 3 contexts [cpu(0), cpu(1), cpu(2)]" in text
    assert "gives them 1, 1, 0 examples" in text and "a batch of at least 3" in text
    assert "last_batch_handle='pad'" in text
    mod = bound(TWO, batch=4)
    mod.init_params()
    before = mod._exec_group
    with pytest.raises(ValueError, match=r"Module.forward: a batch of 1 split over 2 contexts"):
        mod.forward(mx.io.DataBatch([mx.nd.ones((1, 4))], [mx.nd.array([0])]), is_train=False)
    assert mod._exec_group is before and mod.data_shapes[0].shape == (4, 4)
    mod.forward(mx.io.DataBatch([mx.nd.ones((3, 4))], [mx.nd.array([0, 1, 2])]))
    assert [[o.shape for o in outs] for outs in mod.get_outputs(False)] == [[(2, 3), (1, 3)]]


def test_work_load_list_mistakes():
    with pytest.raises(AssertionError) as info:
        mx.mod.Module(mlp(), context=TWO, work_load_list=[1])
    assert str(info.value) == (
        "Module: work_load_list=[1] gives 1 share(s) for 2 context(s) [cpu(0), cpu(1)]: give "
        "one number per context, e.g. work_load_list=[1, 1] (each context gets that share of "
        "every batch)"
    )
    with pytest.raises(
        ZeroDivisionError,
        match=r"work_load_list=\[1, -1\] adds up to 0, so no "
        r"context .* e.g. work_load_list=\[1, 1\]$",
    ):
        bound(TWO, batch=4, work_load_list=[1, -1])
    with pytest.raises(ValueError, match="gives them 4, 0 examples"):
        bound(TWO, batch=4, work_load_list=[1, 0])
    with pytest.raises(ValueError, match="context must be a context or a list of contexts"):
        mx.mod.Module(mlp(), context="cpu")


def test_head_gradients_are_cut_like_the_batch():
    data = mx.sym.Variable("data")
    fc = mx.sym.FullyConnected(data, num_hidden=2, name="fc1")
    net = mx.sym.Group([fc, mx.sym.MakeLoss(mx.sym.sum(fc), name="total")])
    mod = mx.mod.Module(net, label_names=None, context=TWO)
    mod.bind(data_shapes=[("data", (4, 3))])
    mod.init_params()
    mod.forward(mx.io.DataBatch([mx.nd.ones((4, 3))], None), is_train=True)
    assert mod.output_shapes == [("fc1_output", (4, 2)), ("total_output", (4,))]  # MXNet's
    assert mod.get_outputs()[1].shape == (2,)  # one summed loss per context
    with pytest.raises(mx.base.MXNetError) as info:
        mod.backward([mx.nd.ones((4, 2)), mx.nd.array([1.0])])
    text = str(info.value)
    assert "Module.backward: out_grads[1] (for 'total_output') has shape (1,)" in text
    assert "(4 examples: 0:2, 2:4)" in text and "run on one context" in text
    single = mx.mod.Module(mx.sym.Group([fc]), label_names=None, context=TWO)
    single.bind(data_shapes=[("data", (4, 3))])
    single.init_params(mx.init.Constant(1.0))
    single.forward(mx.io.DataBatch([mx.nd.ones((4, 3))], None), is_train=True)
    single.backward([mx.nd.array(np.arange(8).reshape(4, 2))])
    weight_grads = [e.grad_dict["fc1_weight"].asnumpy() for e in single._exec_group.execs]
    np.testing.assert_array_equal(weight_grads[0], [[2, 2, 2], [4, 4, 4]])  # rows 0 and 1
    np.testing.assert_array_equal(weight_grads[1], [[10, 10, 10], [12, 12, 12]])


def test_group2ctxs_is_checked_as_mxnet_checks_it():
    with pytest.raises(AssertionError, match="length of group2ctxs should be 2"):
        bound(TWO, batch=4, group2ctxs=[{"dev": mx.cpu(0)}])
    with pytest.raises(AssertionError, match=r"length of group2ctxs\[dev\] should be 2 or 1"):
        bound(TWO, batch=4, group2ctxs={"dev": [mx.cpu(0), mx.cpu(1), mx.cpu(2)]})
    mod = bound(TWO, batch=4, group2ctxs={"dev": mx.cpu(3)})
    assert mod._exec_group.group2ctxs == [{"dev": mx.cpu(3)}, {"dev": mx.cpu(3)}]


def test_fit_and_monitor_over_two_contexts():
    rng = np.random.RandomState(4)
    x = rng.standard_normal((12, 4)).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.float32)
    results = []
    for contexts in (mx.cpu(), TWO):
        train_iter = mx.io.NDArrayIter(x, y, batch_size=4)
        mod = mx.mod.Module(mlp(), context=contexts)
        mod.fit(
            train_iter,
            num_epoch=2,
            optimizer_params=(("learning_rate", 0.5),),
            initializer=mx.init.Constant(0.05),
            progress_bar="off",
        )
        results.append(
            (mod.score(train_iter, "ce")[0][1], mod.get_params()[0]["fc1_weight"].asnumpy())
        )
    assert results[1][0] == pytest.approx(results[0][0], rel=1e-5)
    np.testing.assert_allclose(results[1][1], results[0][1], rtol=1e-5, atol=1e-6)
    seen = []
    mon = mx.mon.Monitor(1, pattern="fc1_output", stat_func=lambda a: mx.nd.array([a.shape[0]]))
    mod.install_monitor(mon)
    mon.tic()
    train_iter.reset()
    mod.forward(next(iter(train_iter)), is_train=False)
    seen = [(name, value) for _, name, value in mon.toc()]
    assert len(seen) == 2  # one per context's executor


@pytest.mark.parametrize("contexts", [mx.cpu(), TWO])
def test_a_label_with_fewer_examples_than_the_data_is_refused(contexts):
    mod = bound(contexts, batch=4)
    mod.init_params()
    weights = mod.get_params()[0]["fc1_weight"].asnumpy().copy()
    before = [e.arg_dict["softmax_label"].asnumpy().copy() for e in mod._exec_group.execs]
    with pytest.raises(mx.base.MXNetError) as info:  # MXNet: an MXNetError too
        mod.forward(mx.io.DataBatch([mx.nd.ones((4, 4))], [mx.nd.array([0, 1, 2])]))
    assert isinstance(info.value, ValueError)
    assert str(info.value) == (
        "Module.forward: label 'softmax_label' has shape (3,) (3 examples along axis 0), but "
        "the batch has 4 (data 'data' (4, 4)): every data and label array of a batch needs the "
        "same number of examples. Check where the batch comes from (NDArrayIter(data, label) "
        "needs one label per example); nothing was copied."
    )
    after = [e.arg_dict["softmax_label"].asnumpy() for e in mod._exec_group.execs]
    assert all((a == b).all() for a, b in zip(after, before))
    np.testing.assert_array_equal(mod.get_params()[0]["fc1_weight"].asnumpy(), weights)


def test_context_helpers_of_a_machine_without_gpus():
    assert mx.context.num_gpus() == 0
    contexts = [mx.cpu(i) for i in range(2)] if mx.context.num_gpus() == 0 else None
    assert contexts == TWO  # the usual "GPUs, else CPUs" line works
    assert str(mx.context.cpu_pinned(1)) == "cpu_pinned(1)"
    with pytest.raises(KeyError, match=r"unknown device type 'tpu'; use one of .*mx.gpu\(0\)"):
        mx.context.Context("tpu", 0)
    with pytest.raises(mx.base.MXNetError, match=r"gpu_memory_info\(0\): minisym has no GPU"):
        mx.context.gpu_memory_info(0)
    with pytest.raises(mx.base.MXNetError, match=r"cpu\(0\).empty_cache\(\): only a GPU"):
        mx.cpu().empty_cache()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the once-only "no GPU backend" note
        gpu = mx.gpu(0)
    assert gpu.empty_cache() is None  # GPU code runs as typed: nothing to free
