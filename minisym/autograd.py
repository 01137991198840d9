"""``mx.autograd``: gradients of NDArray code, recorded on a tape while it runs.

    x = mx.nd.array([1, 2]); x.attach_grad()   # x gets a gradient buffer: x.grad
    with mx.autograd.record():                 # every operator call below is recorded
        y = x * x + 2 * x
    y.backward()                               # x.grad == 2 * x + 2

Each recorded call keeps what a bound symbol keeps for one node: the operator, its
``in_data`` / ``out_data`` / ``aux`` and, for a custom operator, its CustomOp. ``backward``
walks those nodes in reverse topological order and calls each operator's own ``backward`` with
a ``req`` per input, exactly as an Executor does: a variable read once gets its ``grad_req``
('write' or 'add') straight into ``x.grad``; anything else gets a temporary 'write' buffer
whose parts are summed, then written into ``x.grad`` as its ``grad_req`` says.
"""

import numpy as np

from . import lifecycle
from .arrays.ndarray import NDArray
from .arrays.tape import (  # noqa: F401 (mx.autograd's names)
    GRAD_REQS,
    UNTRACKED,
    FunctionNode,
    RecordingStateScope,
    TapeNode,
    Variable,
    check_not_recorded,
    check_req,
    is_recording,
    is_training,
    pause,
    predict_mode,
    record,
    record_function,
    set_recording,
    set_training,
    source_of,
    tag_outputs,
    train_mode,
)
from .assign import assign
from .base import MXNetError, MXNetValueError
from .executor import _call
from .graph import topo_order
from .graph.backward_plan import DIRECT, TEMPORARY, UNUSED, BackwardPlan, GradientParts, sum_parts

__all__ = [
    "record",
    "pause",
    "train_mode",
    "predict_mode",
    "is_recording",
    "is_training",
    "set_recording",
    "set_training",
    "mark_variables",
    "backward",
    "grad",
    "Function",
]


# --- what the tape holds: minisym/ndarray/tape.py; an operator call on it ------------------
class OperatorNode(TapeNode):
    """A recorded ``mx.nd.<Operator>`` call: the one-node executor that ran its forward."""

    def __init__(self, executor, sources):
        self.executor = executor
        self.node = executor._ops[0]
        super().__init__(sources, [a._data for a in executor.outputs])
        self.where = self.node.op.op_name

    def grad_buffer(self, i):
        data = self.executor.arg_arrays[i]._data
        fresh = np.empty_like if self.node.op.writes_every_gradient else np.zeros_like
        return fresh(data)

    def run_backward(self, out_grad, in_grad, req, train_mode):
        ex, node = self.executor, self.node
        in_data, aux, out_data = ex._node_arrays(node)
        visible = node.num_visible_outputs
        grads = list(out_grad) + [
            np.zeros_like(out_data[j]) for j in range(visible, node.num_outputs)
        ]
        runner = ex._runners[id(node)]
        if not train_mode:
            runner = node.op.predict_mode_runner(runner)
        _call(node.op, "backward", runner.backward, req, grads, in_data, out_data, in_grad, aux)

    def free(self):
        super().free()
        self.executor = self.node = None


def mark_variables(variables, gradients, grad_reqs="write"):
    """Mark NDArrays as variables whose gradients go into ``gradients`` (the same number of
    NDArrays, each of its variable's shape); ``grad_reqs`` one req or one per variable."""
    variables = [variables] if isinstance(variables, NDArray) else list(variables)
    gradients = [gradients] if isinstance(gradients, NDArray) else list(gradients)
    reqs = [grad_reqs] * len(variables) if isinstance(grad_reqs, str) else list(grad_reqs)
    if not len(variables) == len(gradients) == len(reqs):
        raise ValueError(  # MXNet 1.9.1 crashes the process here
            f"mark_variables: {len(variables)} variables, {len(gradients)} gradients and "
            f"{len(reqs)} grad_reqs; give one gradient array (and one grad_req) per variable, "
            "e.g. mark_variables([x], [mx.nd.zeros(x.shape)])"
        )
    for i, (var, gradient, req) in enumerate(zip(variables, gradients, reqs)):
        check_req(req, "mark_variables")
        if tuple(gradient.shape) != tuple(var.shape):
            raise MXNetValueError(
                f"mark_variables: gradients[{i}] has shape {tuple(gradient.shape)} but "
                f"variables[{i}] has {tuple(var.shape)}; a gradient has its variable's shape "
                f"(mx.nd.zeros({tuple(var.shape)}))"
            )
        var._ag = Variable(gradient, req, var.shape)


# --- backward -----------------------------------------------------------------------------------
NOT_IN_GRAPH = (
    "Cannot differentiate node because it is not in a computational graph. You "
    "need to set is_recording to true or use autograd.record() to save "
    "computational graphs for backward. If you want to differentiate the same "
    "graph twice, you need to pass retain_graph=True to backward."
)


