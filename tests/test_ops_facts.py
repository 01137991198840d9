"""The facts the engine asks an operator instead of comparing its name (Operator's hooks):
each is declared where it should be, and every other operator keeps the default."""

import copy

import pytest

from minisym.ops import Operator, all_ops
from opcheck import make_op

# fact -> {op name: the value its class declares}; every other operator has Operator's default
DECLARED = {
    "gradient_is_cloned": {"elemwise_add": True},
    "train_mode_matters": {"BatchNorm": True, "Dropout": True},
    "fuses_following_relu": {"BatchNorm": True},
    "head_loss": {
        "SoftmaxOutput": "cross_entropy",
        "LogisticRegressionOutput": "logistic",
        "LinearRegressionOutput": "squared",
        "MAERegressionOutput": "absolute",
        "MakeLoss": "mean",
        "make_loss": "mean",
    },
    "head_loss_reads_label": {
        "SoftmaxOutput": True,
        "LogisticRegressionOutput": True,
        "LinearRegressionOutput": True,
        "MAERegressionOutput": True,
    },
    "takes_prop_keywords": {"Custom": True},
    "writes_aux_in_user_code": {"Custom": True},
}
# hook -> the operators whose class overrides Operator's method (or property)
OVERRIDDEN = {
    "is_plain_relu": {"Activation"},
    "mutates_aux_in_backward": {"BatchNorm"},
    "predict_mode_runner": {"BatchNorm"},
    "workspace_bytes": {"Convolution"},
    "mxnet_json_outputs": {"Pooling"},
}


@pytest.mark.parametrize("fact", sorted(DECLARED))
def test_fact_declared_only_where_it_holds(fact):
    default = getattr(Operator, fact)
    found = {
        name: getattr(cls, fact) for name, cls in all_ops().items() if getattr(cls, fact) != default
    }
    assert found == DECLARED[fact]


@pytest.mark.parametrize("hook", sorted(OVERRIDDEN))
def test_hook_overridden_only_where_it_differs(hook):
    found = {
        name for name, cls in all_ops().items() if getattr(cls, hook) is not getattr(Operator, hook)
    }
    assert found == OVERRIDDEN[hook]


@pytest.mark.parametrize(
    "act_type, plain", [("relu", True), ("sigmoid", False), ("tanh", False), ("softrelu", False)]
)
def test_only_relu_activation_is_plain_relu(act_type, plain):
    assert make_op("Activation", act_type=act_type).is_plain_relu is plain
    assert make_op("LeakyReLU", act_type="leaky").is_plain_relu is False


@pytest.mark.parametrize("use_global_stats", [False, True])
def test_batchnorm_mutates_aux_unless_global_stats(use_global_stats):
    op = make_op("BatchNorm", use_global_stats=use_global_stats)
    assert op.mutates_aux_in_backward() is (not use_global_stats)
    assert make_op("Dropout").mutates_aux_in_backward() is False


def test_batchnorm_predict_mode_runner_is_a_global_stats_copy():
    """MXNet differentiates BatchNorm in predict mode as use_global_stats does."""
    op = make_op("BatchNorm")
    runner = op.predict_mode_runner(op)
    assert runner is not op and runner.use_global_stats and not op.use_global_stats
    assert vars(runner) == {**vars(copy.copy(op)), "use_global_stats": True}
    fixed = make_op("BatchNorm", use_global_stats=True)
    assert fixed.predict_mode_runner(fixed) is fixed
    relu = make_op("Activation", act_type="relu")
    assert relu.predict_mode_runner(relu) is relu


def test_convolution_workspace_is_im2col_twice_with_backward():
    op = make_op("Convolution", kernel=(3, 3), num_filter=8)
    data, out = (2, 4, 10, 10), (2, 8, 8, 8)
    columns = 4 * 9 * 2 * 64
    assert op.workspace_bytes([data, (8, 4, 3, 3), (8,)], [out], 4, False) == columns * 4
    assert op.workspace_bytes([data, (8, 4, 3, 3), (8,)], [out], 4, True) == columns * 8
    assert op.workspace_bytes([], [out], 4, True) == 0
    assert op.workspace_bytes([None, None, None], [None], 4, True) == 0
    assert make_op("FullyConnected", num_hidden=3).workspace_bytes([(2, 4)], [(2, 3)], 4, True) == 0


@pytest.mark.parametrize(
    "params, outputs",
    [
        ({"kernel": (2, 2)}, 2),  # max, no layout: oneDNN
        ({"kernel": (2,), "layout": "NCW"}, 2),
        ({"kernel": (2, 2, 2), "layout": "NCDHW"}, 2),
        ({"kernel": (2, 2), "layout": "NHWC"}, 1),  # channel-last: no workspace
        ({"kernel": (2, 2), "pool_type": "avg"}, 1),
        ({"kernel": (), "global_pool": True}, 1),
    ],
)
def test_pooling_counts_onednn_workspace_in_mxnet_json(params, outputs):
    assert make_op("Pooling", **params).mxnet_json_outputs() == outputs


def test_other_operators_count_their_outputs_in_mxnet_json():
    assert make_op("BatchNorm").mxnet_json_outputs() == 3
    assert make_op("Dropout").mxnet_json_outputs() == 2
