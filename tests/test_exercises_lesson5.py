"""Lesson 5's exercises: each solution passes its check, typical wrong answers fail with the
message that tells the learner what to change, and an untouched stub is 'not done yet'."""

import numpy as np
import pytest

import minisym as mx
from minisym_widgets.exercises import lesson5 as check
from test_exercises import failed, solutions


@pytest.fixture(scope="module")
def solution():
    return solutions("lesson5")


def _function(signature, body):
    """A learner's function ``def f(<signature>):`` made of a few lines of its body."""
    namespace = {"np": np, "mx": mx}
    exec(f"def f({signature}):\n" + "".join(f"    {line}\n" for line in body), namespace)
    return namespace["f"]


# --- 5.1: the Prop's __init__ ---------------------------------------------------------------
INIT = "self, num_class, alpha"
BASE = "mx.operator.CustomOpProp.__init__(self, need_top_grad=False)"


def test_5_1_solution_passes_and_stub_is_todo(solution):
    result = check.center_loss_init(solution.center_loss_init)
    assert result and repr(result).startswith("✓ Exercise 5.1")
    stub = _function(INIT, ["raise NotImplementedError()"])
    assert check.center_loss_init(stub).status == "todo"


def test_5_1_unconverted_strings_are_named():
    result = check.center_loss_init(
        _function(INIT, [BASE, "self.num_class = num_class", "self.alpha = alpha"])
    )
    failed(
        result,
        "self.num_class is the string '4'",
        "arrives as a str",
        "self.num_class = int(num_class)",
    )
    result = check.center_loss_init(
        _function(INIT, [BASE, "self.num_class = int(num_class)", "self.alpha = alpha"])
    )
    failed(result, "self.alpha is the string '0.25'", "self.alpha = float(alpha)")


def test_5_1_wrong_conversions():
    failed(
        check.center_loss_init(
            _function(
                INIT, [BASE, "self.num_class = float(num_class)", "self.alpha = float(alpha)"]
            )
        ),
        "self.num_class is 4.0, a float",
        "make num_class an int, int(num_class)",
    )
    failed(
        check.center_loss_init(
            _function(INIT, [BASE, "self.num_class = int(num_class)", "self.alpha = int(alpha)"])
        ),
        "invalid literal for int()",
        "float(alpha)",
    )
    failed(
        check.center_loss_init(_function(INIT, [BASE, "self.num_class = int(num_class)"])),
        "did not set self.alpha",
        "self.alpha = float(alpha)",
    )
    failed(
        check.center_loss_init(
            _function(
                INIT, [BASE, "self.num_class = int(num_class) + 1", "self.alpha = float(alpha)"]
            )
        ),
        "self.num_class is 5, but the keyword was num_class=4",
    )


def test_5_1_need_top_grad_and_super():
    failed(
        check.center_loss_init(
            _function(
                INIT,
                [
                    "mx.operator.CustomOpProp.__init__(self)",
                    "self.num_class = int(num_class)",
                    "self.alpha = float(alpha)",
                ],
            )
        ),
        "need_top_grad is True",
        "need_top_grad=False",
    )
    failed(
        check.center_loss_init(
            _function(INIT, ["self.num_class = int(num_class)", "self.alpha = float(alpha)"])
        ),
        "never ran the base class's",
        "CustomOpProp.__init__(self, need_top_grad=False)",
    )
    failed(
        check.center_loss_init(
            _function(
                INIT,
                [
                    "super().__init__(need_top_grad=False)",
                    "self.num_class = int(num_class)",
                    "self.alpha = float(alpha)",
                ],
            )
        ),
        "super()",
        "call the base class by name",
    )


def test_5_1_a_missing_keyword_is_the_engines_message():
    failed(
        check.center_loss_init(_function("self, num_class", [BASE])),
        "unexpected keyword argument 'alpha'",
        "as a string",
    )


# --- 5.2: infer_shape with the aux shapes ---------------------------------------------------
SHAPE = "self, in_shape"
ARGS = "[in_shape[0], (in_shape[0][0],)]"


