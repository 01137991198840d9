"""LeakyReLU act_type='selu' gradient, on its own so that it can be dropped separately.

MXNet 1.9.1 computes the gradient for x < 0 from the scaled output y = lambda*alpha*(exp(x)-1)
as lambda * (y + alpha) = lambda^2*alpha*exp(x) + lambda*alpha*(1 - lambda), instead of the
derivative lambda*alpha*exp(x): about 0.089 * (1 - exp(x)) too small.  For x > 0 the
gradient is lambda, as expected."""
import numpy as np


def run(mx):
    x = np.asarray([[-2.0, -1.0, -0.5, -0.1], [0.1, 0.5, 1.0, 2.0]], dtype=np.float32)
    sym = mx.sym.LeakyReLU(mx.sym.Variable("data"), act_type="selu")
    ex = sym.simple_bind(ctx=mx.cpu(), data=x.shape)
    ex.arg_dict["data"][:] = x
    ex.forward(is_train=True)
    out = ex.outputs[0].asnumpy()
    ex.backward([mx.nd.ones(x.shape)])
    return {"out": out, "grad_data_ones_head": ex.grad_dict["data"].asnumpy()}
