"""mx.autograd on NDArrays: the tape, the req each operator's backward receives, the errors
(their MXNet classes and what they teach), autograd.Function, and the gluon stub."""

import numpy as np
import pytest

import minisym as mx


def _attached(values, req="write"):
    x = mx.nd.array(values)
    x.attach_grad(grad_req=req)
    return x


def test_chain_of_arithmetic_operators_gives_the_derivative():
    x = _attached([[1.0, 2.0], [3.0, 4.0]])
    with mx.autograd.record():
        y = x * 2 + x * x
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 2 + 2 * x.asnumpy())


def test_arithmetic_operators_are_recorded_as_the_registered_operators():
    x = _attached([1.0, 2.0])
    with mx.autograd.record():
        y = x * 3
    node, index = y._ag
    assert (node.where, index) == ("_mul_scalar", 0)
    assert isinstance(node, mx.autograd.OperatorNode)


def test_backward_frees_the_graph_unless_retain_graph():
    x = _attached([1.0, 2.0])
    with mx.autograd.record():
        y = x * x
    y.backward(retain_graph=True)
    node = y._ag[0]
    assert node.executor is not None
    y.backward()
    assert node.freed and node.executor is None


def test_grad_req_add_accumulates_over_backward_calls_and_write_overwrites():
    x = _attached([1.0, 2.0], req="add")
    for _ in range(3):
        with mx.autograd.record():
            y = x * x
        y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 3 * 2 * x.asnumpy())
    x.attach_grad()
    for _ in range(2):
        with mx.autograd.record():
            y = x * x
        y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), 2 * x.asnumpy())


class _Double(mx.operator.CustomOp):
    reqs = []

    def forward(self, is_train, req, in_data, out_data, aux):
        type(self).reqs.append(("forward", int(is_train), list(req), mx.autograd.is_recording()))
        self.assign(out_data[0], req[0], in_data[0] * 2)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        type(self).reqs.append(("backward", list(req), mx.autograd.is_training()))
        self.assign(in_grad[0], req[0], out_grad[0] * 2)


@mx.operator.register("test_autograd_double")
class _DoubleProp(mx.operator.CustomOpProp):
    def create_operator(self, ctx, shapes, dtypes):
        return _Double()


def test_custom_op_backward_receives_the_variables_grad_req_when_it_reads_it_once():
    _Double.reqs = []
    x = _attached([1.0, 2.0], req="add")
    with mx.autograd.record():
        y = mx.nd.Custom(x, op_type="test_autograd_double")
    y.backward()
    assert _Double.reqs == [("forward", 1, ["write"], False), ("backward", ["add"], True)]
    np.testing.assert_allclose(x.grad.asnumpy(), [2.0, 2.0])


def test_a_variable_read_twice_gets_write_buffers_that_are_summed():
    _Double.reqs = []
    x = _attached([1.0, 2.0], req="add")
    with mx.autograd.record():
        y = mx.nd.Custom(x, op_type="test_autograd_double") + mx.nd.Custom(
            x, op_type="test_autograd_double"
        )
    y.backward(train_mode=False)
    assert [r for r in _Double.reqs if r[0] == "backward"] == [("backward", ["write"], False)] * 2
    np.testing.assert_allclose(x.grad.asnumpy(), [4.0, 4.0])


def test_custom_op_outside_record_runs_forward_in_inference_mode():
    _Double.reqs = []
    out = mx.nd.Custom(mx.nd.array([1.0]), op_type="test_autograd_double")
    assert out.asnumpy().tolist() == [2.0]
    assert _Double.reqs == [("forward", 0, ["write"], False)]


def test_dropout_inside_record_trains_and_its_gradient_is_the_mask():
    mx.random.seed(3)
    x = _attached(np.ones((50, 40)))
    with mx.autograd.record():
        y = mx.nd.Dropout(x, p=0.5)
    y.backward()
    kept = y.asnumpy() != 0
    assert 0.3 < kept.mean() < 0.7
    np.testing.assert_allclose(x.grad.asnumpy(), kept * 2.0)
    np.testing.assert_allclose(mx.nd.Dropout(x, p=0.5).asnumpy(), x.asnumpy())  # inference


def test_indexing_reshape_transpose_and_dot_are_recorded():
    def f(a):  # the same chain on NumPy arrays
        return (a.T @ a.reshape((2, 2)) + a[0] * a[:, 1]).sum()

    w = _attached([[1.0, 2.0], [3.0, 4.0]])
    with mx.autograd.record():
        y = mx.nd.dot(w.T, w.reshape((2, 2))) + w[0] * w[:, 1]
    y.backward()
    a, eps = w.asnumpy().astype(np.float64), 1e-6
    numeric = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        step = np.zeros_like(a)
        step[i] = eps
        numeric[i] = (f(a + step) - f(a - step)) / (2 * eps)
    np.testing.assert_allclose(w.grad.asnumpy(), numeric, rtol=1e-5)


