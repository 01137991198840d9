"""The Executor: a bound symbol that runs forward and backward over its nodes in order.

Every operator is called the same way, built-in or custom:
``op.forward(is_train, req, in_data, out_data, aux)`` over the graph's topological order, then
``op.backward(req, out_grad, in_data, out_data, in_grad, aux)`` in reverse. Gradients of an
array used several times are computed separately and summed, then written into your gradient
array as its ``grad_req`` says ('write', 'add' or 'null').
"""

import contextlib
import functools
import threading
import time
import warnings

import numpy as np

from . import lifecycle
from .arrays.ndarray import NDArray
from .assign import assign
from .base import MistakeWarning, MXNetError, MXNetValueError
from .graph.backward_plan import BackwardPlan
from .kernels import exact_kernels
from .memory_plan import memory_plan_enabled, plan_buffers
from .monitor import MonitorHook
from .ops.custom import CustomRunner
from .trace import Trace, slot_names

__all__ = ["Executor"]

HEAD_GRAD_ERROR = (
    "Check failed: i < head_grads.size() && !head_grads[i].is_none(): Because the last operator "
    "is not Loss function, head_gradient is required when calling backward. If you are "
    "attempting to minimize the output as an objective, please modify your network and pass it "
    "through the make_loss symbol."
)


def _key(node, index):
    """The key of output ``index`` of ``node`` in the executor's tables."""
    return (id(node), index)


_RUNNING = threading.Lock()  # guards every executor's ``_running`` record


def _one_thread_at_a_time(what):
    """Decorator for ``forward`` / ``backward`` / ``copy``: an executor runs one such call at a
    time. Two threads sharing one executor would write the same output, gradient and auxiliary
    arrays at once and silently mix their results; the second call raises instead. Calls made
    again from the same thread (a monitor callback, a custom operator) are allowed."""

    def decorate(method):
        @functools.wraps(method)
        def run(self, *args, **kwargs):
            me = threading.current_thread()
            with _RUNNING:
                running = getattr(self, "_running", None)
                if running is not None and running[0] is not me:
                    raise MXNetError(
                        f"Executor.{what}: this executor is running {running[2]} in another "
                        f"thread ({running[0].name}); one executor runs one call at a time, "
                        "and two threads sharing it would mix their arrays. Give each thread "
                        "its own executor: executor.copy() (same values, arrays of its own) or "
                        "symbol.simple_bind(...) in that thread; or wait for the other thread "
                        "(thread.join(), a threading.Lock around forward and backward)."
                    )
                self._running = (
                    me,
                    1 if running is None else running[1] + 1,
                    what if running is None else running[2],
                )
            try:
                return method(self, *args, **kwargs)
            finally:
                with _RUNNING:
                    thread, depth, doing = self._running
                    self._running = None if depth == 1 else (thread, depth - 1, doing)

        return run

    return decorate


