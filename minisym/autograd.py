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
import copy
import threading

import numpy as np

from . import lifecycle
from .base import MXNetError, MXNetValueError
from .graph import topo_order

__all__ = ["record", "pause", "train_mode", "predict_mode", "is_recording", "is_training",
           "set_recording", "set_training", "mark_variables", "backward", "grad", "Function"]

GRAD_REQS = ("write", "add", "null")

_state = threading.local()  # per thread, as in MXNet


def is_recording():
    """Whether operator calls are being recorded for ``backward`` (inside ``record()``)."""
    return getattr(_state, "recording", False)


def is_training():
    """Whether operators run in training mode (Dropout drops, BatchNorm uses batch stats)."""
    return getattr(_state, "training", False)


def set_recording(is_recording):
    """Turn recording on or off; returns the previous state."""
    previous = getattr(_state, "recording", False)
    _state.recording = bool(is_recording)
    return previous


def set_training(train_mode):
    """Turn training mode on or off; returns the previous state."""
    previous = getattr(_state, "training", False)
    _state.training = bool(train_mode)
    return previous


class _RecordingStateScope:
    """``with`` scope that sets recording and / or training mode and restores them after."""

    def __init__(self, is_record, train_mode):
        self._enter_record, self._enter_train = is_record, train_mode
        self._prev_record = self._prev_train = None

    def __enter__(self):
        if self._enter_record is not None:
            self._prev_record = set_recording(self._enter_record)
        if self._enter_train is not None:
            self._prev_train = set_training(self._enter_train)
        return self

    def __exit__(self, *exc):
        if self._enter_record is not None:
            set_recording(self._prev_record)
        if self._enter_train is not None:
            set_training(self._prev_train)
        return False


