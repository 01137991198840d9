"""Every exercise: its solution passes its check, typical wrong answers fail with the message
that tells the learner what to change (first line) and the evidence (the lines after), a
backward that ignores req fails under the req it ignores, and an untouched stub is 'not done
yet'."""

import importlib.util
from pathlib import Path

import pytest

import minisym as mx
from minisym_widgets.exercises import ExerciseError
from minisym_widgets.exercises import lesson1 as check1

SOLUTIONS = Path(__file__).resolve().parents[1] / "lessons" / "solutions"


def solutions(lesson):
    spec = importlib.util.spec_from_file_location(lesson, SOLUTIONS / f"{lesson}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def lesson1_net():
    data = mx.sym.Variable("data")
    fc1 = mx.sym.FullyConnected(data, num_hidden=64, name="fc1")
    relu1 = mx.sym.Activation(fc1, act_type="relu", name="relu1")
    fc2 = mx.sym.FullyConnected(relu1, num_hidden=10, name="fc2")
    return mx.sym.SoftmaxOutput(fc2, name="softmax")


def failed(result, *parts):
    """``result`` failed, its message holds ``parts``, and it has every check's shape: the first
    line says what to change, the evidence follows on lines of its own."""
    assert result.status == "failed", result
    for part in parts:
        assert part in result.message, result.message
    change, _, evidence = result.message.partition("\n")
    assert change and evidence.strip(), f"no evidence after the first line: {result.message}"
    assert repr(result).startswith(f"✗ Exercise {result.exercise}: {change}\n")
    with pytest.raises(ExerciseError, match="Exercise"):
        result.assert_passed()
    return result


def stub(*args):
    raise NotImplementedError()


def test_a_stub_is_not_done_yet():
    result = check1.build_mlp(stub)
    assert result.status == "todo" and not result
    assert "not done yet: write stub()" in repr(result)
    assert "border-left" in result._repr_html_()


def test_1_1_solution_passes():
    result = check1.build_mlp(solutions("lesson1").build_mlp)
    assert result and result.assert_passed() is None
    assert repr(result).startswith("✓ Exercise 1.1")


def test_1_1_unnamed_layers_are_told_how_names_are_made():
    def unnamed():
        net = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=64)
        net = mx.sym.FullyConnected(mx.sym.Activation(net, act_type="relu"), num_hidden=10)
        return mx.sym.SoftmaxOutput(net, name="softmax")

    failed(check1.build_mlp(unnamed), "fullyconnected0_weight", "name='hidden'", "'hidden_weight'")


def test_1_1_missing_softmax_name_and_relu_and_size():
    def no_name():
        net = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=64, name="hidden")
        net = mx.sym.FullyConnected(net, num_hidden=10, name="out")
        return mx.sym.SoftmaxOutput(net)

    failed(check1.build_mlp(no_name), "softmaxoutput0_output", "name='softmax'")

    def no_relu():
        net = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=64, name="hidden")
        return mx.sym.SoftmaxOutput(
            mx.sym.FullyConnected(net, num_hidden=10, name="out"), name="softmax"
        )

    failed(check1.build_mlp(no_relu), "no relu", "act_type='relu'")

    def too_wide():
        net = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=128, name="hidden")
        net = mx.sym.FullyConnected(
            mx.sym.Activation(net, act_type="relu"), num_hidden=10, name="out"
        )
        return mx.sym.SoftmaxOutput(net, name="softmax")

    failed(check1.build_mlp(too_wide), "(128, 20)", "num_hidden=64")


def test_1_1_a_list_or_an_error_is_explained():
    failed(check1.build_mlp(lambda: [solutions("lesson1").build_mlp()]), "returned list")

    def typo():
        return mx.sym.FullyConnected(mx.sym.Variable("data"), num_hiden=64)

    failed(check1.build_mlp(typo), "typo() raised", "num_hiden")


def test_1_2_solution_passes():
    assert check1.hidden_and_output(solutions("lesson1").hidden_and_output, lesson1_net())


def test_1_2_wrong_answers():
    net = lesson1_net()
    failed(
        check1.hidden_and_output(lambda n: n.get_internals(), net),
        "10 outputs",
        "internals['relu1_output']",
    )
    failed(
        check1.hidden_and_output(
            lambda n: mx.sym.Group([n, n.get_internals()["relu1_output"]]), net
        ),
        "order",
    )
    failed(
        check1.hidden_and_output(lambda n: n.get_internals()["relu1"], net),
        "raised ValueError",
        "relu1_output",
    )
    failed(
        check1.hidden_and_output(lambda n: n, net),
        "list_outputs() is ['softmax_output']",
        "net.get_internals() and Group it, first, with net",
    )