def _head_source(head, k):
    """The tape source of head ``k``, or the MXNetError that says why it has none."""
    tag = getattr(head, "_ag", None)
    what = f"backward: head {k} (an NDArray of shape {tuple(head.shape)})"
    if tag is None:
        raise MXNetError(
            f"{what} was computed outside autograd.record(), so nothing recorded how it "
            "depends on anything. Compute it inside the block, after attach_grad():\n"
            "    x.attach_grad()\n    with mx.autograd.record():\n        y = f(x)\n"
            f"    y.backward()\n({NOT_IN_GRAPH})"
        )
    if tag is UNTRACKED:
        raise MXNetError(
            f"{what} was computed inside autograd.record(), but from arrays none of which "
            "has a gradient buffer, so nothing was recorded. Call x.attach_grad() on each "
            "array you want a gradient for, before the record() block, then x.grad holds it "
            f"after backward.\n({NOT_IN_GRAPH})"
        )
    return tag if isinstance(tag, tuple) else (tag, 0)


def _head_grads(heads, head_grads):
    """One numpy head gradient per head: the one given, or ones (d head / d head)."""
    if head_grads is None:
        head_grads = [None] * len(heads)
    elif isinstance(head_grads, NDArray):
        head_grads = [head_grads]
    head_grads = list(head_grads)
    if len(head_grads) != len(heads):
        raise AssertionError(
            f"heads and head_grads must be lists of the same length: "
            f"{len(heads)} heads, {len(head_grads)} head_grads"
        )
    result = []
    for k, (head, given) in enumerate(zip(heads, head_grads)):
        if given is None:
            result.append(np.ones(head.shape, head._data.dtype))
            continue
        values = np.asarray(given._data if isinstance(given, NDArray) else given)
        if values.shape != tuple(head.shape):
            raise MXNetValueError(  # MXNet 1.9.1 reads past the array
                f"backward: head_grads[{k}] has shape {values.shape} but head {k} has "
                f"{tuple(head.shape)}; a head gradient holds d(objective)/d(head), one value "
                f"per element of the head: e.g. mx.nd.ones({tuple(head.shape)}). Nothing was "
                "changed."
            )
        result.append(values.astype(head._data.dtype, copy=False))
    return result


@lifecycle.entry("autograd backward()")
def run_backward(heads, head_grads, retain_graph, train_mode, targets=None):
    """Backpropagate from ``heads`` (NDArrays); gradients go into each reachable Variable's
    ``grad`` (or, with ``targets`` {id(Variable): numpy array}, into those arrays only,
    with 'write'). Returns nothing; frees the graph unless ``retain_graph``."""
    heads = [heads] if isinstance(heads, NDArray) else list(heads)
    sources = [_head_source(h, k) for k, h in enumerate(heads)]
    grads = _head_grads(heads, head_grads)
    order = topo_order([s[0] for s in sources])
    nodes = [n for n in order if isinstance(n, TapeNode)]
    freed = [n for n in nodes if n.freed]
    if freed:
        raise MXNetError(
            f"backward: the graph through {freed[0].where} was freed by an earlier backward. "
            "backward frees what it used, so a second one needs the first to keep it: call "
            "y.backward(retain_graph=True) the first time (or record the computation again)."
            f"\n({NOT_IN_GRAPH})"
        )
    if targets is None:
        targets = {
            id(v): (v.grad._data, v.req)
            for v in order
            if isinstance(v, Variable) and v.req != "null"
        }
    else:
        targets = {key: (array, "write") for key, array in targets.items()}
    if not targets:
        raise MXNetError(
            "backward: There are no inputs in computation graph that require "
            "gradients: every array it was computed from has grad_req='null'. "
            "Call x.attach_grad() (grad_req='write' or 'add') on the arrays you "
            "want gradients for."
        )
    plan = BackwardPlan(order, sources, {k: req for k, (_, req) in targets.items()}, _TAPE)
    parts = GradientParts()
    for src, g in zip(sources, grads):
        parts.give(*src, "head", g)
    with RecordingStateScope(False, bool(train_mode)):  # what MXNet's backward sets
        for node in reversed(nodes):
            if id(node) in plan.runs:
                _backward_node(node, parts, targets, plan, train_mode)
    for var in plan.zero_gradient:  # behind a BlockGrad only: 0, as MXNet gives it
        assign(targets[id(var)][0], "write", 0)
    for var in order:
        if isinstance(var, Variable) and id(var) in targets:
            given = parts.take(var, 0)
            if given:
                array, req = targets[id(var)]
                assign(array, req, sum_parts([g for _, g in given]))
    for var in order:  # MXNet's quirk: a 'null' variable backward went through has no .grad
        if isinstance(var, Variable) and var.req == "null":
            var.grad = None
    if not retain_graph:
        for node in nodes:
            node.free()


class _TapeAdapter:
    """How the backward plan reads the tape (``minisym.graph.backward_plan``)."""

    @staticmethod
    def inputs(node):
        return node.sources if isinstance(node, TapeNode) else ()

    @staticmethod
    def is_variable(node):
        return isinstance(node, Variable)

    @staticmethod
    def passes(node):
        return not isinstance(node, OperatorNode) or node.node.op.passes_gradient

    @staticmethod
    def blocked(node):
        if not isinstance(node, OperatorNode):
            return set()
        op = node.node.op
        return {i for i, name in enumerate(op.list_arguments()) if name in op.no_gradient_inputs}