def _flag(value, where):
    """``train_mode`` as a bool; a string (``'False'`` would be true) is refused."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{where}: train_mode={value!r} is not a bool: write "
                        "train_mode=True or train_mode=False (without quotes)")
    return bool(value)


def record(train_mode=True):
    """``with mx.autograd.record():`` records every operator call for ``backward``;
    ``train_mode=False`` records while operators run as in inference."""
    return _RecordingStateScope(True, _flag(train_mode, "autograd.record"))


def pause(train_mode=False):
    """``with mx.autograd.pause():`` inside ``record()``: calls that are not recorded."""
    return _RecordingStateScope(False, _flag(train_mode, "autograd.pause"))


def train_mode():
    """``with mx.autograd.train_mode():`` operators run in training mode (not recorded)."""
    return _RecordingStateScope(None, True)


def predict_mode():
    """``with mx.autograd.predict_mode():`` operators run in inference mode."""
    return _RecordingStateScope(None, False)


# --- what the tape holds ------------------------------------------------------------------------
class Variable:
    """An array you asked gradients for (``attach_grad`` / ``mark_variables``): a leaf of
    the tape. ``grad`` is the NDArray its gradient goes into, ``req`` its grad_req."""

    __slots__ = ("grad", "req", "shape")
    inputs = ()

    def __init__(self, grad, req, shape):
        self.grad, self.req, self.shape = grad, req, tuple(shape)


class Untracked:
    """What an array computed while recording, from arrays without gradients, carries: so
    ``backward`` can say why it cannot differentiate it."""

    __slots__ = ()


UNTRACKED = Untracked()


class TapeNode:
    """One recorded call: its inputs as ``(source, index)`` (source a TapeNode or a
    Variable; None for an input without gradient), and how to run its backward."""

    where = "an operator"

    def __init__(self, sources, out_arrays):
        self.sources = list(sources)
        self.inputs = tuple(s for s in self.sources if s is not None)  # for topo_order
        self.out_like = [np.zeros((), a.dtype) if a is None else a for a in out_arrays]
        self.freed = False

    @property
    def num_outputs(self):
        """How many outputs the call returned."""
        return len(self.out_like)

    def zero_grad(self, j):
        """A zero head gradient for output ``j`` (no consumer asked for its gradient)."""
        return np.zeros(self.out_like[j].shape, self.out_like[j].dtype)

    def run_backward(self, out_grad, in_grad, req, train_mode):
        """Fill ``in_grad[i]`` (numpy arrays) per ``req[i]`` from ``out_grad``."""
        raise NotImplementedError

    def grad_buffer(self, i):
        """A 'write' buffer for the gradient of input ``i``."""
        raise NotImplementedError

    def free(self):
        """Drop what backward needed (``retain_graph=False``)."""
        self.freed = True
        self.out_like = [np.empty(0, a.dtype) for a in self.out_like]


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
        from .executor import _call
        ex, node = self.executor, self.node
        in_data, aux, out_data = ex._node_arrays(node)
        visible = node.num_visible_outputs
        grads = list(out_grad) + [np.zeros_like(out_data[j]) for j in
                                  range(visible, node.num_outputs)]
        runner = ex._runners[id(node)]
        if not train_mode and node.op_name == "BatchNorm" and not runner.use_global_stats:
            # MXNet: a backward in predict mode differentiates BatchNorm as use_global_stats
            # does (moving statistics are constants, and stay as they are)
            runner = copy.copy(runner)
            runner.use_global_stats = True
        _call(node.op, "backward", runner.backward, req, grads, in_data, out_data, in_grad, aux)

    def free(self):
        super().free()
        self.executor = self.node = None


class FunctionNode(TapeNode):
    """A recorded NDArray method that is not an operator (``x[0]``, ``x.T``, ``reshape``,
    ``mx.nd.dot``, an ``autograd.Function``): its backward is a Python function
    ``out_grads -> [gradient per input]`` (None for an input it gives no gradient)."""

    def __init__(self, where, sources, in_arrays, out_arrays, backward_fn):
        super().__init__(sources, out_arrays)
        self.where = where
        self.in_like = [a for a in in_arrays]
        self.backward_fn = backward_fn

    def grad_buffer(self, i):
        return np.zeros_like(self.in_like[i])

    def run_backward(self, out_grad, in_grad, req, train_mode):
        grads = self.backward_fn(out_grad)
        for i, (target, r) in enumerate(zip(in_grad, req)):
            if r != "null" and grads[i] is not None:
                assign(target, r, np.asarray(grads[i]).astype(target.dtype, copy=False))

    def free(self):
        super().free()
        self.backward_fn = self.in_like = None


def source_of(array):
    """The tape source of an NDArray input, ``(TapeNode or Variable, index)``, or None."""
    tag = getattr(array, "_ag", None)
    if tag is None or tag is UNTRACKED:
        return None
    return tag if isinstance(tag, tuple) else (tag, 0)


def tag_outputs(outputs, node):
    """Mark ``outputs`` (NDArrays) as what ``node`` computed (UNTRACKED when node is None)."""
    for j, out in enumerate(outputs):
        out._ag = UNTRACKED if node is None else (node, j)


def record_function(where, inputs, outputs, backward_fn):
    """While recording: put a FunctionNode for ``outputs = f(inputs)`` on the tape (or mark
    the outputs untracked when no input has a gradient). ``inputs`` are NDArrays or None."""
    sources = [None if a is None else source_of(a) for a in inputs]
    if not any(sources):
        tag_outputs(outputs, None)
        return
    node = FunctionNode(where, sources, [None if a is None else a._data for a in inputs],
                        [o._data for o in outputs], backward_fn)
    tag_outputs(outputs, node)


def check_not_recorded(array, what):
    """Inside ``record()``, writing into an array the tape computed breaks its gradient."""
    tag = getattr(array, "_ag", None)
    if is_recording() and isinstance(tag, tuple):
        raise MXNetError(
            f"{what}: this array (shape {tuple(array.shape)}) was computed inside "
            "autograd.record() and is part of the recorded graph; writing into it (+=, *=, "
            "y[idx] = ..., out=y) would make its gradient wrong. Assigning to NDArrays that "
            "are already in a computational graph is refused: compute a new array instead "
            "(y = y + 1), or call backward first, or write outside the record() block.")


# --- variables ----------------------------------------------------------------------------------
def attach(array, grad_req="write"):
    """``array.attach_grad(grad_req)``: a zero gradient buffer of its shape and dtype."""
    from .ndarray import NDArray
    _check_req(grad_req, "attach_grad")
    grad = NDArray(np.zeros(array.shape, array._data.dtype), array.context)
    array._ag = Variable(grad, grad_req, array.shape)


def _check_req(req, where):
    if req not in GRAD_REQS:
        raise KeyError(f"{where}: grad_req={req!r} is not one of 'write' (backward overwrites "
                       "the gradient), 'add' (backward adds to it, to sum over several "
                       "backward calls) or 'null' (no gradient)")


def mark_variables(variables, gradients, grad_reqs="write"):
    """Mark NDArrays as variables whose gradients go into ``gradients`` (the same number of
    NDArrays, each of its variable's shape); ``grad_reqs`` one req or one per variable."""
    from .ndarray import NDArray
    variables = [variables] if isinstance(variables, NDArray) else list(variables)
    gradients = [gradients] if isinstance(gradients, NDArray) else list(gradients)
    reqs = [grad_reqs] * len(variables) if isinstance(grad_reqs, str) else list(grad_reqs)
    if not len(variables) == len(gradients) == len(reqs):
        raise ValueError(  # MXNet 1.9.1 crashes the process here
            f"mark_variables: {len(variables)} variables, {len(gradients)} gradients and "
            f"{len(reqs)} grad_reqs; give one gradient array (and one grad_req) per variable, "
            "e.g. mark_variables([x], [mx.nd.zeros(x.shape)])")
    for i, (var, gradient, req) in enumerate(zip(variables, gradients, reqs)):
        _check_req(req, "mark_variables")
        if tuple(gradient.shape) != tuple(var.shape):
            raise MXNetValueError(
                f"mark_variables: gradients[{i}] has shape {tuple(gradient.shape)} but "
                f"variables[{i}] has {tuple(var.shape)}; a gradient has its variable's shape "
                f"(mx.nd.zeros({tuple(var.shape)}))")
        var._ag = Variable(gradient, req, var.shape)


def grad_of(array):
    """``array.grad``: its gradient NDArray, or None when it has none (no attach_grad)."""
    tag = getattr(array, "_ag", None)
    return tag.grad if isinstance(tag, Variable) else None


# --- backward -----------------------------------------------------------------------------------
NOT_IN_GRAPH = ("Cannot differentiate node because it is not in a computational graph. You "
                "need to set is_recording to true or use autograd.record() to save "
                "computational graphs for backward. If you want to differentiate the same "
                "graph twice, you need to pass retain_graph=True to backward.")


def _head_source(head, k):
    """The tape source of head ``k``, or the MXNetError that says why it has none."""
    tag = getattr(head, "_ag", None)
    what = f"backward: head {k} (an NDArray of shape {tuple(head.shape)})"
    if tag is None:
        raise MXNetError(
            f"{what} was computed outside autograd.record(), so nothing recorded how it "
            "depends on anything. Compute it inside the block, after attach_grad():\n"
            "    x.attach_grad()\n    with mx.autograd.record():\n        y = f(x)\n"
            f"    y.backward()\n({NOT_IN_GRAPH})")
    if tag is UNTRACKED:
        raise MXNetError(
            f"{what} was computed inside autograd.record(), but from arrays none of which "
            "has a gradient buffer, so nothing was recorded. Call x.attach_grad() on each "
            "array you want a gradient for, before the record() block, then x.grad holds it "
            f"after backward.\n({NOT_IN_GRAPH})")
    return tag if isinstance(tag, tuple) else (tag, 0)


def _head_grads(heads, head_grads):
    """One numpy head gradient per head: the one given, or ones (d head / d head)."""
    from .ndarray import NDArray
    if head_grads is None:
        head_grads = [None] * len(heads)
    elif isinstance(head_grads, NDArray):
        head_grads = [head_grads]
    head_grads = list(head_grads)
    if len(head_grads) != len(heads):
        raise AssertionError(f"heads and head_grads must be lists of the same length: "
                             f"{len(heads)} heads, {len(head_grads)} head_grads")
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
                "changed.")
        result.append(values.astype(head._data.dtype, copy=False))
    return result


