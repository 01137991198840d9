"""A custom operator under mx.autograd, the custom-operator tutorial's imperative check:
mx.nd.Custom outside record() (forward with is_train 0), inside record() (is_train 1, then
backward), with train_mode=False, with grad_req 'add' (its backward receives req 'add'), used
twice, composed with built-in operators, and what autograd.is_recording / is_training say
inside its forward and backward."""
import numpy as np

CALLS = []


def register(mx):
    class Sigmoid(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            CALLS.append(["forward", int(is_train), list(req), mx.autograd.is_recording(),
                          mx.autograd.is_training()])
            y = 1.0 / (1.0 + np.exp(-in_data[0].asnumpy()))
            self.assign(out_data[0], req[0], mx.nd.array(y))

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            CALLS.append(["backward", list(req), mx.autograd.is_recording(),
                          mx.autograd.is_training()])
            y = out_data[0].asnumpy()
            self.assign(in_grad[0], req[0], mx.nd.array(out_grad[0].asnumpy() * y * (1 - y)))

    @mx.operator.register("p713_sigmoid")
    class SigmoidProp(mx.operator.CustomOpProp):
        def __init__(self):
            super(SigmoidProp, self).__init__(need_top_grad=True)

        def list_arguments(self):
            return ["data"]

        def list_outputs(self):
            return ["output"]

        def infer_shape(self, in_shape):
            return in_shape, [in_shape[0]], []

        def create_operator(self, ctx, shapes, dtypes):
            return Sigmoid()


def run(mx):
    register(mx)
    del CALLS[:]
    res = {}
    x = mx.nd.array([[0.0, 1.0], [-1.0, 2.0]])
    x.attach_grad()
    res["outside_record"] = mx.nd.Custom(x, op_type="p713_sigmoid").asnumpy()
    with mx.autograd.record():
        y = mx.nd.Custom(x, op_type="p713_sigmoid")
    y.backward()
    mx.nd.waitall()
    res["grad"] = x.grad.asnumpy()
    with mx.autograd.record(train_mode=False):
        y = mx.nd.Custom(x, op_type="p713_sigmoid")
    y.backward(train_mode=False)
    mx.nd.waitall()
    res["grad_predict_mode"] = x.grad.asnumpy()
    x.attach_grad(grad_req="add")
    with mx.autograd.record():
        y = mx.nd.Custom(x, op_type="p713_sigmoid")
        z = y * y
    z.backward()
    mx.nd.waitall()  # MXNet runs custom operators on a thread of their own: keep calls in order
    with mx.autograd.record():
        y = mx.nd.Custom(x, op_type="p713_sigmoid")
    y.backward(mx.nd.ones((2, 2)) * 2)
    mx.nd.waitall()
    res["grad_add"] = x.grad.asnumpy()
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Custom(x, op_type="p713_sigmoid") + mx.nd.Custom(x * 2, op_type="p713_sigmoid")
        loss = mx.nd.sum(y * mx.nd.array([[1.0, 2.0], [3.0, 4.0]]))
    loss.backward()
    mx.nd.waitall()
    res["used_twice"] = {"loss": loss.asnumpy(), "grad": x.grad.asnumpy()}
    res["calls"] = [list(c) for c in CALLS]
    return res
