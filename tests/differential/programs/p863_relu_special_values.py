"""ReLU on NaN, -0 and the infinities: Activation(act_type='relu') bound and imperative, the
relu operator, and a BatchNorm followed by a ReLU at inference (the pair an executor may run as
one pass). NaN in, 0 out; dy * (y > 0) backward, so NaN and inf in the head gradient give NaN
where y is 0."""
import numpy as np

SPECIAL = np.array([np.nan, -0.0, 0.0, -1.0, 2.5, np.inf, -np.inf], np.float32)
HEAD = np.array([5.0, np.nan, np.nan, np.inf, 3.0, 1.0, np.nan], np.float32)


def _bound(mx, net):
    ex = net.simple_bind(mx.cpu(), x=(7,))
    ex.arg_dict["x"][:] = SPECIAL
    ex.forward(is_train=True)
    ex.backward(mx.nd.array(HEAD))
    return {"y": ex.outputs[0].asnumpy(), "dx": ex.grad_dict["x"].asnumpy()}


def run(mx):
    x = mx.sym.Variable("x")
    found = {
        "activation": _bound(mx, mx.sym.Activation(x, act_type="relu")),
        "relu_op": _bound(mx, mx.sym.relu(x)),
        "imperative": mx.nd.Activation(mx.nd.array(SPECIAL), act_type="relu").asnumpy(),
    }
    bn = mx.sym.Activation(mx.sym.BatchNorm(mx.sym.Variable("data"), name="bn"), act_type="relu")
    ex = bn.simple_bind(mx.cpu(), data=(1, 7, 1, 1), grad_req="null")
    ex.arg_dict["data"][:] = SPECIAL.reshape(1, 7, 1, 1)
    ex.arg_dict["bn_gamma"][:] = 1
    ex.arg_dict["bn_beta"][:] = 0
    ex.aux_dict["bn_moving_var"][:] = 1
    found["batchnorm_relu_inference"] = ex.forward(is_train=False)[0].asnumpy().ravel()
    return found
