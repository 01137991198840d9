"""The ``Custom`` operator checked like every built-in one: its shape rule (taken from the Prop),
float64 finite differences of its gradients, and req null / write / add, through the same
adapter the executor uses (``Custom.create_runner``), so that the CustomOp receives the arrays
of the right slots and the reqs the executor asked for.

What is specific to custom operators (errors, the trace, empty undeclared arrays, mx.nd.Custom)
lives in test_custom_ops.py.
"""

import numpy as np
import pytest

import minisym as mx
from opcheck import check_gradients, check_req, make_op, output_shapes, run_forward


class ScaleAndSquare(mx.operator.CustomOp):
    """scaled = data * scale (one scale per column), squared = data ** 2; counts its forwards
    in the aux state ``calls``."""

    def forward(self, is_train, req, in_data, out_data, aux):
        data, scale = in_data[0].asnumpy(), in_data[1].asnumpy()
        self.assign(out_data[0], req[0], data * scale)
        self.assign(out_data[1], req[1], data * data)
        aux[0][:] = aux[0].asnumpy() + 1

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        g_scaled, g_squared = out_grad[0].asnumpy(), out_grad[1].asnumpy()
        data, scale = in_data[0].asnumpy(), in_data[1].asnumpy()
        self.assign(in_grad[0], req[0], g_scaled * scale + 2 * g_squared * data)
        self.assign(in_grad[1], req[1], (g_scaled * data).sum(axis=0))


@mx.operator.register("tops_scale_square")
class ScaleAndSquareProp(mx.operator.CustomOpProp):
    def list_arguments(self):
        return ["data", "scale"]

    def list_outputs(self):
        return ["scaled", "squared"]

    def list_auxiliary_states(self):
        return ["calls"]

    def infer_shape(self, in_shape):
        data = in_shape[0]
        return [data, data[1:]], [data, data], [[1]]

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return ScaleAndSquare()


class Cube(mx.operator.CustomOp):
    """y = x ** 3, with every declaration left to the CustomOpProp defaults."""

    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0].asnumpy() ** 3)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], 3 * in_data[0].asnumpy() ** 2 * out_grad[0].asnumpy())


@mx.operator.register("tops_cube")
class CubeProp(mx.operator.CustomOpProp):
    def create_operator(self, ctx, in_shapes, in_dtypes):
        return Cube()


# (op_type, input shapes, output shapes, aux shapes)
CASES = [
    ("tops_scale_square", [(4, 3), (3,)], [(4, 3), (4, 3)], [(1,)]),
    ("tops_cube", [(2, 3, 2)], [(2, 3, 2)], []),
]
IDS = [c[0] for c in CASES]


def bound_custom(op_type, in_shapes, dtype=np.float64):
    """A Custom operator whose forward / backward run its CustomOp, as inside an executor."""
    op = make_op("Custom", op_type=op_type)
    runner = op.create_runner(mx.cpu(), in_shapes, [dtype] * len(in_shapes))
    op.forward, op.backward = runner.forward, runner.backward
    return op


def inputs(in_shapes, aux_shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s) for s in in_shapes], [np.zeros(s) for s in aux_shapes]


@pytest.mark.parametrize("op_type, in_shapes, out_shapes, aux_shapes", CASES, ids=IDS)
def test_shape_rule(op_type, in_shapes, out_shapes, aux_shapes):
    op = bound_custom(op_type, in_shapes)
    unknown = [in_shapes[0]] + [None] * (len(in_shapes) - 1)
    assert op.infer_shape(unknown, [None] * len(out_shapes)) == (in_shapes, out_shapes, aux_shapes)
    assert output_shapes(op, in_shapes) == (out_shapes, aux_shapes)
    ins, aux = inputs(in_shapes, aux_shapes)
    outs = run_forward(op, ins, aux, outs=[np.full(s, np.nan) for s in out_shapes])
    assert [o.shape for o in outs] == out_shapes
    for j, out in enumerate(outs):
        assert not np.isnan(out).any(), f"output {j} not fully written"
    for state in aux:  # the aux buffers given are the ones the CustomOp updates
        np.testing.assert_array_equal(state, 1)


@pytest.mark.parametrize("op_type, in_shapes, out_shapes, aux_shapes", CASES, ids=IDS)
def test_gradients(op_type, in_shapes, out_shapes, aux_shapes):
    ins, aux = inputs(in_shapes, aux_shapes)
    grads = check_gradients(bound_custom(op_type, in_shapes), ins, aux)
    assert all(np.abs(g).max() > 1e-3 for g in grads)  # the check compared real numbers


@pytest.mark.parametrize("op_type, in_shapes, out_shapes, aux_shapes", CASES, ids=IDS)
def test_req(op_type, in_shapes, out_shapes, aux_shapes):
    ins, aux = inputs(in_shapes, aux_shapes)
    check_req(bound_custom(op_type, in_shapes), ins, aux)


# --- what this file covers, per operator (read by test_ops_coverage.py) ------------------------
SHAPE_TESTED = GRADIENT_TESTED = REQ_TESTED = frozenset(["Custom"])