def assign(dst, req, src):
    """The one ``assign`` every operator uses (imported late: ndarray imports this module)."""
    from .ops.assign import assign as assign_req
    assign_req(dst, req, src)


def _key(source):
    return (id(source[0]), source[1])


@lifecycle.entry("autograd backward()")
def run_backward(heads, head_grads, retain_graph, train_mode, targets=None):
    """Backpropagate from ``heads`` (NDArrays); gradients go into each reachable Variable's
    ``grad`` (or, with ``targets`` {id(Variable): numpy array}, into those arrays only,
    with 'write'). Returns nothing; frees the graph unless ``retain_graph``."""
    from .ndarray import NDArray
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
            f"\n({NOT_IN_GRAPH})")
    if targets is None:
        targets = {id(v): (v.grad._data, v.req) for v in order
                   if isinstance(v, Variable) and v.req != "null"}
    else:
        targets = {key: (array, "write") for key, array in targets.items()}
    if not targets:
        raise MXNetError("backward: There are no inputs in computation graph that require "
                         "gradients: every array it was computed from has grad_req='null'. "
                         "Call x.attach_grad() (grad_req='write' or 'add') on the arrays you "
                         "want gradients for.")
    needs = _needs(order, targets)
    uses = {}
    for node in nodes:
        for src in node.inputs:
            uses[_key(src)] = uses.get(_key(src), 0) + 1
    pending = {}
    for src, g in zip(sources, grads):
        pending.setdefault(_key(src), []).append(g)
    with _RecordingStateScope(False, bool(train_mode)):  # what MXNet's backward sets
        for node in reversed(nodes):
            if needs.get(id(node)):
                _backward_node(node, pending, targets, needs, uses, train_mode)
    for var in order:
        if isinstance(var, Variable) and id(var) in targets:
            parts = pending.pop((id(var), 0), None)
            if parts:
                array, req = targets[id(var)]
                assign(array, req, _summed(parts))
    for var in order:  # MXNet's quirk: a 'null' variable backward went through has no .grad
        if isinstance(var, Variable) and var.req == "null":
            var.grad = None
    if not retain_graph:
        for node in nodes:
            node.free()


