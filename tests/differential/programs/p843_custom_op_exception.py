"""An exception raised inside a CustomOp's forward or backward (an assert, a ValueError, an
engine error from an NDArray call it makes, such as a dot of mismatched shapes) surfaces as an
mx.base.MXNetError, through mx.nd.Custom + wait_to_read (MXNet's test_custom_op_exc) and
through an executor's forward / backward + asnumpy; the next operation works again. MXNet
raises when the output is read, minisym at the call: each case records only whether the
steps together raised, and what."""
import numpy as np
from _common import err


def _register(mx, name, forward=None, backward=None):
    class Op(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            if forward is not None:
                forward(in_data, out_data)
            else:
                self.assign(out_data[0], req[0], mx.nd.dot(in_data[0], in_data[1]))

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            if backward is not None:
                backward(in_grad)
            for i in range(2):
                self.assign(in_grad[i], req[i], mx.nd.zeros(in_data[i].shape))

    @mx.operator.register(name)
    class OpProp(mx.operator.CustomOpProp):
        def __init__(self):
            super().__init__(need_top_grad=True)

        def list_arguments(self):
            return ["a", "b"]

        def list_outputs(self):
            return ["output"]

        def infer_shape(self, in_shape):
            return in_shape, [(in_shape[0][0], in_shape[1][1])]

        def create_operator(self, ctx, shapes, dtypes):
            return Op()


def _fail_assert(in_data, out_data):
    raise AssertionError  # what MXNet's test does with assert False


def _fail_value(in_data, out_data):
    raise ValueError("forward went wrong")


def _fail_dot(mx):
    def forward(in_data, out_data):
        out_data[0][:] = mx.nd.dot(in_data[0], in_data[1])  # shapes that do not fit
    return forward


def _fail_backward(in_grad):
    raise KeyError("backward went wrong")


def _imperative(mx, op_type, shape_a, shape_b):
    def call():
        c = mx.nd.Custom(mx.nd.zeros(shape_a), mx.nd.zeros(shape_b), op_type=op_type)
        c.wait_to_read()
        return c
    return err(mx, call)


def _symbolic(mx, op_type, backward):
    def call():
        sym = mx.sym.Custom(mx.sym.Variable("a"), mx.sym.Variable("b"), op_type=op_type)
        ex = sym.simple_bind(mx.cpu(), a=(4, 1), b=(1, 4))
        ex.forward(is_train=True)
        ex.outputs[0].asnumpy()
        if backward:
            ex.backward([mx.nd.ones((4, 4))])
            ex.grad_arrays[0].asnumpy()
    return err(mx, call)


def run(mx):
    _register(mx, "p843_assert", forward=_fail_assert)
    _register(mx, "p843_value", forward=_fail_value)
    _register(mx, "p843_dot", forward=_fail_dot(mx))
    _register(mx, "p843_backward", backward=_fail_backward)
    out = {
        "assert": _imperative(mx, "p843_assert", (4, 1), (1, 4)),
        "value": _imperative(mx, "p843_value", (4, 1), (1, 4)),
        "dot_shapes": _imperative(mx, "p843_dot", (4, 2), (1, 4)),
        "symbolic_forward": _symbolic(mx, "p843_value", backward=False),
        "symbolic_backward": _symbolic(mx, "p843_backward", backward=True),
    }
    out["after"] = (mx.nd.ones((2,)) * 2).asnumpy()
    ok = mx.nd.Custom(mx.nd.ones((2, 1)), mx.nd.ones((1, 2)), op_type="p843_backward")
    out["healthy_forward"] = ok.asnumpy()
    return out
