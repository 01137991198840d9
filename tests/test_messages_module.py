"""What Module, checkpoints and fit's progress bar say when something is off, and that doing what
they say works: label_names naming an input the symbol lacks, an epoch that was never saved, and
the bar (batch k/N, loss, metric) with log lines that stay whole and a stable form for notebooks."""

import io
import logging
import os
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest

import minisym as mx
from minisym.module import progress

LABELS = np.array([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2], np.float32)


def mlp():
    x = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=3, name="fc1")
    return mx.sym.SoftmaxOutput(x, name="softmax")


def train_iter(batch_size=4, **kwargs):
    data = np.random.default_rng(0).standard_normal((12, 5)).astype(np.float32)
    data[np.arange(12), LABELS.astype(int)] += 3.0  # separable: training visibly works
    return mx.io.NDArrayIter(data, LABELS, batch_size=batch_size, **kwargs)


def start_params():
    rng = np.random.default_rng(1)
    return {
        "fc1_weight": mx.nd.array(rng.standard_normal((3, 5)) * 0.1),
        "fc1_bias": mx.nd.zeros((3,)),
    }


def fit(mod, train=None, **kwargs):
    kwargs.setdefault("progress_bar", False)
    kwargs.setdefault("optimizer_params", (("learning_rate", 0.5),))
    mod.fit(
        train or train_iter(),
        num_epoch=kwargs.pop("num_epoch", 3),
        arg_params=kwargs.pop("arg_params", start_params()),
        **kwargs,
    )
    return mod


def accuracy(mod):
    return dict(mod.score(train_iter(), "acc"))["accuracy"]


# --- label_names -------------------------------------------------------------------------------
def test_a_label_name_the_symbol_lacks_warns_at_creation_and_at_bind_on_the_learners_line():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mod = mx.mod.Module(mlp(), label_names=["label"])
        mod.bind(data_shapes=[("data", (4, 5))], label_shapes=[("softmax_label", (4,))])
    assert [str(w.message) for w in caught] == [
        "\033[91mYou created Module with Module(..., label_names=['label']) but input with name "
        "'label' is not found in symbol.list_arguments(). Did you mean one of:\n\tdata\n\t"
        "softmax_label\033[0m",
        "Data provided by label_shapes don't match names specified by label_names "
        "([DataDesc[softmax_label,(4,),<class 'numpy.float32'>,NCHW]] vs. ['label'])",
    ]
    assert {w.filename for w in caught} == {__file__}


def test_fit_with_the_wrong_label_name_says_which_label_name_was_meant():
    with (
        pytest.warns(UserWarning, match="label_names") as record,
        pytest.raises(ValueError) as info,
    ):
        fit(mx.mod.Module(mlp(), label_names=["label"]), arg_params=None)
    assert len(record) == 2 and {w.filename for w in record} == {__file__}
    text = str(info.value)
    assert text.startswith(
        "Module.init_params: the symbol's argument 'softmax_label' is in "
        "neither data_names=['data'] nor label_names=['label'], so Module "
        "took it for a parameter to learn"
    )
    assert "Uniform fills only names ending in weight, bias, gamma, beta, min or max" in text
    assert "It is probably a label input: did you mean label_names=['softmax_label']?" in text
    assert (
        "label_names=['label'] names 'label', which the symbol does not have (its inputs: "
        "data, softmax_label)" in text
    )
    assert "mx.mod.Module(symbol, data_names=['data'], label_names=['softmax_label'])" in text
    assert info.value.__suppress_context__  # one traceback, not the initializer's as well


def test_following_the_advice_trains_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mod = fit(mx.mod.Module(mlp(), label_names=["softmax_label"]))
    assert accuracy(mod) == 1.0


