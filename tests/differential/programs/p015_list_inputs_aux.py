"""list_inputs interleaves arguments and auxiliary states in DFS order; aux = mutable inputs.
Aux variables shared by two BatchNorms: listed once; in JSON their input entries carry a
version that counts the mutations (1, then 2).  BatchNorm gives an explicit moving_mean /
moving_var Variable an __init__ attr (in place) unless it already has one."""
from _common import names


def run(mx):
    data = mx.sym.Variable("data")
    net = mx.sym.BatchNorm(data, name="bn")
    net = mx.sym.FullyConnected(net, num_hidden=4, name="fc")
    net = mx.sym.BatchNorm(net, name="bn2", fix_gamma=False)
    net = mx.sym.SoftmaxOutput(net, name="sm")
    mm = mx.sym.Variable("shared_mean")
    mv = mx.sym.Variable("shared_var")
    mean_before = mm.list_attr()
    two = mx.sym.BatchNorm(data, moving_mean=mm, moving_var=mv, name="b1") + \
        mx.sym.BatchNorm(data, moving_mean=mm, moving_var=mv, name="b2")
    own = mx.sym.Variable("own_mean", init="ones")
    mx.sym.BatchNorm(data, moving_mean=own, name="b3")
    return {
        "net": names(net),
        "explicit_aux_var_before": mean_before,
        "explicit_aux_var_after": mm.list_attr(),
        "explicit_aux_var_keeps_own_init": own.list_attr(),
        "shared_aux": names(two),
        "shared_aux_tojson": two.tojson(),
        "internals": net.get_internals().list_outputs(),
    }
