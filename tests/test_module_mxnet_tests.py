"""What MXNet 1.9.1's own Module tests check (tests/python/unittest/test_module.py and
test_operator.py::test_custom_op_exc), and fit's log lines replacing the progress line when
logging shows INFO records."""

import io
import logging
import re

import numpy as np
import pytest

import minisym as mx
from minisym.module import progress
from minisym.module.executor_group import DataParallelExecutorGroup


def ctx_group_sym():
    with mx.AttrScope(ctx_group="dev1"):
        a = mx.sym.Variable("a")
        a = a * 2
    with mx.AttrScope(ctx_group="dev2"):
        b = mx.sym.Variable("b")
        c = a + b
    return c


def bound_ctx_group(ctxs, group2ctxs):
    shape = (2, 5)
    mod = mx.mod.Module(
        ctx_group_sym(),
        context=ctxs,
        data_names=["a", "b"],
        label_names=None,
        group2ctxs=group2ctxs,
    )
    mod.bind(data_shapes=[["a", shape], ["b", shape]], inputs_need_grad=True)
    mod.init_params()
    mod.forward(mx.io.DataBatch(data=[mx.nd.ones(shape), mx.nd.ones(shape)]), is_train=True)
    mod.backward([mx.nd.ones(shape)])
    return mod


# --- 1. the executor group and the kvstore --------------------------------------------------
def fc_bn_module(context):
    data = mx.sym.Variable("data")
    net = mx.sym.BatchNorm(mx.sym.FullyConnected(data, num_hidden=3, name="fc"), name="bn")
    mod = mx.mod.Module(
        mx.sym.SoftmaxOutput(net, name="softmax"), context=context, fixed_param_names=["bn_beta"]
    )
    mod.bind(data_shapes=[("data", (4, 5))], label_shapes=[("softmax_label", (4,))])
    mod.init_params()
    return mod


def test_the_group_is_a_data_parallel_executor_group_with_mxnets_attributes():
    mod = fc_bn_module(mx.cpu())
    group = mod._exec_group
    assert isinstance(group, DataParallelExecutorGroup)
    assert group.param_names == ["fc_weight", "fc_bias", "bn_gamma", "bn_beta"]
    assert group.aux_names == ["bn_moving_mean", "bn_moving_var"]
    assert group.grad_req["bn_beta"] == "null" and group.grad_req["fc_weight"] == "write"
    assert group.data_names == ["data"] and group.label_names == ["softmax_label"]
    assert [s.stop for s in group.slices] == [4] and group.workload == [1]
    assert group.grad_arrays[3] == [None]  # a fixed parameter has no gradient
    assert [a.shape for a in group.param_arrays[0]] == [(3, 5)]
    assert sorted(group.shared_data_arrays[0]) == ["data", "softmax_label"]
    assert group.input_grad_arrays is None and group.state_arrays == []


def test_one_context_has_no_kvstore_and_the_module_updates():
    mod = fc_bn_module(mx.cpu())
    assert mod._kvstore is None and mod._update_on_kvstore is None
    mod.init_optimizer()
    assert mod._kvstore is None and mod._update_on_kvstore is False
    assert mod._optimizer.idx2name == dict(enumerate(mod._exec_group.param_names))
    assert mod._updater is not None


def test_two_contexts_have_a_local_kvstore_that_updates_by_name():
    mod = fc_bn_module([mx.cpu(0), mx.cpu(1)])
    mod.init_optimizer(optimizer_params={"learning_rate": 0.1, "momentum": 0.9})
    assert mod._kvstore.type == "local" and mod._update_on_kvstore is True
    assert mod._updater is None
    mod.forward_backward(mx.io.DataBatch([mx.nd.ones((4, 5))], [mx.nd.array([0, 1, 2, 0])]))
    mod.update()
    assert sorted(mod._kvstore._updater.states) == ["bn_gamma", "fc_bias", "fc_weight"]


def test_two_contexts_without_a_kvstore_step_each_context_on_its_own_gradient():
    mod = fc_bn_module([mx.cpu(0), mx.cpu(1)])
    mod.init_optimizer(kvstore=None, optimizer_params={"learning_rate": 0.1})
    assert mod._kvstore is None and mod._update_on_kvstore is False
    assert sorted(mod._optimizer.idx2name) == list(range(8))
    data = mx.nd.array(np.arange(20, dtype=np.float32).reshape(4, 5) / 20)
    mod.forward_backward(mx.io.DataBatch([data], [mx.nd.array([0, 1, 2, 0])]))
    mod.update()
    first, second = (e.arg_dict["fc_weight"].asnumpy() for e in mod._exec_group.execs)
    assert not np.allclose(first, second)  # no summed gradient: the contexts drift apart