class Executor:
    """Runs a bound symbol; ``outputs``, ``arg_dict``, ``grad_dict`` ... hold its arrays."""

    def __init__(self, symbol, ctx, arg_arrays, grad_arrays, grad_reqs, aux_arrays, shapes, dtypes):
        self._symbol = symbol
        self._ctx = ctx
        self.arg_arrays = list(arg_arrays)
        self.grad_arrays = None if grad_arrays is None else list(grad_arrays)
        self.aux_arrays = list(aux_arrays)
        self._grad_req = list(grad_reqs)
        self._order = symbol.topo_order()
        self._ops = [n for n in self._order if not n.is_variable]
        self._arg_nodes, self._aux_nodes = symbol.variable_nodes()
        self._monitor = None
        self._trace = None
        self._scratch = {}
        self._plan_backward()
        self._data = self._allocate(shapes, dtypes)
        self.outputs = self._output_arrays()
        self._runners = {id(n): self._runner(n) for n in self._ops}
        self._fused = self._plan_fusion()
        self._fused_clips = self._plan_clip_fusion()
        self._folded = self._plan_batchnorm_folding()
        self._activated = self._plan_activation_epilogues()
        self._folded_runs = {}  # id(node): what a folded or activated node runs, made once

    @property
    def symbol(self):
        """The Symbol this executor runs (read-only; MXNet keeps it as ``_symbol``)."""
        return self._symbol

    @property
    def grad_req(self):
        """The grad_req of each argument, in ``list_arguments()`` order (a copy)."""
        return list(self._grad_req)

    def _output_arrays(self):
        """The heads' buffers as NDArrays (``outputs``)."""
        return [NDArray(self._data[_key(n, i)], self._ctx) for n, i in self._symbol.outputs]

    def _runner(self, node):
        """What forward/backward is called on for ``node`` (a CustomOp gets created here)."""
        ins = [self._data[_key(s, i)] for s, i in node.inputs]
        return node.op.create_runner(self._ctx, [a.shape for a in ins], [a.dtype for a in ins])

    # --- memory --------------------------------------------------------------------------------
    def _allocate(self, shapes, dtypes):
        """{entry: numpy array}: your arrays for variables, new buffers for operator outputs."""
        data = {}
        for node, array in zip(self._arg_nodes, self.arg_arrays):
            data[_key(node, 0)] = array._data
        for node, array in zip(self._aux_nodes, self.aux_arrays):
            data[_key(node, 0)] = array._data
        pinned = {_key(n, i) for n, i in self._symbol.outputs}
        buffers, self.memory_stats = plan_buffers(
            self._ops, shapes, dtypes, self._runs, pinned, share=memory_plan_enabled()
        )
        data.update(buffers)
        return data

    # --- the backward plan -----------------------------------------------------------------------
    def _plan_backward(self):
        """Which nodes run backward, and where each gradient goes (decided once, at bind)."""
        self._arg_req = {id(n): r for n, r in zip(self._arg_nodes, self._grad_req)}
        self._arg_grad = {id(n): g for n, g in zip(self._arg_nodes, self.grad_arrays or [])}
        self._plan = BackwardPlan(
            self._order,
            self._symbol.outputs,
            {id(n): r for n, r in zip(self._arg_nodes, self._grad_req) if r != "null"},
        )
        self._runs = self._plan.runs
        self._out_req = {id(n): self._output_reqs(n) for n in self._ops}

    def _output_reqs(self, node):
        """Forward req per output: 'write' when something reads it (a consumer, a head, or the
        node's own backward), else 'null' -- as MXNet decides (BatchNorm's fix_gamma reads it)."""
        reads = [False] * node.num_outputs
        if id(node) in self._runs:
            reads = node.op.backward_reads()["out_data"]
        return [
            "write" if reads[j] or self._plan.reads(node, j) else "null"
            for j in range(node.num_outputs)
        ]

    def _plan_fusion(self):
        """{id(node): its ReLU node} for each node that fuses a following ReLU (BatchNorm)
        and whose only reader is that ReLU.

        Their forwards run as one pass, and so do their backwards (unless tracing). A buffer
        the ReLU output may share is at most the BatchNorm's input, which the kernel reads and
        writes at the same index: safe.
        """
        fused = {}
        for node, after in zip(self._ops, self._ops[1:]):
            if (
                node.op.fuses_following_relu
                and after.op.is_plain_relu
                and after.inputs[0] == (node, 0)
                and self._plan.reads(node, 0) == 1
                and node.op.fusable_with_relu(self._node_arrays(node)[0])
            ):
                fused[id(node)] = after
        return fused

    def _plan_clip_fusion(self):
        """{id(node): its Clip node} for each BatchNorm followed by a Clip (ReLU6) that is its
        only reader and whose backward never runs (an executor without gradients): their
        forwards run as one pass. Where the Clip's backward runs it reads the BatchNorm's
        output, which the fused pass does not write."""
        fused = {}
        for node, after in zip(self._ops, self._ops[1:]):
            if (
                node.op.fuses_following_relu
                and after.op.clip_bounds is not None
                and after.inputs[0] == (node, 0)
                and id(after) not in self._runs
                and self._plan.reads(node, 0) == 1
                and node.op.fusable_with_relu(self._node_arrays(node)[0])
            ):
                fused[id(node)] = after
        return fused

    def _node_arrays(self, node):
        """(in_data, aux, out_data) buffers of ``node``: fresh lists (an operator may change
        its own) of buffers looked up once per memory plan."""
        found = self.__dict__.setdefault("_arrays_of", {}).get(id(node))
        if found is None:
            found = self._arrays_of[id(node)] = (
                tuple(self._data[_key(s, i)] for s, i in node.arg_inputs),
                tuple(self._data[_key(s, i)] for s, i in node.aux_inputs),
                tuple(self._data[_key(node, j)] for j in range(node.num_outputs)),
            )
        return [*found[0]], [*found[1]], [*found[2]]

    def _buffers_changed(self):
        """After ``_data`` gets new buffers: forget what ``_node_arrays`` looked up."""
        self._arrays_of = {}
        self._folded_runs = {}
        self.outputs = self._output_arrays()

    # --- running ---------------------------------------------------------------------------------
    @lifecycle.entry(lambda self, is_train=False, **_: f"forward(is_train={bool(is_train)})")
    @_one_thread_at_a_time("forward")
    def forward(self, is_train=False, **kwargs):
        """Run every operator forward; returns ``outputs``. kwargs copy arrays in by name.

        ``is_train`` changes what some operators compute, as in MXNet: with ``False`` (the
        default, inference) Dropout passes its data through unchanged and BatchNorm normalizes
        with ``moving_mean`` / ``moving_var``; with ``True`` Dropout drops and rescales, and
        BatchNorm uses the batch's own statistics. Call ``forward(is_train=True)`` before
        ``backward()``.

        A forward that fails (an error in an operator, or KeyboardInterrupt) leaves the
        arguments you passed, ``outputs`` and a custom operator's aux states as they were."""
        check_is_train(is_train, "forward")
        saved = self._copy_inputs(kwargs)
        try:
            with self._exact_kernels_if_watched():
                return self._forward_all(is_train)
        except BaseException:
            for array, before in saved:
                array[...] = before
            raise

    def _plan_batchnorm_folding(self):
        """{id(node): its BatchNorm node} for each node that folds a following BatchNorm
        (Convolution) and whose only reader is that BatchNorm, where neither runs backward
        (an executor without their gradients): where the BatchNorm normalises with its moving
        statistics the pair runs as one kernel into the BatchNorm's output, or into that of
        its fused ReLU or Clip (then the BatchNorm's own output is left unwritten, as that
        fusion leaves it). The Convolution's output, which only the BatchNorm reads, is never
        written."""
        folded = {}
        for node, after in zip(self._ops, self._ops[1:]):
            if (
                node.op.fuses_following_batchnorm
                and after.op.is_batchnorm
                and after.inputs[0] == (node, 0)
                and id(node) not in self._runs
                and id(after) not in self._runs
                and self._plan.reads(node, 0) == 1
                and after.op.foldable(self._node_arrays(after)[0])
                and node.op.fusable_with_batchnorm(self._node_arrays(node)[0])
            ):
                folded[id(node)] = after
        return folded

    def _plan_activation_epilogues(self):
        """{id(node): its ReLU or Clip node} for each Convolution not folded with a BatchNorm
        whose only reader is a ReLU or Clip, where neither runs backward: the activation
        becomes the epilogue of the convolution's kernels (with the bias, in one pass), into
        the activation's output; the Convolution's own output is never written."""
        activated = {}
        for node, after in zip(self._ops, self._ops[1:]):
            if (
                node.op.fuses_following_batchnorm
                and id(node) not in self._folded
                and (after.op.is_plain_relu or after.op.clip_bounds is not None)
                and after.inputs[0] == (node, 0)
                and id(node) not in self._runs
                and id(after) not in self._runs
                and self._plan.reads(node, 0) == 1
                and node.op.fusable_with_batchnorm(self._node_arrays(node)[0])
            ):
                activated[id(node)] = after
        return activated

    def _forward_activated(self, node, tail):
        """Run ``node`` with its ReLU or Clip ``tail`` as the epilogue, into tail's output;
        False (nothing run) where that output shares memory with node's inputs."""
        run = self._folded_runs.get(id(node))
        if run is None:
            out = self._data[_key(tail, 0)]
            in_data = self._node_arrays(node)[0]
            act = tail.op.clip_bounds or "relu"
            run = () if _overlaps(out, in_data) else node.op.activation_runner(in_data, act, out)
            self._folded_runs[id(node)] = run
        if not run:
            return False
        _call(node.op, "forward", run)
        return True

    def _fused_tail(self, batchnorm):
        """The ReLU or Clip node fused with ``batchnorm`` (None: neither)."""
        return self._fused.get(id(batchnorm)) or self._fused_clips.get(id(batchnorm))

    def _forward_folded(self, node, batchnorm, is_train):
        """Run ``node`` with ``batchnorm`` folded in (and its fused ReLU or Clip), if the
        BatchNorm normalises with given statistics now; False (nothing run) if not."""
        entry = self._folded_runs.get(id(node))
        entry = self._folded_run(node, batchnorm) if entry is None else entry
        if not entry:  # its output shares memory with its inputs
            return False
        statistics, convolve = entry
        stats = statistics(is_train)
        if stats is None:
            return False
        _call(node.op, "forward", convolve, *stats)
        return True

    def _folded_run(self, node, batchnorm):
        """(statistics(is_train), convolve(scale, shift)) of a folded pair, its arrays looked
        up and its kernel path chosen once per memory plan (``_buffers_changed`` forgets)."""
        bn_in, bn_aux, bn_out = self._node_arrays(batchnorm)
        bn_req = self._out_req[id(batchnorm)]
        tail = self._fused_tail(batchnorm)
        act = None if tail is None else (tail.op.clip_bounds or "relu")
        out = self._data[_key(tail if tail is not None else batchnorm, 0)]
        in_data = self._node_arrays(node)[0]
        if _overlaps(out, in_data):  # the memory plan gave it a buffer the inputs still use
            self._folded_runs[id(node)] = ()
            return ()
        convolve = node.op.batchnorm_runner(in_data, act, out)

        def statistics(is_train):
            return batchnorm.op.folded_statistics(is_train, bn_req, bn_in, bn_out, bn_aux)

        self._folded_runs[id(node)] = (statistics, convolve)
        return statistics, convolve

    def _forward_all(self, is_train):
        """Every operator's forward, in topological order (a BatchNorm fused with its ReLU or
        its ReLU6 Clip)."""
        fusing = self._trace is None and self._monitor is None  # those show every call
        skipped = set()
        for node in self._ops:
            if id(node) in skipped:
                continue
            batchnorm = self._folded.get(id(node)) if fusing else None
            if batchnorm is not None and self._forward_folded(node, batchnorm, is_train):
                skipped.update((id(batchnorm), id(self._fused_tail(batchnorm))))
                continue
            tail = self._activated.get(id(node)) if fusing else None
            if tail is not None and self._forward_activated(node, tail):
                skipped.add(id(tail))
                continue
            relu = self._fused.get(id(node)) if fusing else None
            clip = self._fused_clips.get(id(node)) if fusing else None
            if relu is None and clip is None:
                self._forward_node(node, is_train)
                continue
            in_data, aux, out_data = self._node_arrays(node)
            args = (is_train, self._out_req[id(node)], in_data, out_data, aux)
            if relu is not None:
                _call(node.op, "forward", node.op.forward_relu, *args, self._data[_key(relu, 0)])
            else:
                bounds = clip.op.clip_bounds
                _call(
                    node.op,
                    "forward",
                    node.op.forward_clip,
                    *args,
                    self._data[_key(clip, 0)],
                    bounds,
                )
            skipped.add(id(relu if relu is not None else clip))
        return self.outputs

    def _copy_inputs(self, kwargs):
        """``forward(data=...)``: check every value, then copy each into the argument array of
        that name; returns [(buffer, its values before)] of what a failing forward restores:
        those arguments, ``outputs`` and the aux states a custom operator may write."""
        arg_dict = self.arg_dict
        self._check_inputs(arg_dict, kwargs)
        custom_aux = self.__dict__.get("_custom_aux")
        if custom_aux is None:
            custom_aux = self._custom_aux = {
                id(src)
                for n in self._ops
                if n.op.writes_aux_in_user_code
                for src, _ in n.aux_inputs
            }
        keep = (
            [arg_dict[name]._data for name in kwargs]
            + [a._data for a in self.outputs]
            + [a._data for n, a in zip(self._aux_nodes, self.aux_arrays) if id(n) in custom_aux]
        )
        saved, seen = [], set()
        for buffer in keep:
            if id(buffer) not in seen:
                seen.add(id(buffer))
                saved.append((buffer, buffer.copy()))
        for name, value in kwargs.items():
            arg_dict[name][:] = value
        return saved

    @staticmethod
    def _check_inputs(arg_dict, kwargs):
        """Every ``forward(name=value)`` names an argument and has its shape (before any is
        copied, so a bad one leaves every argument as it was)."""
        for name, value in kwargs.items():
            if name not in arg_dict:
                raise TypeError(f"Unknown argument {name}; the arguments are {list(arg_dict)}")
            if not isinstance(value, (NDArray, np.ndarray)):
                raise ValueError(
                    "only accept keyword argument of NDArrays and numpy.ndarray; "
                    f"{name} is {type(value).__name__}"
                )
            if tuple(value.shape) != arg_dict[name].shape:
                raise ValueError(
                    f"Shape not match! Argument {name}, need: "
                    f"{arg_dict[name].shape}, received: {tuple(value.shape)} "
                    f"(for another batch size use ex.reshape({name}="
                    f"{tuple(value.shape)}))"
                )

    def _forward_node(self, node, is_train):
        op = node.op
        in_data, aux, out_data = self._node_arrays(node)
        req = list(self._out_req[id(node)])
        start = time.perf_counter()
        _call(op, "forward", self._runners[id(node)].forward, is_train, req, in_data, out_data, aux)
        if self._trace is not None:
            self._record(
                node,
                "forward",
                is_train,
                start,
                in_data=in_data,
                out_data=out_data,
                aux=aux,
                req_out=req,
            )
        if self._monitor is not None:
            self._monitor.after_forward(node, in_data, out_data)

    @lifecycle.entry("backward()")
    @_one_thread_at_a_time("backward")
    def backward(self, out_grads=None, is_train=True):
        """Run every needed operator backward; gradients land in ``grad_arrays`` per grad_req."""
        heads = self._head_gradients(out_grads)
        if self.grad_arrays is None and self._arg_nodes:  # bound without args_grad
            warnings.warn(
                _no_gradients_message(self._symbol.list_arguments()), MistakeWarning, stacklevel=4
            )  # past the two decorators, at the learner's call
        pending = {}  # entry -> [(who gave it, gradient contribution)] still to be summed
        for key, grad in heads.items():
            pending.setdefault(key, []).append(("out_grads", grad))
        fusing = self._trace is None and self._monitor is None  # those show every call
        relus = {id(r) for r in self._fused.values()} if fusing else set()
        changed = []  # what this call has written so far, named if a later step fails
        try:
            with self._exact_kernels_if_watched():
                self._backward_all(pending, is_train, fusing, relus, changed)
            self._finish_arguments(pending)
        except BaseException as exc:  # named only now: nothing is formatted on the hot path
            exc.add_note(
                _changed_note(
                    [what for node, failed in changed for what in self._changed_by(node, failed)]
                )
            )
            raise

    def _backward_all(self, pending, is_train, fusing, relus, changed):
        """Every needed operator's backward, in reverse topological order."""
        for node in reversed(self._ops):
            if id(node) in self._runs and id(node) not in relus:
                relu = self._fused.get(id(node)) if fusing else None
                try:
                    self._backward_node(node, pending, is_train, relu)
                except BaseException:
                    changed.append((node, True))
                    raise
                changed.append((node, False))

    def _exact_kernels_if_watched(self):
        """Textbook kernels while a trace or monitor watches (they show every call as the
        lessons describe it); the fastest algorithms otherwise."""
        watched = self._trace is not None or self._monitor is not None
        return exact_kernels() if watched else contextlib.nullcontext()

    def _changed_by(self, node, failed=False):
        """What ``node``'s backward wrote into your arrays: each gradient it writes straight
        into (its grad_req not 'null') and the aux states it updates, as 'grad_dict[...] (how)'.
        For a backward that ``failed``, only what it reached: a custom operator's in_grad it
        wrote, 'possibly' for what a built-in operator may have written before it stopped."""
        runner = self._runners.get(id(node))
        wrote = getattr(runner, "last_backward", None)  # a CustomRunner: {role: [written]}
        found = []
        for i, (src, idx) in enumerate(node.arg_inputs):
            req = self._arg_req.get(id(src), "null")
            if req == "null" or self._plan.route(src, idx) != "direct":
                continue
            how = "added to" if req == "add" else "overwritten"
            if wrote is not None and (failed or req == "add"):  # 'write' zeroes the unwritten
                if wrote["in_grad"][i] == "no":
                    continue
                how = how if wrote["in_grad"][i] == "yes" else "possibly " + how
            elif failed:
                how = "possibly " + how
            found.append(f"grad_dict['{src.name}'] ({how}, grad_req '{req}')")
        for k, (src, _) in enumerate(node.aux_inputs):
            if wrote is not None:
                if wrote["aux"][k] != "no":
                    found.append(f"aux_dict['{src.name}'] (written by {node.op.where}'s backward)")
            elif node.op.mutates_aux_in_backward():
                found.append(
                    f"aux_dict['{src.name}'] ({'possibly ' if failed else ''}updated: "
                    f"{node.op_name} updates its moving statistics in backward)"
                )
        return found

    def _head_gradients(self, out_grads):
        """{head entry: array} from ``out_grads`` (None, one array, a list or a dict)."""
        names = self._symbol.list_outputs()
        if out_grads is None:
            given = [None] * len(names)
        elif isinstance(out_grads, (NDArray, np.ndarray)):
            given = [out_grads]
        elif isinstance(out_grads, dict):
            given = [out_grads.get(n) for n in names]
        else:
            given = list(out_grads)
        heads = {}
        for j, (node, idx) in enumerate(self._symbol.outputs):
            grad = given[j] if j < len(given) else None
            if node.is_variable or not self._reads_out_grad(node):
                continue  # loss heads make their own gradient and ignore any given one
            if id(node) not in self._runs:
                continue
            if grad is None and not self._head_gradient_reaches_an_argument(node):
                continue  # MXNet prunes it too: Reshape(SoftmaxOutput) needs no head gradient
            if grad is None:
                hint = node.op.head_gradient_hint()
                raise MXNetValueError(
                    f"{HEAD_GRAD_ERROR}\nOutput {j} '{names[j]}' of {node.op.where} needs a head "
                    f"gradient: call backward(out_grads=mx.nd.ones({self.outputs[j].shape})) or "
                    f"end the network in a loss (SoftmaxOutput, make_loss, ...).{hint}"
                )
            head = np.asarray(
                grad._data if isinstance(grad, NDArray) else grad, self.outputs[j].dtype
            )
            if head.shape != self.outputs[j].shape:
                raise MXNetValueError(
                    f"backward: out_grads[{j}], the head gradient of output {j} '{names[j]}' of "
                    f"{node.op.where}, has shape {head.shape} but that output has "
                    f"{self.outputs[j].shape}: it holds d(objective)/d(output), one value per "
                    f"output element; e.g. backward(out_grads=mx.nd.ones("
                    f"{self.outputs[j].shape})). Nothing was changed."
                )
            heads[_key(node, idx)] = head
        return heads

    def _head_gradient_reaches_an_argument(self, node):
        """Whether a head gradient given to ``node`` changes an argument's gradient: its backward
        reads it and passes a gradient on, through operators whose backward reads theirs, to an
        argument with a grad_req; a loss in between makes its own and drops what it receives."""
        carries = {}
        for op_node in self._ops:  # topological order: inputs first
            carries[id(op_node)] = self._reads_out_grad(op_node) and any(
                self._plan.needs.get(id(src), False) and (src.is_variable or carries.get(id(src)))
                for src, _ in op_node.arg_inputs
            )
        return carries.get(id(node), False)

    @staticmethod
    def _reads_out_grad(node):
        """Whether ``node``'s backward reads a head gradient (a loss head makes its own)."""
        return any(node.op.backward_reads()["out_grad"])

    def _backward_node(self, node, pending, is_train, relu=None):
        """Run ``node``'s backward; with ``relu`` (a fused ReLU after a BatchNorm) both at once:
        the BatchNorm then receives the ReLU's head gradient and output."""
        op = node.op
        in_data, aux, out_data = self._node_arrays(node)
        heads_of = [(node, j) for j in range(node.num_outputs)]
        if relu is not None:
            heads_of[0] = (relu, 0)
        parts = [pending.pop(_key(*entry), None) for entry in heads_of]
        out_grad = [_summed(p, self._data[_key(*entry)]) for p, entry in zip(parts, heads_of)]
        if self._monitor is not None:
            for given, total in zip(parts, out_grad):
                if given and len(given) > 1:
                    self._monitor.after_sum(total)
        in_grad, req, direct = self._gradient_targets(node, in_data)
        args = (req, out_grad, in_data, out_data, in_grad, aux)
        start = time.perf_counter()
        if relu is None:
            _call(op, "backward", self._runners[id(node)].backward, *args)
        else:
            _call(op, "backward", op.backward_relu, *args, self._data[_key(relu, 0)])
        if self._monitor is not None:
            self._monitor.after_backward(node, in_grad)
        if self._trace is not None:
            reads = op.backward_reads()  # what backward did not declare is shown as not passed
            hide = lambda arrays, role: [a if r else None for a, r in zip(arrays, reads[role])]
            self._record(
                node,
                "backward",
                is_train,
                start,
                in_data=hide(in_data, "in_data"),
                out_data=hide(out_data, "out_data"),
                aux=aux,
                in_grad=in_grad,
                out_grad=hide(out_grad, "out_grad"),
                req_in=req,
            )
            for j, (given, total) in enumerate(zip(parts, out_grad)):
                self._record_sum(
                    node.entry_name(j),
                    f"out_grad[{j}] of '{node.name}'",
                    len(self._trace.calls) - 1,
                    given,
                    total,
                )
        for i, (src, idx) in enumerate(node.arg_inputs):
            if req[i] != "null" and not direct[i]:
                pending.setdefault(_key(src, idx), []).append((node.name, in_grad[i]))

    def _gradient_targets(self, node, in_data):
        """(in_grad arrays, req per input, written-directly flags) for ``node``'s backward."""
        in_grad, req, direct = [], [], []
        for (src, idx), data in zip(node.inputs, in_data):
            route = self._plan.route(src, idx)
            if route == "unused":  # never written: one scratch array per input
                in_grad.append(self._scratch.setdefault(_key(src, idx), np.zeros_like(data)))
                req.append("null")
            elif route == "direct":
                in_grad.append(self._arg_grad[id(src)]._data)
                req.append(self._arg_req[id(src)])
            else:  # 'write' fills every element, so the buffer need not be zeroed -- unless
                # the operator may leave some unwritten (a CustomOp): never another array's values
                fresh = np.empty_like if node.op.writes_every_gradient else np.zeros_like
                in_grad.append(fresh(data))
                req.append("write")
            direct.append(route == "direct")
        return in_grad, req, direct

    @property
    def backward_plan(self):
        """The :class:`~minisym.graph.backward_plan.BackwardPlan` made at bind (read-only)."""
        return self._plan

    def backward_reqs(self, node_name):
        """[(req, why)] per argument of node ``node_name``: the ``req[i]`` its backward
        receives, and the reason in words (not in MXNet: what the index map shows)."""
        node = self._node_named(node_name)
        return [self._req_reason(src, idx) for src, idx in node.arg_inputs]

    def _req_reason(self, src, idx):
        """(req, why) for the gradient of input entry ``(src, idx)``."""
        route, uses = self._plan.route(src, idx), self._plan.reads(src, idx)
        entry = src.entry_name(idx)
        if route == "unused":
            why = (
                f"'{entry}' is bound with grad_req='null'"
                if src.is_variable
                else f"nothing '{entry}' depends on asks for a gradient"
            )
            return "null", why + ", so backward must not write it"
        if route == "direct":
            req = self._arg_req[id(src)]
            return req, (
                f"'{entry}' is a variable read only here: backward writes straight into"
                f" its gradient array with its grad_req '{req}'"
            )
        if src.is_variable:
            return "write", (
                f"'{entry}' is read by {uses} operators: each writes its part into "
                "a temporary array ('write'), then the parts are summed into its "
                f"gradient with grad_req '{self._arg_req[id(src)]}'"
            )
        return "write", (
            f"'{entry}' is an operator's output, not a variable: its gradient goes "
            "to a temporary array that becomes that operator's out_grad, so req is "
            "always 'write'"
        )

    def forward_reqs(self, node_name):
        """[(req, why)] per output of node ``node_name``: the forward ``req[j]`` and why."""
        node = self._node_named(node_name)
        reasons = []
        for j, req in enumerate(self._out_req[id(node)]):
            entry = node.entry_name(j)
            why = (
                f"'{entry}' is read (by a consumer, as an output, or by this node's backward)"
                if req == "write"
                else f"nothing reads '{entry}', so forward may skip writing it"
            )
            reasons.append((req, why))
        return reasons

    def _node_named(self, name):
        """The operator node called ``name``, or a KeyError listing the operator nodes."""
        for node in self._ops:
            if node.name == name:
                return node
        raise KeyError(
            f"no operator node named {name!r} in this executor; its operator nodes "
            f"are {[n.name for n in self._ops]}"
        )

    def _finish_arguments(self, pending):
        """Sum the gradients of arguments used several times into their grad arrays; zeros
        where no gradient reaches (grad_req 'write')."""
        for node in self._plan.zero_gradient:
            assign(self._arg_grad[id(node)]._data, "write", 0)
        for node in self._arg_nodes:
            parts = pending.pop(_key(node, 0), None)
            if parts:
                total = _summed(parts, self._data[_key(node, 0)])
                if self._monitor is not None and len(parts) > 1:
                    self._monitor.after_sum(total)
                if self._trace is not None:
                    self._record_sum(node.name, f"grad_dict['{node.name}']", None, parts, total)
                assign(self._arg_grad[id(node)]._data, self._arg_req[id(node)], total)

    # --- the trace and the monitor ------------------------------------------------------------
    def enable_trace(self, preview_size=6, keep_bytes=0, copy_variables=True):
        """Start recording every operator call; returns the Trace (``executor.trace``).

        ``keep_bytes`` > 0 also keeps whole arrays of each call (``Slot.array``) and the parts
        of each summed gradient (``Trace.sums``), copied at call time, up to that many bytes.
        ``copy_variables=False`` keeps the arguments' own arrays and gradient arrays as
        read-only views instead (no memory plan reuses them, so they stay right until you
        change them: what a widget running its own copy wants).
        """
        views = frozenset()
        if not copy_variables:
            views = frozenset(
                id(a._data) for a in self.arg_arrays + (self.grad_arrays or []) if a is not None
            )
        self._trace = Trace(preview_size=preview_size, keep_bytes=int(keep_bytes), views=views)
        return self._trace

    def disable_trace(self):
        """Stop recording operator calls (``trace`` becomes None)."""
        self._trace = None

    @property
    def trace(self):
        """The Trace being recorded, or None when tracing is off."""
        return self._trace

    def _record(self, node, phase, is_train, start, req_out=None, req_in=None, **arrays):
        """Add one call to the trace: each array with its slot name, entry name and req."""
        names = slot_names(node)
        lists = {}
        for role in ("in_data", "out_data", "aux", "in_grad", "out_grad"):
            if role not in arrays:
                continue
            reqs = req_out if role == "out_data" else req_in if role == "in_grad" else None
            lists[role] = [
                (name, entry, arr, reqs[i] if reqs else None)
                for i, ((name, entry), arr) in enumerate(zip(names[role], arrays[role]))
            ]
        self._trace.record(phase, node, is_train, lists, time.perf_counter() - start)

    def _record_sum(self, entry, into, step, parts, total):
        """Add a gradient summed from two or more parts ``[(who, array)]`` to the trace."""
        if parts and len(parts) > 1:
            self._trace.record_sum(
                f"grad of {entry}",
                into,
                step,
                [who for who, _ in parts],
                [array for _, array in parts],
                total,
            )

    def set_monitor_callback(self, callback, monitor_all=False):
        """Call ``callback(name, array)`` for every operator output (and input if monitor_all),
        then, in backward, for every input gradient (``{node}_backward_output{i}``) and every
        gradient summed from several consumers (``sum_grad_output``), as MXNet does.

        Monitored outputs get buffers of their own, so an array a callback keeps is never
        overwritten by a later operator (the memory plan shares no buffer from then on).
        """
        self._monitor = MonitorHook(callback, monitor_all, self._ctx)
        for node in self._ops:
            for j in range(node.num_outputs):
                self._data[_key(node, j)] = np.zeros_like(self._data[_key(node, j)])
        self._buffers_changed()

    # --- dictionaries -----------------------------------------------------------------------------
    @staticmethod
    def _dict(names, arrays):
        if len(set(names)) != len(names):
            raise ValueError(f"Duplicate names detected, {names}")
        return dict(zip(names, arrays))

    def _cached(self, which, names, arrays):
        """The one ``ExecutorDict`` ``which`` of this executor, made at first use (MXNet caches
        them too, so an entry replaced by the learner stays replaced in the dict); ``names`` is
        called only then (listing a graph's arguments walks it: Module reads these per batch)."""
        found = self.__dict__.get("_" + which)
        if found is None:
            found = ExecutorDict(which, self._dict(names(), arrays))
            setattr(self, "_" + which, found)
        return found

    @property
    def arg_dict(self):
        """{argument name: its NDArray} (the very arrays the executor reads)."""
        return self._cached("arg_dict", self._symbol.list_arguments, self.arg_arrays)

    @property
    def grad_dict(self):
        """{argument name: its gradient NDArray, or None when grad_req is 'null'}."""
        if self.grad_arrays is None:  # MXNet's zip(names, None) fails with this TypeError
            raise TypeError(
                "Executor.grad_dict: bind with gradient arrays to get gradients: "
                "sym.bind(ctx, args, args_grad={name: mx.nd.zeros(shape), ...}) or "
                "sym.simple_bind(ctx, grad_req='write', data=...); this executor "
                "was bound without args_grad, so it has no grad_dict. ('NoneType' "
                "object is not iterable)"
            )
        return self._cached("grad_dict", self._symbol.list_arguments, self.grad_arrays)

    @property
    def aux_dict(self):
        """{auxiliary state name: its NDArray}."""
        return self._cached("aux_dict", self._symbol.list_auxiliary_states, self.aux_arrays)

    @property
    def output_dict(self):
        """{output name: its NDArray}: one dict, made at first use, as MXNet's (made again
        only when the executor's output arrays change: set_monitor_callback, reshape)."""
        outputs, found = self.__dict__.get("_output_dict", (None, None))
        if outputs is not self.outputs:
            found = self._dict(self._symbol.list_outputs(), self.outputs)
            self._output_dict = (self.outputs, found)
        return found

    def copy_params_from(self, arg_params, aux_params=None, allow_extra_params=False):
        """Copy values in from {name: NDArray} dicts (converted to each array's dtype). Every
        name and shape is checked first: a bad one raises before anything is copied."""
        copies = []
        for params, targets, what in (
            (arg_params, self.arg_dict, "arguments"),
            (aux_params or {}, self.aux_dict, "auxiliary states"),
        ):
            for name, array in params.items():
                if name not in targets:
                    if allow_extra_params:
                        continue
                    if what == "arguments":
                        raise ValueError(f'Find name "{name}" that is not in the arguments')
                    raise ValueError(f"Find name {name} that is not in the auxiliary states")
                values = np.asarray(array)
                if values.shape != targets[name].shape:
                    raise MXNetValueError(
                        f"copy_params_from: '{name}' has shape {values.shape} in the values "
                        f"given but {targets[name].shape} in this executor; nothing was "
                        "copied. The values must come from a network with the same layer "
                        "sizes (check num_hidden / num_filter and the data's shape)."
                    )
                copies.append((targets[name], values))
        for target, values in copies:
            target[:] = values.astype(target.dtype)

    def reshape(self, partial_shaping=False, allow_up_sizing=False, **kwargs):
        """A new Executor for new input shapes, sharing the arrays whose shapes stay."""
        from .bind import reshape_executor  # deferred: bind makes Executors (imports this)

        return reshape_executor(self, partial_shaping, allow_up_sizing, kwargs)

    @_one_thread_at_a_time("copy")
    def copy(self, grad_req=None):
        """A new Executor over copies of this one's arrays (not in MXNet: what the widgets run
        on, so your arrays never change behind your back); ``grad_req`` may replace yours."""
        from .bind import copy_executor  # deferred: bind makes Executors (imports this)

        copy = copy_executor(self, grad_req)
        for key, runner in copy._runners.items():  # a custom op's warnings come once, not again
            if isinstance(runner, CustomRunner):  # for every copy a widget runs
                runner.checker.warned = self._runners[key].checker.warned
        return copy

    def debug_str(self):
        """The symbol's listing in MXNet's form, then what the memory plan allocated.

        ``Total N MB allocated`` counts the buffers of minisym's plan for the operators'
        outputs (whole MiB, rounded down, as MXNet prints it); your arguments, gradients and
        auxiliary states are not in it. The last line is MXNet's, whose 11 is a constant.
        MXNet's listing also shows the backward nodes it adds to the graph for gradients
        (minisym's backward is a plan over the forward nodes, not more nodes) and, for an
        inference bind, the operators oneDNN fused (``sg_mkldnn_conv_0``)."""
        return (
            self._symbol.debug_str()
            + f"Total {self.memory_stats.planned_bytes >> 20} MB allocated\n"
            + "Total 11 TempSpace resource requested\n"
        )

    def _reuse_memory(self, other):
        """Move this executor's operator outputs into ``other``'s buffers where they fit, as
        MXNet's ``reshape`` does with the executor it reshapes: each new buffer, largest first,
        takes the smallest free buffer of ``other`` that holds it; one that fits nowhere keeps
        its own memory. Outputs come first, so the new ``outputs[j]`` lands in the old one."""
        free = _buffers(other)
        moved = {}
        for root, keys in sorted(_buffers(self), key=lambda b: -b[0].nbytes):
            fits = [i for i, (buf, _) in enumerate(free) if buf.nbytes >= root.nbytes]
            if fits:
                target = free.pop(min(fits, key=lambda i: free[i][0].nbytes))[0]
                flat = target.reshape(-1).view(np.uint8)
                for key in keys:
                    array = self._data[key]
                    moved[key] = flat[: array.nbytes].view(array.dtype).reshape(array.shape)
        self._data.update(moved)
        self._buffers_changed()