def test_5_2_solution_passes_and_stub_is_todo(solution):
    assert check.center_loss_infer_shape(solution.center_loss_infer_shape)
    stub = _function(SHAPE, ["raise NotImplementedError()"])
    assert check.center_loss_infer_shape(stub).status == "todo"


def test_5_2_no_third_list():
    failed(
        check.center_loss_infer_shape(_function(SHAPE, [f"return {ARGS}, [(1,)]"])),
        "returned aux state shapes, got 0",
        "[(self.num_class, features)]",
    )


def test_5_2_wrong_aux_shapes():
    failed(
        check.center_loss_infer_shape(_function(SHAPE, [f"return {ARGS}, [(1,)], [in_shape[0]]"])),
        "aux [(6, 2)]",
        "the shape of the batch",
        "(num_class, features) = (3, 2)",
    )
    failed(
        check.center_loss_infer_shape(
            _function(SHAPE, [f"return {ARGS}, [(1,)], [(in_shape[0][1], self.num_class)]"])
        ),
        "(2, 3): swapped",
    )
    failed(
        check.center_loss_infer_shape(
            _function(SHAPE, [f"return {ARGS}, [(1,)], [(10, in_shape[0][1])]"])
        ),
        "(num_class, features) = (3, 2)",
    )


def test_5_2_wrong_output_and_label():
    failed(
        check.center_loss_infer_shape(
            _function(
                SHAPE, [f"return {ARGS}, [(in_shape[0][0],)], [(self.num_class, in_shape[0][1])]"]
            )
        ),
        "give the output the shape (1,): it is the loss, one number per batch",
        "not one number per example",
    )
    failed(
        check.center_loss_infer_shape(
            _function(
                SHAPE,
                ["return [in_shape[0], in_shape[1]], [(1,)], [(self.num_class, in_shape[0][1])]"],
            )
        ),
        "gave no label shape",
        "the label is (batch,)",
    )
    failed(
        check.center_loss_infer_shape(
            _function(
                SHAPE, ["return [in_shape[0], (1,)], [(1,)], [(self.num_class, in_shape[0][1])]"]
            )
        ),
        "give label one class index per example: (batch,) = (6,)",
    )
    failed(
        check.center_loss_infer_shape(
            _function(
                SHAPE,
                [
                    "return [in_shape[0][::-1], (in_shape[0][0],)], [(1,)], "
                    "[(self.num_class, in_shape[0][1])]"
                ],
            )
        ),
        "raised MXNetValueError",
        "'data'",
    )


# --- 5.3: backward, updating aux[0] in place ------------------------------------------------
BACKWARD = "self, req, out_grad, in_data, out_data, in_grad, aux"
HEAD = [
    "x = in_data[0].asnumpy()",
    "labels = in_data[1].asnumpy().astype(int)",
    "center = aux[0].asnumpy()",
    "diff = x - center[labels]",
]
GRAD = "self.assign(in_grad[0], req[0], mx.nd.array(diff / len(x)))"
UPDATE = [
    "for c in np.unique(labels):",
    "    mine = labels == c",
    "    center[c] += self.alpha * diff[mine].sum(axis=0) / (1 + mine.sum())",
]
WRITE = "aux[0][:] = center"


def backward(*lines):
    return _function(BACKWARD, list(lines))


def test_5_3_solution_passes_and_stub_is_todo(solution):
    result = check.center_loss_backward(solution.center_loss_backward)
    assert result and repr(result).startswith("✓ Exercise 5.3")
    assert "under req 'write' (replaced), 'add'" in repr(result)
    assert check.center_loss_backward(backward("raise NotImplementedError()")).status == "todo"


def test_5_3_aux_written_through_another_way_passes():
    assert check.center_loss_backward(
        backward(*HEAD, GRAD, *UPDATE, "self.assign(aux[0], 'write', center)")
    )


