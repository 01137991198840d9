"""Learning-rate schedulers at many update counts. FactorScheduler drops the rate when the count
*exceeds* count + step (so the first drop is at step + 1), clamps at stop_factor_lr, and keeps
its state (calling it with a smaller count does not raise the rate again). Warm-up, then
MultiFactorScheduler, PolyScheduler, CosineScheduler, and the constructors' errors."""
from _common import err


def sweep(sched, counts):
    return [sched(n) for n in counts]


def run(mx):
    ls = mx.lr_scheduler
    counts = list(range(0, 25))
    out = {
        "factor": sweep(ls.FactorScheduler(step=3, factor=0.5, base_lr=1.0), counts),
        "factor_defaults": sweep(ls.FactorScheduler(step=2), counts),
        "factor_stop": sweep(ls.FactorScheduler(step=1, factor=0.1, stop_factor_lr=1e-3,
                                                base_lr=1.0), counts),
        "factor_jump": sweep(ls.FactorScheduler(step=4, factor=0.5, base_lr=1.0),
                             [0, 17, 3, 18, 100]),
        "factor_warmup_linear": sweep(ls.FactorScheduler(step=5, factor=0.5, base_lr=0.8,
                                                         warmup_steps=4, warmup_begin_lr=0.2),
                                      counts),
        "factor_warmup_constant": sweep(ls.FactorScheduler(step=5, factor=0.5, base_lr=0.8,
                                                           warmup_steps=4, warmup_begin_lr=0.1,
                                                           warmup_mode="constant"), counts),
        "multifactor": sweep(ls.MultiFactorScheduler(step=[2, 5, 9], factor=0.5, base_lr=1.0),
                             counts),
        "multifactor_warmup": sweep(ls.MultiFactorScheduler(step=[6, 10], factor=0.1,
                                                            base_lr=0.5, warmup_steps=3),
                                    counts),
        "poly": sweep(ls.PolyScheduler(max_update=20, base_lr=1.0, pwr=2, final_lr=0.1), counts),
        "cosine": sweep(ls.CosineScheduler(max_update=20, base_lr=1.0, final_lr=0.0,
                                           warmup_steps=5, warmup_begin_lr=0.5), counts),
    }
    sched = ls.FactorScheduler(step=3, factor=0.5, base_lr=1.0)
    sweep(sched, counts)
    out["factor_state"] = [sched.count, sched.base_lr]
    out["errors"] = {
        "step_zero": err(mx, ls.FactorScheduler, step=0),
        "factor_above_one": err(mx, ls.FactorScheduler, step=2, factor=1.5),
        "warmup_begin_above_base": err(mx, ls.FactorScheduler, step=2, base_lr=0.1,
                                       warmup_begin_lr=0.5),
        "warmup_negative": err(mx, ls.FactorScheduler, step=2, warmup_steps=-1),
        "warmup_float": err(mx, ls.FactorScheduler, step=2, warmup_steps=2.0),
        "warmup_mode": err(mx, ls.FactorScheduler, step=2, warmup_mode="cubic"),
        "multi_not_increasing": err(mx, ls.MultiFactorScheduler, step=[3, 3]),
        "multi_step_zero": err(mx, ls.MultiFactorScheduler, step=[0, 3]),
        "multi_not_list": err(mx, ls.MultiFactorScheduler, step=(2, 3)),
        "multi_factor": err(mx, ls.MultiFactorScheduler, step=[2], factor=2.0),
        "base_call": err(mx, ls.LRScheduler(), 3),
        "poly_zero": err(mx, ls.PolyScheduler, max_update=0),
    }
    return out
