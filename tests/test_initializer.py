"""mx.init: dispatch by attribute and name suffix, the initializers' formulas and statistics,
the registry, and determinism under mx.random.seed."""

import json
import math

import numpy as np
import pytest

import minisym as mx

InitDesc = mx.init.InitDesc


def filled(init, name, shape=(2, 3), attrs=None, start=7.0):
    arr = mx.nd.full(shape, start)
    init(InitDesc(name, attrs=attrs), arr)
    return arr.asnumpy()


def test_aliases_point_at_one_module():
    assert mx.init is mx.initializer


@pytest.mark.parametrize(
    "name, value",
    [
        ("fc1_weight", 3.5),
        ("fc1_bias", 0.0),
        ("bn_gamma", 1.0),
        ("bn_beta", 0.0),
        ("q_min", 0.0),
        ("q_max", 1.0),
        # endswith, checked in the order weight, bias, gamma, beta, min, max
        ("weight_bias", 0.0),
        ("gammaweight", 3.5),
        ("maxmin", 0.0),
        ("minmax", 1.0),
    ],
)
def test_suffix_dispatch(name, value):
    assert np.all(filled(mx.init.Constant(3.5), name) == value)


@pytest.mark.parametrize("name", ["moving_mean", "moving_var", "foo", "fc_weights"])
def test_unknown_name_raises_value_error_naming_it(name):
    with pytest.raises(ValueError, match=f"Unknown initialization pattern for {name}"):
        filled(mx.init.Constant(1.0), name)


def test_init_attribute_wins_over_the_suffix():
    attrs = {"__init__": mx.init.Constant(-2.0).dumps()}
    for name in ("fc_bias", "bn_gamma", "moving_mean", "anything"):
        assert np.all(filled(mx.init.Zero(), name, attrs=attrs) == -2.0)
    assert np.all(filled(mx.init.Zero(), "moving_var", attrs={"__init__": "one"}) == 1.0)
    assert np.all(filled(mx.init.Zero(), "fc_bias", attrs={"__init__": ""}) == 0.0)


def test_variable_init_reaches_the_initializer_through_attr_dict():
    var = mx.sym.Variable("b", init=mx.init.Constant(5))
    arr = mx.nd.zeros((3,))
    mx.init.Uniform()(InitDesc("b", attrs=var.attr_dict()["b"]), arr)
    assert arr.asnumpy().tolist() == [5.0, 5.0, 5.0]


def test_global_init_is_the_first_caller():
    desc = InitDesc("fc_weight")
    first, second = mx.init.Zero(), mx.init.One()
    first(desc, mx.nd.zeros((2, 2)))
    second(desc, mx.nd.zeros((2, 2)))
    assert desc.global_init is first
    assert isinstance(desc, str) and desc == "fc_weight" and desc.attrs == {}


def test_legacy_string_names_warn_and_know_moving_stats():
    with pytest.warns(DeprecationWarning):
        arr = mx.nd.full((2,), 7.0)
        mx.init.Constant(3.0)("bn_moving_var", arr)
    assert arr.asnumpy().tolist() == [1.0, 1.0]
    with pytest.warns(DeprecationWarning):
        arr = mx.nd.full((2,), 7.0)
        mx.init.Constant(3.0)("bn_moving_mean", arr)
    assert arr.asnumpy().tolist() == [0.0, 0.0]
    with pytest.warns(DeprecationWarning), pytest.raises(TypeError, match="NDArray"):
        mx.init.Constant(3.0)("fc_weight", np.zeros(2))


def test_dumps_and_create_round_trip():
    assert (
        mx.init.Xavier().dumps()
        == '["xavier", {"rnd_type": "uniform", "factor_type": "avg", "magnitude": 3}]'
    )
    assert mx.init.MSRAPrelu().dumps() == '["msraprelu", {"factor_type": "avg", "slope": 0.25}]'
    assert json.loads(mx.init.Constant(mx.nd.array([1, 2])).dumps()) == [
        "constant",
        {"value": [1.0, 2.0]},
    ]
    again = mx.init.create(mx.init.Xavier("gaussian", "in", 2).dumps())
    assert again == mx.init.Xavier("gaussian", "in", 2)
    assert type(mx.init.create("Xavier")) is mx.init.Xavier
    assert type(mx.init.create("zeros")) is mx.init.Zero
    assert type(mx.init.create("ones")) is mx.init.One
    assert mx.init.create('{"initializer": "uniform", "scale": 0.2}') == mx.init.Uniform(0.2)
    init = mx.init.Normal()
    assert mx.init.create(init) is init


def test_create_errors_are_assertions():
    with pytest.raises(AssertionError, match="nosuch is not registered"):
        mx.init.create("nosuch")
    with pytest.raises(AssertionError, match="initializer must be of string type"):
        mx.init.create(3)


def test_register_a_custom_initializer():
    @mx.init.register
    class HalfInit(mx.init.Initializer):
        def _init_weight(self, _, arr):
            arr[:] = 0.5

    assert np.all(filled(mx.init.create("halfinit"), "w_weight") == 0.5)


def test_mixed_uses_the_first_matching_pattern():
    mixed = mx.init.Mixed([".*bias", ".*"], [mx.init.Constant(4.0), mx.init.One()])
    assert np.all(filled(mixed, "fc_bias") == 0.0)  # Constant fills weights only
    assert np.all(filled(mixed, "fc_weight") == 1.0)
    with pytest.raises(ValueError, match="b_weight"):
        filled(mx.init.Mixed(["^a"], [mx.init.One()]), "b_weight")


