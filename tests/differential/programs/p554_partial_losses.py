"""Partial shapes through the loss heads: SoftmaxOutput gives the label data.shape[:-1] from a
partly known data but never fills data from the label or the output (multi_output needs data
wholly known), the regression outputs infer nothing until data is wholly known and then refuse
a partly known label, MakeLoss passes data's shape forward only, make_loss and BlockGrad both
ways."""
from _partial import inferred


def run(mx):
    V = mx.sym.Variable
    a, b, label = V("a"), V("b"), V("l")
    so = mx.sym.SoftmaxOutput(a, label, name="so")
    multi = mx.sym.SoftmaxOutput(a, label, multi_output=True, name="som")
    keep = mx.sym.SoftmaxOutput(a, label, preserve_shape=True, name="sop")
    lr = mx.sym.LinearRegressionOutput(a, label, name="lr")
    return {
        "softmax_label_from_partial": inferred(mx, so, a=(0, 5)),
        "softmax_label_only": inferred(mx, so, l=(4,)),
        "softmax_label_does_not_fill_batch": inferred(mx, so, a=(0, 5), l=(4,)),
        "softmax_nothing_back": inferred(mx, so + b, b=(4, 5)),
        "softmax_label_wrong": inferred(mx, so, a=(4, 5), l=(3,)),
        "softmax_label_rank_wrong": inferred(mx, so, a=(4, 5), l=(4, 2)),
        "softmax_probability_label": inferred(mx, so, a=(4, 5), l=(4, 5)),
        "softmax_probability_partial": inferred(mx, so, a=(0, 5), l=(0, 5)),
        "softmax_3d_partial": inferred(mx, so, a=(0, 3, 4)),
        "multi_output_partial_raises": inferred(mx, multi, a=(0, 3, 4)),
        "multi_output_channels_unknown_raises": inferred(mx, multi, a=(2, 0, 4)),
        "multi_output_label_given": inferred(mx, multi, a=(2, 3, 4), l=(2, 4)),
        "multi_output_label_channel_one": inferred(mx, multi, a=(2, 3, 4), l=(2, 1, 4)),
        "multi_output_label_wrong": inferred(mx, multi, a=(2, 3, 4), l=(2, 3)),
        "preserve_shape_partial": inferred(mx, keep, a=(0, 3, 4)),
        "regression_partial_nothing": inferred(mx, lr, a=(0, 3)),
        "regression_label_only": inferred(mx, lr, l=(4, 3)),
        "regression_column_label": inferred(mx, lr, a=(4, 1)),
        "regression_partial_label_raises": inferred(mx, lr, a=(4, 3), l=(0, 3)),
        "regression_label_wrong": inferred(mx, lr, a=(4, 3), l=(4, 2)),
        "regression_label_flat_ok": inferred(mx, lr, a=(4, 3), l=(4, 3, 1)),
        "regression_nothing_back": inferred(mx, lr + b, b=(4, 3)),
        "logistic_partial_nothing": inferred(mx, mx.sym.LogisticRegressionOutput(
            a, label, name="lg"), a=(0, 3)),
        "mae_nothing_back": inferred(mx, mx.sym.MAERegressionOutput(a, label, name="mae") + b,
                                     a=(0, 3), b=(4, 3)),
        "makeloss_nothing_back": inferred(mx, mx.sym.MakeLoss(a) + b, b=(2, 3)),
        "makeloss_partial": inferred(mx, mx.sym.MakeLoss(a) + b, a=(0, 3), b=(2, 0)),
        "make_loss_back": inferred(mx, mx.sym.make_loss(a) + b, b=(2, 3)),
        "blockgrad_back": inferred(mx, mx.sym.BlockGrad(a) + b, a=(0, 3), b=(2, 0)),
    }
