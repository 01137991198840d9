"""Every built-in operator, one class each, in a module named after the MXNet 1.9.1 source
that defines it: ``ops/tensor/<file>.py`` for src/operator/tensor/<file>.cc, ``ops/nn/`` for
src/operator/nn/, ``ops/contrib/`` for src/operator/contrib/, ``ops/<file>.py`` for
src/operator/<file>.cc (importing the modules registers the operators)."""

from . import (  # noqa: F401
    bilinear_sampler,
    custom,
    grid_generator,
    leaky_relu,
    loss_binary_op,
    make_loss,
    pad,
    regression_output,
    roi_pooling,
    slice_channel,
    softmax_output,
    spatial_transformer,
    svm_output,
    swapaxis,
)
from .contrib import multi_proposal, proposal  # noqa: F401
from .nn import (  # noqa: F401
    activation,
    batch_norm,
    concat,
    convolution,
    deconvolution,
    dropout,
    fully_connected,
    log_softmax,
    lrn,
    pooling,
    softmax,
    softmax_activation,
    softmin,
    upsampling,
)
from .operator_base import Operator, all_ops, functions, get_op, register
from .tensor import (  # noqa: F401
    broadcast_reduce_minmax_value,
    broadcast_reduce_norm_value,
    broadcast_reduce_op_index,
    broadcast_reduce_op_value,
    broadcast_reduce_sum_value,
    control_flow_op,
    dot,
    elemwise,
    elemwise_sum,
    elemwise_unary_op_basic,
    indexing_op,
    init_op,
    matrix_op,
)

__all__ = ["Operator", "all_ops", "functions", "get_op", "register"]