# --- 2. ctx_group placement ----------------------------------------------------------------
def test_arrays_report_their_groups_context():
    mod = bound_ctx_group([mx.cpu(0)], {"dev1": mx.cpu(1), "dev2": mx.cpu(2)})
    executor = mod._exec_group.execs[0]
    assert executor.arg_dict["a"].context == mx.cpu(1)
    assert executor.grad_dict["b"].context == mx.cpu(2)
    assert executor.outputs[0].context == mx.cpu(2)  # a + b is made in dev2
    assert [g.context for g in mod.get_input_grads()] == [mx.cpu(1), mx.cpu(2)]


@pytest.mark.parametrize(
    "group2ctxs",
    [
        [{"dev1": mx.cpu(2), "dev2": mx.cpu(3)}, {"dev1": mx.cpu(4), "dev2": mx.cpu(5)}],
        {"dev1": mx.cpu(2), "dev2": [mx.cpu(3)]},
        {"dev1": [mx.cpu(2), mx.cpu(2)], "dev2": [mx.cpu(3), mx.cpu(3)]},
    ],
)
def test_two_contexts_with_groups_give_the_values_of_no_groups(group2ctxs):
    grouped = bound_ctx_group([mx.cpu(0), mx.cpu(1)], group2ctxs)
    plain = bound_ctx_group([mx.cpu(0), mx.cpu(1)], None)
    for got, want in zip(grouped.get_input_grads(), plain.get_input_grads()):
        assert np.array_equal(got.asnumpy(), want.asnumpy())
    assert grouped.get_input_grads()[0].context == mx.cpu(2)


def test_a_group_missing_from_the_map_fails_at_bind_and_names_it():
    with pytest.raises(RuntimeError, match="The device assignment not found for group dev2"):
        bound_ctx_group([mx.cpu(0)], {"dev1": mx.cpu(1)})


# --- 3. fit reads one batch at a time -------------------------------------------------------
def test_reference_single_batch_during_fit():
    """MXNet's test: a bare BaseModule, its steps replaced, reads each batch while current."""
    state = {"current": None, "reads": []}

    class MockBatch:
        def __init__(self, i):
            self.i = i

        @property
        def label(self):
            state["reads"].append(self.i == state["current"])

    class MockTrainData:
        provide_data = provide_label = None

        def __init__(self, batches):
            self._i, self._batches = 0, batches

        def reset(self):
            pass

        def __iter__(self):
            self._i = 0
            return self

        def __next__(self):
            if self._i == self._batches:
                raise StopIteration
            state["current"], self._i = self._i, self._i + 1
            return MockBatch(state["current"])

    mod = mx.mod.BaseModule()
    for name in (
        "bind",
        "init_params",
        "init_optimizer",
        "forward",
        "backward",
        "update",
        "update_metric",
    ):
        setattr(mod, name, lambda *args, **kwargs: None)
    mod.get_params = lambda: (None, None)
    mod.fit(MockTrainData(batches=2), num_epoch=1)
    assert state["reads"] == [True, True]


def test_a_batch_end_callback_sees_its_batch_and_the_next_one():
    x = np.arange(24, dtype=np.float32).reshape(6, 4) / 24
    train = mx.io.NDArrayIter(x, np.zeros(6, np.float32), batch_size=2)
    net = mx.sym.SoftmaxOutput(
        mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=2, name="fc"), name="softmax"
    )
    mod = mx.mod.Module(net)
    seen = []

    def callback(param):
        local = param.locals
        seen.append(
            (
                local["data_batch"].data[0].asnumpy()[0, 0],
                local["next_data_batch"].data[0].asnumpy()[0, 0],
                mod.get_outputs()[0].shape,
            )
        )

    mod.fit(train, num_epoch=1, batch_end_callback=callback, progress_bar=False)
    assert seen == [
        (x[0, 0], x[2, 0], (2, 2)),
        (x[2, 0], x[4, 0], (2, 2)),
        (x[4, 0], x[4, 0], (2, 2)),
    ]  # after the last, next is the last


# --- 4. an exception inside a custom operator -----------------------------------------------
class _Dot(mx.operator.CustomOp):
    def __init__(self, fail):
        super().__init__()
        self.fail = fail

    def forward(self, is_train, req, in_data, out_data, aux):
        self.fail(in_data, out_data)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        pass


def _register_dot(name, fail):
    @mx.operator.register(name)
    class DotProp(mx.operator.CustomOpProp):
        def list_arguments(self):
            return ["a", "b"]

        def list_outputs(self):
            return ["output"]

        def infer_shape(self, in_shape):
            return in_shape, [(in_shape[0][0], in_shape[1][1])]

        def create_operator(self, ctx, shapes, dtypes):
            return _Dot(fail)


def _assert_false(in_data, out_data):
    raise AssertionError("forward went wrong")


def _dot(in_data, out_data):
    out_data[0][:] = mx.nd.dot(in_data[0], in_data[1])


_register_dot("tmm_dot1", _assert_false)
_register_dot("tmm_dot2", _dot)


