"""Center loss as a custom operator (the CenterLossProp of seed 001): inputs ``data`` and
``label``, three auxiliary states (``diff_bias``, ``center_bias``, ``sum_bias``) mutated in
place in forward and updated in backward, keywords ``num_class``, ``alpha``, ``scale``,
``batchsize`` received as strings, ``need_top_grad=False`` under a MakeLoss, an upstream
FullyConnected embedding. Several forward/backward steps: the aux states after each, the
outputs and the gradients."""
import numpy as np

RECEIVED = []


def register(mx):
    class CenterLoss(mx.operator.CustomOp):
        def __init__(self, ctx, shapes, dtypes, num_class, alpha, scale=1.0):
            if not len(shapes[0]) == 2:
                raise ValueError("dim for input_data should be 2 for CenterLoss")
            self.alpha = alpha
            self.batch_size = shapes[0][0]
            self.num_class = num_class
            self.scale = scale

        def forward(self, is_train, req, in_data, out_data, aux):
            labels = in_data[1].asnumpy()
            diff = aux[0]
            center = aux[1]
            # store x_i - c_yi
            for i in range(self.batch_size):
                diff[i] = in_data[0][i] - center[int(labels[i])]
            loss = mx.nd.sum(mx.nd.square(diff)) / self.batch_size / 2
            self.assign(out_data[0], req[0], loss)

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            diff = aux[0]
            center = aux[1]
            sum_ = aux[2]
            # the gradient is just scale * (x_i - c_yi)
            grad_scale = float(self.scale / self.batch_size)
            self.assign(in_grad[0], req[0], diff * grad_scale)
            self.assign(in_grad[1], req[1], 0)
            # update the centers
            labels = in_data[1].asnumpy()
            label_occur = dict()
            for i, label in enumerate(labels):
                label_occur.setdefault(int(label), []).append(i)
            for label, sample_index in sorted(label_occur.items()):
                sum_[:] = 0
                for i in sample_index:
                    sum_[:] = sum_ + diff[i]
                delta_c = sum_ / (1 + len(sample_index))
                center[label] += self.alpha * delta_c

    @mx.operator.register("p401_centerloss")
    class CenterLossProp(mx.operator.CustomOpProp):
        def __init__(self, num_class, alpha, scale=1.0, batchsize=64):
            super(CenterLossProp, self).__init__(need_top_grad=False)
            RECEIVED.append({k: [type(v).__name__, str(v)] for k, v in
                             [("num_class", num_class), ("alpha", alpha), ("scale", scale),
                              ("batchsize", batchsize)]})
            self.num_class = int(num_class)
            self.alpha = float(alpha)
            self.scale = float(scale)
            self.batchsize = int(batchsize)

        def list_arguments(self):
            return ["data", "label"]

        def list_outputs(self):
            return ["output"]

        def list_auxiliary_states(self):
            # called 'bias' for zero initialization
            return ["diff_bias", "center_bias", "sum_bias"]

        def infer_shape(self, in_shape):
            data_shape = in_shape[0]
            label_shape = (in_shape[0][0],)
            diff_shape = [self.batchsize, data_shape[1]]  # x_i - c_yi, one row per sample
            center_shape = [self.num_class, diff_shape[1]]  # one center per class
            sum_shape = [diff_shape[1]]  # a work buffer
            output_shape = [1]
            return [data_shape, label_shape], [output_shape], [diff_shape, center_shape, sum_shape]

        def create_operator(self, ctx, shapes, dtypes):
            return CenterLoss(ctx, shapes, dtypes, self.num_class, self.alpha, self.scale)


def run(mx):
    del RECEIVED[:]
    register(mx)
    rs = np.random.RandomState(401)
    batchsize, num_class, dim = 6, 4, 3
    data = mx.sym.Variable("data")
    center_label = mx.sym.Variable("center_label")
    embedding = mx.sym.FullyConnected(data=data, num_hidden=dim, name="embed")
    center_loss_ = mx.sym.Custom(data=embedding, label=center_label, name="center_loss_",
                                 op_type="p401_centerloss", num_class=num_class, alpha=0.5,
                                 scale=1.0, batchsize=batchsize)
    center_loss = mx.sym.MakeLoss(name="center_loss", data=center_loss_)
    res = {"received": list(RECEIVED),
           "arguments": center_loss.list_arguments(),
           "auxiliary_states": center_loss.list_auxiliary_states(),
           "outputs": center_loss.list_outputs(),
           "infer_shape": center_loss.infer_shape(data=(batchsize, 5)),
           "attr_dict": center_loss_.attr_dict()["center_loss_"]}
    ex = center_loss.simple_bind(ctx=mx.cpu(), data=(batchsize, 5))
    res["aux_at_bind"] = {k: v.asnumpy() for k, v in sorted(ex.aux_dict.items())}
    ex.arg_dict["embed_weight"][:] = rs.randn(dim, 5).astype("float32") * 0.5
    ex.arg_dict["embed_bias"][:] = rs.randn(dim).astype("float32") * 0.1
    ex.aux_dict["center_loss__center_bias"][:] = rs.randn(num_class, dim).astype("float32")
    steps = []
    for step in range(4):
        ex.arg_dict["data"][:] = rs.randn(batchsize, 5).astype("float32")
        ex.arg_dict["center_label"][:] = rs.randint(0, num_class, batchsize).astype("float32")
        ex.forward(is_train=True)
        mx.nd.waitall()  # MXNet runs custom operators asynchronously: without it, stale aux
        after_forward = {k: v.asnumpy() for k, v in sorted(ex.aux_dict.items())}
        output = ex.outputs[0].asnumpy()
        ex.backward()
        mx.nd.waitall()
        steps.append({"output": output,
                      "aux_after_forward": after_forward,
                      "aux_after_backward": {k: v.asnumpy()
                                             for k, v in sorted(ex.aux_dict.items())},
                      "grads": {k: v.asnumpy() for k, v in sorted(ex.grad_dict.items())}})
        # a plain SGD step on the embedding (the centers move only through backward)
        for name in ("embed_weight", "embed_bias"):
            ex.arg_dict[name][:] = ex.arg_dict[name] - 0.1 * ex.grad_dict[name]
    res["steps"] = steps
    # inference leaves the centers alone
    before = ex.aux_dict["center_loss__center_bias"].asnumpy()
    ex.forward(is_train=False)
    mx.nd.waitall()
    res["inference_output"] = ex.outputs[0].asnumpy()
    res["inference_centers_unchanged"] = bool(
        np.array_equal(before, ex.aux_dict["center_loss__center_bias"].asnumpy()))
    res["received_count_positive"] = len(RECEIVED) > 0
    return res
