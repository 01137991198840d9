"""FullyConnected's shape inference accepts a bias given as a column (num_hidden, 1) besides
(num_hidden,) and keeps it, but MXNet 1.9.1's CPU forward then refuses it (read back through
asnumpy, since MXNet reports it when the value is read); the flat bias runs."""
import numpy as np
from _common import err, f32


def run(mx):
    data = mx.sym.Variable("data")
    fc = mx.sym.FullyConnected(data, num_hidden=3, name="fc")
    rs = np.random.RandomState(0)
    x, w = f32(rs.randn(4, 5)), f32(rs.randn(3, 5))

    def forward(bias):
        ex = fc.bind(mx.cpu(), {"data": mx.nd.array(x), "fc_weight": mx.nd.array(w),
                                "fc_bias": mx.nd.array(bias)})
        return ex.forward()[0].asnumpy()

    return {
        "shapes": fc.infer_shape(data=(4, 5), fc_bias=(3, 1)),
        "partial_keeps_column": fc.infer_shape_partial(data=(0, 5), fc_bias=(3, 1)),
        "column_forward_raises": err(mx, forward, f32(rs.randn(3, 1))),
        "flat_forward": forward(f32(np.arange(3))),
    }
