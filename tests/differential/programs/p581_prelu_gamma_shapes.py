"""PReLU's gamma shapes: MXNet 1.9.1 lines gamma up with data's axes 0 and 1 (its last axis on
axis 1), so (1,), (C,), (N,), (1, C), (N, C) run, and a gamma of data's own shape is
element-wise for 2-D data; forward, data and gamma gradients (summed over the broadcast axes).
Shapes that do not line up fail when run (minisym already fails at inference: README
difference 8), so only that running raises is recorded."""
import numpy as np

from _common import err, f32, fwd_bwd


def run(mx):
    rs = np.random.RandomState(581)
    data, gamma = mx.sym.Variable("data"), mx.sym.Variable("gamma")
    prelu = mx.sym.LeakyReLU(data, gamma, act_type="prelu")
    res = {}
    cases = {"4d": ((2, 3, 4, 5), [(3,), (1,), (2,), (1, 3), (2, 3), (2, 1), (1, 1)]),
             "2d": ((4, 3), [(4, 3), (3,), (4,), (1,), (1, 3), (4, 1)]),
             "3d": ((3, 2, 4), [(3, 2), (2,), (3,)])}
    for label, (dshape, gshapes) in cases.items():
        x = f32(rs.uniform(-1, 1, dshape))
        for gshape in gshapes:
            g = f32(rs.uniform(0.1, 0.9, gshape))
            key = "%s_gamma_%s" % (label, "x".join(map(str, gshape)))
            res[key] = fwd_bwd(mx, prelu, {"data": x, "gamma": g}, rs)
    res["nd_elementwise_2d"] = mx.nd.LeakyReLU(
        mx.nd.array([[-1.0, 2.0], [-3.0, -4.0]]), mx.nd.array([[0.1, 0.2], [0.3, 0.4]]),
        act_type="prelu").asnumpy()

    def run_with(dshape, gshape):
        ex = prelu.bind(mx.cpu(), {"data": mx.nd.ones(dshape), "gamma": mx.nd.ones(gshape)})
        return ex.forward()[0].asnumpy()
    res["does_not_run"] = {
        "x".join(map(str, gshape)): err(mx, run_with, (2, 3, 4, 5), gshape)
        for gshape in [(2, 3, 4, 5), (3, 4, 5), (4, 5), (5,), (1, 3, 1, 1), (3, 1, 1), (4,),
                       (2, 3, 1, 1)]}
    res["does_not_run"]["3d_elementwise"] = err(mx, run_with, (2, 3, 4), (2, 3, 4))
    return res
