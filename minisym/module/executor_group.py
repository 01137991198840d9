"""Data parallelism as MXNet's ``DataParallelExecutorGroup``: one executor per context, each
bound for its slice of the batch (sliced by ``work_load_list``), sharing nothing but the
parameter values Module copies into every one. ``forward`` gives each executor its slice of the
data and labels, outputs are merged by concatenation along the batch axis, and ``update`` sums
each parameter's gradients over the contexts before one optimizer step (what MXNet's ``'local'``
kvstore does), so the result equals one context's up to float rounding.

In minisym every context runs on the same CPU: the split teaches the mechanics (and the errors)
of data parallelism, not a speed-up."""

import copy
from collections import OrderedDict
from functools import reduce

import numpy as np

from ..arrays.ndarray import NDArray
from ..base import MXNetValueError
from ..context import Context
from ..io import DataDesc

__all__ = [
    "ExecutorGroup",
    "DataParallelExecutorGroup",
    "split_batch",
    "check_contexts",
    "check_work_load_list",
    "prepare_group2ctxs",
]


def _contexts_text(contexts):
    return "[" + ", ".join(map(str, contexts)) + "]"


def check_contexts(context):
    """``context`` as a list of Contexts (one Context, or a list / tuple of them)."""
    contexts = list(context) if isinstance(context, (list, tuple)) else [context]
    wrong = [c for c in contexts if not isinstance(c, Context)]
    if not contexts or wrong:
        raise ValueError(
            f"Module: context must be a context or a list of contexts, e.g. "
            f"context=mx.cpu() or context=[mx.cpu(0), mx.cpu(1)]; got {context!r}"
        )
    return contexts


def check_work_load_list(contexts, work_load_list):
    """One share per context (default: equal shares), as MXNet asserts."""
    if work_load_list is None:
        return [1] * len(contexts)
    shares = list(work_load_list)
    if len(shares) != len(contexts):
        raise AssertionError(
            f"Module: work_load_list={shares} gives {len(shares)} share(s) for "
            f"{len(contexts)} context(s) {_contexts_text(contexts)}: give one number per "
            f"context, e.g. work_load_list={[1] * len(contexts)} (each context gets that share "
            "of every batch)"
        )
    return shares


def split_batch(batch_size, work_load_list, contexts, caller="Module.bind"):
    """``[slice]``: each context's examples of a batch, in proportion to its share (MXNet's
    ``_split_input_slice``: rounded shares, the last context takes what rounding left)."""
    total = sum(work_load_list)
    if total == 0:
        raise ZeroDivisionError(
            f"{caller}: work_load_list={list(work_load_list)} adds up to 0, "
            "so no context gets a share of the batch: give positive "
            f"numbers, e.g. work_load_list={[1] * len(contexts)}"
        )
    counts = [round(share * batch_size / total) for share in work_load_list]
    if sum(counts) < batch_size:
        counts[-1] += batch_size - sum(counts)
    slices, end = [], 0
    for count in counts:
        begin = int(min(end, batch_size))
        end = int(min(begin + count, batch_size))
        slices.append(slice(begin, end))
    if any(s.start >= s.stop for s in slices):
        sizes = ", ".join(str(max(s.stop - s.start, 0)) for s in slices)
        raise ValueError(
            f"Too many slices. Some splits are empty. {caller}: a batch of {batch_size} "
            f"split over {len(contexts)} contexts {_contexts_text(contexts)} with "
            f"work_load_list={list(work_load_list)} gives them {sizes} examples, and every "
            f"context needs at least one. Use a batch of at least {len(contexts)} (and shares "
            "that give each context one example), or fewer contexts; for a smaller last "
            "batch, make the iterator pad it (NDArrayIter's last_batch_handle='pad', the "
            "default) or drop it ('discard')."
        )
    return slices