def test_detach_and_pause_stop_the_gradient():
    x = _attached([1.0, 2.0])
    with mx.autograd.record():
        with mx.autograd.pause():
            p = x * 10
        y = x.detach() * x + p * x
    y.backward()
    np.testing.assert_allclose(x.grad.asnumpy(), x.asnumpy() + 10 * x.asnumpy())


def test_autograd_grad_returns_new_arrays_and_leaves_dot_grad_alone():
    x = _attached([1.0, 2.0])
    with mx.autograd.record():
        y = x * x * x
    (g,) = mx.autograd.grad(y, [x])
    np.testing.assert_allclose(g.asnumpy(), 3 * x.asnumpy() ** 2)
    assert x.grad.asnumpy().tolist() == [0.0, 0.0]


def test_function_subclass_records_its_own_backward():
    class Sigmoid(mx.autograd.Function):
        def forward(self, x):
            y = 1 / (1 + mx.nd.exp(-x))
            self.save_for_backward(y)
            return y

        def backward(self, dy):
            (y,) = self.saved_tensors
            return dy * y * (1 - y)

    x = _attached([0.0, 1.0])
    with mx.autograd.record():
        y = Sigmoid()(x)
    y.backward()
    s = 1 / (1 + np.exp(-x.asnumpy()))
    np.testing.assert_allclose(x.grad.asnumpy(), s * (1 - s), rtol=1e-6)


def test_scopes_restore_the_states_even_after_an_exception():
    with pytest.raises(ZeroDivisionError):
        with mx.autograd.record():
            assert mx.autograd.is_recording() and mx.autograd.is_training()
            raise ZeroDivisionError("inside the block")
    assert not mx.autograd.is_recording() and not mx.autograd.is_training()
    with mx.autograd.record(train_mode=False):
        assert (mx.autograd.is_recording(), mx.autograd.is_training()) == (True, False)
        with mx.autograd.train_mode():
            assert mx.autograd.is_training()
    with pytest.raises(TypeError, match="train_mode=True or train_mode=False"):
        mx.autograd.record(train_mode="False")


# --- the errors: MXNet's classes, messages that say what to do ---------------------------------
def test_backward_twice_says_retain_graph():
    x = _attached([1.0, 2.0])
    with mx.autograd.record():
        y = x * 2
    y.backward()
    with pytest.raises(mx.base.MXNetError) as info:
        y.backward()
    text = str(info.value)
    assert "_mul_scalar" in text and "freed by an earlier backward" in text
    assert "retain_graph=True" in text
    assert x.grad.asnumpy().tolist() == [2.0, 2.0]


def test_backward_outside_record_shows_the_block_to_write():
    x = _attached([1.0, 2.0])
    y = x * 3
    with pytest.raises(mx.base.MXNetError) as info:
        y.backward()
    text = str(info.value)
    assert "computed outside autograd.record()" in text
    assert "with mx.autograd.record():" in text and "x.attach_grad()" in text


def test_backward_of_arrays_without_attach_grad_says_attach_grad():
    a = mx.nd.array([1.0, 2.0])
    with mx.autograd.record():
        b = a * 2
    with pytest.raises(mx.base.MXNetError) as info:
        b.backward()
    text = str(info.value)
    assert "inside autograd.record(), but from arrays none of which has a gradient" in text
    assert "x.attach_grad()" in text and a.grad is None


def test_only_null_grad_reqs_is_an_error_naming_grad_req():
    n = _attached([1.0, 2.0], req="null")
    with mx.autograd.record():
        m = n * 2
    with pytest.raises(mx.base.MXNetError, match="grad_req='null'"):
        m.backward()


def test_head_gradient_of_the_wrong_shape_names_both_shapes_and_changes_nothing():
    x = _attached([[1.0, 2.0], [3.0, 4.0]])
    with mx.autograd.record():
        y = x * 2
    with pytest.raises(ValueError) as info:
        y.backward(mx.nd.ones((3,)))
    assert isinstance(info.value, mx.base.MXNetError)
    assert "head_grads[0] has shape (3,) but head 0 has (2, 2)" in str(info.value)
    assert "mx.nd.ones((2, 2))" in str(info.value)
    assert not x.grad.asnumpy().any()
    y.backward()  # the graph is still there
    assert x.grad.asnumpy().tolist() == [[2.0, 2.0], [2.0, 2.0]]


