"""The custom softmax loss of the lessons and the widget tests: a CustomOp and its Prop, written
as a learner writes them. Browser tests put this file's source into a notebook cell."""

import numpy as np

import minisym as mx


class Softmax(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        x = in_data[0].asnumpy()
        y = np.exp(x - x.max(axis=1, keepdims=True))
        self.assign(out_data[0], req[0], mx.nd.array(y / y.sum(axis=1, keepdims=True)))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        label = in_data[1].asnumpy().astype(int)
        y = out_data[0].asnumpy()
        y[np.arange(label.shape[0]), label] -= 1.0
        self.assign(in_grad[0], req[0], mx.nd.array(y))


@mx.operator.register("softmax")
class SoftmaxProp(mx.operator.CustomOpProp):
    def __init__(self):
        super().__init__(need_top_grad=False)

    def list_arguments(self):
        return ["data", "label"]

    def infer_shape(self, in_shape):
        return [in_shape[0], (in_shape[0][0],)], [in_shape[0]], []

    def create_operator(self, ctx, shapes, dtypes):
        return Softmax()
