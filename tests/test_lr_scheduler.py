"""mx.lr_scheduler beyond FactorScheduler (whose tests are in test_optimizer.py): Poly and
Cosine schedules against their formulas, both warm-up modes on every scheduler, what happens
past max_update, and the constructors' errors."""

import math

import pytest

import minisym as mx

ls = mx.lr_scheduler


def test_poly_decays_to_final_lr_then_stays():
    sched = ls.PolyScheduler(max_update=10, base_lr=1.0, pwr=2, final_lr=0.1)
    expected = [0.1 + 0.9 * (1 - n / 10) ** 2 for n in range(11)]
    assert [sched(n) for n in range(11)] == pytest.approx(expected)
    assert sched(50) == pytest.approx(0.1)


def test_cosine_follows_half_a_cosine():
    sched = ls.CosineScheduler(max_update=8, base_lr=0.5, final_lr=0.1)
    expected = [0.1 + 0.4 * (1 + math.cos(math.pi * n / 8)) / 2 for n in range(9)]
    assert [sched(n) for n in range(9)] == pytest.approx(expected)
    assert sched(100) == pytest.approx(0.1)


def test_a_count_past_max_update_keeps_the_last_rate_computed():
    # like MXNet, the rate is only recomputed while num_update <= max_update
    sched = ls.CosineScheduler(max_update=10, base_lr=1.0)
    assert sched(3) == pytest.approx((1 + math.cos(math.pi * 0.3)) / 2)
    assert sched(40) == pytest.approx((1 + math.cos(math.pi * 0.3)) / 2)
    assert sched(10) == pytest.approx(0.0)
    assert sched(40) == pytest.approx(0.0)


@pytest.mark.parametrize(
    "make",
    [
        lambda **w: ls.FactorScheduler(step=100, base_lr=1.0, **w),
        lambda **w: ls.MultiFactorScheduler(step=[100], base_lr=1.0, **w),
        lambda **w: ls.PolyScheduler(max_update=100, base_lr=1.0, **w),
        lambda **w: ls.CosineScheduler(max_update=100, base_lr=1.0, **w),
    ],
)
def test_warmup_modes_on_every_scheduler(make):
    linear = make(warmup_steps=4, warmup_begin_lr=0.2)
    assert [linear(n) for n in range(4)] == pytest.approx([0.2, 0.4, 0.6, 0.8])
    assert linear(4) == pytest.approx(1.0)
    constant = make(warmup_steps=3, warmup_begin_lr=0.05, warmup_mode="constant")
    assert [constant(n) for n in range(3)] == [0.05, 0.05, 0.05]
    assert constant(3) == pytest.approx(1.0)


def test_decay_after_warmup_spans_the_remaining_updates():
    sched = ls.PolyScheduler(max_update=12, base_lr=1.0, pwr=1, warmup_steps=4)
    assert sched(4) == pytest.approx(1.0)
    assert sched(8) == pytest.approx(0.5)
    assert sched(12) == pytest.approx(0.0)


def test_a_scheduler_drives_every_optimizer():
    for name in ("nag", "rmsprop", "adagrad", "ftml", "lamb", "signum"):
        sched = ls.PolyScheduler(max_update=4, base_lr=0.4, pwr=1)
        opt = mx.optimizer.create(name, lr_scheduler=sched, learning_rate=0.4)
        opt._update_count(0)
        opt._update_count(0)
        assert opt._get_lr(0) == pytest.approx(0.2), name


@pytest.mark.parametrize(
    "make, kind, text",
    [
        (lambda: ls.PolyScheduler(max_update=0), ValueError, "strictly positive"),
        (lambda: ls.PolyScheduler(max_update=10.0), AssertionError, "max_update must be an int"),
        (
            lambda: ls.CosineScheduler(max_update=5, warmup_mode="exp"),
            ValueError,
            "linear and constant",
        ),
        (
            lambda: ls.CosineScheduler(max_update=5, warmup_steps=1.5),
            AssertionError,
            "warmup_steps must be an int, got float",
        ),
        (lambda: ls.PolyScheduler(max_update=5, warmup_steps=-2), ValueError, "positive or 0"),
        (
            lambda: ls.MultiFactorScheduler(step=[2], base_lr=0.1, warmup_begin_lr=0.2),
            ValueError,
            "higher than warmup_begin_lr",
        ),
        (lambda: ls.MultiFactorScheduler(step=(2, 3)), AssertionError, "non-empty list"),
        (lambda: ls.LRScheduler()(3), NotImplementedError, "must override"),
    ],
)
def test_constructor_errors(make, kind, text):
    with pytest.raises(kind, match=text):
        make()
