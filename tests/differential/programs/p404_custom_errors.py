"""Errors around custom operators that MXNet and minisym both raise, by category: an unknown
op_type, a missing op_type, infer_shape returning the wrong number of shapes (outputs, inputs,
aux) or of lists, and positional inputs mixed with keyword inputs. (An unexpected keyword and
an exception raised inside forward/backward are deliberate differences: see
tests/test_custom_ops.py.)"""
import numpy as np
from _common import err


def register(mx):
    class Double(mx.operator.CustomOp):
        def forward(self, is_train, req, in_data, out_data, aux):
            self.assign(out_data[0], req[0], in_data[0] * 2)

        def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
            self.assign(in_grad[0], req[0], out_grad[0] * 2)

    @mx.operator.register("p404_bad_shapes")
    class BadShapesProp(mx.operator.CustomOpProp):
        def __init__(self, mode="ok"):
            super(BadShapesProp, self).__init__(need_top_grad=True)
            self.mode = mode

        def list_arguments(self):
            return ["data", "weight"]

        def list_auxiliary_states(self):
            return ["state"]

        def infer_shape(self, in_shape):
            s = in_shape[0]
            if self.mode == "two_outputs":
                return [s, s], [s, s], [s]
            if self.mode == "one_input":
                return [s], [s], [s]
            if self.mode == "no_aux":
                return [s, s], [s], []
            if self.mode == "two_lists_with_aux_declared":
                return [s, s], [s]
            if self.mode == "one_list":
                return ([s, s],)
            if self.mode == "four_lists":
                return [s, s], [s], [s], []
            return [s, s], [s], [s]

        def create_operator(self, ctx, shapes, dtypes):
            return Double()


def run(mx):
    register(mx)
    x = mx.sym.Variable("x")
    w = mx.sym.Variable("w")
    res = {}
    res["unknown_op_type"] = err(mx, mx.sym.Custom, x, op_type="p404_nonexistent")
    res["unknown_op_type_named"] = err(mx, mx.sym.Custom, x, op_type="p404_nonexistent",
                                       name="c")
    res["missing_op_type"] = err(mx, mx.sym.Custom, x)
    res["mixed_positional_and_keyword"] = err(mx, mx.sym.Custom, x, weight=w,
                                              op_type="p404_bad_shapes")
    ok = mx.sym.Custom(x, w, op_type="p404_bad_shapes", name="ok")
    res["ok_infer_shape"] = ok.infer_shape(x=(2, 3))
    for mode in ("two_outputs", "one_input", "no_aux", "two_lists_with_aux_declared",
                 "one_list", "four_lists"):
        sym = mx.sym.Custom(x, w, op_type="p404_bad_shapes", mode=mode, name=mode)
        res["infer_shape_" + mode] = err(mx, sym.infer_shape, x=(2, 3))
        res["simple_bind_" + mode] = err(mx, sym.simple_bind, mx.cpu(), x=(2, 3))
    ex = ok.simple_bind(mx.cpu(), x=(2, 3))
    ex.arg_dict["x"][:] = np.arange(6, dtype=np.float32).reshape(2, 3)
    res["ok_forward"] = ex.forward()[0].asnumpy()
    return res