def test_xavier_rejects_vectors_and_bad_types():
    with pytest.raises(ValueError, match="vector fc_weight"):
        filled(mx.init.Xavier(), "fc_weight", shape=(5,))
    with pytest.raises(ValueError, match="factor type"):
        filled(mx.init.Xavier(factor_type="sum"), "fc_weight")
    with pytest.raises(ValueError, match="random type"):
        filled(mx.init.Xavier(rnd_type="beta"), "fc_weight")


@pytest.mark.parametrize(
    "shape, factor_type, factor",
    [
        ((20, 30), "avg", 25.0),
        ((20, 30), "in", 30.0),
        ((20, 30), "out", 20.0),
        ((8, 4, 3, 3), "avg", 54.0),
        ((8, 4, 3, 3), "in", 36.0),
        ((8, 4, 3, 3), "out", 72.0),
    ],
)
def test_xavier_factor(shape, factor_type, factor):
    assert mx.init.xavier_factor(shape, factor_type) == factor


# Over 600*1000 draws the standard error of mean/scale and of std/scale is below 1e-3:
# the 1e-2 tolerance is > 10 standard errors, while a wrong formula is off by > 10%.
STAT_TOL = 1e-2


@pytest.mark.parametrize("rnd_type", ["uniform", "gaussian"])
@pytest.mark.parametrize("factor_type", ["avg", "in", "out"])
def test_xavier_statistics(rnd_type, factor_type):
    mx.random.seed(7)
    shape = (600, 1000)
    scale = math.sqrt(2.34 / mx.init.xavier_factor(shape, factor_type))
    x = filled(mx.init.Xavier(rnd_type, factor_type, 2.34), "w_weight", shape=shape)
    x = x.astype(np.float64)
    expected_std = scale / math.sqrt(3) if rnd_type == "uniform" else scale
    assert abs(x.mean()) / expected_std < STAT_TOL
    assert abs(x.std() / expected_std - 1) < STAT_TOL
    if rnd_type == "uniform":
        assert np.abs(x).max() <= scale * (1 + 1e-6)


def test_msraprelu_is_gaussian_xavier_with_its_magnitude():
    mx.random.seed(3)
    shape = (256, 128, 3, 3)
    x = filled(mx.init.MSRAPrelu("in", 0.5), "conv_weight", shape=shape).astype(np.float64)
    sigma = math.sqrt((2 / (1 + 0.25)) / (128 * 9))
    assert abs(x.std() / sigma - 1) < STAT_TOL
    assert abs(x.mean()) / sigma < STAT_TOL


def test_uniform_and_normal_statistics():
    mx.random.seed(11)
    u = filled(mx.init.Uniform(0.5), "w_weight", shape=(1000, 600)).astype(np.float64)
    assert np.abs(u).max() <= 0.5 and abs(u.std() / (0.5 / math.sqrt(3)) - 1) < STAT_TOL
    n = filled(mx.init.Normal(2.0), "w_weight", shape=(1000, 600)).astype(np.float64)
    assert abs(n.std() / 2.0 - 1) < STAT_TOL and abs(n.mean()) / 2.0 < STAT_TOL
    assert filled(mx.init.Uniform(), "w_weight").dtype == np.float32


def test_same_seed_same_values():
    def draw():
        mx.random.seed(42)
        return [
            filled(init, "w_weight", shape=(4, 5))
            for init in (
                mx.init.Xavier(),
                mx.init.Normal(1.0),
                mx.init.Uniform(),
                mx.init.Orthogonal(),
            )
        ]

    first, second = draw(), draw()
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    mx.random.seed(43)
    assert not np.array_equal(filled(mx.init.Xavier(), "w_weight", shape=(4, 5)), first[0])


def test_orthogonal_rows_are_orthonormal_times_scale():
    w = filled(mx.init.Orthogonal(scale=2.0), "w_weight", shape=(6, 10)).astype(np.float64)
    np.testing.assert_allclose(w @ w.T, 4.0 * np.eye(6), atol=1e-5)


def test_bilinear_and_lstmbias():
    k = filled(mx.init.Bilinear(), "up_weight", shape=(1, 1, 4, 4))[0, 0]
    np.testing.assert_allclose(k[0], [0.0625, 0.1875, 0.1875, 0.0625])
    # A name ending in "bias" gets 0 by its suffix; LSTMBias acts through the __init__ attr.
    assert filled(mx.init.LSTMBias(2.5), "lstm_bias", shape=(8,)).tolist() == [0.0] * 8
    attrs = {"__init__": mx.init.LSTMBias(2.5).dumps()}
    b = filled(mx.init.Zero(), "lstm_bias", shape=(8,), attrs=attrs)
    assert b.tolist() == [0, 0, 2.5, 2.5, 0, 0, 0, 0]


def test_a_network_initializes_like_module_does():
    net = mx.sym.BatchNorm(
        mx.sym.Convolution(mx.sym.Variable("data"), kernel=(3, 3), num_filter=4, name="conv"),
        name="bn",
    )
    arg_shapes, _, aux_shapes = net.infer_shape(data=(1, 2, 5, 5))
    attrs = net.attr_dict()
    shapes = dict(zip(net.list_arguments(), arg_shapes))
    shapes.update(zip(net.list_auxiliary_states(), aux_shapes))
    del shapes["data"]
    values = {}
    for name in sorted(shapes):
        arr = mx.nd.full(shapes[name], 7.0)
        mx.init.Xavier()(InitDesc(name, attrs=attrs.get(name)), arr)
        values[name] = arr.asnumpy()
    assert np.all(values["bn_moving_mean"] == 0) and np.all(values["bn_moving_var"] == 1)
    assert np.all(values["bn_gamma"] == 1) and np.all(values["bn_beta"] == 0)
    assert np.all(values["conv_bias"] == 0) and np.all(np.abs(values["conv_weight"]) < 1)
    assert values["conv_weight"].std() > 0
