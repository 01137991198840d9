"""infer_shape versus infer_shape_partial on incomplete graphs, every variant: nothing given,
some arguments unknown, sizes left 0 (by keyword and in a __shape__ hint), more than ten
unknown names, a Group; infer_shape returns (None, None, None) with the warning (0s shown),
infer_shape_partial returns what it could and never warns; simple_bind with a 0 raises."""
from _common import err
from _partial import inferred


def run(mx):
    V = mx.sym.Variable
    data, prev = V("data"), V("prev")
    fc1 = mx.sym.FullyConnected(data, num_hidden=8, name="fc1")
    fc2 = mx.sym.FullyConnected(prev, num_hidden=8, name="fc2")
    net = mx.sym.Activation(fc1 + fc2, act_type="relu", name="act")
    wide = V("x0")
    for i in range(1, 12):
        wide = wide + V("x%d" % i)
    hinted = mx.sym.FullyConnected(V("h", shape=(0, 6)), num_hidden=2, name="fh")
    group = mx.sym.Group([fc1, mx.sym.SoftmaxOutput(fc2, name="sm")])
    return {
        "nothing": inferred(mx, net),
        "one_branch": inferred(mx, net, data=(4, 5)),
        "batch_unknown": inferred(mx, net, data=(0, 5), prev=(0, 3)),
        "batch_from_other_branch": inferred(mx, net, data=(0, 5), prev=(4, 3)),
        "many_partial_names": inferred(mx, wide, x0=(0, 2)),
        "many_unknown_names": inferred(mx, wide),
        "hint_with_zero": inferred(mx, hinted),
        "hint_completed_by_keyword": inferred(mx, hinted, h=(3, 6)),
        "hint_zero_kept_by_keyword": inferred(mx, hinted, h=(0, 6)),
        "group_partial": inferred(mx, group, data=(0, 5), prev=(4, 3)),
        "group_complete": inferred(mx, group, data=(4, 5), prev=(4, 3)),
        "simple_bind_with_zero": err(mx, net.simple_bind, mx.cpu(), data=(0, 5), prev=(4, 3)),
        "simple_bind_missing": err(mx, net.simple_bind, mx.cpu(), data=(4, 5)),
        "simple_bind_complete_by_inference": list(net.simple_bind(
            mx.cpu(), data=(4, 5), prev=(4, 3)).outputs[0].shape),
    }
