"""The exercise checks speak the learner's language: in a Chinese kernel the mark line (what to
change, or what was verified), the evidence and the 'not done yet' text come out in Chinese from
the minisym_exercises catalogue, while the engine's own messages quoted in them stay English; in
an English kernel every message is exactly the English one."""

import string

import pytest

import minisym as mx
from minisym_widgets import i18n
from minisym_widgets.exercises import lesson2 as check2
from minisym_widgets.exercises import lesson4 as check4
from minisym_widgets.exercises import lesson5 as check5
from minisym_widgets.exercises import lesson8 as check8
from test_exercises import SOFTMAX, _backward, solutions, stub
from test_exercises_lesson5 import GRAD, HEAD, UPDATE, WRITE, backward

REQ_ZH = (
    "在写入方式 'write'（覆盖写入）、'add'（累加到原有的值上）和 'null'（不写入，保持原样）下都正确"
)


@pytest.fixture
def chinese():
    i18n.set_language("zh_CN")
    yield
    i18n.set_language(None)


@pytest.fixture
def english():
    i18n.set_language("en")
    yield
    i18n.set_language(None)


def first_line(result):
    return repr(result).splitlines()[0]


def evidence(result):
    return repr(result).splitlines()[1:]


# --- the wrong answers and solutions of the tests below ------------------------------------------
def given_shapes(in_shape):
    return in_shape, [in_shape[0]], []


def flat_pixels(pixels, targets, batch_size):
    return mx.io.NDArrayIter(pixels / 16, targets, batch_size=batch_size)


SOFTMAX_OVERWRITES = SOFTMAX + [
    "in_grad[0][:] = mx.nd.array(grad)",
    "self.assign(in_grad[1], req[1], 0)",
]
CENTER_NOT_DIVIDED = ["self.assign(in_grad[0], req[0], mx.nd.array(diff))"]


# --- Chinese ---------------------------------------------------------------------------------
def test_2_2_in_chinese(chinese):
    result = check2.scale_infer_shape(given_shapes)
    assert first_line(result) == (
        "✗ 练习 2.2 (scale_infer_shape)：由 data 的形状推出 weight 的形状：(in_shape[0][1],)。"
        "weight 是隐式变量：在它的形状确定之前 in_shape[1] 是 []，所以不能原样返回。"
    )
    assert evidence(result) == [
        "in_shape = [[8, 10], []] 时，输入的形状是 [(8, 10), ()]，应为 [(8, 10), (10,)]。"
    ]
    passed = check2.scale_infer_shape(solutions("lesson2").scale_infer_shape)
    assert passed and first_line(passed).startswith(
        "✓ 练习 2.2 (scale_infer_shape)：两个输入的形状为 (batch, features) 和 (features,)，"
    )


def test_4_2_req_failure_in_chinese(chinese):
    result = check4.softmax_backward(_backward(SOFTMAX_OVERWRITES))
    assert result.status == "failed"
    assert first_line(result) == (
        "✗ 练习 4.2 (softmax_backward)：in_grad[0]（'data'）没有按 req[0] 写入：req[0]='add' "
        "时它必须累加到原有的值上；请用 self.assign(in_grad[0], req[0], grad) 写入。"
    )
    lines = evidence(result)
    assert lines[0].startswith("req = ['add', 'null'] 时，in_grad[0] 在 backward 之前是 [")
    assert lines[1].startswith("应为 原值 + 梯度 = [")
    assert lines[2].startswith("实际为 [") and lines[2].endswith("（它用梯度覆盖了原有的值）。")
    passed = check4.softmax_backward(solutions("lesson4").softmax_backward)
    assert passed and first_line(passed) == (
        "✓ 练习 4.2 (softmax_backward)：in_grad[0] = softmax(data) − onehot(label)，"
        "in_grad[1] = 0，两者" + REQ_ZH + "。"
    )


def test_an_engine_warning_is_quoted_in_english_after_a_chinese_lead(chinese):
    result = check4.softmax_backward(
        _backward(SOFTMAX + ["self.assign(in_grad[0], req[0], mx.nd.array(grad))"])
    )
    assert first_line(result).startswith(
        "✗ 练习 4.2 (softmax_backward)：照引擎警告中给出的改法修改：write the gradient of "
        "'label' with self.assign(in_grad[1], req[1], grad)"
    )
    assert evidence(result)[0].startswith(
        "引擎警告：Custom 'lesson4_softmax' (op_type='lesson4_softmax'): write the gradient"
    )


def test_5_3_in_chinese(chinese):
    result = check5.center_loss_backward(backward(*HEAD, *CENTER_NOT_DIVIDED, *UPDATE, WRITE))
    assert first_line(result) == (
        "✗ 练习 5.3 (center_loss_backward)：除以批量大小：梯度是 (x − center[label]) / batch。"
    )
    lines = evidence(result)
    assert lines[0] == "第 1 步：in_grad[0]（'data'）是" and "应为" in lines
    assert lines[-1] == "它大了 6 倍：损失是对批量求的平均。"
    passed = check5.center_loss_backward(backward(*HEAD, GRAD, *UPDATE, WRITE))
    assert passed and first_line(passed).endswith("；in_grad[0] 还" + REQ_ZH + "。")
    assert first_line(passed).startswith("✓ 练习 5.3 (center_loss_backward)：两步中的每一步之后")


