"""Per-parameter learning rates and weight decays: the default wd_mult of 0 for names in
param_idx2name that end neither in _weight nor _gamma, __lr_mult__/__wd_mult__ attributes
read from ``sym``, set_lr_mult/set_wd_mult by name and by index, and the updates they give."""


def net(mx):
    data = mx.sym.Variable("data")
    w = mx.sym.Variable("fc_weight", lr_mult=2.0, wd_mult=3.0)
    b = mx.sym.Variable("fc_bias", wd_mult=0.5)
    fc = mx.sym.FullyConnected(data, w, b, num_hidden=2, name="fc")
    bn = mx.sym.BatchNorm(fc, name="bn")
    return mx.sym.FullyConnected(bn, num_hidden=1, name="out")


NAMES = {0: "fc_weight", 1: "fc_bias", 2: "bn_gamma", 3: "bn_beta", 4: "out_weight",
         5: "out_bias", 6: "other"}


def rates(opt):
    return {"lr": [opt._get_lr(i) for i in range(8)], "wd": [opt._get_wd(i) for i in range(8)],
            "lr_mult": sorted([str(k), v] for k, v in opt.lr_mult.items()),
            "wd_mult": sorted([str(k), v] for k, v in opt.wd_mult.items())}


def run(mx):
    out = {}
    out["names_only"] = rates(mx.optimizer.SGD(learning_rate=0.5, wd=0.1,
                                               param_idx2name=NAMES))
    out["no_names"] = rates(mx.optimizer.SGD(learning_rate=0.5, wd=0.1))
    out["with_sym"] = rates(mx.optimizer.SGD(learning_rate=0.5, wd=0.1, sym=net(mx),
                                             param_idx2name=NAMES))
    out["sym_no_names"] = rates(mx.optimizer.SGD(learning_rate=0.5, wd=0.1, sym=net(mx)))
    opt = mx.optimizer.SGD(learning_rate=0.5, wd=0.1, sym=net(mx), param_idx2name=NAMES)
    opt.set_lr_mult({"fc_bias": 10.0, 4: 0.25})
    opt.set_wd_mult({"out_bias": 2.0, 2: 0.0})
    out["set_mults"] = rates(opt)

    # updates through the multipliers: weight 1, grad 1 everywhere
    opt = mx.optimizer.SGD(learning_rate=0.5, wd=0.1, sym=net(mx), param_idx2name=NAMES)
    after = []
    for index in range(7):
        weight = mx.nd.ones((2,))
        opt.update(index, weight, mx.nd.ones((2,)), None)
        after.append(weight.asnumpy())
    out["updated"] = after
    return out
