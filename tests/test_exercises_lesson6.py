"""Lesson 6's exercises: each solution passes its check, typical wrong answers fail with the
message that tells the learner what to change, and an untouched stub is 'not done yet'."""

import numpy as np
import pytest

import minisym as mx
from minisym_widgets.exercises import lesson6 as check
from test_exercises import failed, solutions, stub


@pytest.fixture(scope="module")
def solution():
    return solutions("lesson6")


def _backward(*body):
    """A learner's backward from the lines of its body."""
    namespace = {"np": np, "mx": mx}
    exec(
        "def backward(self, req, out_grad, in_data, out_data, in_grad, aux):\n"
        + "".join(f"    {line}\n" for line in body),
        namespace,
    )
    return namespace["backward"]


# --- 6.1 --------------------------------------------------------------------------------------
def test_6_1_solution_passes_and_stub_is_todo(solution):
    result = check.top_rois_infer_shape(solution.top_rois_infer_shape)
    assert result and repr(result).startswith("✓ Exercise 6.1")
    assert check.top_rois_infer_shape(stub).status == "todo"


def test_6_1_outputs_swapped_are_told_the_list_outputs_order():
    failed(
        check.top_rois_infer_shape(
            lambda self, in_shape: (in_shape, [(self.top_k,), (self.top_k, 5)], [])
        ),
        "swapped",
        "order of list_outputs()",
        "out_data[0] is the rois, (3, 5)",
    )


def test_6_1_n_rows_instead_of_top_k_are_told_to_use_top_k():
    failed(
        check.top_rois_infer_shape(
            lambda self, in_shape: (in_shape, [(in_shape[0][0], 5), (in_shape[0][0],)], [])
        ),
        "your outputs have 10 rows",
        "self.top_k = 3 rows",
    )


def test_6_1_a_number_for_a_shape_is_told_about_the_comma():
    failed(
        check.top_rois_infer_shape(
            lambda self, in_shape: (in_shape, [(self.top_k, 5), (self.top_k)], [])
        ),
        "output 1 ('score') is the number 3, not a shape",
        "with a comma: (3,)",
    )


def test_6_1_one_output_or_one_list():
    failed(
        check.top_rois_infer_shape(lambda self, in_shape: (in_shape, [(self.top_k, 5)], [])),
        "1 output shape,",
        "list_outputs() has two names",
    )
    failed(
        check.top_rois_infer_shape(lambda self, in_shape: ([(self.top_k, 5), (self.top_k,)],)),
        "two or three lists",
    )
    failed(
        check.top_rois_infer_shape(lambda self, in_shape: (in_shape, None, [])),
        "one output shape per list_outputs() name",
        "the output shapes, is None",
    )
    failed(
        check.top_rois_infer_shape(
            lambda self, in_shape: (in_shape, [(self.top_k, 4), (self.top_k,)], [])
        ),
        "expected [(3, 5), (3,)]",
        "top_k rows of 5 numbers",
    )


def test_6_1_changed_input_shapes_are_told_to_return_in_shape():
    failed(
        check.top_rois_infer_shape(
            lambda self, in_shape: (
                [(self.top_k, 5), (self.top_k,)],
                [(self.top_k, 5), (self.top_k,)],
                [],
            )
        ),
        "the input shapes",
        "return in_shape itself",
    )


# --- 6.2 --------------------------------------------------------------------------------------
def test_6_2_solution_passes_and_stub_is_todo(solution):
    result = check.exp_double_dependency(solution.exp_double_dependency)
    assert result and repr(result).startswith("✓ Exercise 6.2")
    assert check.exp_double_dependency(stub).status == "todo"


def test_6_2_nothing_declared_shows_the_engines_message():
    failed(
        check.exp_double_dependency(lambda self, out_grad, in_data, out_data: []),
        "leaves out out_grad[0]",
        "them as empty arrays",
        "When it ran, the engine said:",
        "is an empty NDArray in backward",
    )


def test_6_2_the_input_instead_of_the_output_is_told_about_exp():
    failed(
        check.exp_double_dependency(
            lambda self, out_grad, in_data, out_data: [out_grad[0], out_grad[1], in_data[0]]
        ),
        "leaves out out_data[0]",
        "The derivative of eˣ is eˣ itself",
        "out_data[0] ('exp') is an empty NDArray",
    )


def test_6_2_the_default_declares_too_much():
    failed(
        check.exp_double_dependency(
            lambda self, out_grad, in_data, out_data: out_grad + in_data + out_data
        ),
        "never reads in_data[0] ('data', x) and out_data[1] ('double', 2x)",
        "declare exactly what backward reads",
    )


def test_6_2_lists_instead_of_ids():
    failed(
        check.exp_double_dependency(
            lambda self, out_grad, in_data, out_data: [out_grad, out_data[0]]
        ),
        "a list of lists",
        "out_grad + [out_data[0]]",
    )
    failed(
        check.exp_double_dependency(lambda self, out_grad, in_data, out_data: None),
        "return a list of ids",
        "returned None",
    )


# --- 6.3 --------------------------------------------------------------------------------------
def test_6_3_solution_passes_and_stub_is_todo(solution):
    result = check.zero_backward(solution.zero_backward)
    assert result and repr(result).startswith("✓ Exercise 6.3")
    assert "self.assign" not in repr(result)
    assert check.zero_backward(stub).status == "todo"


def test_6_3_two_inputs_hard_coded_miss_the_third():
    failed(
        check.zero_backward(
            _backward("self.assign(in_grad[0], req[0], 0)", "self.assign(in_grad[1], req[1], 0)")
        ),
        "loop over every input, for i in range(len(in_grad))",
        "did not write in_grad[2] ('c')",
    )


def test_6_3_writing_zeros_directly_ignores_req():
    result = failed(
        check.zero_backward(_backward("for grad in in_grad:", "    grad[:] = 0")),
        "expected old + gradient",
        "(it wrote the gradient over what was there)",
    )
    assert result.message.splitlines()[0] == (
        "in_grad[1] ('gt_boxes') ignores req[1]: with req[1]='add' it must add to what is "
        "there; write it with self.assign(in_grad[i], req[i], 0) for every i."
    )


def test_6_3_writing_under_null_fails():
    failed(
        check.zero_backward(
            _backward(
                "for i, r in enumerate(req):", "    if r != 'add':", "        in_grad[i][:] = 0"
            )
        ),
        "with req[1]='null' it must leave the buffer as it is",
        "expected old, untouched",
    )


def test_6_3_a_write_req_hard_coded_fails():
    failed(
        check.zero_backward(
            _backward("for i in range(len(in_grad)):", "    self.assign(in_grad[i], 'write', 0)")
        ),
        "ignores req[1]",
        "self.assign(in_grad[i], req[i], 0) for every i",
    )


def test_6_3_reading_out_grad_shows_the_empty_array():
    failed(
        check.zero_backward(
            _backward(
                "for i in range(len(in_grad)):",
                "    self.assign(in_grad[i], req[i], out_grad[0] * 0)",
            )
        ),
        "raised MXNetValueError",
        "out_grad[0] ('output') is an empty NDArray",
        "need_top_grad=False leaves out every out_grad",
    )


def test_6_3_returning_zeros_is_ignored():
    failed(
        check.zero_backward(_backward("return [0] * len(in_grad)")),
        "engine ignores what backward returns",
    )
