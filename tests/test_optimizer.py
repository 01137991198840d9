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
    opt = mx.optimizer.SGD(
        learning_rate=1.0, wd=0.1, sym=net, param_idx2name={0: "fc_weight", 1: "fc_bias"}
    )
    assert opt.lr_mult == {"fc_weight": 2.0}
    assert opt.wd_mult == {"fc_bias": 0.5, "fc_weight": 3.0}  # the attribute beats the rule
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
    with pytest.raises(
        ValueError,
        match=r"Cannot find optimizer nosuch \(registered: adadelta, "
        r"adagrad, adam, adamax, ccsgd, ftml, ftrl, lamb, nadam, "
        r"nag, rmsprop, sgd, sgld, signum\)$",
    ):
        mx.optimizer.create("nosuch")
    with pytest.raises(AssertionError, match="param_idx2name should be a dict"):
        mx.optimizer.SGD(param_idx2name=[(0, "a")])

    @mx.optimizer.register
    class Halver(mx.optimizer.Optimizer):
        def update(self, index, weight, grad, state):
            weight[:] = weight.asnumpy() / 2

    try:
        opt = mx.optimizer.create("halver")
        weight = nd([4.0])
        mx.optimizer.get_updater(opt)(0, nd([0.0]), weight)
        close(weight, [2.0])
    finally:
        del mx.optimizer.Optimizer.opt_registry["halver"]  # other tests list the registry


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
    assert sched(1) == 1e-3  # never goes back up


def test_warmup():
    sched = mx.lr_scheduler.FactorScheduler(
        step=5, factor=0.5, base_lr=0.8, warmup_steps=4, warmup_begin_lr=0.2
    )
    assert [sched(n) for n in range(8)] == pytest.approx([0.2, 0.35, 0.5, 0.65, 0.8, 0.8, 0.4, 0.4])


def test_multifactor_scheduler():
    sched = mx.lr_scheduler.MultiFactorScheduler(step=[2, 5], factor=0.1, base_lr=1.0)
    assert [sched(n) for n in range(8)] == pytest.approx([1, 1, 1, 0.1, 0.1, 0.1, 0.01, 0.01])


@pytest.mark.parametrize(
    "make, text",
    [
        (lambda: mx.lr_scheduler.FactorScheduler(step=0), "greater or equal than 1"),
        (lambda: mx.lr_scheduler.FactorScheduler(step=2, factor=1.5), "no more than 1"),
        (
            lambda: mx.lr_scheduler.FactorScheduler(step=2, warmup_mode="cubic"),
            "linear and constant",
        ),
        (
            lambda: mx.lr_scheduler.FactorScheduler(step=2, base_lr=0.1, warmup_begin_lr=0.5),
            "higher than warmup_begin_lr",
        ),
        (lambda: mx.lr_scheduler.MultiFactorScheduler(step=[3, 3]), "increasing integer list"),
    ],
)
def test_scheduler_errors(make, text):
    with pytest.raises(ValueError, match=text):
        make()


# --- the other optimizers -----------------------------------------------------------------------
ALL_NAMES = [
    "sgd",
    "nag",
    "signum",
    "sgld",
    "adam",
    "adamax",
    "nadam",
    "lamb",
    "ftml",
    "adagrad",
    "rmsprop",
    "adadelta",
    "ftrl",
]


def test_registry_has_every_optimizer_by_case_insensitive_name():
    classes = {name: type(mx.optimizer.create(name.upper())) for name in ALL_NAMES}
    assert {n: c.__name__ for n, c in classes.items()} == {
        "sgd": "SGD",
        "nag": "NAG",
        "signum": "Signum",
        "sgld": "SGLD",
        "adam": "Adam",
        "adamax": "Adamax",
        "nadam": "Nadam",
        "lamb": "LAMB",
        "ftml": "FTML",
        "adagrad": "AdaGrad",
        "rmsprop": "RMSProp",
        "adadelta": "AdaDelta",
        "ftrl": "Ftrl",
    }
    assert all(getattr(mx.optimizer, c.__name__) is c for c in classes.values())
    assert mx.optimizer.create("RMSProp").lr == 0.001 and mx.optimizer.create("ftrl").lr == 0.1
    assert mx.optimizer.create("adamax").lr == 0.002 and mx.optimizer.create("nag").lr == 0.01
    old = mx.optimizer.create("ccSGD", momentum=0.9)
    assert isinstance(old, mx.optimizer.SGD) and type(old).__name__ == "ccSGD"


