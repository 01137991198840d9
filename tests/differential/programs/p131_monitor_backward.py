"""mx.mon.Monitor on a Module that runs forward and backward: after the forward outputs come
the outputs of every backward node, ``{node}_backward_output{i}`` (input gradient i, no index
for a one-input operator), and ``sum_grad_output`` where a gradient is summed from several
consumers (a residual unit's shortcut). elemwise_add passes its head gradient on and shows
nothing. A tiny pre-activation ResNet (one basic unit with a projection, one without), the
default norm statistic. The label's gradient (not computed: grad_req 'null') is named but its
value is not recorded."""
import numpy as np

from _nets import resnet

TOLERANCE = dict(rtol=2e-3, atol=2e-5)


def run(mx):
    rs = np.random.RandomState(131)
    net = resnet(mx, units=[2], filter_list=[4, 8], num_classes=3, bottle_neck=False)
    mod = mx.mod.Module(net, data_names=["data"], label_names=["softmax_label"],
                        context=mx.cpu())
    mod.bind(data_shapes=[("data", (2, 3, 6, 6))], label_shapes=[("softmax_label", (2,))],
             inputs_need_grad=True)
    mod.init_params(mx.init.Xavier())
    args, auxs = mod.get_params()
    args = {n: mx.nd.array(rs.standard_normal(a.shape) * 0.5) for n, a in args.items()}
    mod.set_params(args, auxs)
    mon = mx.mon.Monitor(1, pattern=".*")
    mod.install_monitor(mon)
    batch = mx.io.DataBatch([mx.nd.array(rs.uniform(-1, 1, (2, 3, 6, 6)))],
                            [mx.nd.array([0, 2])])
    mon.tic()
    mod.forward(batch, is_train=True)
    mod.backward()
    stats = mon.toc()
    return {
        "names": [name for _, name, _ in stats],
        "gradient_stats": {name: float(text.split("\t")[0]) for _, name, text in stats
                           if "backward" in name and name != "softmax_backward_output1"
                           or name == "sum_grad_output"},
        "sum_grad_stats": [float(text.split("\t")[0]) for _, name, text in stats
                           if name == "sum_grad_output"],
    }