def test_2_1_solution_and_wrong_answers():
    from minisym_widgets.exercises import lesson2 as check2

    assert check2.conv_output_size(solutions("lesson2").conv_output_size)
    failed(
        check2.conv_output_size(lambda s, k, st, p: (s + p - k) // st + 1),
        "returned 27",
        "add pad on both sides",
    )
    failed(
        check2.conv_output_size(lambda s, k, st, p: (s + 2 * p - k) / st + 1),
        "returned 14.5",
        "//, not /",
    )


def test_2_2_solution_passes():
    from minisym_widgets.exercises import lesson2 as check2

    result = check2.scale_infer_shape(solutions("lesson2").scale_infer_shape)
    assert result and "not known yet" in repr(result)


def test_2_2_returning_the_given_shapes_does_not_pass():
    """weight is an implicit variable: its shape is [] until inference works it out."""
    from minisym_widgets.exercises import lesson2 as check2

    failed(
        check2.scale_infer_shape(lambda in_shape: (in_shape, [in_shape[0]], [])),
        "work weight's shape out from data's: (in_shape[0][1],)",
        "in_shape = [[8, 10], []]",
        "[(8, 10), ()], expected [(8, 10), (10,)]",
    )


def test_2_2_wrong_answers():
    from minisym_widgets.exercises import lesson2 as check2

    failed(
        check2.scale_infer_shape(lambda i: ([i[0], (i[0][0],)], [i[0]], [])),
        "[(8, 10), (8,)]",
        "in_shape[0][0] is the batch",
    )
    failed(check2.scale_infer_shape(lambda i: ([i[0], (i[0][1],)], [i[0]])), "three lists")
    failed(
        check2.scale_infer_shape(lambda i: ([i[0]], [i[0]], [])),
        "one shape per name of list_arguments()",
    )
    failed(
        check2.scale_infer_shape(lambda i: ([i[0], (i[0][1],)], [(i[0][1],)], [])),
        "the output the shape of data",
        "output shapes are [(10,)]",
    )
    failed(
        check2.scale_infer_shape(lambda i: ([i[0], (i[0][1],)], [i[0]], [i[0]])),
        "no auxiliary states",
        "auxiliary shapes are [(8, 10)], expected []",
    )
    failed(
        check2.scale_infer_shape(lambda i: ([i[0], i[0][1]], [i[0]], [])),
        "tuple of ints",
        "are not a list of shapes",
    )


def test_3_1_solution_and_wrong_answers():
    from minisym_widgets.exercises import lesson3 as check3

    good = solutions("lesson3")
    assert check3.evaluate(good.evaluate)

    def outputs_list(symbol, **values):
        args = {n: mx.nd.array(v) for n, v in values.items()}
        return symbol.bind(mx.cpu(), args).forward()

    failed(check3.evaluate(outputs_list), "returned a list", "executor.outputs[0].asnumpy()")

    def an_ndarray(symbol, **values):
        return outputs_list(symbol, **values)[0]

    failed(check3.evaluate(an_ndarray), "returned an NDArray", ".asnumpy()")

    def zeros(symbol, **values):
        return 0 * good.evaluate(symbol, **values)

    failed(check3.evaluate(zeros), "expected [7.0, -3.5]", "then run forward()")

    def one_argument_short(symbol, **values):
        args = {n: mx.nd.array(v) for n, v in list(values.items())[:-1]}
        return symbol.bind(mx.cpu(), args).forward()[0].asnumpy()

    failed(check3.evaluate(one_argument_short), "raised ValueError", "missing")


def test_3_2_solution_and_wrong_answers():
    from minisym_widgets.exercises import lesson3 as check3

    good = solutions("lesson3")
    assert check3.gradients(good.gradients)

    def ones_head(symbol, head, **values):
        return good.gradients(symbol, mx.nd.ones(head.shape), **values)

    failed(check3.gradients(ones_head), "head gradient of ones", "out_grads=head")

    def no_head(symbol, head, **values):
        args = {n: mx.nd.array(v) for n, v in values.items()}
        grads = {n: mx.nd.zeros(a.shape) for n, a in args.items()}
        executor = symbol.bind(mx.cpu(), args, args_grad=grads)
        executor.forward(is_train=True)
        executor.backward()
        return grads

    failed(check3.gradients(no_head), "raised", "head gradient")
    failed(
        check3.gradients(lambda symbol, head, **values: []),
        "returned list",
        "one NumPy gradient per argument",
    )

    def doubled(symbol, head, **values):
        return {n: 2 * g for n, g in good.gradients(symbol, head, **values).items()}

    failed(
        check3.gradients(doubled),
        "d/dA is [6.0, 16.0], expected [3.0, 8.0]",
        "backward(out_grads=head)",
    )


def _backward(body):
    """A learner's backward function from a few lines of its body."""
    import numpy as np

    namespace = {"np": np, "mx": mx}
    exec(
        "def backward(self, req, out_grad, in_data, out_data, in_grad, aux):\n"
        + "".join(f"    {line}\n" for line in body),
        namespace,
    )
    return namespace["backward"]


def test_4_1_solution_and_wrong_answers():
    from minisym_widgets.exercises import lesson4 as check4

    result = check4.square_backward(solutions("lesson4").square_backward)
    assert result, result
    assert "'add' (added to what was there) and 'null'" in repr(result)
    assert check4.square_backward(stub).status == "todo"
    x6 = "x = in_data[0].asnumpy()"
    failed(
        check4.square_backward(
            _backward([x6, "self.assign(in_grad[0], req[0], mx.nd.array(6 * x))"])
        ),
        "whatever out_grad[0] holds",
        "in_grad[0] = out_grad[0] · 6x",
    )
    failed(
        check4.square_backward(
            _backward([x6, "self.assign(in_grad[0], req[0], -out_grad[0] * mx.nd.array(6 * x))"])
        ),
        "flip the sign",
        "the sign is flipped",
    )
    failed(
        check4.square_backward(
            _backward([x6, "self.assign(out_grad[0], req[0], out_grad[0] * mx.nd.array(6 * x))"])
        ),
        "wrote into out_grad[0]",
        "self.assign(in_grad[0], req[0], grad)",
    )
    failed(
        check4.square_backward(_backward([x6, "return out_grad[0] * mx.nd.array(6 * x)"])),
        "ignores what backward returns",
    )


X6 = ["x = in_data[0].asnumpy()", "grad = out_grad[0] * mx.nd.array(6 * x)"]


def test_4_1_a_write_that_ignores_req_fails():
    from minisym_widgets.exercises import lesson4 as check4

    result = failed(
        check4.square_backward(_backward(X6 + ["in_grad[0][:] = grad"])),
        "expected old + gradient = [",
        "(it wrote the gradient over what was there)",
    )
    assert result.message.splitlines()[0] == (
        "in_grad[0] ('data') ignores req[0]: with req[0]='add' it must add to what is there; "
        "write it with self.assign(in_grad[0], req[0], grad)."
    )
    failed(
        check4.square_backward(_backward(X6 + ["in_grad[0][:] += grad"])),
        "with req[0]='write' it must replace what is there",
        "(it added the gradient to what was there)",
    )
    failed(
        check4.square_backward(_backward(X6 + ["self.assign(in_grad[0], 'write', grad)"])),
        "with req[0]='add' it must add to what is there",
    )


def test_4_1_a_write_under_null_fails():
    from minisym_widgets.exercises import lesson4 as check4

    failed(
        check4.square_backward(
            _backward(X6 + ["self.assign(in_grad[0], 'add' if req[0] == 'add' else 'write', grad)"])
        ),
        "with req[0]='null' it must leave the buffer as it is",
        "expected old, untouched",
        "(it wrote the gradient over what was there)",
    )


SOFTMAX = [
    "labels = in_data[1].asnumpy().astype(int)",
    "grad = out_data[0].asnumpy().copy()",
    "grad[np.arange(len(labels)), labels] -= 1.0",
]


def test_4_2_solution_and_wrong_answers():
    from minisym_widgets.exercises import lesson4 as check4

    result = check4.softmax_backward(solutions("lesson4").softmax_backward)
    assert result, result
    assert "written with" not in repr(result) and "self.assign" not in repr(result)
    failed(
        check4.softmax_backward(
            _backward(SOFTMAX + ["self.assign(in_grad[0], req[0], mx.nd.array(grad))"])
        ),
        "did not write in_grad[1] ('label')",
        "assign 0 there",
    )
    scores = [
        SOFTMAX[0],
        "grad = in_data[0].asnumpy().copy()",
        SOFTMAX[2],
        "self.assign(in_grad[0], req[0], mx.nd.array(grad))",
        "self.assign(in_grad[1], req[1], 0)",
    ]
    failed(
        check4.softmax_backward(_backward(scores)),
        "in_grad[0] ('data'",
        "out_data[0], not in_data[0]",
    )
    failed(
        check4.softmax_backward(
            _backward(
                SOFTMAX
                + [
                    "self.assign(in_grad[0], req[0], mx.nd.array(grad))",
                    "self.assign(in_grad[1], req[1], 1)",
                ]
            )
        ),
        "give the label a zero gradient: self.assign(in_grad[1], req[1], 0).",
        "'label'",
    )


def test_4_2_writes_that_ignore_req_fail():
    """The case of the issue: it used to pass and say it was written with self.assign."""
    from minisym_widgets.exercises import lesson4 as check4

    label = "self.assign(in_grad[1], req[1], 0)"
    result = failed(
        check4.softmax_backward(_backward(SOFTMAX + ["in_grad[0][:] = mx.nd.array(grad)", label])),
        "expected old + gradient",
    )
    assert repr(result).splitlines()[0] == (
        "✗ Exercise 4.2 (softmax_backward): in_grad[0] ('data') ignores req[0]: with "
        "req[0]='add' it must add to what is there; write it with "
        "self.assign(in_grad[0], req[0], grad)."
    )
    failed(
        check4.softmax_backward(
            _backward(
                SOFTMAX
                + [
                    "self.assign(in_grad[0], req[0], mx.nd.array(grad))",
                    "self.assign(in_grad[1], 'write', 0)",
                ]
            )
        ),
        "in_grad[1] ('label') ignores req[1]",
        "self.assign(in_grad[1], req[1], 0).",
    )
    failed(
        check4.softmax_backward(
            _backward(SOFTMAX + ["self.assign(in_grad[0], req[1], mx.nd.array(grad))", label])
        ),
        "in_grad[0] ('data') ignores req[0]",
    )
    failed(
        check4.softmax_backward(
            _backward(
                SOFTMAX
                + [
                    "if req[0] == 'add':",
                    "    in_grad[0][:] += mx.nd.array(grad)",
                    "else:",
                    "    in_grad[0][:] = mx.nd.array(grad)",
                    label,
                ]
            )
        ),
        "with req[0]='null' it must leave the buffer as it is",
    )


FAST_CHECKS = [
    ("lesson1", "build_mlp"),
    ("lesson1", "hidden_and_output"),
    ("lesson2", "conv_output_size"),
    ("lesson2", "scale_infer_shape"),
    ("lesson3", "evaluate"),
    ("lesson3", "gradients"),
    ("lesson4", "square_backward"),
    ("lesson4", "softmax_backward"),
    ("lesson5", "center_loss_init"),
    ("lesson5", "center_loss_infer_shape"),
    ("lesson5", "center_loss_backward"),
    ("lesson6", "top_rois_infer_shape"),
    ("lesson6", "exp_double_dependency"),
    ("lesson6", "zero_backward"),
    ("lesson7", "bottleneck_unit"),
    ("lesson7", "count_parameters"),
    ("lesson7", "input_gradient"),
    ("lesson8", "digits_iter"),
]


@pytest.mark.parametrize("lesson, name", FAST_CHECKS, ids=lambda v: v)
def test_each_solution_passes_and_the_message_says_what_was_verified(lesson, name):
    """A success line is one line, and states what the check saw, not how the code is written."""
    import importlib

    checks = importlib.import_module(f"minisym_widgets.exercises.{lesson}")
    extra = (lesson1_net(),) if name == "hidden_and_output" else ()
    result = getattr(checks, name)(getattr(solutions(lesson), name), *extra)
    assert result.status == "passed", result
    assert "\n" not in repr(result) and repr(result).startswith("✓ Exercise ")
    for claim in ("written with", "self.assign", "through self.assign"):
        assert claim not in result.message, result.message


def test_the_stored_lessons_state_the_exercise_texts_the_checks_need():
    """2.2: weight's shape is worked out from data; 5.2: the loss is one number per batch."""
    import json

    lessons = Path(__file__).resolve().parents[1] / "lessons"

    def text(notebook):
        cells = json.loads((lessons / notebook).read_text())["cells"]
        return " ".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")

    inference = " ".join(text("02_inference.ipynb").split())
    assert "work it out from `data`'s shape" in inference
    assert "one number per batch" in " ".join(text("05_aux_center_loss.ipynb").split())


def test_an_engine_warning_leads_with_its_own_fix():
    from minisym_widgets.exercises._check import engine_warned

    where = "Custom 'c' (op_type='t'): "
    old = (
        where + "backward did not write in_grad[0] ('data') although req[0] is 'write'. "
        "Write its gradient with self.assign(in_grad[0], req[0], grad), one per name."
    )
    assert engine_warned(old).splitlines() == [
        "write its gradient with self.assign(in_grad[0], req[0], grad), one per name.",
        "The engine warned: " + old,
    ]
    new = (
        where + "add into in_grad[0] ('data') instead of overwriting it: write "
        "self.assign(in_grad[0], req[0], grad) (or in_grad[0][:] += grad). It replaced it."
    )
    assert engine_warned(new, "more").splitlines() == [
        "add into in_grad[0] ('data') instead of overwriting it: write "
        "self.assign(in_grad[0], req[0], grad) (or in_grad[0][:] += grad).",
        "The engine warned: " + new,
        "more",
    ]
    assert engine_warned(where + "backward returned a list.").startswith("the engine warned")