def test_nag_step_and_its_momentum():
    opt = mx.optimizer.NAG(learning_rate=0.1, momentum=0.5)
    weight = nd([1.0])
    state = opt.create_state(0, weight)
    opt.update(0, weight, nd([2.0]), state)
    # m = 0.5*0 - 0.1*2 = -0.2; w = 1 + 0.5*(-0.2) - 0.1*2 = 0.7
    close(state, [-0.2])
    close(weight, [0.7])
    opt.update(0, weight, nd([2.0]), state)
    # m = 0.5*(-0.2) - 0.2 = -0.3; w = 0.7 + 0.5*(-0.3) - 0.2 = 0.35
    close(state, [-0.3])
    close(weight, [0.35])
    assert mx.optimizer.NAG().create_state(0, weight) is None


def test_nag_weight_decay_in_the_momentum_reads_the_new_weight():
    # MXNet's kernel writes the weight in place before it updates the momentum
    opt = mx.optimizer.NAG(learning_rate=0.1, momentum=0.5, wd=1.0)
    weight = nd([1.0])
    state = opt.create_state(0, weight)
    opt.update(0, weight, nd([0.0]), state)
    # w = 1 - 0 + 1.5 * (0 - 0.1 * 1) = 0.85; m = 0 - 0.1 * (0 + 1 * 0.85)
    close(weight, [0.85])
    close(state, [-0.085])


def test_signum_moves_by_lr_along_the_sign():
    opt = mx.optimizer.Signum(learning_rate=0.1, momentum=0.9)
    weight = nd([1.0, 1.0, 1.0])
    state = opt.create_state(0, weight)
    opt.update(0, weight, nd([3.0, -0.001, 0.0]), state)
    close(state, [-0.3, 0.0001, 0.0])  # the state is minus the moving average
    close(weight, [0.9, 1.1, 1.0])
    sign_sgd = mx.optimizer.Signum(learning_rate=0.1, momentum=0.0, wd=0.5)
    weight = nd([1.0, 1.0])
    assert sign_sgd.create_state(0, weight) is None
    sign_sgd.update(0, weight, nd([-7.0, 2.0]), None)
    close(weight, [0.95 + 0.1, 0.95 - 0.1])


def test_sgld_is_half_a_step_plus_seeded_noise():
    def one_step():
        mx.random.seed(7)
        weight = mx.nd.zeros((20000,))
        mx.optimizer.SGLD(learning_rate=0.04).update(0, weight, mx.nd.ones((20000,)), None)
        return weight.asnumpy()

    first, second = one_step(), one_step()
    np.testing.assert_array_equal(first, second)
    noise = first + 0.02  # the gradient step is -lr/2 * 1
    assert abs(noise.mean()) < 0.01 and abs(noise.std() - 0.2) < 0.01


def test_adagrad_divides_by_the_root_of_the_summed_squares():
    opt = mx.optimizer.AdaGrad(learning_rate=0.1, eps=0.0)
    weight = nd([1.0])
    state = opt.create_state(0, weight)
    opt.update(0, weight, nd([3.0]), state)
    close(state, [9.0])
    close(weight, [0.9])
    opt.update(0, weight, nd([4.0]), state)
    close(state, [25.0])
    close(weight, [0.9 - 0.1 * 4 / 5])


def test_rmsprop_plain_and_centered():
    opt = mx.optimizer.RMSProp(learning_rate=0.1, gamma1=0.5, epsilon=0.0)
    weight = nd([1.0])
    (n,) = opt.create_state(0, weight)
    opt.update(0, weight, nd([2.0]), (n,))
    close(n, [2.0])  # 0.5 * 4
    close(weight, [1.0 - 0.1 * 2 / np.sqrt(2.0)])
    opt = mx.optimizer.RMSProp(
        learning_rate=0.1, gamma1=0.5, gamma2=0.9, epsilon=0.0, centered=True, clip_weights=0.95
    )
    weight = nd([1.0])
    n, g, delta = opt.create_state(0, weight)
    opt.update(0, weight, nd([2.0]), (n, g, delta))
    close(g, [1.0])
    # delta = -0.1 * 2 / sqrt(2 - 1) = -0.2; w = clip(0.8, 0.95)
    close(delta, [-0.2])
    close(weight, [0.8])
    weight = nd([1.0])
    opt.update(0, weight, nd([-30.0]), (n, g, delta))
    assert weight.asnumpy()[0] == pytest.approx(0.95)  # clip_weights bounds the weight


