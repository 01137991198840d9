"""The trace keeps whole arrays (copied at call time, under a byte cap) and records every
gradient summed from several readers, part by part: what the stepper widget shows."""

import numpy as np
import pytest

import minisym as mx

x = mx.sym.Variable("x")
MiB = 1 << 20


def traced_run(net, keep_bytes=MiB, head=True, **shapes):
    """Bind ``net``, give every argument seeded values, run forward and backward traced."""
    ex = net.simple_bind(mx.cpu(), **shapes)
    rng = np.random.default_rng(0)
    for arr in ex.arg_arrays:
        arr[:] = rng.standard_normal(arr.shape)
    trace = ex.enable_trace(keep_bytes=keep_bytes)
    ex.forward(is_train=True)
    ex.backward([mx.nd.ones(o.shape) for o in ex.outputs] if head else None)
    return ex, trace


def test_kept_arrays_are_what_each_call_saw_though_buffers_are_reused():
    y = mx.sym.Activation(x * 2, act_type="relu", name="a")
    for _ in range(4):
        y = mx.sym.Activation(y + 1, act_type="relu")
    ex = y.simple_bind(mx.cpu(), x=(3,), grad_req="null")  # inference: buffers are shared
    trace = ex.enable_trace(keep_bytes=MiB)
    ex.forward(x=np.array([1.0, 2.0, 3.0]))
    kept = trace.find("a", "forward")[0].slot("out_data[0]").array
    assert kept.tolist() == [2.0, 4.0, 6.0]
    node = next(n for n in ex._ops if n.name == "a")
    live = ex._data[(id(node), 0)]
    assert live.tolist() != [2.0, 4.0, 6.0]  # the plan gave that buffer to a later output
    assert ex.outputs[0].asnumpy().tolist() == [6.0, 8.0, 10.0]


def test_a_reader_shares_the_copy_of_what_it_reads_and_copies_are_read_only():
    net = mx.sym.Activation(
        mx.sym.FullyConnected(x, num_hidden=3, name="fc"), act_type="relu", name="act"
    )
    ex, trace = traced_run(net, x=(2, 4))
    written = trace.find("fc", "forward")[0].slot("out_data[0]").array
    read = trace.find("act", "forward")[0].slot("in_data[0]").array
    assert read is written
    assert not written.flags.writeable
    with pytest.raises(ValueError):
        written[0, 0] = 1.0
    unique = {
        id(s.array): s.array.nbytes for c in trace.calls for s in c.slots if s.array is not None
    }
    unique.update({id(a): a.nbytes for g in trace.sums for a in (*g.parts, g.total)})
    assert trace.kept_bytes == sum(unique.values())


def test_arrays_past_the_cap_are_not_kept_and_counted():
    net = mx.sym.FullyConnected(x, num_hidden=50, name="fc")
    ex, trace = traced_run(net, keep_bytes=2000, x=(10, 40))  # weight (50, 40): 8000 bytes
    call = trace.find("fc", "forward")[0]
    assert call.slot("in_data[0]").array.shape == (10, 40)  # 1600 bytes: fits
    assert call.slot("in_data[1]").array is None
    assert call.slot("in_data[1]").preview is not None  # the preview is still there
    assert trace.kept_bytes <= 2000
    assert trace.skipped_bytes >= 8000


def test_without_keep_bytes_no_array_is_kept():
    net = mx.sym.Activation(x, act_type="relu") + x
    _, trace = traced_run(net, keep_bytes=0, x=(2, 3))
    assert all(s.array is None for c in trace.calls for s in c.slots)
    assert trace.kept_bytes == trace.skipped_bytes == 0
    assert len(trace.sums) == 1 and trace.sums[0].parts == (None, None)  # still recorded


