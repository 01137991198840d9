"""A custom operator whose forward and backward write with self.assign and also return
something (the output, the list of gradients, True): what they return is ignored, so outputs and
gradients are the same as without the returns. (A forward that only returns its result leaves
the output unwritten: MXNet gives whatever memory the buffer held, minisym zeros and a warning;
not recorded, see tests/test_messages_custom.py.)"""
import numpy as np

X = np.array([[1.0, -2.0, 3.0], [0.5, 5.0, -6.0]], np.float32)
HEAD = np.array([[1.0, 2.0, 0.5], [-1.0, 3.0, 2.0]], np.float32)


def register(mx):
    class Cube(mx.operator.CustomOp):
        def __init__(self, returns):
            self.returns = returns

        def forward(self, is_train, req, in_data, out_data, aux):
            y = in_data[0] * in_data[0] * in_data[0]
            self.assign(out_data[0], req[0], y)
            return True if self.returns == "flag" else y

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            g = out_grad[0] * 3 * in_data[0] * in_data[0]
            self.assign(in_grad[0], req[0], g)
            return True if self.returns == "flag" else [g]

    @mx.operator.register("p502_cube")
    class CubeProp(mx.operator.CustomOpProp):
        def __init__(self, returns="result"):
            super(CubeProp, self).__init__(need_top_grad=True)
            self.returns = returns

        def create_operator(self, ctx, shapes, dtypes):
            return Cube(self.returns)


def run(mx):
    register(mx)
    res = {}
    for returns in ("result", "flag"):
        net = mx.sym.Custom(mx.sym.Variable("x"), op_type="p502_cube", returns=returns,
                            name="cube")
        ex = net.simple_bind(mx.cpu(), x=X.shape)
        ex.arg_dict["x"][:] = X
        ex.forward(is_train=True)
        ex.backward(mx.nd.array(HEAD))
        res[returns] = {"output": ex.outputs[0].asnumpy(), "x_grad": ex.grad_dict["x"].asnumpy()}
    return res
