"""What MXNet's own tutorials do beside symbols, in the project's own snippets: a custom
operator checked imperatively under autograd (the custom-operator tutorial), autograd with
Python control flow and head gradients (the autograd crash course), CSV files, a DataIter
subclass and record files (the data tutorial). The tutorials themselves are run by
tests/tutorial_cells.py from a git copy of apache/mxnet; the last test does so when one is
there."""

import os

import numpy as np
import pytest

import minisym as mx


class _Softplus(mx.operator.CustomOp):
    """log(1 + e^x), computed in NumPy as a tutorial's operator would be."""

    def forward(self, is_train, req, in_data, out_data, aux):
        x = in_data[0].asnumpy()
        self.assign(out_data[0], req[0], mx.nd.array(np.log1p(np.exp(x))))

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        x = in_data[0].asnumpy()
        self.assign(in_grad[0], req[0], out_grad[0] * mx.nd.array(1 / (1 + np.exp(-x))))


@mx.operator.register("tutorials_softplus")
class _SoftplusProp(mx.operator.CustomOpProp):
    def __init__(self):
        super().__init__(True)

    def infer_shape(self, in_shapes):
        return (in_shapes[0],), (in_shapes[0],), ()

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return _Softplus()


class _Scale(mx.operator.CustomOp):
    """weight * data + offset: an operator with a learnable input and a keyword argument."""

    def __init__(self, offset):
        self.offset = offset

    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[1] * in_data[0] + self.offset)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], out_grad[0] * in_data[1])
        self.assign(in_grad[1], req[1], (out_grad[0] * in_data[0]).sum(axis=0))


@mx.operator.register("tutorials_scale")
class _ScaleProp(mx.operator.CustomOpProp):
    def __init__(self, offset):
        super().__init__(True)
        self.offset = float(offset)  # keyword arguments arrive as strings

    def list_arguments(self):
        return ["data", "weight"]

    def infer_shape(self, in_shapes):
        return (in_shapes[0], (in_shapes[0][1],)), (in_shapes[0],), ()

    def create_operator(self, ctx, in_shapes, in_dtypes):
        return _Scale(self.offset)


def test_a_custom_operator_is_checked_imperatively_under_autograd():
    x = mx.nd.array([-2.0, 0.0, 3.0])
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Custom(x, op_type="tutorials_softplus")
    y.backward()
    np.testing.assert_allclose(y.asnumpy(), np.log1p(np.exp(x.asnumpy())), rtol=1e-6)
    np.testing.assert_allclose(x.grad.asnumpy(), 1 / (1 + np.exp(-x.asnumpy())), rtol=1e-6)


def test_a_parametrized_custom_operator_gets_gradients_for_data_and_weight():
    x = mx.nd.array([[1.0, 2.0], [3.0, 4.0]])
    w = mx.nd.array([0.5, -1.0])
    x.attach_grad()
    w.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Custom(x, w, offset=0.25, op_type="tutorials_scale")
        loss = (y * y).sum()
    loss.backward()
    out = x.asnumpy() * w.asnumpy() + 0.25
    np.testing.assert_allclose(y.asnumpy(), out)
    np.testing.assert_allclose(x.grad.asnumpy(), 2 * out * w.asnumpy())
    np.testing.assert_allclose(w.grad.asnumpy(), (2 * out * x.asnumpy()).sum(axis=0))


def test_autograd_follows_python_control_flow_and_takes_a_head_gradient():
    from minisym import autograd, nd

    def grow(a):  # doubles until the norm passes 100, then picks by the sign of the sum
        b = a * 2
        while b.norm().asscalar() < 100:
            b = b * 2
        return b[0] if b.sum().asscalar() >= 0 else b[1]

    a = nd.array([0.3, -0.1])
    a.attach_grad()
    with autograd.record():
        c = grow(a)
    c.backward(nd.array([10.0]))
    factor = c.asscalar() / a[0].asscalar()
    np.testing.assert_allclose(a.grad.asnumpy(), [10 * factor, 0.0], rtol=1e-6)


