"""mx.optimizer and mx.lr_scheduler: update formulas against hand-computed values, the lr/wd
multiplier rules, update counts, the Updater, the registry and the errors."""
import numpy as np
import pytest

import minisym as mx


def nd(values, dtype="float32"):
    return mx.nd.array(np.array(values), dtype=dtype)


def close(arr, expected):
    np.testing.assert_allclose(arr.asnumpy(), expected, rtol=1e-6, atol=1e-7)


def test_sgd_rescales_then_clips_and_never_clips_weight_decay():
    opt = mx.optimizer.SGD(learning_rate=0.1, wd=0.1, rescale_grad=0.5, clip_gradient=1.0)
    weight = nd([1.0, -2.0])
    opt.update(0, weight, nd([4.0, -0.5]), None)
    # g = clip(0.5 * [4, -0.5], 1) = [1, -0.25]; w = (1 - 0.1*0.1) * w - 0.1 * g
    close(weight, [0.99 - 0.1, -1.98 + 0.025])


@pytest.mark.parametrize("clip", [None, 0.0, -1.0])
def test_clip_gradient_off(clip):
    weight = nd([0.0])
    mx.optimizer.SGD(learning_rate=1.0, clip_gradient=clip).update(0, weight, nd([5.0]), None)
    close(weight, [-5.0])


def test_sgd_momentum_state_is_the_negative_step():
    opt = mx.optimizer.SGD(learning_rate=0.1, momentum=0.9)
    weight = nd([0.0, 0.0])
    state = opt.create_state(0, weight)
    assert state.shape == (2,) and state.asnumpy().tolist() == [0.0, 0.0]
    opt.update(0, weight, nd([1.0, 2.0]), state)
    close(state, [-0.1, -0.2])
    opt.update(0, weight, nd([1.0, 2.0]), state)
    close(state, [-0.19, -0.38])
    close(weight, [-0.29, -0.58])


def test_sgd_without_momentum_has_no_state():
    assert mx.optimizer.SGD().create_state(0, nd([1.0])) is None


def test_adam_moves_by_lr_under_a_constant_gradient():
    # MXNet folds the bias correction into the rate: lr_t = lr*sqrt(1-b2^t)/(1-b1^t), so with a
    # constant gradient m_t/sqrt(v_t) * sqrt(1-b2^t)/(1-b1^t) = 1 and each step moves by lr.
    opt = mx.optimizer.Adam(learning_rate=0.1)
    weight = nd([1.0])
    state = opt.create_state(0, weight)
    opt.update(0, weight, nd([2.0]), state)
    close(state[0], [0.2])
    close(state[1], [0.004])
    np.testing.assert_allclose(weight.asnumpy(), [0.9], rtol=1e-5)
    opt.update(0, weight, nd([2.0]), state)
    close(state[0], [0.38])
    np.testing.assert_allclose(weight.asnumpy(), [0.8], rtol=1e-5)


def test_adam_clips_after_adding_weight_decay():
    opt = mx.optimizer.Adam(learning_rate=0.1, wd=0.1, rescale_grad=0.5, clip_gradient=1.0)
    weight = nd([1.0, -2.0])
    mean, var = opt.create_state(0, weight)
    opt.update(0, weight, nd([10.0, -0.5]), (mean, var))
    # g = clip(0.5*grad + 0.1*w, 1) = [1, -0.45]; mean = 0.1 * g
    close(mean, [0.1, -0.045])


def test_adam_t_is_counted_per_index():
    opt = mx.optimizer.Adam(learning_rate=0.1)
    w0, w1 = nd([0.0]), nd([0.0])
    s0, s1 = opt.create_state(0, w0), opt.create_state(1, w1)
    for _ in range(3):
        opt.update(0, w0, nd([1.0]), s0)
    opt.update(1, w1, nd([1.0]), s1)
    assert opt.num_update == 3 and opt._index_update_count == {0: 3, 1: 1}
    np.testing.assert_allclose(w1.asnumpy(), [-0.1], rtol=1e-5)


