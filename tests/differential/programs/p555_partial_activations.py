"""Partial shapes through Activation, LeakyReLU (elu, prelu, rrelu), Dropout, softmax,
log_softmax and SoftmaxActivation: which infer their data back from the output (Activation,
log_softmax, SoftmaxActivation) and which do not (LeakyReLU, Dropout, softmax), prelu's gamma
from a partly known data, softmax's length. (Deliberately not recorded: a prelu gamma of
another shape, SoftmaxActivation mode='channel' on 2-D data -- README difference 8.)"""
from _partial import inferred


def run(mx):
    V = mx.sym.Variable
    a, b = V("a"), V("b")
    prelu = mx.sym.LeakyReLU(a, act_type="prelu", name="pr")
    rrelu = mx.sym.LeakyReLU(a, act_type="rrelu", name="rr")
    sml = mx.sym.softmax(a, length=V("len"), axis=1, use_length=True, name="sml")
    return {
        "activation_merges": inferred(mx, mx.sym.Activation(a, act_type="tanh") + b, a=(0, 3),
                                      b=(2, 0)),
        "activation_back": inferred(mx, mx.sym.Activation(a, act_type="relu") + b, b=(2, 3)),
        "elu_nothing_back": inferred(mx, mx.sym.LeakyReLU(a, act_type="elu") + b, b=(2, 3)),
        "leaky_partial": inferred(mx, mx.sym.LeakyReLU(a, slope=0.1) + b, a=(0, 3), b=(2, 0)),
        "prelu_channels_unknown": inferred(mx, prelu, a=(2, 0, 4)),
        "prelu_batch_unknown": inferred(mx, prelu, a=(0, 3, 4)),
        "prelu_nothing_back": inferred(mx, prelu + b, b=(2, 3, 4)),
        "prelu_gamma_only": inferred(mx, prelu, pr_gamma=(3,)),
        "prelu_1d_raises": inferred(mx, prelu, a=(5,)),
        "rrelu_partial": inferred(mx, rrelu, a=(0, 3)),
        "rrelu_nothing_back": inferred(mx, rrelu[0] + b, b=(2, 3)),
        "dropout_partial": inferred(mx, mx.sym.Dropout(a, p=0.5, name="dr"), a=(0, 3)),
        "dropout_nothing_back": inferred(mx, mx.sym.Dropout(a, p=0.5, name="dr2") + b,
                                         b=(2, 3)),
        "dropout_axes_nothing_back": inferred(mx, mx.sym.Dropout(a, p=0.5, axes=(1,),
                                                                 name="dra") + b, b=(2, 3, 4)),
        "softmax_no_data_from_output": inferred(mx, mx.sym.softmax(a, axis=1) + b, b=(2, 3)),
        "softmax_partial_output_merges": inferred(mx, mx.sym.softmax(a, axis=1) + b, a=(0, 3),
                                                  b=(2, 0)),
        "log_softmax_back": inferred(mx, mx.sym.log_softmax(a) + b, b=(2, 3)),
        "log_softmax_partial_back": inferred(mx, mx.sym.log_softmax(a) + b, a=(0, 3),
                                             b=(2, 0)),
        "softmax_length": inferred(mx, sml, a=(2, 5, 3)),
        "softmax_length_partial": inferred(mx, sml, a=(0, 5, 3)),
        "softmax_length_needs_data": inferred(mx, sml + b, b=(2, 5, 3)),
        "softmax_activation_channel_back": inferred(mx, mx.sym.SoftmaxActivation(
            a, mode="channel") + b, b=(2, 3, 4)),
        "softmax_activation_instance_back": inferred(mx, mx.sym.SoftmaxActivation(a) + b,
                                                     a=(0, 3), b=(2, 0)),
    }