def test_custom_op_exc_is_an_mxnet_error_that_is_also_the_original():
    with pytest.raises(mx.base.MXNetError) as info:
        mx.nd.Custom(mx.nd.zeros((4, 1)), mx.nd.zeros((1, 4)), op_type="tmm_dot1").wait_to_read()
    assert isinstance(info.value, AssertionError)
    assert type(info.value).__name__ == "AssertionError"  # shown as the learner's own
    assert str(info.value) == "forward went wrong"
    assert isinstance(info.value.__context__, AssertionError)  # the learner's own
    assert info.traceback[-1].name == "_assert_false"  # the traceback ends at its line
    notes = "\n".join(info.value.__notes__)
    assert "_Dot.forward" in notes and "op_type='tmm_dot1'" in notes
    with pytest.raises(mx.base.MXNetError):  # an engine error inside: as it was
        mx.nd.Custom(mx.nd.zeros((4, 2)), mx.nd.zeros((1, 4)), op_type="tmm_dot2").wait_to_read()
    assert mx.nd.Custom(
        mx.nd.ones((2, 1)), mx.nd.ones((1, 2)), op_type="tmm_dot2"
    ).asnumpy().tolist() == [[1, 1], [1, 1]]


# --- 5. logging at INFO: MXNet's lines instead of the progress line --------------------------
@pytest.fixture
def root_logging():
    """The root logger without handlers, restored after the test."""
    root = logging.getLogger()
    saved = (root.level, list(root.handlers))
    for handler in saved[1]:
        root.removeHandler(handler)
    yield root
    for handler in list(root.handlers):
        root.removeHandler(handler)
    for handler in saved[1]:
        root.addHandler(handler)
    root.setLevel(saved[0])


def small_fit(capsys, **kwargs):
    x = np.random.default_rng(0).random((8, 4), dtype=np.float32)
    train = mx.io.NDArrayIter(x, (x[:, 0] > 0.5).astype(np.float32), batch_size=4)
    net = mx.sym.SoftmaxOutput(
        mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=2, name="fc"), name="softmax"
    )
    mx.mod.Module(net).fit(train, eval_data=train, num_epoch=2, **kwargs)
    return capsys.readouterr().err


LOG = re.compile(
    r"INFO:root:Epoch\[\d\] (Train-accuracy=\d\.\d{6}|Time cost=\d+\.\d{3}"
    r"|Validation-accuracy=\d\.\d{6})"
)


def without_handlers(root):
    """Take pytest's capture handlers off the root too (added around each test call)."""
    for handler in list(root.handlers):
        root.removeHandler(handler)


def stderr_handler(root):
    """basicConfig's handler, on what sys.stderr is now (capsys' stream)."""
    handler = logging.StreamHandler(progress.sys.stderr)
    handler.setFormatter(logging.Formatter(logging.BASIC_FORMAT))
    root.addHandler(handler)


@pytest.mark.parametrize("turn_on", ["basic_config", "set_level"])
def test_info_logging_prints_mxnets_lines_instead_of_the_bar(capsys, root_logging, turn_on):
    without_handlers(root_logging)  # set_level: logging.info adds basicConfig's handler
    if turn_on == "basic_config":
        stderr_handler(root_logging)
    root_logging.setLevel(logging.INFO)
    lines = small_fit(capsys).splitlines()
    assert len(lines) == 6 and all(LOG.fullmatch(line) for line in lines), lines
    assert [line.split("] ")[1].split("=")[0] for line in lines[:3]] == [
        "Train-accuracy",
        "Time cost",
        "Validation-accuracy",
    ]


def test_without_info_logging_the_bar_is_drawn_and_nothing_logged(capsys, root_logging):
    root_logging.setLevel(logging.WARNING)
    err = small_fit(capsys)
    assert "Epoch[0] [####################] batch 2/2" in err and "INFO" not in err


def test_an_explicit_progress_bar_is_drawn_with_the_log_lines(capsys, root_logging):
    without_handlers(root_logging)
    stderr_handler(root_logging)
    root_logging.setLevel(logging.INFO)
    err = small_fit(capsys, progress_bar="stable")
    assert "batch 2/2" in err and "INFO:root:Epoch[1] Time cost=" in err


@pytest.mark.parametrize(
    "level, handler_level, shown",
    [
        (logging.INFO, logging.NOTSET, True),
        (logging.INFO, logging.WARNING, False),
        (logging.WARNING, logging.NOTSET, False),
        (logging.DEBUG, logging.INFO, True),
    ],
)
def test_logs_info_follows_the_logger_and_its_handlers(level, handler_level, shown):
    logger = logging.Logger("tmm_logs_info", level)  # no parent: only its own handler
    handler = logging.StreamHandler(io.StringIO())
    handler.setLevel(handler_level)
    logger.addHandler(handler)
    assert progress.logs_info(logger) is shown
