"""A custom operator whose backward writes into out_grad[0] (the gradient arriving from above).
With need_top_grad=True the write goes through: backward reads the new value back, and the
head gradient array given to backward() is unchanged, whether the operator is the head or sits
between two others. With need_top_grad=False out_grad[0] is empty, and writing into it (without
reading it first) fails: an MXNetError once backward has run (MXNet runs custom operators
asynchronously, hence the waitall)."""
import numpy as np
from _common import err

X = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)
HEAD = np.array([[1.0, 2.0, 0.5], [-1.0, 3.0, 2.0]], np.float32)


def register(mx):
    class ScalesOutGrad(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            self.assign(out_data[0], req[0], in_data[0] * 2)

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            self.assign(out_grad[0], req[0], out_grad[0] * 3)
            self.assign(in_grad[0], req[0], out_grad[0] * 2)

    class WritesOutGrad(ScalesOutGrad):
        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            self.assign(out_grad[0], req[0], in_data[0] * 2)

    @mx.operator.register("p501_scales_out_grad")
    class ScalesOutGradProp(mx.operator.CustomOpProp):
        def __init__(self, need_top_grad="True"):
            super(ScalesOutGradProp, self).__init__(need_top_grad=need_top_grad == "True")

        def create_operator(self, ctx, shapes, dtypes):
            return ScalesOutGrad() if self.need_top_grad_ else WritesOutGrad()


def gradient(mx, net):
    ex = net.simple_bind(mx.cpu(), x=X.shape)
    ex.arg_dict["x"][:] = X
    head = mx.nd.array(HEAD)
    ex.forward(is_train=True)
    ex.backward(head)
    return {"x_grad": ex.grad_dict["x"].asnumpy(), "head_after": head.asnumpy(),
            "output": ex.outputs[0].asnumpy()}


def run(mx):
    register(mx)
    x = mx.sym.Variable("x")
    res = {
        "head": gradient(mx, mx.sym.Custom(x, op_type="p501_scales_out_grad", name="c")),
        "between": gradient(mx, mx.sym.Custom(x * 1, op_type="p501_scales_out_grad",
                                              name="c") * 1),
    }
    loss = mx.sym.Custom(x, op_type="p501_scales_out_grad", need_top_grad="False", name="l")
    ex = loss.simple_bind(mx.cpu(), x=X.shape)
    ex.arg_dict["x"][:] = X
    ex.forward(is_train=True)

    def backward_and_wait():
        ex.backward()
        mx.nd.waitall()

    res["no_top_grad_backward"] = err(mx, backward_and_wait)
    return res