class ExecutorDict(dict):
    """``arg_dict`` / ``grad_dict`` / ``aux_dict``: a plain dict whose item assignment warns.

    As in MXNet, assigning ``ex.arg_dict['w'] = array`` replaces the dict's entry only: the
    executor keeps the arrays it was bound with, so the new one is never read or written."""

    _ROLE = {
        "arg_dict": "keeps reading its own array, so forward and backward ignore the new one",
        "grad_dict": "keeps writing the gradient into its own array, so the new one never "
        "receives it",
        "aux_dict": "keeps reading and updating its own array, so the new one is ignored",
    }

    def __init__(self, which, pairs):
        super().__init__(pairs)
        self.which = which

    def __setitem__(self, name, value):
        warnings.warn(self._replaced(name), MistakeWarning, stacklevel=2)
        super().__setitem__(name, value)

    def update(self, *args, **kwargs):
        """dict.update, each replaced entry warned about as an assignment is."""
        for name in dict(*args, **kwargs):
            warnings.warn(self._replaced(name), MistakeWarning, stacklevel=2)
        super().update(*args, **kwargs)

    def _replaced(self, name):
        where = f"ex.{self.which}[{name!r}]"
        return (
            f"{where} = ...: write into the array instead: {where}[:] = value (or "
            f"value.copyto({where})). Assigning the item replaces only this dict's entry; "
            f"the executor {self._ROLE[self.which]} (MXNet ignores it without a word)."
        )