def test_the_gradient_of_an_output_read_twice_is_the_sum_of_its_parts():
    hidden = mx.sym.FullyConnected(x, num_hidden=3, name="fc")
    net = mx.sym.Activation(hidden, act_type="tanh", name="act") + hidden * 3
    ex, trace = traced_run(net, x=(2, 4))
    [total] = trace.sums
    assert total.entry == "grad of fc_output" and total.into == "out_grad[0] of 'fc'"
    assert sorted(total.sources) == ["_mulscalar0", "act"]
    receiver = trace.calls[total.step]
    assert (receiver.node, receiver.phase) == ("fc", "backward")
    assert trace.sums_at(total.step) == [total]
    parts = {
        c.node: c.slot("in_grad[0]").array
        for c in trace.calls
        if c.phase == "backward" and c.node in total.sources
    }
    for source, part in zip(total.sources, total.parts):
        np.testing.assert_array_equal(part, parts[source])
    np.testing.assert_array_equal(total.parts[0] + total.parts[1], total.total)
    np.testing.assert_array_equal(total.total, receiver.slot("out_grad[0]").array)
    np.testing.assert_allclose(parts["_mulscalar0"], 3.0)  # d(3h)/dh, times the head's ones
    assert str(total) in (
        "grad of fc_output = part from act + part from _mulscalar0",
        "grad of fc_output = part from _mulscalar0 + part from act",
    )


def test_the_gradient_of_an_argument_read_twice_is_summed_into_grad_dict():
    net = mx.sym.Activation(x, act_type="tanh", name="act") + x
    ex, trace = traced_run(net, x=(2, 3))
    [total] = trace.sums
    assert total.into == "grad_dict['x']" and total.step is None
    assert sorted(total.sources) == ["_plus0", "act"]
    np.testing.assert_allclose(total.total, ex.grad_dict["x"].asnumpy())
    np.testing.assert_allclose(sum(total.parts), ex.grad_dict["x"].asnumpy())


def test_a_head_read_by_another_operator_sums_the_head_gradient_too():
    hidden = mx.sym.FullyConnected(x, num_hidden=2, name="fc")
    net = mx.sym.Group([hidden, mx.sym.Activation(hidden, act_type="relu", name="act")])
    ex, trace = traced_run(net, x=(2, 3))
    [total] = trace.sums
    assert total.sources[0] == "out_grads" and total.sources[1] == "act"
    np.testing.assert_array_equal(total.parts[0], np.ones((2, 2)))


def test_an_output_read_once_is_not_a_sum():
    net = mx.sym.Activation(mx.sym.FullyConnected(x, num_hidden=2, name="fc"), act_type="relu")
    _, trace = traced_run(net, x=(2, 3))
    assert trace.sums == []


def test_copy_variables_false_shows_arguments_and_their_gradients_as_views():
    net = mx.sym.FullyConnected(x, num_hidden=2, name="fc")
    ex = net.simple_bind(mx.cpu(), x=(2, 3))
    for copy in (True, False):
        trace = ex.enable_trace(keep_bytes=MiB, copy_variables=copy)
        ex.forward(is_train=True)
        ex.backward(mx.nd.ones((2, 2)))
        forward, backward = trace.find("fc", "forward")[0], trace.find("fc", "backward")[0]
        weight = forward.slot("in_data[1]").array
        grad = backward.slot("in_grad[1]").array
        assert np.shares_memory(weight, ex.arg_dict["fc_weight"]._data) is not copy
        assert np.shares_memory(grad, ex.grad_dict["fc_weight"]._data) is not copy
        assert not weight.flags.writeable and not grad.flags.writeable
        assert not np.shares_memory(forward.slot("out_data[0]").array, ex.outputs[0]._data)
        assert trace.kept_bytes > 0  # the output is always a copy


def test_clear_forgets_arrays_and_sums():
    net = mx.sym.Activation(x, act_type="relu") + x
    ex, trace = traced_run(net, x=(2, 3))
    assert trace.kept_bytes > 0 and trace.sums
    trace.clear()
    assert trace.calls == [] and trace.sums == [] and trace.kept_bytes == 0
    ex.forward(is_train=True)
    ex.backward(mx.nd.ones((2, 3)))
    assert len(trace.sums) == 1 and trace.kept_bytes > 0


def test_tracing_changes_no_gradient():
    hidden = mx.sym.FullyConnected(x, num_hidden=3, name="fc")
    net = mx.sym.Activation(hidden, act_type="tanh") + hidden * 3
    grads = []
    for keep in (None, MiB):
        ex = net.simple_bind(mx.cpu(), x=(2, 4))
        for arr in ex.arg_arrays:
            arr[:] = np.random.default_rng(0).standard_normal(arr.shape)
        if keep:
            ex.enable_trace(keep_bytes=keep)
        ex.forward(is_train=True)
        ex.backward(mx.nd.ones((2, 3)))
        grads.append({k: v.asnumpy() for k, v in ex.grad_dict.items()})
    for name in grads[0]:
        np.testing.assert_array_equal(grads[0][name], grads[1][name])