def _needs(order, targets):
    """{id(node): True} for every tape node upstream of a target variable (order: topological)."""
    needs = {}
    for node in order:
        if isinstance(node, Variable):
            needs[id(node)] = id(node) in targets
        else:
            needs[id(node)] = any(needs.get(id(s[0])) for s in node.inputs)
    return needs


def _summed(parts):
    total = parts[0] if len(parts) == 1 else parts[0].copy()
    for part in parts[1:]:
        total += part
    return total


def _backward_node(node, pending, targets, needs, uses, train_mode):
    """Run one recorded call's backward: a 'req' per input, as an Executor chooses it."""
    out_grad = []
    for j in range(node.num_outputs):
        parts = pending.pop((id(node), j), None)
        out_grad.append(_summed(parts) if parts else node.zero_grad(j))
    in_grad, req, passed = [], [], []
    for i, src in enumerate(node.sources):
        if src is None or not needs.get(id(src[0])):
            in_grad.append(node.grad_buffer(i))
            req.append("null")
            passed.append(False)
        elif isinstance(src[0], Variable) and uses[_key(src)] == 1:
            array, r = targets[id(src[0])]  # read only here: straight in, with its grad_req
            in_grad.append(array)
            req.append(r)
            passed.append(False)
        else:
            in_grad.append(node.grad_buffer(i))
            req.append("write")
            passed.append(True)
    no_grad = getattr(getattr(node, "node", None), "op", None)
    for i, name in enumerate(no_grad.list_arguments() if no_grad is not None else ()):
        if name in no_grad.no_gradient_inputs:
            req[i], passed[i] = "null", False
    node.run_backward(out_grad, in_grad, req, train_mode)
    for src, grad, give in zip(node.sources, in_grad, passed):
        if give:
            pending.setdefault(_key(src), []).append(grad)


def backward(heads, head_grads=None, retain_graph=False, train_mode=True):
    """Gradients of ``heads`` (an NDArray or a list) into every variable's ``.grad``;
    ``head_grads`` (None: ones) weigh each head's elements."""
    run_backward(heads, head_grads, retain_graph, train_mode)


def grad(heads, variables, head_grads=None, retain_graph=None, create_graph=False,
         train_mode=True):
    """The gradients of ``heads`` with respect to ``variables`` (NDArrays with attach_grad),
    as a list of new NDArrays; the variables' own ``.grad`` stay as they were."""
    from .ndarray import NDArray
    if create_graph:
        raise NotImplementedError(
            "autograd.grad(create_graph=True): minisym does not record the backward pass, so "
            "gradients of gradients (higher-order derivatives) are not available. Use "
            "create_graph=False, or check a second derivative with finite differences of the "
            "first (mx.test_utils.check_numeric_gradient).")
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
                "attach_grad() on it before the record() block that computes the heads.")
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
        from .ndarray import NDArray
        if self._used:
            raise AssertionError(f"{type(self).__name__}: each Function instance can only be "
                                 "called once (it keeps what its backward needs); create "
                                 f"another instance per call: {type(self).__name__}()(x)")
        self._used = True
        with pause():
            outputs = self.forward(*inputs)
        single = isinstance(outputs, NDArray)
        outs = [outputs] if single else list(outputs)
        outs = [NDArray(o._data.copy(), o.context) for o in outs]  # fresh, untagged outputs
        if is_recording():
            def backward_fn(out_grads):
                with pause():
                    given = self.backward(*[NDArray(g, o.context)
                                            for g, o in zip(out_grads, outs)])
                given = [given] if isinstance(given, NDArray) else list(given)
                if len(given) != len(inputs):
                    raise ValueError(
                        f"{type(self).__name__}.backward returned {len(given)} gradients for "
                        f"{len(inputs)} inputs of forward; return one per input, in order")
                return [None if g is None else np.asarray(g._data if isinstance(g, NDArray)
                                                          else g) for g in given]
            record_function(type(self).__name__, list(inputs), outs, backward_fn)
        return outs[0] if single else tuple(outs)