def test_a_csv_file_saved_with_numpy_comes_back_in_batches(tmp_path):
    data = np.random.RandomState(0).rand(10, 3)
    path = str(tmp_path / "data.csv")
    np.savetxt(path, data, delimiter=",")  # 18 significant digits, as the tutorial saves
    it = mx.io.CSVIter(data_csv=path, data_shape=(3,), batch_size=4)
    batches = [b.data[0].asnumpy() for b in it]
    assert [b.shape for b in batches] == [(4, 3)] * 3
    np.testing.assert_allclose(np.concatenate(batches)[:10], data.astype(np.float32), rtol=1e-6)


class _Counting(mx.io.DataIter):
    """A DataIter written by hand: batches from a function, with provide_data / _label."""

    def __init__(self, batches, batch_size=5):
        super().__init__(batch_size)
        self.batches, self.done, self.served = batches, 0, 0
        self.provide_data = [("data", (batch_size, 4))]
        self.provide_label = [("softmax_label", (batch_size,))]

    def reset(self):
        self.done = 0

    def next(self):
        if self.done == self.batches:
            raise StopIteration
        self.done += 1
        self.served += 1
        rng = np.random.RandomState(self.done)
        x = rng.rand(self.batch_size, 4)
        return mx.io.DataBatch([mx.nd.array(x)], [mx.nd.array(x[:, 0] > 0.5)])


def test_module_fit_takes_a_data_iter_written_by_hand():
    net = mx.sym.SoftmaxOutput(
        mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=2), name="softmax"
    )
    mod = mx.mod.Module(net)
    it = _Counting(batches=4)
    mod.fit(it, num_epoch=2, optimizer_params={"learning_rate": 0.1}, progress_bar="off")
    assert it.served == 2 * 4
    assert mod.score(it, "acc")[0][0] == "accuracy" and it.served == 3 * 4


def test_records_are_written_read_by_key_and_packed_with_labels(tmp_path):
    rec, idx = str(tmp_path / "tmp.rec"), str(tmp_path / "tmp.idx")
    w = mx.recordio.MXIndexedRecordIO(idx, rec, "w")
    for i in range(4):
        w.write_idx(
            i, mx.recordio.pack(mx.recordio.IRHeader(0, [i, 2 * i], i, 0), b"record_%d" % i)
        )
    w.close()
    r = mx.recordio.MXIndexedRecordIO(idx, rec, "r")
    header, payload = mx.recordio.unpack(r.read_idx(2))
    assert (header.flag, header.label.tolist(), payload) == (2, [2.0, 4.0], b"record_2")
    sequential = mx.recordio.MXRecordIO(rec, "r")
    assert [mx.recordio.unpack(sequential.read())[1] for _ in range(4)] == [
        b"record_0",
        b"record_1",
        b"record_2",
        b"record_3",
    ]
    assert sequential.read() is None


_GIT_DIR = os.environ.get("MXNET_REPO", "")


@pytest.fixture
def registry_kept():
    """The tutorials register custom operators of their own ('softmax' among them): put the
    registry back as it was, so no other test meets their classes."""
    saved = dict(mx.operator._PROPS)
    yield
    mx.operator._PROPS.clear()
    mx.operator._PROPS.update(saved)


@pytest.mark.skipif(
    not os.path.isdir(_GIT_DIR),
    reason="no git copy of apache/mxnet (set MXNET_REPO) to read MXNet's tutorials from",
)
def test_mxnets_custom_operator_and_autograd_tutorials_run_as_typed(registry_kept):
    import tutorial_cells

    custom = tutorial_cells.run_tutorial(
        tutorial_cells.markdown(
            _GIT_DIR, "1.9.1", "docs/python_docs/python/tutorials/extend/customop.md"
        ),
        "customop",
    )
    failed = {first: why for _, status, first, why in custom if status == "FAIL"}
    assert all("gluon" in why or "DenseBlock" in why for why in failed.values()), failed
    assert sum(status == "ok" for _, status, _, _ in custom) >= 7
    autograd = tutorial_cells.run_tutorial(
        tutorial_cells.markdown(
            _GIT_DIR,
            "1.9.1",
            "docs/python_docs/python/tutorials/getting-started/crash-course/3-autograd.md",
        ),
        "ag",
    )
    assert [status for _, status, _, _ in autograd] == ["ok"] * len(autograd)
