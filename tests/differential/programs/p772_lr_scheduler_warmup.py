"""Learning-rate schedulers beyond p205: PolyScheduler and CosineScheduler with linear and
constant warm-up, pwr=1, a warm-up as long as the schedule, counts that jump or go back, the
rate an optimizer applies at each update (times lr_mult) when a scheduler drives it, and
constructor errors."""
from _common import err


def sweep(sched, counts):
    return [sched(n) for n in counts]


def driven(mx, name, sched, steps=12):
    """The rate of index 0 (lr_mult 2) and of index 1 at each update of both."""
    opt = mx.optimizer.create(name, lr_scheduler=sched, param_idx2name={0: "a", 1: "b"})
    opt.set_lr_mult({"a": 2.0})
    rates = []
    for _ in range(steps):
        opt._update_count([0, 1])
        rates.append([opt._get_lr(0), opt._get_lr(1), opt.learning_rate])
    return rates


def run(mx):
    ls = mx.lr_scheduler
    counts = list(range(0, 30))
    out = {
        "poly_warmup_linear": sweep(ls.PolyScheduler(max_update=20, base_lr=1.0, pwr=2,
                                                     final_lr=0.1, warmup_steps=5,
                                                     warmup_begin_lr=0.2), counts),
        "poly_warmup_constant": sweep(ls.PolyScheduler(max_update=20, base_lr=1.0, pwr=1,
                                                       warmup_steps=4, warmup_begin_lr=0.05,
                                                       warmup_mode="constant"), counts),
        "poly_defaults": sweep(ls.PolyScheduler(max_update=10), counts),
        "cosine_plain": sweep(ls.CosineScheduler(max_update=16, base_lr=0.5, final_lr=0.01),
                              counts),
        "cosine_constant_warmup": sweep(ls.CosineScheduler(max_update=16, base_lr=0.5,
                                                           warmup_steps=6, warmup_begin_lr=0.1,
                                                           warmup_mode="constant"), counts),
        "cosine_back_and_forth": sweep(ls.CosineScheduler(max_update=10, base_lr=1.0),
                                       [3, 8, 2, 40, 5]),
        "multifactor_jump": sweep(ls.MultiFactorScheduler(step=[2, 4, 6], factor=0.5,
                                                          base_lr=1.0), [0, 7, 1, 3, 9]),
        "factor_warmup_past_step": sweep(ls.FactorScheduler(step=2, factor=0.5, base_lr=1.0,
                                                            warmup_steps=5), counts),
    }
    out["driven_sgd_factor"] = driven(mx, "sgd", ls.FactorScheduler(step=3, factor=0.5,
                                                                    base_lr=0.4))
    out["driven_rmsprop_cosine"] = driven(mx, "rmsprop", ls.CosineScheduler(
        max_update=8, base_lr=0.2, warmup_steps=2, warmup_begin_lr=0.05))
    out["driven_nag_poly"] = driven(mx, "nag", ls.PolyScheduler(max_update=6, base_lr=0.3))
    out["errors"] = {
        "poly_float_max_update": err(mx, ls.PolyScheduler, max_update=10.0),
        "cosine_zero": err(mx, ls.CosineScheduler, max_update=0),
        "cosine_warmup_mode": err(mx, ls.CosineScheduler, max_update=5, warmup_mode="exp"),
        "poly_warmup_float": err(mx, ls.PolyScheduler, max_update=5, warmup_steps=1.5),
        "multi_warmup_above_base": err(mx, ls.MultiFactorScheduler, step=[2], base_lr=0.1,
                                       warmup_begin_lr=0.2),
        "warmup_equal_max_update": err(mx, lambda: ls.PolyScheduler(max_update=4,
                                                                     warmup_steps=4)(5)),
    }
    return out