def test_5_3_centers_not_written_back():
    for last in ([], ["aux[0] = mx.nd.array(center)"]):
        failed(
            check.center_loss_backward(backward(*HEAD, GRAD, *UPDATE, *last)),
            "Step 1: aux[0] ('center')",
            "It did not change",
            "aux[0][:] = center",
        )


def test_5_3_wrong_update():
    away = [UPDATE[0], UPDATE[1], UPDATE[2].replace("+=", "-=")]
    failed(
        check.center_loss_backward(backward(*HEAD, GRAD, *away, WRITE)),
        "moved away from their examples",
    )
    no_one = [UPDATE[0], UPDATE[1], UPDATE[2].replace("(1 + mine.sum())", "mine.sum()")]
    failed(
        check.center_loss_backward(backward(*HEAD, GRAD, *no_one, WRITE)),
        "Class 0 has 3 examples here",
        "/ (1 + 3)",
    )


def test_5_3_wrong_gradient():
    failed(
        check.center_loss_backward(
            backward(*HEAD, "self.assign(in_grad[0], req[0], mx.nd.array(diff))", *UPDATE, WRITE)
        ),
        "Step 1: in_grad[0] ('data')",
        "6 times too large",
        "mean over the batch",
    )
    failed(
        check.center_loss_backward(
            backward(
                *HEAD,
                *UPDATE,
                WRITE,
                "self.assign(in_grad[0], req[0], mx.nd.array((x - center[labels]) / len(x)))",
            )
        ),
        "computed from the centers after your update",
        "compute the gradient first",
    )
    failed(
        check.center_loss_backward(
            backward(
                *HEAD, "self.assign(in_grad[0], req[0], mx.nd.array(x / len(x)))", *UPDATE, WRITE
            )
        ),
        "Step 2: in_grad[0]",
        "as if every center were 0",
    )
    failed(
        check.center_loss_backward(
            backward(
                *HEAD,
                "self.assign(in_grad[0], req[0], mx.nd.array(-diff / len(x)))",
                *UPDATE,
                WRITE,
            )
        ),
        "flip the sign",
        "It has the wrong sign",
    )


def test_5_3_centers_from_zero_every_time():
    from_zero = [
        "x = in_data[0].asnumpy()",
        "labels = in_data[1].asnumpy().astype(int)",
        "grad = (x - aux[0].asnumpy()[labels]) / len(x)",
        "self.assign(in_grad[0], req[0], mx.nd.array(grad))",
        "center = np.zeros(aux[0].shape)",
        "diff = x - center[labels]",
    ]
    failed(
        check.center_loss_backward(backward(*from_zero, *UPDATE, WRITE)),
        "Step 2: aux[0] ('center')",
        "start from the centers in aux[0] every time",
        "Right after one step, wrong after two",
    )


def test_5_3_a_class_without_examples_stays():
    moved = [*UPDATE, "center[3] += 1"]
    failed(
        check.center_loss_backward(backward(*HEAD, GRAD, *moved, WRITE)),
        "leave the center of class 3 where it is",
        "no example in this batch",
    )


def test_5_3_a_write_that_ignores_req_fails():
    for write, req in (
        ("in_grad[0][:] = diff / len(x)", "with req[0]='add' it must add to"),
        ("in_grad[0][:] += diff / len(x)", "with req[0]='write' it must replace"),
        (
            "self.assign(in_grad[0], 'write', mx.nd.array(diff / len(x)))",
            "with req[0]='add' it must add to",
        ),
    ):
        failed(
            check.center_loss_backward(backward(*HEAD, write, *UPDATE, WRITE)),
            "in_grad[0] ('data') ignores req[0]",
            req,
            "write it with self.assign(in_grad[0], req[0], grad).",
            "before backward",
        )


def test_5_3_unwritten_gradient_is_the_engines_warning():
    failed(
        check.center_loss_backward(backward(*HEAD, *UPDATE, WRITE)),
        "did not write in_grad[0] ('data')",
        "self.assign(in_grad[0], req[0], grad)",
    )
