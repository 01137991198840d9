"""A numpy softmax loss as a custom operator (the operator of seed 001) on top of a
FullyConnected, next to the built-in SoftmaxOutput on the same layer: inputs ``data`` and
``label``, ``need_top_grad=False``, the label shape inferred in ``infer_shape``. Outputs and
every gradient are recorded for both networks (each is compared with MXNet's). Backward works
without out_grads, and out_grads given to it are ignored by both."""
import numpy as np


def register(mx):
    class Softmax(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            x = in_data[0].asnumpy()
            y = np.exp(x - x.max(axis=1).reshape((x.shape[0], 1)))
            y /= y.sum(axis=1).reshape((x.shape[0], 1))
            self.assign(out_data[0], req[0], mx.nd.array(y))

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            label = in_data[1].asnumpy().ravel().astype(np.int64)
            y = out_data[0].asnumpy()
            y[np.arange(label.shape[0]), label] -= 1.0
            self.assign(in_grad[0], req[0], mx.nd.array(y))
            self.assign(in_grad[1], req[1], 0)  # the label gets no gradient, as in SoftmaxOutput

    @mx.operator.register("p400_softmax")
    class SoftmaxProp(mx.operator.CustomOpProp):
        def __init__(self):
            super(SoftmaxProp, self).__init__(need_top_grad=False)

        def list_arguments(self):
            return ["data", "label"]

        def list_outputs(self):
            return ["output"]

        def infer_shape(self, in_shape):
            data_shape = in_shape[0]
            label_shape = (in_shape[0][0],)
            output_shape = in_shape[0]
            return [data_shape, label_shape], [output_shape], []

        def create_operator(self, ctx, shapes, dtypes):
            return Softmax()


def run(mx):
    register(mx)
    rs = np.random.RandomState(400)
    data = mx.sym.Variable("data")
    fc1 = mx.sym.FullyConnected(data=data, name="fc1", num_hidden=10)
    nets = {"custom": mx.sym.Custom(data=fc1, name="softmax", op_type="p400_softmax"),
            "builtin": mx.sym.SoftmaxOutput(data=fc1, name="softmax")}
    x = rs.randn(8, 20).astype("float32")
    w = (rs.randn(10, 20) * 0.1).astype("float32")
    b = (rs.randn(10) * 0.1).astype("float32")
    lab = (np.arange(8) * 3 % 10).astype("float32")
    res = {}
    for kind, net in sorted(nets.items()):
        out = {"arguments": net.list_arguments(), "outputs": net.list_outputs(),
               "infer_shape": net.infer_shape(data=(8, 20))}
        ex = net.simple_bind(ctx=mx.cpu(), data=(8, 20))
        ex.arg_dict["data"][:] = x
        ex.arg_dict["fc1_weight"][:] = w
        ex.arg_dict["fc1_bias"][:] = b
        ex.arg_dict["softmax_label"][:] = lab
        ex.forward(is_train=True)
        out["output"] = ex.outputs[0].asnumpy()
        ex.backward()  # no out_grads: a loss head
        out["grads"] = {k: v.asnumpy() for k, v in sorted(ex.grad_dict.items())}
        # out_grads given are ignored: the same gradients again
        ex.forward(is_train=True)
        ex.backward(mx.nd.array(rs.randn(8, 10).astype("float32") * 5))
        out["grads_with_out_grads"] = {k: v.asnumpy() for k, v in sorted(ex.grad_dict.items())}
        # inference: the output only
        ex.forward(is_train=False, data=mx.nd.array(x * 0.5))
        out["output_half_input"] = ex.outputs[0].asnumpy()
        # a second step with other values (the operator's numpy arrays are not stale)
        ex.arg_dict["fc1_weight"][:] = w * -2
        ex.forward(is_train=True)
        ex.backward()
        out["grads_second_step"] = {k: v.asnumpy() for k, v in sorted(ex.grad_dict.items())}
        res[kind] = out
    return res