def prepare_group2ctxs(group2ctxs, count):
    """One ``{ctx_group: context}`` per context, from MXNet's three forms (checked as MXNet
    does); ``DataParallelExecutorGroup.place_groups`` reports each array on its group's context."""
    if group2ctxs is None:
        return [None] * count
    if isinstance(group2ctxs, list):
        assert len(group2ctxs) == count, (
            f"length of group2ctxs should be {count}: one {{ctx_group: context}} per context "
            f"of the Module, got {len(group2ctxs)}"
        )
        return group2ctxs
    assert isinstance(group2ctxs, dict), (
        "group2ctxs should be list of dict of str to context, or dict of str to context or "
        "list of context"
    )
    per_context = [{} for _ in range(count)]
    for group, where in group2ctxs.items():
        where = [where] * count if isinstance(where, Context) else list(where)
        where = where * count if len(where) == 1 else where
        assert len(where) == count, (
            f"length of group2ctxs[{group}] should be {count} or 1: one context per context "
            f"of the Module, or one for all, got {len(where)}"
        )
        for i in range(count):
            per_context[i][group] = where[i]
    return per_context


def _with_batch(shape, axis, size):
    """``shape`` with ``size`` on its batch axis ``axis`` (unchanged for -1)."""
    shape = list(shape)
    if axis >= 0:
        shape[axis] = size
    return tuple(shape)


def _take(array, axis, part):
    """``array``'s examples ``part`` (a slice) along ``axis`` (the whole array for axis -1)."""
    if axis < 0:
        return array
    return array[(slice(None),) * axis + (part,)] if axis else array[part]


def _concat(arrays, axis):
    """One NDArray from per-context arrays (the first one itself when there is one)."""
    if len(arrays) == 1 or axis < 0:
        return arrays[0]
    return NDArray(np.concatenate([a.asnumpy() for a in arrays], axis=axis), arrays[0].context)