@pytest.mark.parametrize(
    "call, kind, reason",
    [
        (lambda m: m.init_params(), ValueError, "Uniform fills only names ending in weight"),
        (
            lambda m: m.init_params(mx.init.Xavier()),
            ValueError,
            "Xavier fills only names ending in",
        ),
        (
            lambda m: m.init_params(mx.init.Mixed(["fc.*"], [mx.init.Uniform()])),
            ValueError,
            "no pattern of the Mixed initializer matches it",
        ),
        (
            lambda m: m.init_params(arg_params=start_params()),
            RuntimeError,
            "the arg_params given have no value for it (and allow_missing=False)",
        ),
        (
            lambda m: m.set_params(start_params(), {}),
            RuntimeError,
            "the arg_params given have no value for it",
        ),
        (
            lambda m: m.init_params(arg_params=start_params(), allow_missing=True),
            ValueError,
            "Uniform fills only names ending in weight",
        ),
    ],
    ids=["uniform", "xavier", "mixed", "arg_params", "set_params", "allow_missing"],
)
def test_label_names_none_names_the_label_whatever_initializes(call, kind, reason):
    mod = mx.mod.Module(mlp(), label_names=None)
    mod.bind(data_shapes=[("data", (4, 5))])
    with pytest.raises(kind) as info:
        call(mod)
    assert type(info.value) is kind  # as MXNet shows it, not a subclass
    text = str(info.value)
    assert "'softmax_label' is in neither data_names=['data'] nor label_names=[]" in text
    assert reason in text and "did you mean label_names=['softmax_label']?" in text
    assert "which the symbol does not have" not in text  # no label name was wrong


def test_a_second_data_input_left_out_of_data_names_is_named():
    net = mx.sym.FullyConnected(
        mx.sym.Variable("data") * mx.sym.Variable("mask"), num_hidden=3, name="fc1"
    )
    net = mx.sym.SoftmaxOutput(net, name="softmax")
    mod = mx.mod.Module(net)
    mod.bind(data_shapes=[("data", (4, 5))], label_shapes=[("softmax_label", (4,))])
    with pytest.raises(
        ValueError,
        match=re.escape(
            "'mask' is in neither data_names=['data'] nor label_names=['softmax_label']"
        ),
    ) as info:
        mod.init_params()
    assert "It is probably a data input: did you mean data_names=['data', 'mask']?" in str(
        info.value
    )
    fixed = mx.mod.Module(net, data_names=["data", "mask"])
    fixed.bind(
        data_shapes=[("data", (4, 5)), ("mask", (4, 5))], label_shapes=[("softmax_label", (4,))]
    )
    fixed.init_params()
    fixed.forward(mx.io.DataBatch([mx.nd.ones((4, 5)), mx.nd.ones((4, 5))], [mx.nd.zeros(4)]))
    assert fixed.get_outputs()[0].shape == (4, 3)


def test_a_missing_parameter_keeps_mxnets_words_and_says_what_to_pass():
    mod = mx.mod.Module(mlp())
    mod.bind(data_shapes=[("data", (4, 5))], label_shapes=[("softmax_label", (4,))])
    with pytest.raises(RuntimeError) as info:
        mod.init_params(arg_params={"fc1_weight": start_params()["fc1_weight"]})
    assert str(info.value) == (
        "fc1_bias is not presented: the arg_params given have no value "
        "for it (and allow_missing=False); give it, or pass "
        "allow_missing=True to let the initializer fill it"
    )
    mod.init_params(arg_params={"fc1_weight": start_params()["fc1_weight"]}, allow_missing=True)
    assert mod.params_initialized


def test_a_parameter_no_mixed_pattern_covers_keeps_mxnets_message():
    mod = mx.mod.Module(mlp())
    mod.bind(data_shapes=[("data", (4, 5))], label_shapes=[("softmax_label", (4,))])
    with pytest.raises(ValueError, match="^Parameter name fc1_bias did not match any pattern"):
        mod.init_params(mx.init.Mixed(["fc1_w.*"], [mx.init.Uniform()]))


def test_an_unknown_parameter_pattern_outside_module_keeps_mxnets_message():
    with pytest.raises(mx.init.NoPatternError, match="Unknown initialization pattern for q"):
        mx.init.Uniform()(mx.init.InitDesc("q"), mx.nd.zeros((2,)))
    assert issubclass(mx.init.NoPatternError, ValueError)


