"""Lesson 8's exercises: each solution passes its check, typical wrong answers get the message
that says what to change, and an untouched stub is 'not done yet'. The checks train the lesson's
network (8.2 for ten batches, 8.3 for two epochs): those tests are slow."""

import pytest

import minisym as mx
from minisym_widgets.exercises import lesson8 as check
from test_exercises import failed, solutions, stub


# --- 8.1 digits_iter ---------------------------------------------------------------------------
def test_8_1_solution_passes_and_stub_is_todo():
    result = check.digits_iter(solutions("lesson8").digits_iter)
    assert result, result
    assert repr(result).startswith("✓ Exercise 8.1")
    assert check.digits_iter(stub).status == "todo"


def test_8_1_flat_or_channel_less_images_are_told_to_reshape():
    failed(
        check.digits_iter(lambda p, t, b: mx.io.NDArrayIter(p / 16, t, batch_size=b)),
        "(32, 64)",
        "Convolution",
        "pixels.reshape(-1, 1, 8, 8)",
    )
    failed(
        check.digits_iter(
            lambda p, t, b: mx.io.NDArrayIter((p / 16).reshape(-1, 8, 8), t, batch_size=b)
        ),
        "(32, 8, 8)",
        "channel axis is missing",
    )


def test_8_1_label_name_and_missing_labels():
    def renamed(pixels, targets, batch_size):
        return mx.io.NDArrayIter(
            (pixels / 16).reshape(-1, 1, 8, 8), targets, batch_size=batch_size, label_name="label"
        )

    failed(check.digits_iter(renamed), "['label']", "'softmax_label'", "label_name='softmax_label'")

    def unlabelled(pixels, targets, batch_size):
        return mx.io.NDArrayIter((pixels / 16).reshape(-1, 1, 8, 8), batch_size=batch_size)

    failed(check.digits_iter(unlabelled), "provides no labels", "second argument")


def test_8_1_unscaled_mispaired_and_not_an_iterator():
    failed(
        check.digits_iter(
            lambda p, t, b: mx.io.NDArrayIter(p.reshape(-1, 1, 8, 8), t, batch_size=b)
        ),
        "go up to 16",
        "pixels / 16",
    )
    failed(
        check.digits_iter(
            lambda p, t, b: mx.io.NDArrayIter((p / 255).reshape(-1, 1, 8, 8), t, batch_size=b)
        ),
        "divide by 16 (not 255)",
    )

    def mispaired(pixels, targets, batch_size):
        return mx.io.NDArrayIter(
            (pixels / 16).reshape(-1, 1, 8, 8), targets[::-1].copy(), batch_size=batch_size
        )

    failed(check.digits_iter(mispaired), "no longer belong to their images")
    failed(
        check.digits_iter(lambda p, t, b: (p / 16).reshape(-1, 1, 8, 8)),
        "returned ndarray",
        "NDArrayIter",
    )


def test_8_1_batch_size_names_and_sizes():
    def images(pixels):
        return (pixels / 16).reshape(-1, 1, 8, 8)

    failed(
        check.digits_iter(lambda p, t, b: mx.io.NDArrayIter(images(p), t, batch_size=10)),
        "pass batch_size=batch_size",
        "hold 10 examples",
    )
    failed(
        check.digits_iter(lambda p, t, b: mx.io.NDArrayIter({"img": images(p)}, t, batch_size=b)),
        "give NDArrayIter one array",
        "named ['img']",
    )
    failed(
        check.digits_iter(
            lambda p, t, b: mx.io.NDArrayIter(images(p), t.reshape(-1, 1), batch_size=b)
        ),
        "pass targets as they are",
        "(32, 1)",
    )
    failed(
        check.digits_iter(lambda p, t, b: mx.io.NDArrayIter(images(p)[:64], t[:64], batch_size=b)),
        "use all of pixels and targets",
        "One epoch gives 64 examples, but 100 were given",
    )


def test_8_1_shuffled_together_is_fine():
    def shuffled(pixels, targets, batch_size):
        return mx.io.NDArrayIter(
            (pixels / 16).reshape(-1, 1, 8, 8), targets, batch_size=batch_size, shuffle=True
        )

    assert check.digits_iter(shuffled)


# --- 8.2 loss_recorder -------------------------------------------------------------------------
def _recorder(body):
    """A learner's loss_recorder whose callback runs ``body`` (lines using param, losses)."""
    namespace = {}
    exec(
        "def loss_recorder(losses):\n    def record(param):\n"
        + "".join(f"        {line}\n" for line in body)
        + "    return record\n",
        namespace,
    )
    return namespace["loss_recorder"]


READ = "value = dict(param.eval_metric.get_name_value())['cross-entropy']"


@pytest.mark.slow
def test_8_2_solution_passes_and_stub_is_todo():
    assert check.loss_recorder(solutions("lesson8").loss_recorder)
    assert check.loss_recorder(stub).status == "todo"


@pytest.mark.slow
def test_8_2_running_mean_and_reset_instead_of_reset_local():
    failed(
        check.loss_recorder(_recorder([READ, "losses.append(value)"])),
        "mean over batches 0 and 1",
        "param.eval_metric.reset_local()",
    )
    failed(
        check.loss_recorder(_recorder([READ, "losses.append(value)", "param.eval_metric.reset()"])),
        "cleared the metric's totals",
        "reset_local(), not reset()",
    )


@pytest.mark.slow
def test_8_2_pairs_accuracy_and_no_callback():
    failed(
        check.loss_recorder(
            _recorder(
                [
                    "losses.append(param.eval_metric.get_name_value())",
                    "param.eval_metric.reset_local()",
                ]
            )
        ),
        "losses[0] is [('accuracy'",
        "append only the cross-entropy's value",
    )
    failed(
        check.loss_recorder(
            _recorder(
                [
                    "losses.append(dict(param.eval_metric.get_name_value())['accuracy'])",
                    "param.eval_metric.reset_local()",
                ]
            )
        ),
        "accuracies",
        "'cross-entropy'",
    )
    failed(
        check.loss_recorder(lambda losses: None),
        "returned NoneType",
        "the function fit calls after each batch",
    )


# --- 8.3 optimizer_params ----------------------------------------------------------------------
@pytest.mark.slow
def test_8_3_solution_passes_and_stub_is_todo():
    result = check.optimizer_params(solutions("lesson8").optimizer_params)
    assert result, result
    assert check.optimizer_params(stub).status == "todo"


@pytest.mark.slow
def test_8_3_too_small_and_too_large_steps():
    failed(
        check.optimizer_params(lambda: {"learning_rate": 0.1}),
        "{'learning_rate': 0.1}",
        "still falling",
        "too small",
        "'momentum': 0.5",
    )
    failed(
        check.optimizer_params(lambda: {"learning_rate": 30.0}),
        "worse than guessing",
        "overshoot",
        "smaller learning rate",
    )
    failed(check.optimizer_params(lambda: {"learning_rate": 10.0}), "overshoot")


@pytest.mark.slow
def test_8_2_two_values_per_batch():
    failed(
        check.loss_recorder(
            _recorder([READ, "losses.extend([value, value])", "param.eval_metric.reset_local()"])
        ),
        "append one value per call",
        "losses holds 20 values",
    )


def test_8_3_wrong_key_and_wrong_type():
    failed(check.optimizer_params(lambda: {"lr": 0.5}), "'learning_rate', not 'lr'")
    failed(check.optimizer_params(lambda: 0.5), "returned float", "{'learning_rate': 0.1}")