def test_adadelta_has_no_learning_rate_and_rescales_the_gradient_in_place():
    opt = mx.optimizer.AdaDelta(rho=0.5, epsilon=1.0, rescale_grad=0.5, learning_rate=123.0)
    weight, grad = nd([1.0]), nd([4.0])
    acc_g, acc_delta = opt.create_state(0, weight)
    opt.update(0, weight, grad, (acc_g, acc_delta))
    close(grad, [2.0])  # MXNet's `grad *= rescale_grad` changes the caller's gradient
    close(acc_g, [2.0])  # 0.5 * 2 * 2
    delta = np.sqrt(1.0) / np.sqrt(3.0) * 2
    close(acc_delta, [0.5 * delta * delta])
    close(weight, [1.0 - delta])


def test_adamax_uses_the_largest_gradient_seen():
    opt = mx.optimizer.Adamax(learning_rate=0.1, beta1=0.5, beta2=0.5)
    weight = nd([0.0])
    mean, norm = opt.create_state(0, weight)
    opt.update(0, weight, nd([4.0]), (mean, norm))
    close(mean, [2.0])
    close(norm, [4.0])
    close(weight, [-0.1 / 0.5 * 2.0 / 4.0])
    opt.update(0, weight, nd([1.0]), (mean, norm))
    close(norm, [2.0])  # max(0.5 * 4, 1)


def test_nadam_keeps_one_momentum_schedule_for_all_indices():
    opt = mx.optimizer.Nadam(learning_rate=0.01)
    w0, w1 = nd([1.0]), nd([1.0])
    s0, s1 = opt.create_state(0, w0), opt.create_state(1, w1)
    opt.update(0, w0, nd([1.0]), s0)
    after_one = opt.m_schedule
    assert after_one == pytest.approx(0.9 * (1 - 0.5 * 0.96**0.004))
    opt.update(1, w1, nd([1.0]), s1)
    assert opt.m_schedule == pytest.approx(after_one * after_one)
    assert w0.asnumpy()[0] != w1.asnumpy()[0]  # same gradient and t, another schedule


def test_lamb_scales_the_step_by_the_trust_ratio():
    opt = mx.optimizer.LAMB(learning_rate=0.1, epsilon=0.0)
    weight = nd([3.0, 4.0])  # ||w|| = 5
    state = opt.create_state(0, weight)
    opt.update(0, weight, nd([1.0, -1.0]), state)
    # bias-corrected m / sqrt(v) = sign(g): direction [1, -1], ||direction|| = sqrt(2)
    close(weight, [3.0 - 0.1 * 5 / np.sqrt(2), 4.0 + 0.1 * 5 / np.sqrt(2)])
    bounded = mx.optimizer.LAMB(learning_rate=0.1, epsilon=0.0, upper_bound=1.0)
    weight = nd([3.0, 4.0])
    bounded.update(0, weight, nd([1.0, -1.0]), bounded.create_state(0, weight))
    close(weight, [3.0 - 0.1 / np.sqrt(2), 4.0 + 0.1 / np.sqrt(2)])
    zero = nd([0.0, 0.0])  # ||w|| = 0: the ratio is 1
    opt.update(1, zero, nd([1.0, -1.0]), opt.create_state(1, zero))
    close(zero, [-0.1, 0.1])


def test_lamb_lists_give_the_single_results():
    single, listed = mx.optimizer.LAMB(learning_rate=0.1), mx.optimizer.LAMB(learning_rate=0.1)
    ws = [nd([1.0, 2.0]), nd([-3.0])]
    wl = [nd([1.0, 2.0]), nd([-3.0])]
    ss = [single.create_state(i, w) for i, w in enumerate(ws)]
    sl = [listed.create_state(i, w) for i, w in enumerate(wl)]
    for grads in ([[0.5, -1.0], [2.0]], [[1.0, 1.0], [-1.0]]):
        for i in range(2):
            single.update(i, ws[i], nd(grads[i]), ss[i])
        listed.update([0, 1], wl, [nd(g) for g in grads], sl)
    for a, b in zip(ws, wl):
        close(a, b.asnumpy())


