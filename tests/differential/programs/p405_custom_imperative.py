"""``mx.nd.Custom``: a custom operator run at once on NDArrays given positionally (arguments,
then aux states): keywords reach the Prop as strings, the operator sees ``is_train`` 0 and
``req`` 'write', create_operator gets the shapes (args then aux) and integer dtype codes, several
outputs come back as a list, aux arrays are updated in place, the inputs are untouched, and
``out=`` receives a single output. (Keyword NDArray inputs make MXNet 1.9.1 segfault: they are
passed to the Prop as strings; not recorded.)"""
import numpy as np

LOG = []


def register(mx):
    class Mix(mx.operator.CustomOp):
        def __init__(self, scale):
            super(Mix, self).__init__()
            self.scale = scale

        def forward(self, is_train, req, in_data, out_data, aux):
            LOG.append({"call": "forward", "is_train": [is_train, type(is_train).__name__],
                        "req": list(req)})
            self.assign(out_data[0], req[0], in_data[0] * self.scale + in_data[1])
            self.assign(out_data[1], req[1], in_data[0] - in_data[1])
            aux[0][:] = aux[0] + 1

    @mx.operator.register("p405_mix")
    class MixProp(mx.operator.CustomOpProp):
        def __init__(self, scale="1", note=None):
            super(MixProp, self).__init__(need_top_grad=True)
            LOG.append({"call": "init", "scale": [type(scale).__name__, scale],
                        "note": [type(note).__name__, str(note)]})
            self.scale = float(scale)

        def list_arguments(self):
            return ["data", "other"]

        def list_outputs(self):
            return ["sum", "difference"]

        def list_auxiliary_states(self):
            return ["count"]

        def infer_shape(self, in_shape):
            return [in_shape[0], in_shape[0]], [in_shape[0], in_shape[0]], [in_shape[0]]

        def create_operator(self, ctx, shapes, dtypes):
            LOG.append({"call": "create_operator", "ctx": str(ctx), "shapes": shapes,
                        "dtypes": list(dtypes)})
            return Mix(self.scale)

    class Half(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            self.assign(out_data[0], req[0], in_data[0] / 2)

    @mx.operator.register("p405_half")
    class HalfProp(mx.operator.CustomOpProp):
        def create_operator(self, ctx, shapes, dtypes):
            return Half()


def run(mx):
    del LOG[:]
    register(mx)
    rs = np.random.RandomState(405)
    xv = rs.randn(2, 3).astype("float32")
    yv = rs.randn(2, 3).astype("float32")
    x, y, count = mx.nd.array(xv), mx.nd.array(yv), mx.nd.zeros((2, 3))
    res = {}
    out = mx.nd.Custom(x, y, count, op_type="p405_mix", scale=3, note=(1, 2))
    res["type"] = type(out).__name__
    res["outputs"] = [o.asnumpy() for o in out]
    res["count_after_one"] = count.asnumpy()
    out = mx.nd.Custom(x, y, count, op_type="p405_mix", scale=0.5)
    res["outputs_scale_half"] = [o.asnumpy() for o in out]
    res["count_after_two"] = count.asnumpy()
    res["inputs_untouched"] = [bool(np.array_equal(x.asnumpy(), xv)),
                               bool(np.array_equal(y.asnumpy(), yv))]
    d = mx.nd.array(rs.randn(4, 1), dtype="float64")
    out = mx.nd.Custom(d, d, mx.nd.zeros((4, 1), dtype="float64"), op_type="p405_mix")
    res["float64_outputs"] = [[o.dtype.__name__ if hasattr(o.dtype, "__name__") else str(o.dtype),
                               o.asnumpy()] for o in out]
    res["log"] = [{k: v for k, v in c.items()} for c in LOG]
    single = mx.nd.Custom(x, op_type="p405_half")
    res["single_type"] = type(single).__name__
    res["single"] = single.asnumpy()
    target = mx.nd.zeros((2, 3))
    returned = mx.nd.Custom(x, op_type="p405_half", out=target)
    res["out_filled"] = target.asnumpy()
    res["out_returned_is_target"] = returned is target
    return res
