"""The optimizer registry and base-class rules: create by (case-insensitive) name, defaults,
the learning_rate property, set_learning_rate, lr_scheduler, begin_num_update, errors."""
from _common import err


def run(mx):
    out = {}
    for name in ("sgd", "SGD", "Adam", "adam"):
        opt = mx.optimizer.create(name)
        out["create_" + name] = [type(opt).__name__, opt.learning_rate, opt.wd,
                                 opt.rescale_grad, opt.clip_gradient, opt.num_update]
    opt = mx.optimizer.Optimizer.create_optimizer("sgd", learning_rate=0.3, momentum=0.8)
    out["create_kwargs"] = [opt.lr, opt.momentum]
    out["unknown"] = err(mx, mx.optimizer.create, "nosuchopt")
    out["bad_idx2name"] = err(mx, mx.optimizer.SGD, param_idx2name=[("a", 1)])
    out["base_update"] = err(mx, mx.optimizer.Optimizer().update, 0, mx.nd.ones((1,)),
                             mx.nd.ones((1,)), None)
    out["base_state"] = mx.optimizer.Optimizer().create_state(0, mx.nd.ones((1,)))
    out["sgd_state_none"] = mx.optimizer.SGD().create_state(0, mx.nd.ones((1,))) is None
    out["sgd_defaults"] = [mx.optimizer.SGD().momentum, mx.optimizer.SGD().lazy_update]
    out["adam_defaults"] = [mx.optimizer.Adam().beta1, mx.optimizer.Adam().beta2,
                            mx.optimizer.Adam().epsilon]

    opt = mx.optimizer.SGD(learning_rate=0.2)
    opt.set_learning_rate(0.05)
    out["set_learning_rate"] = [opt.lr, opt.learning_rate]

    sched = mx.lr_scheduler.FactorScheduler(step=2, factor=0.5, base_lr=1.0)
    opt = mx.optimizer.SGD(lr_scheduler=sched)
    out["scheduler_lr"] = [opt.lr, opt.learning_rate]
    out["set_lr_with_scheduler"] = err(mx, opt.set_learning_rate, 0.1)
    sched = mx.lr_scheduler.FactorScheduler(step=2, factor=0.5, base_lr=1.0)
    opt = mx.optimizer.SGD(lr_scheduler=sched, learning_rate=0.4)
    out["scheduler_overridden"] = [sched.base_lr, opt.learning_rate]
    weight = mx.nd.ones((1,))
    lrs = []
    for _ in range(6):
        opt.update(0, weight, mx.nd.ones((1,)), None)
        lrs.append(opt.learning_rate)
    out["scheduler_steps"] = {"lrs": lrs, "weight": weight.asnumpy()}

    opt = mx.optimizer.SGD(learning_rate=0.1, begin_num_update=10)
    opt.update(0, mx.nd.ones((1,)), mx.nd.ones((1,)), None)
    opt.update(1, mx.nd.ones((1,)), mx.nd.ones((1,)), None)
    opt.update(0, mx.nd.ones((1,)), mx.nd.ones((1,)), None)
    out["begin_num_update"] = [opt.num_update, sorted(opt._index_update_count.items())]
    out["registered"] = [n in mx.optimizer.Optimizer.opt_registry for n in ("sgd", "adam")]
    return out