def test_writing_into_a_recorded_array_inside_record_is_refused():
    x = _attached([1.0, 2.0])
    with mx.autograd.record():
        y = x * 2
        for write in (
            lambda: y.__setitem__(slice(None), 5),
            lambda: y.__iadd__(1),
            lambda: mx.nd.relu(x, out=y),
        ):
            with pytest.raises(mx.base.MXNetError) as info:
                write()
            assert "part of the recorded graph" in str(info.value)
            assert "y = y + 1" in str(info.value)
        fresh = mx.nd.zeros(2)
        mx.nd.relu(x, out=fresh)  # a fresh array may be written
        x[:] = x.asnumpy()  # and so may a variable
    assert y.asnumpy().tolist() == [2.0, 4.0]


def test_bad_grad_req_is_a_key_error_listing_the_choices():
    with pytest.raises(KeyError, match="'write'.*'add'.*'null'"):
        mx.nd.ones(2).attach_grad(grad_req="sum")


def test_autograd_grad_of_an_array_without_attach_grad_and_create_graph():
    x = _attached([1.0, 2.0])
    with mx.autograd.record():
        y = x * x
    with pytest.raises(mx.base.MXNetError, match="variables\\[0\\].*attach_grad"):
        mx.autograd.grad(y, [mx.nd.ones(2)])
    with pytest.raises(NotImplementedError, match="higher-order"):
        mx.autograd.grad(y, [x], create_graph=True)


def test_mark_variables_checks_lengths_and_shapes():
    x = mx.nd.array([1.0, 2.0])
    with pytest.raises(ValueError, match="1 variables, 0 gradients"):
        mx.autograd.mark_variables([x], [])
    with pytest.raises(ValueError, match=r"gradients\[0\] has shape \(3,\)"):
        mx.autograd.mark_variables([x], [mx.nd.zeros(3)])
    g = mx.nd.zeros(2)
    mx.autograd.mark_variables(x, g)
    with mx.autograd.record():
        y = x * 4
    mx.autograd.backward(y)
    assert g.asnumpy().tolist() == [4.0, 4.0] and x.grad is g


def test_head_grads_of_another_length_is_an_assertion_error():
    x = _attached([1.0])
    with mx.autograd.record():
        y = x * 2
    with pytest.raises(AssertionError, match="1 heads, 2 head_grads"):
        mx.autograd.backward([y], head_grads=[None, None])


def test_gluon_says_it_is_outside_the_course():
    with pytest.raises(ImportError) as info:
        from minisym import gluon  # noqa: F401
    text = str(info.value)
    assert "outside this course" in text and "mx.mod.Module" in text
    with pytest.raises(ImportError, match="mx.sym"):
        import minisym.gluon  # noqa: F401
    with pytest.raises(AttributeError, match="outside this course"):
        mx.gluon.nn.Dense(10)
    assert not hasattr(mx, "gluon")


def test_backward_in_predict_mode_treats_batchnorm_statistics_as_constants():
    x = _attached(np.arange(8.0).reshape(2, 2, 2) / 3)
    gamma, beta = mx.nd.array([1.5, 0.5]), mx.nd.array([0.1, 0.2])
    mean, var = mx.nd.array([0.05, -0.05]), mx.nd.array([1.2, 0.8])
    with mx.autograd.record():
        y = mx.nd.BatchNorm(x, gamma, beta, mean, var, fix_gamma=False)
    y.backward(train_mode=False)
    assert mean.asnumpy().tolist() == pytest.approx([0.05, -0.05])  # not updated
    scale = (gamma.asnumpy() / np.sqrt(var.asnumpy() + 1e-3)).reshape(1, 2, 1)
    np.testing.assert_allclose(x.grad.asnumpy(), np.broadcast_to(scale, (2, 2, 2)), rtol=1e-5)
    with mx.autograd.record():
        y = mx.nd.BatchNorm(x, gamma, beta, mean, var, fix_gamma=False)
    y.backward()  # training: batch statistics, and the moving ones take a step
    assert mean.asnumpy()[0] != pytest.approx(0.05)


def test_a_function_object_is_called_once():
    class Twice(mx.autograd.Function):
        def forward(self, x):
            return x * 2

        def backward(self, dy):
            return dy * 2

    f = Twice()
    f(mx.nd.ones(2))
    with pytest.raises(AssertionError, match=r"called once .* Twice\(\)\(x\)"):
        f(mx.nd.ones(2))