def test_a_label_shape_naming_no_argument_is_a_key_error_with_the_fix():
    with pytest.warns(UserWarning, match="'label' is not found"):
        mod = mx.mod.Module(mlp(), label_names=["label"])
    with pytest.raises(KeyError) as info:
        mod.bind(data_shapes=[("data", (4, 5))], label_shapes=[("label", (4,))])
    text = info.value.args[0]
    assert text.startswith(
        "Module.bind: label_shapes gives 'label', which is not an argument "
        "of the symbol (its inputs: data, softmax_label)."
    )
    assert "label_shapes=[('softmax_label', (4,))] with label_names=['softmax_label']" in text
    fixed = mx.mod.Module(mlp(), label_names=["softmax_label"])
    fixed.bind(data_shapes=[("data", (4, 5))], label_shapes=[("softmax_label", (4,))])
    assert fixed.binded


def test_a_net_without_a_label_keeps_working_under_the_default_label_names():
    net = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=3, name="fc1")
    with pytest.warns(UserWarning) as record:
        mod = mx.mod.Module(net)
        mod.bind(data_shapes=[("data", (4, 5))])
    assert [str(w.message) for w in record] == [
        "\033[91mYou created Module with Module(..., label_names=['softmax_label']) but input "
        "with name 'softmax_label' is not found in symbol.list_arguments(). Did you mean one "
        "of:\n\tdata\033[0m",
        "Data provided by label_shapes don't match names specified by label_names ([] vs. "
        "['softmax_label'])",
    ]
    mod.init_params()
    mod.forward(mx.io.DataBatch([mx.nd.ones((4, 5))]), is_train=False)
    assert mod.get_outputs()[0].shape == (4, 3)


# --- checkpoints -------------------------------------------------------------------------------
@pytest.fixture
def saved(tmp_path):
    """Prefix of a run checkpointed after each of 3 epochs, and one every 2nd of 5 epochs."""
    every, second = str(tmp_path / "every"), str(tmp_path / "second")
    fit(mx.mod.Module(mlp()), epoch_end_callback=mx.callback.do_checkpoint(every))
    fit(
        mx.mod.Module(mlp()),
        num_epoch=5,
        epoch_end_callback=mx.callback.do_checkpoint(second, period=2),
    )
    assert sorted(os.listdir(tmp_path)) == [
        "every-0001.params",
        "every-0002.params",
        "every-0003.params",
        "every-symbol.json",
        "second-0002.params",
        "second-0004.params",
        "second-symbol.json",
    ]
    return every, second


def test_an_epoch_never_saved_lists_the_saved_ones_and_how_they_are_numbered(saved):
    every, _ = saved
    with pytest.raises(mx.base.MXNetError) as info:
        mx.model.load_checkpoint(every, 0)
    text = str(info.value)
    assert text.startswith(
        f"load_checkpoint({every!r}, 0): there is no checkpoint for epoch 0 "
        f"(no file every-0000.params in {os.path.dirname(every)})."
    )
    assert "The checkpoints saved under this prefix are for epochs 1, 2, 3." in text
    assert (
        "mx.callback.do_checkpoint(prefix) saves after every epoch, numbered by the epochs "
        "done: Epoch[0] of the training log is saved as epoch 1 (every-0001.params)"
    ) in text
    assert "with period=p only every p-th (p, 2p, ...)" in text
    assert f"e.g. load_checkpoint({every!r}, 3) for the last one." in text
    assert isinstance(info.value, ValueError)
    symbol, args, _ = mx.model.load_checkpoint(every, 3)  # the advice
    assert symbol.list_arguments() == mlp().list_arguments() and sorted(args) == [
        "fc1_bias",
        "fc1_weight",
    ]


def test_with_a_period_the_saved_epochs_are_the_multiples(saved):
    _, second = saved
    with pytest.raises(mx.base.MXNetError, match="for epochs 2, 4. ") as info:
        mx.mod.Module.load(second, 3)
    assert str(info.value).startswith(f"Module.load({second!r}, 3): there is no checkpoint")
    assert f"e.g. Module.load({second!r}, 4) for the last one." in str(info.value)
    mod = mx.mod.Module.load(second, 4)
    mod.bind(
        data_shapes=[("data", (12, 5))], label_shapes=[("softmax_label", (12,))], for_training=False
    )
    assert accuracy(mod) == 1.0


def test_load_params_says_the_same(saved):
    every, _ = saved
    with pytest.raises(mx.base.MXNetError, match=r"^load_params\(.*epochs 1, 2, 3\."):
        mx.model.load_params(every, 9)