def test_wd_mult_zero_for_names_not_ending_weight_or_gamma():
    names = {0: "fc_weight", 1: "fc_bias", 2: "bn_gamma", 3: "bn_beta", 4: "other"}
    opt = mx.optimizer.SGD(wd=0.1, param_idx2name=names)
    assert [opt._get_wd(i) for i in range(6)] == [0.1, 0.0, 0.1, 0.0, 0.0, 0.1]
    assert opt.wd_mult == {"fc_bias": 0.0, "bn_beta": 0.0, "other": 0.0}
    assert [mx.optimizer.SGD(wd=0.1)._get_wd(i) for i in range(2)] == [0.1, 0.1]


def test_lr_and_wd_mult_from_symbol_attributes_and_setters():
    weight = mx.sym.Variable("fc_weight", lr_mult=2, wd_mult=3)
    bias = mx.sym.Variable("fc_bias", wd_mult=0.5)
    net = mx.sym.FullyConnected(mx.sym.Variable("data"), weight, bias, num_hidden=2, name="fc")
    opt = mx.optimizer.SGD(learning_rate=1.0, wd=0.1, sym=net,
                           param_idx2name={0: "fc_weight", 1: "fc_bias"})
    assert opt.lr_mult == {"fc_weight": 2.0}
    assert opt.wd_mult == {"fc_bias": 0.5, "fc_weight": 3.0}   # the attribute beats the rule
    assert opt._get_lr(0) == 2.0 and opt._get_lr(1) == 1.0
    assert opt._get_wd(0) == pytest.approx(0.3) and opt._get_wd(1) == pytest.approx(0.05)
    opt.set_lr_mult({1: 5.0})
    opt.set_wd_mult({"fc_weight": 0.0})
    assert opt._get_lr(1) == 5.0 and opt._get_lr(0) == 2.0 and opt._get_wd(0) == 0.0


def test_update_counts_and_begin_num_update():
    opt = mx.optimizer.SGD(learning_rate=0.1, begin_num_update=10)
    for index in (0, 1, 0):
        opt.update(index, nd([1.0]), nd([1.0]), None)
    assert opt.num_update == 12 and opt._index_update_count == {0: 12, 1: 11}


def test_scheduler_drives_the_learning_rate():
    sched = mx.lr_scheduler.FactorScheduler(step=2, factor=0.5, base_lr=1.0)
    opt = mx.optimizer.SGD(lr_scheduler=sched)
    assert opt.lr is None and opt.learning_rate == 1.0
    weight = nd([0.0])
    for _ in range(3):
        opt.update(0, weight, nd([1.0]), None)
    close(weight, [-2.5])  # rates 1, 1, 0.5
    with pytest.raises(UserWarning):
        opt.set_learning_rate(0.1)


def test_learning_rate_overrides_the_scheduler_base(capsys):
    sched = mx.lr_scheduler.FactorScheduler(step=2, base_lr=1.0)
    mx.optimizer.SGD(lr_scheduler=sched, learning_rate=0.3)
    assert sched.base_lr == 0.3
    assert "overwritten" in capsys.readouterr().out


def test_registry():
    assert type(mx.optimizer.create("SGD")) is mx.optimizer.SGD
    assert mx.optimizer.create("adam", learning_rate=0.5).lr == 0.5
    assert mx.optimizer.Adam().lr == 0.001 and mx.optimizer.SGD().lr == 0.01
    with pytest.raises(ValueError, match="Cannot find optimizer nosuch"):
        mx.optimizer.create("nosuch")
    with pytest.raises(AssertionError, match="param_idx2name should be a dict"):
        mx.optimizer.SGD(param_idx2name=[(0, "a")])

    @mx.optimizer.register
    class Halver(mx.optimizer.Optimizer):
        def update(self, index, weight, grad, state):
            weight[:] = weight.asnumpy() / 2
    opt = mx.optimizer.create("halver")
    weight = nd([4.0])
    mx.optimizer.get_updater(opt)(0, nd([0.0]), weight)
    close(weight, [2.0])