def test_ftml_first_step_moves_by_lr():
    opt = mx.optimizer.FTML(learning_rate=0.1, epsilon=0.0)
    weight = nd([1.0])
    d, v, z = opt.create_state(0, weight)
    opt.update(0, weight, nd([2.0]), (d, v, z))
    # d_1 = (1 - 0.6) / 0.1 * |g| = 8; z = 0.4 * 2 - 8 * 1 = -7.2; w = 7.2 / 8
    close(d, [8.0])
    close(z, [-7.2])
    close(weight, [0.9])


def test_ftrl_zeroes_small_accumulated_gradients():
    opt = mx.optimizer.Ftrl(learning_rate=0.1, lamda1=1.0, beta=1.0)
    weight = nd([0.0, 0.0])
    z, n = opt.create_state(0, weight)
    opt.update(0, weight, nd([0.5, 3.0]), (z, n))
    close(z, [0.5, 3.0])
    close(n, [0.25, 9.0])
    # |z| <= lamda1 gives exactly 0; else (sign(z)*l1 - z) / ((beta + sqrt(n)) / lr)
    close(weight, [0.0, (1.0 - 3.0) / ((1.0 + 3.0) / 0.1)])


def test_python_side_optimizers_clip_whenever_clip_gradient_is_given():
    # AdaGrad (computed in Python in MXNet) clips at 0 too: the step is weight decay only;
    # RMSProp (a fused kernel) treats 0 as "no clipping"
    adagrad = mx.optimizer.AdaGrad(learning_rate=0.1, clip_gradient=0.0)
    weight = nd([1.0])
    adagrad.update(0, weight, nd([5.0]), adagrad.create_state(0, weight))
    close(weight, [1.0])
    rmsprop = mx.optimizer.RMSProp(learning_rate=0.1, clip_gradient=0.0)
    weight = nd([1.0])
    rmsprop.update(0, weight, nd([5.0]), rmsprop.create_state(0, weight))
    assert weight.asnumpy()[0] < 0.8


@pytest.mark.parametrize("name", ALL_NAMES)
def test_every_optimizer_runs_a_module_and_lowers_the_loss(name):
    rs = np.random.RandomState(0)
    x = rs.randn(40, 4).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.float32)
    net = mx.sym.SoftmaxOutput(
        mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=2, name="fc"), name="softmax"
    )
    mod = mx.mod.Module(net)
    mod.bind(data_shapes=[("data", (40, 4))], label_shapes=[("softmax_label", (40,))])
    mod.init_params(mx.init.Zero())
    rate = {"adadelta": 1.0, "sgld": 0.001}.get(name, 0.1)
    mod.init_optimizer(optimizer=name, optimizer_params=(("learning_rate", rate),))
    batch = mx.io.DataBatch([mx.nd.array(x)], [mx.nd.array(y)])

    def loss():
        mod.forward(batch, is_train=False)
        prob = mod.get_outputs()[0].asnumpy()
        return -np.log(prob[np.arange(40), y.astype(int)]).mean()

    before = loss()
    mx.random.seed(0)
    for _ in range(5):
        mod.forward(batch, is_train=True)
        mod.backward()
        mod.update()
    assert loss() < before


@pytest.mark.parametrize("name", ALL_NAMES)
def test_every_optimizer_accepts_multi_precision_float16(name):
    opt = mx.optimizer.create(name, multi_precision=True, learning_rate=0.01)
    weight = nd([1.0, -1.0], dtype="float16")
    state = opt.create_state_multi_precision(0, weight)
    opt.update_multi_precision(0, weight, nd([0.5, 0.5], dtype="float16"), state)
    assert weight.dtype == np.float16
    assert np.all(np.isfinite(weight.asnumpy()))
    assert not np.array_equal(weight.asnumpy(), [1.0, -1.0])


def test_update_refuses_numpy_arrays_naming_the_optimizer():
    opt = mx.optimizer.RMSProp()
    with pytest.raises(
        AssertionError,
        match=r"RMSProp.update takes NDArrays: weight is "
        r"ndarray, grad is NDArray \(wrap NumPy values",
    ):
        opt.update(0, np.ones(2), nd([1.0, 1.0]), opt.create_state(0, nd([1.0, 1.0])))


@pytest.mark.parametrize("name", ["sgd", "nag", "adam", "rmsprop"])
def test_the_float16_warning_points_at_the_learner_s_line(name):
    updater = mx.optimizer.get_updater(mx.optimizer.create(name))
    with pytest.warns(UserWarning, match="Consider using multi_precision=True") as record:
        updater(0, nd([1.0], dtype="float16"), nd([1.0], dtype="float16"))
    assert [w.filename for w in record] == [__file__]
