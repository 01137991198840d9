"""Each property can fail: plant the kind of bug it is about (monkeypatch) and it must find it
within its CI number of examples (generation only, no shrinking: quick). The unsabotaged engine
passes the same properties in test_properties.py."""

import numpy as np
import pytest
from hypothesis import Phase, given, settings
from test_properties import EXAMPLES, PROPERTIES, STRATEGIES

import minisym as mx
from minisym import bind, executor, memory_plan
from minisym.assign import assign
from minisym.graph import json_io
from minisym.kernels import reference as nn_reference
from minisym.ops import get_op
from minisym.ops.tensor import matrix_op as tensor

pytestmark = [
    pytest.mark.slow,  # each runs a property until it fails: ~1 s with numba
    pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:divide by zero encountered:RuntimeWarning"),
]


def falsify(name, examples=None):
    """Run property ``name`` (derandomized, EXAMPLES[name] examples unless ``examples``); its
    failure, or None."""
    test = settings(
        max_examples=examples or EXAMPLES[name],
        derandomize=True,
        database=None,
        phases=[Phase.generate],
        print_blob=False,
        deadline=None,
    )(given(**STRATEGIES[name])(PROPERTIES[name]))
    try:
        test()
    except Exception as failure:  # noqa: BLE001 (whatever the property raised)
        return failure
    return None


def test_a_shape_rule_wrong_but_consistent_with_execution_is_caught(monkeypatch):
    """Flatten gives (d1*d2*..., N) instead of (N, d1*d2*...): the executor allocates what
    inference says and the values only pass through, so nothing crashes; NumPy's rule
    disagrees."""
    cls = get_op("Flatten")
    original = cls.infer_shape

    def swapped(self, in_shape, out_shape):
        ins, outs, aux = original(self, in_shape, out_shape)
        return ins, [None if o is None else o[::-1] for o in outs], aux

    monkeypatch.setattr(cls, "infer_shape", swapped)
    failure = falsify("shapes")
    assert isinstance(failure, AssertionError) and "NumPy's rules give" in str(failure)


def test_a_wrong_gradient_is_caught(monkeypatch):
    """Flatten / Reshape / expand_dims pass the head gradient back with its sign flipped."""
    cls = tensor._SameValues

    def flipped(self, req, out_grad, in_data, out_data, in_grad, aux):
        assign(in_grad[0], req[0], -out_grad[0].reshape(in_data[0].shape))

    monkeypatch.setattr(cls, "backward", flipped)
    failure = falsify("gradients")
    assert isinstance(failure, AssertionError) and "d objective / d" in str(failure)


def test_a_parameter_changed_by_loading_json_is_caught(monkeypatch):
    """load_json reads every ``scalar`` one too high (a parsing slip)."""
    original = json_io._node_from_record

    def shifted(i, record, *args, **kwargs):
        attrs = record.get("attrs") if isinstance(record, dict) else None
        if attrs and "scalar" in attrs:
            record = dict(record, attrs=dict(attrs, scalar=str(float(attrs["scalar"]) + 1)))
        return original(i, record, *args, **kwargs)

    monkeypatch.setattr(json_io, "_node_from_record", shifted)
    failure = falsify("json")
    assert isinstance(failure, AssertionError)


def test_parameters_lost_by_reshape_are_caught(monkeypatch):
    """Executor.reshape gives a new zero array where it should keep the same one."""
    original = bind._reshaped

    def fresh(name, old, *args, **kwargs):
        new = original(name, old, *args, **kwargs)
        return mx.nd.zeros(old.shape, dtype=old.dtype) if new is old else new

    monkeypatch.setattr(bind, "_reshaped", fresh)
    failure = falsify("reshape")
    assert isinstance(failure, AssertionError) and "kept" in str(failure)


def test_add_that_overwrites_is_caught(monkeypatch):
    """The executor writes a gradient under 'add' as if it were 'write'."""
    original = executor.assign

    def overwrite(dst, req, src):
        original(dst, "write" if req == "add" else req, src)

    monkeypatch.setattr(executor, "assign", overwrite)
    failure = falsify("grad_req_add")
    assert isinstance(failure, AssertionError) and "under 'add'" in str(failure)


def test_a_memory_plan_that_frees_buffers_too_early_is_caught(monkeypatch):
    """Every output's buffer is free again right after the step that made it, so a later
    reader (a consumer, or a backward that reads it) sees another output's values."""
    original = memory_plan._lifetimes

    def too_short(ops, runs_backward, pinned):
        return {
            key: (first, first) for key, (first, _) in original(ops, runs_backward, pinned).items()
        }

    monkeypatch.setattr(memory_plan, "_lifetimes", too_short)
    failure = falsify("memory_plan")
    assert isinstance(failure, AssertionError) and "planned vs unplanned" in str(failure)


def test_a_reference_kernel_that_differs_from_the_fast_one_is_caught(monkeypatch):
    """The bug this property found: the NumPy avg pooling divided a 'full' window lying wholly
    past the input by 0 (NaN where the fast kernel and MXNet give 0)."""

    def old_divisor(spatial, kernel, stride, pad, out_shape, count_include_pad):
        divisor = np.ones((), np.int64)
        for x, k, s, p, n in zip(spatial, kernel, stride, pad, out_shape):
            start = np.arange(n) * s - p
            end = np.minimum(start + k, x + p)
            if not count_include_pad:
                start, end = np.maximum(start, 0), np.minimum(end, x)
            divisor = np.multiply.outer(divisor, end - start)
        return divisor

    monkeypatch.setattr(nn_reference, "_avg_divisor", old_divisor)
    # Derandomized examples are seeded by the property's source: an edit to its docstring draws
    # other graphs, and a window wholly past the input is rare. 1,000 examples still find it.
    failure = falsify("kernels", examples=1000)
    assert isinstance(failure, AssertionError) and "fast vs reference" in str(failure)
