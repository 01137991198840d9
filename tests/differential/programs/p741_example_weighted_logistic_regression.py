"""MXNet's example/numpy-ops/weighted_logistic_regression.py symbol (``Custom`` with string
keyword arguments pos_grad_scale=1, neg_grad_scale=0.1), as MXNet 1.9.1 wrote its JSON: loaded
after registering the project's own operator with the same contract (forward the logistic
function, backward ``((y - 1) * label * pos + y * (1 - label) * neg) / columns``), then run in
inference and training mode with backward. Data and label (4, 5), the label 0 / 1."""
import numpy as np

from _examples import path_of, run_example


def register(mx):
    class WeightedLogistic(mx.operator.CustomOp):
        def __init__(self, pos, neg):
            self.pos, self.neg = pos, neg

        def forward(self, is_train, req, in_data, out_data, aux):
            self.assign(out_data[0], req[0], 1 / (1 + mx.nd.exp(-in_data[0])))

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            y, label = out_data[0].asnumpy(), in_data[1].asnumpy()
            grad = ((y - 1) * label * self.pos + y * (1 - label) * self.neg) / y.shape[1]
            self.assign(in_grad[0], req[0], mx.nd.array(grad))

    @mx.operator.register("weighted_logistic_regression")
    class WeightedLogisticProp(mx.operator.CustomOpProp):
        def __init__(self, pos_grad_scale, neg_grad_scale):
            super().__init__(need_top_grad=False)
            self.pos, self.neg = float(pos_grad_scale), float(neg_grad_scale)

        def list_arguments(self):
            return ["data", "label"]

        def list_outputs(self):
            return ["output"]

        def infer_shape(self, in_shape):
            return [in_shape[0], in_shape[0]], [in_shape[0]]

        def create_operator(self, ctx, shapes, dtypes):
            return WeightedLogistic(self.pos, self.neg)


def run(mx):
    register(mx)
    result = run_example(mx, "weighted-logistic-regression", {"data": (4, 5)}, seed=741,
                         num_classes=2)
    result["attrs_in_file"] = mx.sym.load(path_of("weighted-logistic-regression")).list_attr()
    return result
