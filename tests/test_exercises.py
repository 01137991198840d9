"""Every exercise: its solution passes its check, typical wrong answers fail with the message
that tells the learner what to change, and an untouched stub is 'not done yet'."""
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
    data = mx.sym.Variable('data')
    fc1 = mx.sym.FullyConnected(data, num_hidden=64, name='fc1')
    relu1 = mx.sym.Activation(fc1, act_type='relu', name='relu1')
    fc2 = mx.sym.FullyConnected(relu1, num_hidden=10, name='fc2')
    return mx.sym.SoftmaxOutput(fc2, name='softmax')


def failed(result, *parts):
    assert result.status == "failed", result
    for part in parts:
        assert part in result.message, result.message
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
        net = mx.sym.FullyConnected(mx.sym.Variable('data'), num_hidden=64)
        net = mx.sym.FullyConnected(mx.sym.Activation(net, act_type='relu'), num_hidden=10)
        return mx.sym.SoftmaxOutput(net, name='softmax')
    failed(check1.build_mlp(unnamed), "fullyconnected0_weight", "name='hidden'",
           "'hidden_weight'")


def test_1_1_missing_softmax_name_and_relu_and_size():
    def no_name():
        net = mx.sym.FullyConnected(mx.sym.Variable('data'), num_hidden=64, name='hidden')
        net = mx.sym.FullyConnected(net, num_hidden=10, name='out')
        return mx.sym.SoftmaxOutput(net)
    failed(check1.build_mlp(no_name), "softmaxoutput0_output", "name='softmax'")

    def no_relu():
        net = mx.sym.FullyConnected(mx.sym.Variable('data'), num_hidden=64, name='hidden')
        return mx.sym.SoftmaxOutput(mx.sym.FullyConnected(net, num_hidden=10, name='out'),
                                    name='softmax')
    failed(check1.build_mlp(no_relu), "no relu", "act_type='relu'")

    def too_wide():
        net = mx.sym.FullyConnected(mx.sym.Variable('data'), num_hidden=128, name='hidden')
        net = mx.sym.FullyConnected(mx.sym.Activation(net, act_type='relu'), num_hidden=10,
                                    name='out')
        return mx.sym.SoftmaxOutput(net, name='softmax')
    failed(check1.build_mlp(too_wide), "(128, 20)", "num_hidden=64")


def test_1_1_a_list_or_an_error_is_explained():
    failed(check1.build_mlp(lambda: [solutions("lesson1").build_mlp()]), "returned list")

    def typo():
        return mx.sym.FullyConnected(mx.sym.Variable('data'), num_hiden=64)
    failed(check1.build_mlp(typo), "typo() raised", "num_hiden")


def test_1_2_solution_passes():
    assert check1.hidden_and_output(solutions("lesson1").hidden_and_output, lesson1_net())


def test_1_2_wrong_answers():
    net = lesson1_net()
    failed(check1.hidden_and_output(lambda n: n.get_internals(), net), "10 outputs",
           "internals['relu1_output']")
    failed(check1.hidden_and_output(
        lambda n: mx.sym.Group([n, n.get_internals()['relu1_output']]), net), "order")
    failed(check1.hidden_and_output(lambda n: n.get_internals()['relu1'], net),
           "raised ValueError", "relu1_output")


def test_2_1_solution_and_wrong_answers():
    from minisym_widgets.exercises import lesson2 as check2
    assert check2.conv_output_size(solutions("lesson2").conv_output_size)
    failed(check2.conv_output_size(lambda s, k, st, p: (s + p - k) // st + 1),
           "returned 27", "pad is added on both sides")
    failed(check2.conv_output_size(lambda s, k, st, p: (s + 2 * p - k) / st + 1),
           "returned 14.5", "//, not /")


def test_2_2_solution_and_wrong_answers():
    from minisym_widgets.exercises import lesson2 as check2
    assert check2.scale_infer_shape(solutions("lesson2").scale_infer_shape)
    failed(check2.scale_infer_shape(lambda i: ([i[0], (i[0][0],)], [i[0]], [])),
           "[(8, 10), (8,)]", "in_shape[0][0] is the batch")
    failed(check2.scale_infer_shape(lambda i: ([i[0], (i[0][1],)], [i[0]])), "three lists")
    failed(check2.scale_infer_shape(lambda i: ([i[0]], [i[0]], [])),
           "one shape per name of list_arguments()")


def test_3_1_solution_and_wrong_answers():
    from minisym_widgets.exercises import lesson3 as check3
    good = solutions("lesson3")
    assert check3.evaluate(good.evaluate)

    def outputs_list(symbol, **values):
        args = {n: mx.nd.array(v) for n, v in values.items()}
        return symbol.bind(mx.cpu(), args).forward()
    failed(check3.evaluate(outputs_list), "returned a list", "[0].asnumpy()")

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


def _backward(body):
    """A learner's backward function from a few lines of its body."""
    import numpy as np
    namespace = {"np": np, "mx": mx}
    exec("def backward(self, req, out_grad, in_data, out_data, in_grad, aux):\n"
         + "".join(f"    {line}\n" for line in body), namespace)
    return namespace["backward"]


def test_4_1_solution_and_wrong_answers():
    from minisym_widgets.exercises import lesson4 as check4
    assert check4.square_backward(solutions("lesson4").square_backward)
    assert check4.square_backward(stub).status == "todo"
    x6 = "x = in_data[0].asnumpy()"
    failed(check4.square_backward(_backward(
        [x6, "self.assign(in_grad[0], req[0], mx.nd.array(6 * x))"])),
        "whatever out_grad[0] holds", "in_grad[0] = out_grad[0] · 6x")
    failed(check4.square_backward(_backward(
        [x6, "self.assign(in_grad[0], req[0], -out_grad[0] * mx.nd.array(6 * x))"])),
        "the sign is flipped")
    failed(check4.square_backward(_backward(
        [x6, "self.assign(out_grad[0], req[0], out_grad[0] * mx.nd.array(6 * x))"])),
        "wrote into out_grad[0]", "self.assign(in_grad[0], req[0], grad)")
    failed(check4.square_backward(_backward(
        [x6, "return out_grad[0] * mx.nd.array(6 * x)"])), "ignores what backward returns")


SOFTMAX = ["labels = in_data[1].asnumpy().astype(int)",
           "grad = out_data[0].asnumpy().copy()",
           "grad[np.arange(len(labels)), labels] -= 1.0"]


def test_4_2_solution_and_wrong_answers():
    from minisym_widgets.exercises import lesson4 as check4
    assert check4.softmax_backward(solutions("lesson4").softmax_backward)
    failed(check4.softmax_backward(_backward(
        SOFTMAX + ["self.assign(in_grad[0], req[0], mx.nd.array(grad))"])),
        "did not write in_grad[1] ('label')", "assign 0 there")
    scores = [SOFTMAX[0], "grad = in_data[0].asnumpy().copy()", SOFTMAX[2],
              "self.assign(in_grad[0], req[0], mx.nd.array(grad))",
              "self.assign(in_grad[1], req[1], 0)"]
    failed(check4.softmax_backward(_backward(scores)), "in_grad[0] ('data'",
           "out_data[0], not in_data[0]")
