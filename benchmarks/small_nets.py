"""The small networks of the speed table, built with minisym and written as symbol JSON: the
Convolution + BatchNorm + ReLU block of ../shared/tools/block-bench (a chain of 20, 16 channels)
and lesson 8's residual network. Each ends in SoftmaxOutput, so that every engine's training step
is the backward of one loss."""

import minisym as mx


def block_chain(blocks=20, channels=16):
    """data (N, 16, H, W) -> ``blocks`` x [Convolution 3x3 -> BatchNorm -> ReLU] -> softmax."""
    x = mx.sym.Variable("data")
    for i in range(blocks):
        x = mx.sym.Convolution(
            x, num_filter=channels, kernel=(3, 3), pad=(1, 1), no_bias=True, name=f"c{i}"
        )
        x = mx.sym.Activation(mx.sym.BatchNorm(x, name=f"b{i}"), act_type="relu", name=f"r{i}")
    return mx.sym.SoftmaxOutput(mx.sym.Flatten(x), name="softmax")


def _residual_unit(data, num_filter, stride, dim_match, name):
    """Lesson 8's unit: BN-ReLU-Conv twice, plus the input (or its 1x1 convolution)."""
    act1 = mx.sym.Activation(
        mx.sym.BatchNorm(data, fix_gamma=False, name=name + "_bn1"), act_type="relu"
    )
    conv1 = mx.sym.Convolution(
        act1,
        num_filter=num_filter,
        kernel=(3, 3),
        stride=stride,
        pad=(1, 1),
        no_bias=True,
        name=name + "_conv1",
    )
    act2 = mx.sym.Activation(
        mx.sym.BatchNorm(conv1, fix_gamma=False, name=name + "_bn2"), act_type="relu"
    )
    conv2 = mx.sym.Convolution(
        act2, num_filter=num_filter, kernel=(3, 3), pad=(1, 1), no_bias=True, name=name + "_conv2"
    )
    if dim_match:
        return conv2 + data
    shortcut = mx.sym.Convolution(
        act1, num_filter=num_filter, kernel=(1, 1), stride=stride, no_bias=True, name=name + "_sc"
    )
    return conv2 + shortcut


def lesson8_net(num_classes=10):
    """data (N, 1, 8, 8) -> lesson 8's small ResNet -> SoftmaxOutput (the lesson's loss is a
    custom operator written in the lesson; SoftmaxOutput computes the same gradient)."""
    data = mx.sym.Variable("data")
    body = mx.sym.Convolution(
        data, num_filter=16, kernel=(3, 3), pad=(1, 1), no_bias=True, name="conv0"
    )
    body = _residual_unit(body, 16, (1, 1), True, "stage1_unit1")
    body = _residual_unit(body, 32, (2, 2), False, "stage2_unit1")
    body = mx.sym.Activation(mx.sym.BatchNorm(body, fix_gamma=False, name="bn1"), act_type="relu")
    pool = mx.sym.Pooling(body, global_pool=True, kernel=(4, 4), pool_type="avg", name="pool1")
    scores = mx.sym.FullyConnected(mx.sym.Flatten(pool), num_hidden=num_classes, name="fc1")
    return mx.sym.SoftmaxOutput(scores, name="softmax")