def test_a_mistyped_prefix_lists_the_prefixes_that_exist(saved, tmp_path):
    with pytest.raises(mx.base.MXNetError) as info:
        mx.model.load_checkpoint(str(tmp_path / "evry"), 1)
    assert (
        f"No checkpoint was saved under the prefix {str(tmp_path / 'evry')!r}; {tmp_path} "
        "has checkpoints under: 'every' (epochs 1, 2, 3); 'second' (epochs 2, 4)."
    ) in str(info.value)
    with pytest.raises(mx.base.MXNetError, match="The folder .*nowhere does not exist"):
        mx.model.load_checkpoint(str(tmp_path / "nowhere" / "every"), 1)


def test_an_empty_folder_says_what_writes_checkpoints(tmp_path):
    with pytest.raises(
        mx.base.MXNetError,
        match="nor any other in .*: save_checkpoint, Module.save_checkpoint and do_checkpoint",
    ):
        mx.model.load_checkpoint(str(tmp_path / "run"), 1)


def test_a_missing_symbol_file_points_at_load_params(saved):
    every, _ = saved
    os.remove(every + "-symbol.json")
    for call, name in (
        (mx.model.load_checkpoint, "load_checkpoint"),
        (mx.mod.Module.load, "Module.load"),
    ):
        with pytest.raises(mx.base.MXNetError) as info:
            call(every, 2)
        assert str(info.value).startswith(
            f"{name}({every!r}, 2): there is no "
            f"{every}-symbol.json (the network) next to "
            "every-0002.params."
        )
        assert f"use mx.model.load_params({every!r}, 2) and build the symbol in code" in str(
            info.value
        )
    args, _ = mx.model.load_params(every, 2)  # the advice
    mod = mx.mod.Module(mlp())
    mod.bind(data_shapes=[("data", (12, 5))], label_shapes=[("softmax_label", (12,))])
    mod.set_params(args, {})
    assert accuracy(mod) == 1.0


def test_a_long_list_of_epochs_is_shortened(tmp_path):
    prefix = str(tmp_path / "long")
    for epoch in range(1, 13):
        mx.model.save_checkpoint(prefix, epoch, mlp(), start_params(), {})
    with pytest.raises(
        mx.base.MXNetError,
        match=r"epochs 1, 2, 3, \.\.\., 10, 11, 12 "
        r"\(12 in all\)\.",
    ):
        mx.model.load_checkpoint(prefix, 13)
    assert mx.model.saved_epochs(prefix) == list(range(1, 13))


# --- fit's progress bar ------------------------------------------------------------------------
def screen(text):
    """The lines a terminal shows for ``text``: ``\\r`` returns to the start and overwrites."""
    lines, line, col = [], [], 0
    for char in text:
        if char == "\n":
            lines.append("".join(line).rstrip())
            line, col = [], 0
        elif char == "\r":
            col = 0
        else:
            line[col : col + 1] = [char]
            col += 1
    return lines + (["".join(line).rstrip()] if line else [])


class StderrHandler(logging.StreamHandler):
    """Prints to whatever sys.stderr is when a record comes (capsys swaps it per test phase)."""

    stream = property(lambda self: sys.stderr, lambda self, value: None)


@pytest.fixture
def console_log():
    """The root logger at INFO, printing to (the captured) sys.stderr, as basicConfig does."""
    handler = StderrHandler()
    handler.setFormatter(logging.Formatter(logging.BASIC_FORMAT))
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    yield
    root.removeHandler(handler)
    root.setLevel(old_level)


BAR = r"Epoch\[\d\] \[[#-]{20}\] batch \d+/3  loss=\d\.\d{4}  accuracy=\d\.\d{4}"
LOG = (
    r"INFO:root:(Epoch\[\d\] Train-accuracy=[\d.]+|Epoch\[\d\] Time cost=[\d.]+"
    r"|Iter\[\d\] Batch\[\d\] Train-accuracy=[\d.]+"
    r"|Epoch\[\d\] Batch \[\d-\d\]\tSpeed: [\d.]+ samples/sec\taccuracy=[\d.]+)"
)


