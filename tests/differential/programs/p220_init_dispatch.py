"""Initializer dispatch (deterministic parts): the __init__ attribute first whatever the name,
then the name suffix (weight, bias, gamma, beta, min, max, checked with endswith in that order),
the error for any other name (moving_mean included), the legacy str path, Mixed, dumps(),
create() by name / alias / JSON, and the initializers' errors."""
import warnings

import numpy as np

from _common import err

NAMES = ["fc_weight", "fc_bias", "bn_gamma", "bn_beta", "q_min", "q_max", "weight", "xbias",
         "gammaweight", "weight_bias", "foo_min_max", "maxmin"]


def filled(mx, init, name, attrs=None, shape=(2, 3), start=7.0):
    arr = mx.nd.full(shape, start)
    init(mx.init.InitDesc(name, attrs=attrs), arr)
    return arr.asnumpy()


def run(mx):
    init = mx.init
    out = {}
    for maker in (init.Constant(3.5), init.One(), init.Zero()):
        out["suffix_" + type(maker).__name__] = {n: filled(mx, maker, n) for n in NAMES}
    for name in ("moving_mean", "moving_var", "foo", "fc_weights", "running_var"):
        out["unknown_" + name] = err(mx, filled, mx, init.Constant(1.0), name)

    one = init.One().dumps()
    attrs = {"__init__": init.Constant(-2.0).dumps()}
    out["attr_init"] = {n: filled(mx, init.Zero(), n, attrs)
                        for n in ("fc_bias", "bn_gamma", "moving_mean", "foo", "fc_weight")}
    out["attr_names"] = {"one": filled(mx, init.Zero(), "moving_var", {"__init__": "one"}),
                         "zeros": filled(mx, init.One(), "moving_mean", {"__init__": "zeros"}),
                         "json": filled(mx, init.Zero(), "foo", {"__init__": one}),
                         "empty": filled(mx, init.One(), "fc_bias", {"__init__": ""})}
    out["attr_on_vector_xavier"] = err(mx, filled, mx, init.Zero(), "fc_bias",
                                       {"__init__": init.Xavier().dumps()}, shape=(4,))

    desc = init.InitDesc("fc_weight", attrs={"a": "1"})
    out["initdesc"] = [desc, isinstance(desc, str), desc.attrs, desc.global_init is None,
                       init.InitDesc("x").attrs]
    arr = mx.nd.zeros((2, 2))
    top = init.One()
    init.Zero()(desc, arr)
    out["global_init_set"] = type(desc.global_init).__name__
    top(desc, arr)
    out["global_init_kept"] = type(desc.global_init).__name__

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        legacy = {}
        for name in ("fc_weight", "fc_bias", "bn_gamma", "bn_beta", "bn_moving_mean",
                     "bn_moving_var", "x_moving_inv_var", "x_moving_avg", "q_min", "q_max",
                     "stn_loc_weight", "biasweight"):
            arr = mx.nd.full((2, 3), 7.0)
            init.Constant(3.0)(name, arr)
            legacy[name] = arr.asnumpy()
        arr = mx.nd.zeros((6,))
        init.Constant(3.0)("stn_loc_bias", arr)
        legacy["stn_loc_bias"] = arr.asnumpy()
        arr = mx.nd.zeros((1, 1, 4, 4))
        init.Constant(3.0)("upsampling_weight", arr)
        legacy["upsampling_weight"] = arr.asnumpy()
        out["legacy"] = legacy
        out["legacy_unknown"] = err(mx, init.Constant(1.0), "foo", mx.nd.zeros((2,)))
        out["legacy_not_ndarray"] = err(mx, init.Constant(1.0), "fc_weight", np.zeros(2))

    mixed = init.Mixed(["bias$", ".*gamma", ".*"], [init.Constant(5.0), init.One(), init.Uniform()])
    # re.match anchors at the start: "bias$" matches only "bias"; fc_bias falls to Uniform,
    # whose suffix rule still gives 0.
    out["mixed"] = {n: filled(mx, mixed, n) for n in ("fc_bias", "bn_gamma", "bias", "x_beta")}
    out["mixed_then_suffix_error"] = err(mx, filled, mx, mixed, "fc_bias_x")
    out["mixed_nomatch"] = err(mx, filled, mx, init.Mixed(["^a"], [init.One()]), "b_weight")
    out["mixed_lengths"] = err(mx, init.Mixed, ["a", "b"], [init.One()])

    out["dumps"] = [init.Xavier().dumps(), init.Xavier("gaussian", "in", 2).dumps(),
                    init.MSRAPrelu().dumps(), init.MSRAPrelu("out", 0.1).dumps(),
                    init.Uniform().dumps(), init.Uniform(0.5).dumps(), init.Normal().dumps(),
                    init.Constant(2).dumps(), init.Constant(mx.nd.array([1, 2])).dumps(),
                    init.Zero().dumps(), init.One().dumps(), init.Bilinear().dumps(),
                    init.LSTMBias().dumps(), init.Orthogonal().dumps()]
    created = {}
    for spec in ("xavier", "Xavier", "zeros", "zero", "ones", "one", "constant", "uniform",
                 "normal", "msraprelu", "bilinear", "lstmbias", "orthogonal",
                 '["normal", {"sigma": 0.5}]', '{"initializer": "uniform", "scale": 0.2}'):
        kwargs = {"value": 1.0} if spec == "constant" else {}
        obj = init.create(spec, **kwargs)
        created[spec] = [type(obj).__name__, obj.dumps()]
    out["create"] = created
    out["create_instance_same"] = init.create(top) is top
    out["create_unknown"] = err(mx, init.create, "nosuchinit")
    out["create_number"] = err(mx, init.create, 3)
    out["create_instance_extra"] = err(mx, init.create, top, 1)
    out["eq"] = [init.Uniform(0.1) == init.Uniform(0.1), init.Uniform(0.1) == init.Uniform(0.2),
                 init.Zero() == init.One()]

    out["xavier_vector"] = err(mx, filled, mx, init.Xavier(), "fc_weight", shape=(5,))
    out["xavier_factor"] = err(mx, filled, mx, init.Xavier(factor_type="sum"), "fc_weight")
    out["xavier_rnd"] = err(mx, filled, mx, init.Xavier(rnd_type="beta"), "fc_weight")
    out["base_weight"] = err(mx, filled, mx, init.Initializer(), "fc_weight")
    out["base_bias"] = filled(mx, init.Initializer(), "fc_bias")
    out["constant_array"] = filled(mx, init.Constant(mx.nd.array([1.0, 2.0, 3.0])), "w_weight")
    out["bilinear"] = filled(mx, init.Bilinear(), "up_weight", shape=(1, 2, 4, 4))
    out["bilinear_odd"] = filled(mx, init.Bilinear(), "up_weight", shape=(1, 1, 3, 3))
    out["lstmbias"] = filled(mx, init.LSTMBias(2.5), "lstm_i2h_bias", shape=(8,))
    return out