def test_8_1_in_chinese(chinese):
    result = check8.digits_iter(flat_pixels)
    assert first_line(result) == (
        "✗ 练习 8.1 (digits_iter)：用 pixels.reshape(-1, 1, 8, 8) 改变像素的形状。"
    )
    assert evidence(result) == [
        "它的 data 批量形状是 (32, 64)：每行是扁平的 64 个像素。网络的第一层是 Convolution，"
        "它需要 (batch, channels, height, width) = (32, 1, 8, 8)。"
    ]
    passed = check8.digits_iter(solutions("lesson8").digits_iter)
    assert passed and first_line(passed) == (
        "✓ 练习 8.1 (digits_iter)：数据批量形状为 (32, 1, 8, 8)、取值在 0-1，标签作为 "
        "softmax_label 一同给出，网络能在上面完成一步训练。"
    )


def test_not_done_yet_and_a_raised_error_in_chinese(chinese):
    assert repr(check2.scale_infer_shape(stub)) == (
        "… 练习 2.2 (scale_infer_shape)：还没有完成：先在上面写好 stub()，再重新运行这个单元格。"
    )
    result = check2.scale_infer_shape(lambda in_shape: in_shape[5])
    assert first_line(result) == (
        "✗ 练习 2.2 (scale_infer_shape)：<lambda>() 抛出了 "
        "IndexError：按下面报错信息指出的地方修改，再重新运行这个单元格。"
    )
    assert evidence(result) == ["IndexError: list index out of range"]  # Python's own words


def test_the_environment_chooses_chinese_without_set_language(monkeypatch):
    i18n.set_language(None)
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert first_line(check2.scale_infer_shape(stub)).startswith("… 练习 2.2")


# --- English: exactly today's messages -------------------------------------------------------
def test_2_2_in_english(english):
    result = check2.scale_infer_shape(given_shapes)
    assert repr(result) == (
        "✗ Exercise 2.2 (scale_infer_shape): work weight's shape out from data's: "
        "(in_shape[0][1],). weight is an implicit variable: in_shape[1] is [] until its shape is "
        "known, so it cannot be returned as it came.\n"
        "With in_shape = [[8, 10], []], the argument shapes are [(8, 10), ()], expected "
        "[(8, 10), (10,)]."
    )
    assert repr(check2.scale_infer_shape(solutions("lesson2").scale_infer_shape)) == (
        "✓ Exercise 2.2 (scale_infer_shape): arguments (batch, features) and (features,), "
        "output (batch, features), no auxiliary states, for every batch and width, with "
        "weight's shape known and not known yet, and through mx.sym.Custom."
    )


def test_4_2_req_failure_in_english(english):
    result = check4.softmax_backward(_backward(SOFTMAX_OVERWRITES))
    assert first_line(result) == (
        "✗ Exercise 4.2 (softmax_backward): in_grad[0] ('data') ignores req[0]: with "
        "req[0]='add' it must add to what is there; write it with "
        "self.assign(in_grad[0], req[0], grad)."
    )
    lines = evidence(result)
    assert lines[0].startswith("With req = ['add', 'null'], in_grad[0] held [")
    assert lines[0].endswith(
        " before backward and the gradient is [-0.823, 0.278, 0.0622, 0.337, ...]:"
    )
    assert lines[1] == "expected old + gradient = [0.11, 2.21, 1.07, 1.62, ...]"
    assert lines[2] == (
        "got [-0.823, 0.278, 0.0622, 0.337, ...] (it wrote the gradient over what was there)."
    )
    assert repr(check4.softmax_backward(solutions("lesson4").softmax_backward)) == (
        "✓ Exercise 4.2 (softmax_backward): in_grad[0] = softmax(data) − onehot(label) and "
        "in_grad[1] = 0, each under req 'write' (replaced), 'add' (added to what was there) "
        "and 'null' (left as it was)."
    )


def test_5_3_in_english(english):
    result = check5.center_loss_backward(backward(*HEAD, *CENTER_NOT_DIVIDED, *UPDATE, WRITE))
    assert first_line(result) == (
        "✗ Exercise 5.3 (center_loss_backward): divide by the batch "
        "size: the gradient is (x − center[label]) / batch."
    )
    lines = evidence(result)
    assert lines[0] == "Step 1: in_grad[0] ('data') is" and "expected" in lines
    assert lines[-1] == "It is 6 times too large: the loss is a mean over the batch."


def test_8_1_and_not_done_yet_in_english(english):
    assert repr(check8.digits_iter(flat_pixels)) == (
        "✗ Exercise 8.1 (digits_iter): reshape the pixels with pixels.reshape(-1, 1, 8, 8).\n"
        "Its data batches are (32, 64): flat rows of 64 pixels. The network starts with a "
        "Convolution, which needs (batch, channels, height, width) = (32, 1, 8, 8)."
    )
    assert repr(check8.digits_iter(stub)) == (
        "… Exercise 8.1 (digits_iter): not done yet: write stub() above, then run this cell again."
    )


# --- the catalogue ---------------------------------------------------------------------------
def _fields(text):
    return sorted(
        (name, conversion, spec)
        for _, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    )


def test_every_chinese_message_has_the_fields_of_its_english_one():
    """A translation that drops, renames or adds a field fails only when its rare case is hit:
    compare them all here."""
    from babel.messages.pofile import read_po

    path = i18n.catalogue_path("zh_CN", "minisym_exercises")
    with open(path, "rb") as handle:
        catalog = read_po(handle, locale="zh_CN")
    messages = [m for m in catalog if m.id]
    assert len(messages) > 300
    wrong = [(m.id, m.string) for m in messages if _fields(m.id) != _fields(m.string)]
    assert not wrong
