"""Partial shapes through BatchNorm: gamma, beta and the moving statistics take (C,) from data
even while other sizes are unknown (and (0,) while C is), nothing is inferred back from the
output or from a given gamma, and the hidden mean / var outputs follow C. (MXNet also replaces
a gamma you give by (C,) when C is unknown; minisym keeps yours: README difference 8.)"""
from _partial import inferred


def run(mx):
    V = mx.sym.Variable
    a, b = V("a"), V("b")
    bn = mx.sym.BatchNorm(a, name="bn")
    last = mx.sym.BatchNorm(a, axis=-1, name="bnl")
    omv = mx.sym.BatchNorm(a, output_mean_var=True, name="bno")
    return {
        "batch_unknown": inferred(mx, bn, a=(0, 3, 4, 4)),
        "channels_unknown": inferred(mx, bn, a=(2, 0, 4, 4)),
        "gamma_only": inferred(mx, bn, bn_gamma=(3,)),
        "beta_only": inferred(mx, bn, bn_beta=(3,)),
        "nothing_back": inferred(mx, bn + b, b=(2, 3, 4, 4)),
        "nothing_back_partial": inferred(mx, bn + b, a=(0, 3, 0, 4), b=(2, 0, 4, 0)),
        "axis_last_partial": inferred(mx, last, a=(0, 4, 0)),
        "output_mean_var_partial": inferred(mx, omv, a=(0, 3)),
        "output_mean_var_channels_unknown": inferred(mx, omv, a=(2, 0)),
        "nothing": inferred(mx, bn),
        "chain_conv_bn_back": inferred(
            mx, mx.sym.BatchNorm(mx.sym.Convolution(a, kernel=(3, 3), num_filter=4, name="cv"),
                                 name="bn2") + b, a=(0, 3, 0, 8), b=(2, 4, 6, 6)),
    }