_TAPE = _TapeAdapter()


def _backward_node(node, parts, targets, plan, train_mode):
    """Run one recorded call's backward: a 'req' per input, as an Executor chooses it."""
    out_grad = []
    for j in range(node.num_outputs):
        given = parts.take(node, j)
        out_grad.append(sum_parts([g for _, g in given]) if given else node.zero_grad(j))
    in_grad, req, passed = [], [], []
    blocked = _TAPE.blocked(node)
    for i, src in enumerate(node.sources):
        route = UNUSED if src is None or i in blocked else plan.route(*src)
        if route == DIRECT:
            array, r = targets[id(src[0])]  # read only here: straight in, with its grad_req
            in_grad.append(array)
            req.append(r)
        else:
            in_grad.append(node.grad_buffer(i))
            req.append("write" if route == TEMPORARY else "null")
        passed.append(route == TEMPORARY)
    node.run_backward(out_grad, in_grad, req, train_mode)
    for src, grad, give in zip(node.sources, in_grad, passed):
        if give:
            parts.give(*src, node.where, grad)


def backward(heads, head_grads=None, retain_graph=False, train_mode=True):
    """Gradients of ``heads`` (an NDArray or a list) into every variable's ``.grad``;
    ``head_grads`` (None: ones) weigh each head's elements."""
    run_backward(heads, head_grads, retain_graph, train_mode)


def grad(heads, variables, head_grads=None, retain_graph=None, create_graph=False, train_mode=True):
    """The gradients of ``heads`` with respect to ``variables`` (NDArrays with attach_grad),
    as a list of new NDArrays; the variables' own ``.grad`` stay as they were."""
    if create_graph:
        raise NotImplementedError(
            "autograd.grad(create_graph=True): minisym does not record the backward pass, so "
            "gradients of gradients (higher-order derivatives) are not available. Use "
            "create_graph=False, or check a second derivative with finite differences of the "
            "first (mx.test_utils.check_numeric_gradient)."
        )
    variables = [variables] if isinstance(variables, NDArray) else list(variables)
    for k, head in enumerate([heads] if isinstance(heads, NDArray) else list(heads)):
        _head_source(head, k)  # a head outside the graph is named first, as in MXNet
    targets = {}
    for i, var in enumerate(variables):
        tag = getattr(var, "_ag", None)
        if not isinstance(tag, Variable):
            raise MXNetError(
                f"autograd.grad: variables[{i}] (shape {tuple(var.shape)}) does not require "
                f"gradient: Cannot differentiate with respect to the {i + 1}-th variable. Call "
                "attach_grad() on it before the record() block that computes the heads."
            )
        targets[id(tag)] = np.zeros(var.shape, var._data.dtype)
    run_backward(heads, head_grads, bool(retain_graph), train_mode, targets)
    return [NDArray(targets[id(v._ag)], v.context) for v in variables]


class Function:
    """A differentiable function you write yourself: ``forward`` on NDArrays and
    ``backward`` from the output gradients to one gradient per input, as in MXNet:

        class Sigmoid(mx.autograd.Function):
            def forward(self, x):
                y = 1 / (1 + mx.nd.exp(-x)); self.save_for_backward(y); return y
            def backward(self, dy):
                y, = self.saved_tensors; return dy * y * (1 - y)
    """

    def __init__(self):
        self._used = False
        self.saved_tensors = ()

    def save_for_backward(self, *args):
        """Keep arrays backward needs (``self.saved_tensors``)."""
        self.saved_tensors = args

    def forward(self, *inputs):
        """The outputs (an NDArray or a tuple) from the input NDArrays."""
        raise NotImplementedError(f"{type(self).__name__}.forward is not written")

    def backward(self, *output_grads):
        """One gradient per forward input, from one gradient per forward output."""
        raise NotImplementedError(f"{type(self).__name__}.backward is not written")

    def __call__(self, *inputs):
        if self._used:
            raise AssertionError(
                f"{type(self).__name__}: each Function instance can only be "
                "called once (it keeps what its backward needs); create "
                f"another instance per call: {type(self).__name__}()(x)"
            )
        self._used = True
        with pause():
            outputs = self.forward(*inputs)
        single = isinstance(outputs, NDArray)
        outs = [outputs] if single else list(outputs)
        outs = [NDArray(o._data.copy(), o.context) for o in outs]  # fresh, untagged outputs
        if is_recording():

            def backward_fn(out_grads):
                with pause():
                    given = self.backward(*[NDArray(g, o.context) for g, o in zip(out_grads, outs)])
                given = [given] if isinstance(given, NDArray) else list(given)
                if len(given) != len(inputs):
                    raise ValueError(
                        f"{type(self).__name__}.backward returned {len(given)} gradients for "
                        f"{len(inputs)} inputs of forward; return one per input, in order"
                    )
                return [
                    None if g is None else np.asarray(g._data if isinstance(g, NDArray) else g)
                    for g in given
                ]

            record_function(type(self).__name__, list(inputs), outs, backward_fn)
        return outs[0] if single else tuple(outs)