def test_updater_keeps_one_state_per_index():
    updater = mx.optimizer.get_updater(mx.optimizer.SGD(learning_rate=0.1, momentum=0.5))
    w0, w1 = nd([0.0]), nd([0.0, 0.0])
    updater(0, nd([1.0]), w0)
    updater(1, nd([1.0, 1.0]), w1)
    updater(0, nd([1.0]), w0)
    assert sorted(updater.states) == [0, 1]
    close(updater.states[0], [-0.15])
    close(w0, [-0.25])
    # lists of indices (aggregated by SGD) give the same result as single calls
    single = mx.optimizer.get_updater(mx.optimizer.SGD(learning_rate=0.1, momentum=0.5))
    listed = mx.optimizer.get_updater(mx.optimizer.SGD(learning_rate=0.1, momentum=0.5))
    ws_single = [nd([float(i)]) for i in range(6)]
    ws_listed = [nd([float(i)]) for i in range(6)]
    for _ in range(2):
        for i in range(6):
            single(i, nd([i + 1.0]), ws_single[i])
        listed(list(range(6)), [nd([i + 1.0]) for i in range(6)], ws_listed)
    for a, b in zip(ws_single, ws_listed):
        close(a, b.asnumpy())


def test_updater_states_round_trip():
    updater = mx.optimizer.get_updater(mx.optimizer.Adam(learning_rate=0.1))
    updater(0, nd([1.0]), nd([0.0]))
    restored = mx.optimizer.get_updater(mx.optimizer.Adam(learning_rate=0.1))
    restored.set_states(updater.get_states())
    close(restored.states[0][0], updater.states[0][0].asnumpy())
    restored.set_states(updater.get_states(dump_optimizer=True))
    assert isinstance(restored.optimizer, mx.optimizer.Adam)


def test_float16_multi_precision_keeps_a_float32_master_copy():
    opt = mx.optimizer.SGD(learning_rate=0.1, momentum=0.9, multi_precision=True)
    weight = nd([1.0], dtype="float16")
    state = opt.create_state_multi_precision(0, weight)
    assert state[1].dtype == np.float32
    opt.update_multi_precision(0, weight, nd([1.0], dtype="float16"), state)
    assert weight.dtype == np.float16
    np.testing.assert_allclose(weight.asnumpy().astype(np.float32), [0.9], rtol=1e-3)
    with pytest.warns(UserWarning, match="float16"):
        mx.optimizer.SGD().create_state_multi_precision(0, nd([1.0], dtype="float16"))


# --- lr_scheduler -------------------------------------------------------------------------------
def test_factor_scheduler_drops_after_each_step():
    sched = mx.lr_scheduler.FactorScheduler(step=3, factor=0.5, base_lr=1.0)
    assert [sched(n) for n in range(11)] == [1, 1, 1, 1, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25, 0.125]


def test_factor_scheduler_is_stateful_and_clamped():
    sched = mx.lr_scheduler.FactorScheduler(step=1, factor=0.1, stop_factor_lr=1e-3, base_lr=1)
    assert sched(10) == 1e-3
    assert sched(1) == 1e-3   # never goes back up


def test_warmup():
    sched = mx.lr_scheduler.FactorScheduler(step=5, factor=0.5, base_lr=0.8, warmup_steps=4,
                                            warmup_begin_lr=0.2)
    assert [sched(n) for n in range(8)] == pytest.approx([0.2, 0.35, 0.5, 0.65, 0.8, 0.8,
                                                          0.4, 0.4])


def test_multifactor_scheduler():
    sched = mx.lr_scheduler.MultiFactorScheduler(step=[2, 5], factor=0.1, base_lr=1.0)
    assert [sched(n) for n in range(8)] == pytest.approx([1, 1, 1, 0.1, 0.1, 0.1, 0.01, 0.01])


@pytest.mark.parametrize("make, text", [
    (lambda: mx.lr_scheduler.FactorScheduler(step=0), "greater or equal than 1"),
    (lambda: mx.lr_scheduler.FactorScheduler(step=2, factor=1.5), "no more than 1"),
    (lambda: mx.lr_scheduler.FactorScheduler(step=2, warmup_mode="cubic"), "linear and constant"),
    (lambda: mx.lr_scheduler.FactorScheduler(step=2, base_lr=0.1, warmup_begin_lr=0.5),
     "higher than warmup_begin_lr"),
    (lambda: mx.lr_scheduler.MultiFactorScheduler(step=[3, 3]), "increasing integer list"),
])
def test_scheduler_errors(make, text):
    with pytest.raises(ValueError, match=text):
        make()
