"""MXNet's example/numpy-ops/custom_softmax.py network (an MLP of three FullyConnected layers
ending in ``Custom(op_type='softmax')``), as MXNet 1.9.1 wrote its JSON: loaded after
registering the project's own softmax operator with the contract the example's has (arguments
data and label, one output, no top gradient; forward the row softmax, backward the
probabilities minus one at the label), then run in inference and training mode with backward.
Data (2, 784)."""
import numpy as np

from _examples import run_example

TOLERANCE = dict(rtol=2e-3, atol=2e-4)


def register(mx):
    class RowSoftmax(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            x = in_data[0].asnumpy()
            e = np.exp(x - x.max(axis=1, keepdims=True))
            self.assign(out_data[0], req[0], mx.nd.array(e / e.sum(axis=1, keepdims=True)))

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            classes = in_data[1].asnumpy().ravel().astype(np.int64)
            grad = out_data[0].asnumpy().copy()
            grad[np.arange(len(classes)), classes] -= 1.0
            self.assign(in_grad[0], req[0], mx.nd.array(grad))

    @mx.operator.register("softmax")
    class RowSoftmaxProp(mx.operator.CustomOpProp):
        def __init__(self):
            super().__init__(need_top_grad=False)

        def list_arguments(self):
            return ["data", "label"]

        def list_outputs(self):
            return ["output"]

        def infer_shape(self, in_shape):
            return [in_shape[0], (in_shape[0][0],)], [in_shape[0]], []

        def infer_type(self, in_type):
            return in_type, [in_type[0]], []

        def create_operator(self, ctx, shapes, dtypes):
            return RowSoftmax()


def run(mx):
    register(mx)
    return run_example(mx, "custom-softmax", {"data": (2, 784)}, seed=740)