def _no_gradients_message(arg_names):
    """The warning of a backward on an executor bound without args_grad: nothing to write."""
    shown = ", ".join(repr(n) for n in arg_names[:4]) + (", ..." if len(arg_names) > 4 else "")
    return (
        "Executor.backward: bind with gradient arrays to get gradients: "
        "sym.bind(ctx, args, args_grad={name: mx.nd.zeros(shape), ...}) or "
        "sym.simple_bind(ctx, grad_req='write', data=...). This executor was bound without "
        f"args_grad, so it has no gradient arrays (every argument, {shown}, has grad_req "
        "'null') and backward computes nothing."
    )


def _buffers(executor):
    """[(buffer, [entries stored in it])] of ``executor``'s operator outputs: the heads' first
    (in output order), then the others in topological order."""
    keys = [_key(n, i) for n, i in executor._symbol.outputs]
    keys += [_key(n, j) for n in executor._ops for j in range(n.num_outputs)]
    found = {}
    for key in keys:
        root = executor._data[key]
        while root.base is not None:
            root = root.base
        found.setdefault(id(root), (root, []))
        if key not in found[id(root)][1]:
            found[id(root)][1].append(key)
    return list(found.values())


def _summed(parts, like):
    """The sum of gradient contributions ``[(who, array)]``, or zeros shaped like ``like``."""
    if not parts:
        return np.zeros_like(like)
    if len(parts) == 1:
        return parts[0][1]
    total = parts[0][1].copy()
    for _, part in parts[1:]:
        total += part
    return total