def test_the_bar_shows_batches_loss_and_metric_and_log_lines_stay_whole(capsys, console_log):
    fit(
        mx.mod.Module(mlp()),
        num_epoch=2,
        progress_bar="stable",
        batch_end_callback=[
            mx.callback.log_train_metric(2),
            mx.callback.Speedometer(4, frequent=2),
        ],
    )
    err = capsys.readouterr().err
    lines = screen(err)
    assert all(re.fullmatch(BAR, line) or re.fullmatch(LOG, line) for line in lines), lines
    bars = [line for line in lines if line.startswith("Epoch[") and "batch" in line]
    assert [line[:41] for line in bars] == [
        "Epoch[0] [####################] batch 3/3",
        "Epoch[1] [####################] batch 3/3",
    ]
    assert float(bars[1].split("loss=")[1].split()[0]) < float(bars[0].split("loss=")[1].split()[0])
    assert bars[1].endswith("accuracy=1.0000")
    kinds = [
        re.sub(r"=[\d.]+|: [\d.]+", "", line.split(":", 2)[2]) if line.startswith("INFO") else "bar"
        for line in lines
    ]
    assert kinds[:6] == [
        "Iter[0] Batch[0] Train-accuracy",
        "Iter[0] Batch[2] Train-accuracy",
        "Epoch[0] Batch [0-2]\tSpeed samples/sec\taccuracy",
        "bar",
        "Epoch[0] Train-accuracy",
        "Epoch[0] Time cost",
    ]
    bar_accuracy = bars[0].split("accuracy=")[1]
    assert lines[4].startswith("INFO:root:Epoch[0] Train-accuracy=")  # the same value, rounded
    assert f"{float(lines[4].split('=')[1]):.4f}" == bar_accuracy
    assert "\rEpoch[0] [######------" in err  # drawn during the epoch, not only at its end


def test_live_log_lines_stay_whole_and_the_bar_shows_time_and_rate(capsys, console_log):
    fit(
        mx.mod.Module(mlp()),
        num_epoch=1,
        progress_bar="live",
        batch_end_callback=mx.callback.log_train_metric(1),
    )
    lines = screen(capsys.readouterr().err)
    logs = [line for line in lines if "INFO" in line]
    assert len(logs) == 5 and all(re.fullmatch(LOG, line) for line in logs), logs
    bar = [line for line in lines if "batch 3/3" in line]
    assert len(bar) == 1 and re.fullmatch(BAR + r"  \d+\.\ds  \d+\.\d batch/s", bar[0]), bar


def test_stable_shows_no_times_and_prints_the_same_text_twice(capsys, console_log):
    def run():
        fit(
            mx.mod.Module(mlp()),
            num_epoch=2,
            progress_bar="stable",
            batch_end_callback=mx.callback.log_train_metric(2),
        )
        return [line for line in capsys.readouterr().err.split("\n") if "Time cost" not in line]

    first, second = run(), run()
    assert first == second
    text = "\n".join(first)
    assert not re.search(r"\d+\.\ds\b|/s\b|\d\d:\d\d|it/s", text), text
    nbval = pytest.importorskip("nbval.plugin")  # what nbval compares: \r-overwritten text gone
    assert [
        line.rstrip() for line in nbval.carriagereturn_pat.sub("", text).splitlines()
    ] == screen(text)


