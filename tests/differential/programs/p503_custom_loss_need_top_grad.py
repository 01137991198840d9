"""A custom square loss 0.5 * (data - label)**2 whose backward writes data - label and ignores
out_grad. Keeping need_top_grad=True (the default), backward() without out_grads raises an
MXNetError, and with out_grads the gradient is still data - label; with need_top_grad=False
backward() needs no out_grads and ignores any given."""
import numpy as np
from _common import err

X = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)
T = np.array([[0.5, 2.5, 3.0], [3.0, 5.5, 7.0]], np.float32)


def register(mx):
    class SquareLoss(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            self.assign(out_data[0], req[0], 0.5 * (in_data[0] - in_data[1]) ** 2)

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            self.assign(in_grad[0], req[0], in_data[0] - in_data[1])
            self.assign(in_grad[1], req[1], 0)

    @mx.operator.register("p503_square_loss")
    class SquareLossProp(mx.operator.CustomOpProp):
        def __init__(self, need_top_grad="True"):
            super(SquareLossProp, self).__init__(need_top_grad=need_top_grad == "True")

        def list_arguments(self):
            return ["data", "label"]

        def infer_shape(self, in_shape):
            return [in_shape[0], in_shape[0]], [in_shape[0]], []

        def create_operator(self, ctx, shapes, dtypes):
            return SquareLoss()


def bound(mx, **kwargs):
    net = mx.sym.Custom(mx.sym.Variable("x"), mx.sym.Variable("t"),
                        op_type="p503_square_loss", name="loss", **kwargs)
    ex = net.simple_bind(mx.cpu(), x=X.shape, t=T.shape, grad_req={"x": "write", "t": "null"})
    ex.arg_dict["x"][:] = X
    ex.arg_dict["t"][:] = T
    ex.forward(is_train=True)
    return ex


def run(mx):
    register(mx)
    res = {}
    ex = bound(mx)
    res["top_grad_backward_without_out_grads"] = err(mx, ex.backward)  # raised before running
    ex.backward(mx.nd.ones(X.shape) * 10)
    res["top_grad_x_grad_with_out_grads"] = ex.grad_dict["x"].asnumpy()
    ex = bound(mx, need_top_grad="False")
    ex.backward()
    res["no_top_grad_x_grad"] = ex.grad_dict["x"].asnumpy()
    ex.backward(mx.nd.ones(X.shape) * 10)
    res["no_top_grad_x_grad_ignoring_out_grads"] = ex.grad_dict["x"].asnumpy()
    res["loss"] = ex.outputs[0].asnumpy()
    return res