class DataParallelExecutorGroup:
    """The executors of a Module, one per context, each for its slice of the batch."""

    def __init__(
        self,
        symbol,
        contexts,
        work_load_list,
        data_descs,
        label_descs,
        grad_reqs,
        group2ctxs=None,
        caller="Module.bind",
        reshape_from=None,
        param_names=None,
        for_training=True,
        inputs_need_grad=False,
        fixed_param_names=None,
        state_names=None,
    ):
        self.symbol = symbol
        self.contexts = contexts
        self.work_load_list = work_load_list
        self.group2ctxs = prepare_group2ctxs(group2ctxs, len(contexts))
        self.grad_reqs = grad_reqs
        # what MXNet's DataParallelExecutorGroup records of the Module that made it
        self.param_names = list(param_names or [])
        self.arg_names = symbol.list_arguments()
        self.aux_names = symbol.list_auxiliary_states()
        self.for_training, self.inputs_need_grad = for_training, inputs_need_grad
        self.fixed_param_names = list(fixed_param_names or [])
        self.state_names = list(state_names or [])
        self.output_names = symbol.list_outputs()
        self._total_exec_bytes = 0
        self.output_axes = [
            DataDesc.get_batch_axis(symbol[i].attr("__layout__"))
            for i in range(len(self.output_names))
        ]
        self._bind(data_descs, label_descs, caller, reshape_from)

    def _bind(self, data_descs, label_descs, caller, reshape_from=None):
        """The executors for these input shapes (over ``reshape_from``'s memory when given)."""
        self.data_descs, self.label_descs = list(data_descs), list(label_descs or [])
        self.data_axes = [DataDesc.get_batch_axis(d.layout) for d in self.data_descs]
        self.label_axes = [DataDesc.get_batch_axis(d.layout) for d in self.label_descs]
        self.batch_size = self._batch_size()
        self.slices = split_batch(self.batch_size, self.work_load_list, self.contexts, caller)
        if reshape_from is None:
            self.execs = [
                self.symbol.simple_bind(
                    ctx,
                    grad_req=self.grad_reqs,
                    type_dict={d.name: d.dtype for d in self.data_descs + self.label_descs},
                    group2ctx=self.group2ctxs[i],
                    **self._shapes(i),
                )
                for i, ctx in enumerate(self.contexts)
            ]
        else:  # the same memory, as Executor.reshape shares it
            self.execs = [
                e.reshape(partial_shaping=True, allow_up_sizing=True, **self._shapes(i))
                for i, e in enumerate(reshape_from.execs)
            ]
        self.place_groups()

    def _batch_size(self):
        """The batch size every data and label input shares along its batch axis."""
        sizes = [(d.name, d.shape, d.shape[axis]) for d, axis in self._inputs() if axis >= 0]
        if not sizes:
            return 1
        name, shape, size = sizes[0]
        for other, other_shape, other_size in sizes[1:]:
            assert other_size == size, (
                f"all data must have the same batch size: batch_size = {size} ({name!r} has "
                f"shape {tuple(shape)}), but {other!r} has shape {tuple(other_shape)}"
            )
        return size

    def _shapes(self, i):
        """{input: shape} of the i-th executor: the batch axis cut to its slice."""
        size = self.slices[i].stop - self.slices[i].start
        return {desc.name: _with_batch(desc.shape, axis, size) for desc, axis in self._inputs()}

    def _inputs(self):
        """``(desc, batch axis)`` of every data and label input."""
        return zip(self.data_descs + self.label_descs, self.data_axes + self.label_axes)

    def reshape(self, data_descs, label_descs, caller="Module.reshape"):
        """A new group for new input shapes, over the same memory (this one is unchanged)."""
        group = copy.copy(self)
        group._bind(data_descs, label_descs, caller, reshape_from=self)
        return group

    # --- ctx_group placement -----------------------------------------------------------------
    def place_groups(self):
        """Report each array on its ``ctx_group``'s context, as MXNet allocates it: an argument,
        its gradient and an auxiliary state where its variable's group maps to, an output where
        the node that makes it does. minisym computes every context on the CPU, so only the
        ``context`` the arrays report changes."""
        groups = {name: attrs.get("ctx_group") for name, attrs in self.symbol.attr_dict().items()}
        heads = [node.name for node, _ in self.symbol.outputs]
        for executor, group2ctx in zip(self.execs, self.group2ctxs):
            if not group2ctx:
                continue
            self._check_groups_mapped(groups, group2ctx)
            where = {name: group2ctx[g] for name, g in groups.items() if g in group2ctx}
            for names, arrays in (
                (self.arg_names, executor.arg_arrays),
                (self.arg_names, executor.grad_arrays or []),
                (self.aux_names, executor.aux_arrays),
                (heads, executor.outputs),
            ):
                for name, array in zip(names, arrays):
                    if array is not None and name in where:
                        array._ctx = where[name]

    def _check_groups_mapped(self, groups, group2ctx):
        """Every ctx_group of the symbol needs a context in group2ctxs (MXNet's simple_bind:
        'The device assignment not found for group dev2', a RuntimeError)."""
        for name, group in groups.items():
            if group is not None and group not in group2ctx:
                shapes = "".join(
                    f"{d.name}: {tuple(d.shape)}\n" for d in self.data_descs + self.label_descs
                )
                raise RuntimeError(
                    f"simple_bind error. Arguments:\n{shapes}The device assignment not found "
                    f"for group {group}: {name!r} was made under mx.AttrScope(ctx_group="
                    f"{group!r}), but group2ctxs maps only {sorted(group2ctx)}. Add it, e.g. "
                    f"group2ctxs={{..., {group!r}: mx.cpu(1)}}."
                )

    # --- MXNet's DataParallelExecutorGroup attributes ------------------------------------------
    workload = property(lambda self: self.work_load_list)
    grad_req = property(lambda self: self.grad_reqs)
    data_shapes = property(lambda self: self.data_descs)
    label_shapes = property(lambda self: self.label_descs or None)
    data_names = property(lambda self: [d.name for d in self.data_descs])
    label_names = property(lambda self: [d.name for d in self.label_descs] or None)
    data_layouts = property(lambda self: self.data_axes)
    label_layouts = property(lambda self: self.label_axes or None)
    output_layouts = property(lambda self: self.output_axes)
    num_outputs = property(lambda self: len(self.output_names))

    def _per_context(self, names, table):
        """``[[array of name on each context]]`` from each executor's ``table`` dict."""
        return [[getattr(e, table)[name] for e in self.execs] for name in names]

    @property
    def param_arrays(self):
        """``[[parameter on each context]]``, in ``param_names`` order."""
        return self._per_context(self.param_names, "arg_dict")

    @property
    def grad_arrays(self):
        """``[[gradient on each context]]`` of the parameters (None for a fixed one)."""
        return self._per_context(self.param_names, "grad_dict")

    @property
    def aux_arrays(self):
        """``[[auxiliary state on each context]]``."""
        return self._per_context(self.aux_names, "aux_dict")

    @property
    def state_arrays(self):
        """``[[state input on each context]]``."""
        return self._per_context(self.state_names, "arg_dict")

    def _sliced(self, names):
        """``[[(slice, array) per context]]`` of each input in ``names``."""
        return [[(s, e.arg_dict[name]) for s, e in zip(self.slices, self.execs)] for name in names]

    @property
    def data_arrays(self):
        """``[[(slice, array) per context]]`` of each data input."""
        return self._sliced(self.data_names)

    @property
    def label_arrays(self):
        """``[[(slice, array) per context]]`` of each label, or None without labels."""
        return self._sliced(self.label_names) if self.label_descs else None

    @property
    def input_grad_arrays(self):
        """``[[gradient per context]]`` of each data input, or None without inputs_need_grad."""
        return self._per_context(self.data_names, "grad_dict") if self.inputs_need_grad else None

    @property
    def shared_data_arrays(self):
        """``[{input name: array}]`` per context: the data and label arrays."""
        names = self.data_names + (self.label_names or [])
        return [{name: e.arg_dict[name] for name in names} for e in self.execs]

    # --- parameters ------------------------------------------------------------------------
    def copy_params_from(self, arg_params, aux_params, allow_extra_params=False):
        """The same parameter values into every executor."""
        for executor in self.execs:
            executor.copy_params_from(arg_params, aux_params, allow_extra_params=allow_extra_params)

    def mean_over_contexts(self, name, aux=False):
        """A parameter's (or auxiliary state's) values averaged over the executors, as MXNet's
        get_params does (moving statistics differ between contexts; weights do not)."""
        arrays = [(e.aux_dict if aux else e.arg_dict)[name] for e in self.execs]
        if len(arrays) == 1:
            return arrays[0]
        values = reduce(np.add, [a.asnumpy() for a in arrays]) / len(arrays)
        return NDArray(values.astype(arrays[0].dtype), arrays[0].context)

    def update(self, updater, param_names, kvstore=False, on_kvstore=False):
        """One optimizer step per parameter, as MXNet's Module steps it over the contexts:
        ``on_kvstore`` (the 'local' kvstore updates): one step, keyed by the parameter's name,
        on the gradient summed over the contexts, then the new value copied to every context;
        ``kvstore`` without it: the summed gradient, one step per context (key
        ``index * contexts + context``); no kvstore: each context steps on its own gradient.
        On one context all three are the one step ``updater(index, grad, weight)``."""
        count = len(self.execs)
        for index, name in enumerate(param_names):
            grads = [e.grad_dict[name] for e in self.execs]
            weights = [e.arg_dict[name] for e in self.execs]
            if grads[0] is None:
                continue
            if count > 1 and (kvstore or on_kvstore):
                total = NDArray(reduce(np.add, [g.asnumpy() for g in grads]), grads[0].context)
                grads = [total] * count
            if count > 1 and on_kvstore:
                updater(name, grads[0], weights[0])
                for weight in weights[1:]:
                    weight[:] = weights[0]
                continue
            for k, (grad, weight) in enumerate(zip(grads, weights)):
                updater(index * count + k, grad, weight)

    # --- running ---------------------------------------------------------------------------
    def forward(self, data_batch, is_train, data_names, label_names):
        """Each executor's slice of the batch's data (and labels), then forward on each."""
        labels = getattr(data_batch, "label", None) if self.label_descs else None
        self._check_examples(data_batch.data, labels, data_names, label_names)
        inputs = list(zip(data_names, data_batch.data, self.data_axes))
        inputs += zip(label_names, labels or [], self.label_axes)
        for executor, part in zip(self.execs, self.slices):
            for name, array, axis in inputs:
                executor.arg_dict[name][:] = _take(array, axis, part)
        for executor in self.execs:
            executor.forward(is_train=is_train)

    def _check_examples(self, data, labels, data_names, label_names):
        """Every data and label array of a batch holds ``batch_size`` examples on its batch
        axis, checked before anything is copied (over several contexts a short label would be
        sliced short, then broadcast silently)."""
        first = f"data {data_names[0]!r} {tuple(data[0].shape)}" if data else "the bound data"
        arrays = [("data", n, a, axis) for n, a, axis in zip(data_names, data, self.data_axes)]
        arrays += [
            ("label", n, a, axis) for n, a, axis in zip(label_names, labels or [], self.label_axes)
        ]
        for kind, name, array, axis in arrays:
            shape = tuple(array.shape)
            if axis < 0 or (len(shape) > axis and shape[axis] == self.batch_size):
                continue
            examples = f"{shape[axis]} examples" if len(shape) > axis else "no batch axis"
            raise MXNetValueError(
                f"Module.forward: {kind} {name!r} has shape {shape} ({examples} along axis "
                f"{axis}), but the batch has {self.batch_size} ({first}): every data and label "
                f"array of a batch needs the same number of examples. Check where the batch "
                f"comes from (NDArrayIter(data, label) needs one label per example); nothing "
                "was copied."
            )

    def backward(self, out_grads=None):
        """Backward on each executor with its slice of the head gradients."""
        if out_grads is not None and not isinstance(out_grads, (list, tuple)):
            out_grads = [out_grads]
        if out_grads is None or len(self.execs) == 1:
            for executor in self.execs:
                executor.backward(out_grads=out_grads)
            return
        self._check_heads(out_grads)
        for executor, part in zip(self.execs, self.slices):
            executor.backward(
                out_grads=[_take(g, axis, part) for g, axis in zip(out_grads, self.output_axes)]
            )

    def _check_heads(self, out_grads):
        """Each head gradient is cut like the batch, so it needs the batch size on its batch
        axis (MXNet fails inside slice_axis)."""
        names = self.output_names
        cuts = ", ".join(f"{s.start}:{s.stop}" for s in self.slices)
        for k, (grad, axis) in enumerate(zip(out_grads, self.output_axes)):
            if axis >= 0 and (len(grad.shape) <= axis or grad.shape[axis] != self.batch_size):
                raise MXNetValueError(
                    f"Module.backward: out_grads[{k}] (for {names[k]!r}) has shape "
                    f"{tuple(grad.shape)}, but over {len(self.execs)} contexts each head "
                    f"gradient is cut along axis {axis} like the batch ({self.batch_size} "
                    f"examples: {cuts}), so it needs {self.batch_size} there. An output "
                    "without a batch axis (a summed loss) cannot take a head gradient over "
                    "several contexts: make it a loss (MakeLoss needs none), or run on one "
                    "context."
                )

    def get_outputs(self, merge_multi_context=True):
        """``[output]`` merged over the contexts, or ``[[output per context]]``."""
        per_output = [[e.outputs[i] for e in self.execs] for i in range(len(self.execs[0].outputs))]
        if not merge_multi_context:
            return per_output
        return [_concat(arrays, axis) for arrays, axis in zip(per_output, self.output_axes)]

    def get_input_grads(self, data_names, merge_multi_context=True):
        """The data inputs' gradients, merged over the contexts or ``[[per context]]``."""
        per_input = [[e.grad_dict[n] for e in self.execs] for n in data_names]
        if not merge_multi_context:
            return per_input
        return [_concat(arrays, axis) for arrays, axis in zip(per_input, self.data_axes)]

    def output_shapes(self, output_names):
        """``[(name, shape)]`` of the merged outputs (the whole batch along the batch axis)."""
        # as MXNet: the batch size, even for an output without a batch axis
        outputs = zip(output_names, self.execs[0].outputs, self.output_axes)
        return [
            (name, _with_batch(out.shape, axis, self.batch_size)) for name, out, axis in outputs
        ]

    def update_metric(self, eval_metric, labels, pre_sliced, label_names, output_names):
        """``eval_metric.update_dict`` once per context: its labels' slice and its outputs."""
        for i, executor in enumerate(self.execs):
            if pre_sliced:
                sliced = labels[i]
            elif len(self.execs) == 1:
                sliced = labels or []
            else:  # a module bound without labels slices them along axis 0
                axes = self.label_axes or [0] * len(labels or [])
                sliced = [
                    _take(label, axis, self.slices[i]) for label, axis in zip(labels or [], axes)
                ]
            eval_metric.update_dict(
                OrderedDict(zip(label_names, sliced)),
                OrderedDict(zip(output_names, executor.outputs)),
            )

    def install_monitor(self, mon):
        """Watch every executor with ``mon``."""
        for executor in self.execs:
            mon.install(executor)
        self.place_groups()  # the monitor gives the outputs buffers of their own


ExecutorGroup = DataParallelExecutorGroup  # minisym's earlier name