def test_auto_is_live_on_a_terminal_and_stable_elsewhere(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    assert progress.resolve(True, io.StringIO()) == "stable"  # notebook, pipe, nbval
    assert progress.resolve(True, Terminal()) == "live"
    assert progress.resolve("stable", Terminal()) == "stable"
    assert progress.resolve(False, Terminal()) == "off"
    monkeypatch.setattr(progress, "mode", "off")
    assert progress.resolve(True, Terminal()) == "off"
    assert mx.mod.progress is progress and mx.module.progress.MODES == (
        "auto",
        "live",
        "stable",
        "notebook",
        "off",
    )


def test_the_environment_variable_sets_the_default():
    code = "import minisym as mx; print(mx.mod.progress.mode)"
    env = dict(os.environ, MINISYM_PROGRESS="stable", NUMBA_DISABLE_JIT="1")
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "stable"


def test_off_prints_nothing_and_a_bad_choice_says_what_exists(capsys, monkeypatch):
    fit(mx.mod.Module(mlp()), num_epoch=1, progress_bar=False)
    fit(mx.mod.Module(mlp()), num_epoch=1, progress_bar="off")
    assert capsys.readouterr().err == ""
    with pytest.raises(
        ValueError,
        match=r"^fit: progress_bar is 'quiet'; it is one of True, "
        r"False, 'auto', 'live', 'stable', 'notebook', 'off'",
    ):
        fit(mx.mod.Module(mlp()), progress_bar="quiet")
    monkeypatch.setattr(progress, "mode", "none")
    with pytest.raises(
        ValueError,
        match=r"mx.mod.progress.mode \(from MINISYM_PROGRESS\) is "
        r"'none'; it is one of 'auto', 'live'",
    ):
        fit(mx.mod.Module(mlp()), progress_bar=True)


@pytest.mark.parametrize(
    "handle, expected", [("pad", [3, 3, 3]), ("discard", [2, 2, 2]), ("roll_over", [2, 2, 3])]
)
def test_an_ndarrayiter_knows_its_batches_per_epoch(handle, expected):
    it = train_iter(batch_size=5, last_batch_handle=handle)
    predicted, counted = [], []
    for _ in range(3):
        predicted.append(progress.batches_per_epoch(it))
        counted.append(sum(1 for _ in it))
        it.reset()
    assert predicted == counted == expected


class Batches(mx.io.DataIter):
    """An iterator that cannot say how many batches it has (no NDArrayIter)."""

    def __init__(self):
        super().__init__(batch_size=6)
        self.inner = train_iter(batch_size=6)
        self.provide_data = self.inner.provide_data
        self.provide_label = self.inner.provide_label

    def reset(self):
        self.inner.reset()

    def next(self):
        return self.inner.next()


def test_an_unknown_length_is_learned_after_the_first_epoch(capsys):
    fit(mx.mod.Module(mlp()), Batches(), num_epoch=2, progress_bar="stable")
    lines = screen(capsys.readouterr().err)
    assert lines[0].startswith("Epoch[0] batch 2  loss=")
    assert lines[1].startswith("Epoch[1] [####################] batch 2/2  loss=")


def test_a_warning_or_an_error_in_a_batch_leaves_whole_lines(capsys):
    def warn_then_fail(param):
        if param.nbatch == 1:  # the bar shows batch 1/3
            warnings.warn("a warning in a callback", UserWarning, stacklevel=1)
        if param.nbatch == 2:
            raise RuntimeError("stop")

    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = lambda msg, *a, **k: sys.stderr.write(f"UserWarning: {msg}\n")
        with pytest.raises(RuntimeError, match="stop"):
            fit(mx.mod.Module(mlp()), progress_bar="stable", batch_end_callback=warn_then_fail)
    err = capsys.readouterr().err
    assert "batch 1/3" in err and screen(err)[0] == "UserWarning: a warning in a callback"
    assert re.fullmatch(BAR, screen(err)[1]) and "batch 2/3" in screen(err)[1]
    assert err.endswith("\n")  # the traceback starts on a line of its own


def test_the_loss_follows_the_head():
    regression = mx.sym.LinearRegressionOutput(
        mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=1, name="fc"), name="lro"
    )
    loss = progress.HeadLoss(regression)
    loss.update([mx.nd.array([[1.0], [3.0]])], {"lro_label": mx.nd.array([0.0, 1.0])})
    assert loss.get() == [("loss", 2.5)]  # mean of 1 and 4
    softmax = progress.HeadLoss(mlp())
    softmax.update([mx.nd.array([[0.5, 0.25, 0.25]])], {"softmax_label": mx.nd.array([1.0])})
    assert softmax.get()[0][1] == pytest.approx(np.log(4.0))
    custom = progress.HeadLoss(mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=2))
    custom.update([mx.nd.ones((2, 2))], {})
    assert custom.get() == []  # no loss head: the bar shows the metric only


def test_in_a_jupyter_kernel_the_line_goes_to_stdout(monkeypatch):
    from minisym.module import progress

    class OutStream:  # what ipykernel puts in sys.stdout
        pass

    OutStream.__module__ = "ipykernel.iostream"
    assert progress.default_stream() is sys.stderr
    kernel_stdout = OutStream()
    monkeypatch.setattr(sys, "stdout", kernel_stdout)
    assert progress.default_stream() is kernel_stdout
