"""A custom operator y = data * weight whose backward never writes in_grad[1] (the weight's
gradient), bound with gradient arrays that already hold a value: under grad_req='add' the
weight's gradient keeps it (nothing is added), under 'null' it has none, and the data's
gradient is right under 'write' and 'add'. (Under 'write' MXNet also leaves the weight's old
value, and a temporary gradient buffer holds whatever memory it got: minisym sets both to zero
and warns, a deliberate difference, not recorded; see tests/test_messages_custom.py.)"""
import numpy as np

X = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)
W = np.array([[0.5, -1.0, 2.0], [1.5, 3.0, -2.0]], np.float32)
HEAD = np.array([[1.0, 2.0, 0.5], [-1.0, 3.0, 2.0]], np.float32)


def register(mx):
    class ForgetsWeight(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            self.assign(out_data[0], req[0], in_data[0] * in_data[1])

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            self.assign(in_grad[0], req[0], out_grad[0] * in_data[1])

    @mx.operator.register("p500_forgets_weight")
    class ForgetsWeightProp(mx.operator.CustomOpProp):
        def __init__(self):
            super(ForgetsWeightProp, self).__init__(need_top_grad=True)

        def list_arguments(self):
            return ["data", "weight"]

        def infer_shape(self, in_shape):
            return [in_shape[0], in_shape[0]], [in_shape[0]], []

        def create_operator(self, ctx, shapes, dtypes):
            return ForgetsWeight()


def steps(mx, grad_req, keep):
    net = mx.sym.Custom(mx.sym.Variable("x"), mx.sym.Variable("w"),
                        op_type="p500_forgets_weight", name="mul")
    ex = net.simple_bind(mx.cpu(), x=X.shape, w=W.shape, grad_req=grad_req)
    ex.arg_dict["x"][:] = X
    ex.arg_dict["w"][:] = W
    for grad in ex.grad_dict.values():
        if grad is not None:
            grad[:] = 7.0
    out = {}
    for i in range(2):
        ex.forward(is_train=True)
        ex.backward(mx.nd.array(HEAD))
        out["output_%d" % i] = ex.outputs[0].asnumpy()
        for name in keep:
            grad = ex.grad_dict[name]
            out["%s_grad_%d" % (name, i)] = None if grad is None else grad.asnumpy()
    return out


def run(mx):
    register(mx)
    return {
        "write": steps(mx, "write", ["x"]),
        "add": steps(mx, "add", ["x", "w"]),
        "weight_null": steps(mx, {"x": "write", "w": "null"}, ["x", "w"]),
    }
