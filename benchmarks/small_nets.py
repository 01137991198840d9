"""The small networks of the speed table, built with minisym and written as symbol JSON: the
Convolution + BatchNorm + ReLU block of ../shared/tools/block-bench (a chain of 20, 16 channels)
and lesson 8's residual network (as its exercises build it). Each ends in SoftmaxOutput, so
that every engine's training step is the backward of one loss."""

import minisym as mx
from minisym_widgets.exercises.lesson8 import small_resnet


def block_chain(blocks=20, channels=16):
    """data (N, 16, H, W) -> ``blocks`` x [Convolution 3x3 -> BatchNorm -> ReLU] -> softmax."""
    x = mx.sym.Variable("data")
    for i in range(blocks):
        x = mx.sym.Convolution(
            x, num_filter=channels, kernel=(3, 3), pad=(1, 1), no_bias=True, name=f"c{i}"
        )
        x = mx.sym.Activation(mx.sym.BatchNorm(x, name=f"b{i}"), act_type="relu", name=f"r{i}")
    return mx.sym.SoftmaxOutput(mx.sym.Flatten(x), name="softmax")


def lesson8_net():
    """data (N, 1, 8, 8) -> lesson 8's small ResNet -> SoftmaxOutput (the lesson's own loss is a
    custom operator written in the lesson; its exercises check against this one)."""
    return small_resnet()
