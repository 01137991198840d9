"""mx.test_utils.check_numeric_gradient on custom operators, the lesson-4 use: a softmax written
as a CustomOp (need_top_grad=True) passes; the same with the sign of backward flipped, with its
gradient written to in_grad[1] instead of in_grad[0], or with forward off by a factor raises
AssertionError; a softmax loss (need_top_grad=False, backward ignores out_grad) raises too,
since its backward is the loss's gradient, not the derivative of its output."""
import numpy as np
from _common import err


def register(mx):
    class Softmax(mx.operator.CustomOp):
        def __init__(self, mode):
            self.mode = mode

        def forward(self, is_train, req, in_data, out_data, aux):
            x = in_data[0].asnumpy()
            y = np.exp(x - x.max(axis=1, keepdims=True))
            y /= y.sum(axis=1, keepdims=True)
            if self.mode == "factor":
                y = 2 * y
            self.assign(out_data[0], req[0], mx.nd.array(y, dtype=x.dtype))

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            y, g = out_data[0].asnumpy(), out_grad[0].asnumpy()
            if self.mode == "factor":
                y = y / 2
            dx = y * (g - (g * y).sum(axis=1, keepdims=True))
            if self.mode == "sign":
                dx = -dx
            slot = 1 if self.mode == "index" else 0
            self.assign(in_grad[slot], req[slot], mx.nd.array(dx, dtype=y.dtype))

    @mx.operator.register("p536_softmax")
    class SoftmaxProp(mx.operator.CustomOpProp):
        def __init__(self, mode="ok"):
            super(SoftmaxProp, self).__init__(need_top_grad=True)
            self.mode = mode

        def list_arguments(self):
            return ["data", "other"]

        def infer_shape(self, in_shape):
            return [in_shape[0], in_shape[0]], [in_shape[0]], []

        def create_operator(self, ctx, shapes, dtypes):
            return Softmax(self.mode)

    class SoftmaxLoss(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            x = in_data[0].asnumpy()
            y = np.exp(x - x.max(axis=1, keepdims=True))
            self.assign(out_data[0], req[0], mx.nd.array(y / y.sum(axis=1, keepdims=True)))

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            label = in_data[1].asnumpy().astype(int)
            y = out_data[0].asnumpy()
            y[np.arange(label.shape[0]), label] -= 1.0
            self.assign(in_grad[0], req[0], mx.nd.array(y))

    @mx.operator.register("p536_softmax_loss")
    class SoftmaxLossProp(mx.operator.CustomOpProp):
        def __init__(self):
            super(SoftmaxLossProp, self).__init__(need_top_grad=False)

        def list_arguments(self):
            return ["data", "label"]

        def infer_shape(self, in_shape):
            return [in_shape[0], (in_shape[0][0],)], [in_shape[0]], []

        def create_operator(self, ctx, shapes, dtypes):
            return SoftmaxLoss()


def run(mx):
    register(mx)
    tu = mx.test_utils
    cng = tu.check_numeric_gradient
    rng = np.random.RandomState(1)
    x, other = rng.randn(4, 5), rng.randn(4, 5)
    data, oth = mx.sym.Variable("data"), mx.sym.Variable("other")
    res = {}
    np.random.seed(3)
    for mode in ("ok", "sign", "index", "factor"):
        sym = mx.sym.Custom(data, oth, op_type="p536_softmax", mode=mode, name="sm")
        res[mode] = {
            "data_only": err(mx, cng, sym, [x, other], grad_nodes=["data"]),
            "float64": err(mx, cng, sym, [x, other], grad_nodes=["data"], dtype=np.float64),
            "add": err(mx, cng, sym, [x, other], grad_nodes={"data": "add"}),
            "other_null": err(mx, cng, sym, {"data": x, "other": other},
                              grad_nodes={"data": "write", "other": "null"}),
        }
    res["draws_after"] = np.random.rand(2)
    label = np.array([0, 2, 1, 4.0])
    loss = mx.sym.Custom(data, mx.sym.Variable("label"), op_type="p536_softmax_loss", name="l")
    res["loss_head"] = err(mx, cng, loss, [x, label], grad_nodes=["data"])
    res["loss_head_float64"] = err(mx, cng, loss, [x, label], grad_nodes=["data"],
                                   dtype=np.float64)
    p = np.exp(x) / np.exp(x).sum(1, keepdims=True)
    res["loss_head_symbolic"] = err(mx, tu.check_symbolic_backward, loss, [x, label], None,
                                    {"data": p - np.eye(5)[[0, 2, 1, 4]]})
    return res