def _changed_note(changed):
    """The note a failed backward gets: which of your arrays it had already changed."""
    if not changed:
        return (
            "(backward stopped before writing any gradient or auxiliary state: every "
            "array of this executor is as it was.)"
        )
    added = [c.split(" ")[0] for c in changed if "added to" in c]
    advice = (
        f"Before running backward again, reset what was added to (e.g. ex.{added[0]}[:] "
        "= 0), or its gradients count twice."
        if added
        else "The next backward overwrites those gradients."
        if any(c.startswith("grad_dict") for c in changed)
        else ""
    )
    if any(c.startswith("aux_dict") for c in changed):
        advice += " The auxiliary states named took one step, as in a backward that succeeds."
    return (
        "(backward stopped after it had already changed " + ", ".join(changed) + "; the "
        "engine cannot undo that. Every other gradient and auxiliary array is as it was. "
        f"{advice.strip()})"
    )


def check_is_train(is_train, where):
    """``is_train`` is a bool or a number: the string 'False' would be true (MXNet's int()
    refuses it with a ValueError)."""
    if isinstance(is_train, (str, bytes)):
        meant = "False" if str(is_train).strip() in ("False", "false", "0", "") else "True"
        raise ValueError(
            f"{where}: is_train={is_train!r} is not a bool: write "
            f"is_train={meant} (without quotes); a string such as 'False' would "
            "count as true"
        )


def _overlaps(out, arrays):
    """Whether ``out`` may share memory with any of ``arrays``: the memory plan lets the output
    of the node after a Convolution reuse the convolution's input buffers (they are dead by
    then), which a kernel writing that output while it reads its inputs must not."""
    return any(np.may_share_memory(out, a) for a in arrays)


def _call(op, phase, method, *args):
    """Call an operator's forward/backward; errors name the operator and the node."""
    try:
        method(*args)
    except NotImplementedError as exc:
        raise MXNetError(f"{op.where}: {phase} is not available: {exc}") from exc
    except Exception as exc:  # -- infer_graph raises it again, unchanged
        exc.add_note(f"(raised in {phase} of {op.where})")
        raise
