"""Lesson 7's exercises: each solution passes, typical wrong answers get the message that says
what to change, and the untouched stub is 'not done yet'."""

import numpy as np
import pytest

import minisym as mx
from minisym_widgets.exercises import lesson7 as check
from test_exercises import failed, solutions

good = solutions("lesson7")


def stub(*args, **kwargs):
    raise NotImplementedError()


def test_stubs_are_not_done_yet():
    for name in ("bottleneck_unit", "count_parameters", "input_gradient"):
        result = getattr(check, name)(stub)
        assert result.status == "todo", result


# --- 7.1 ---------------------------------------------------------------------------------------
def unit(
    inner=lambda f: f // 4,
    fix_gamma=False,
    no_bias=True,
    stride_on=2,
    sc_from="act1",
    project=True,
    pad=(1, 1),
    middle=(3, 3),
):
    """A bottleneck unit with one of the typical mistakes."""

    def bottleneck_unit(data, num_filter, stride, dim_match, name):
        def bn_relu(x, i):
            x = mx.sym.BatchNorm(x, fix_gamma=fix_gamma, name=f"{name}_bn{i}")
            return mx.sym.Activation(x, act_type="relu", name=f"{name}_relu{i}")

        def conv(x, filters, kernel, i):
            return mx.sym.Convolution(
                x,
                num_filter=filters,
                kernel=kernel,
                stride=stride if i == stride_on else (1, 1),
                pad=pad if kernel == (3, 3) else (0, 0),
                no_bias=no_bias,
                name=f"{name}_conv{i}",
            )

        act1 = bn_relu(data, 1)
        x = conv(act1, inner(num_filter), (1, 1), 1)
        x = conv(bn_relu(x, 2), inner(num_filter), middle, 2)
        x = conv(bn_relu(x, 3), num_filter, (1, 1), 3)
        if dim_match or not project:
            return x + data
        source = act1 if sc_from == "act1" else data
        return x + mx.sym.Convolution(
            source,
            num_filter=num_filter,
            kernel=(1, 1),
            stride=stride,
            no_bias=True,
            name=name + "_sc",
        )

    return bottleneck_unit


def test_7_1_solution_and_a_copy_of_it_pass():
    assert check.bottleneck_unit(good.bottleneck_unit)
    assert check.bottleneck_unit(unit())


def test_7_1_wrong_answers():
    failed(check.bottleneck_unit(unit(no_bias=False)), "no_bias=True", "'b_conv1_bias'")
    failed(
        check.bottleneck_unit(unit(fix_gamma=True)), "'b_bn1' keeps gamma fixed", "fix_gamma=False"
    )
    failed(check.bottleneck_unit(unit(stride_on=1)), "'b_conv1' has stride=(2, 2)", "the 3×3 conv2")
    failed(
        check.bottleneck_unit(unit(inner=lambda f: f)),
        "b_conv1_weight has shape (256, 64, 1, 1), expected (64, 64, 1, 1)",
        "num_filter // 4",
    )
    failed(check.bottleneck_unit(unit(sc_from="data")), "'b_sc' reads 'data'", "act1 ('b_relu1')")
    failed(check.bottleneck_unit(unit(project=False)), "no 'b_sc_weight'", "dim_match=False")
    failed(
        check.bottleneck_unit(unit(pad=(0, 0))), "raised ElemwiseShapeError", "'b_conv3' and 'b_sc'"
    )
    failed(
        check.bottleneck_unit(unit(middle=(1, 1))),
        "1×1, then 3×3, then 1×1",
        "'b_conv2' has kernel=(1, 1), expected (3, 3)",
    )


def test_7_1_the_basic_unit_or_a_list_is_explained():
    def basic(data, num_filter, stride, dim_match, name):
        act = mx.sym.Activation(
            mx.sym.BatchNorm(data, fix_gamma=False, name=name + "_bn1"),
            act_type="relu",
            name=name + "_relu1",
        )
        conv = mx.sym.Convolution(
            act,
            num_filter=num_filter,
            kernel=(3, 3),
            stride=stride,
            pad=(1, 1),
            no_bias=True,
            name=name + "_conv1",
        )
        sc = (
            data
            if dim_match
            else mx.sym.Convolution(
                act,
                num_filter=num_filter,
                kernel=(1, 1),
                stride=stride,
                no_bias=True,
                name=name + "_sc",
            )
        )
        return conv + sc

    failed(check.bottleneck_unit(basic), "missing ['b_bn2_gamma'", "name + '_bn1'")
    failed(
        check.bottleneck_unit(lambda *args: [good.bottleneck_unit(*args)]),
        "returned list",
        "return the Symbol",
    )


# --- 7.2 ---------------------------------------------------------------------------------------
def counter(skip_inputs=True, skip_labels=True, aux=False, how=np.prod):
    def count_parameters(symbol, **shapes):
        arg_shapes, _, aux_shapes = symbol.infer_shape(**shapes)
        total = sum(
            int(how(s))
            for n, s in zip(symbol.list_arguments(), arg_shapes)
            if not (skip_inputs and n in shapes) and not (skip_labels and n.endswith("label"))
        )
        return total + (sum(int(np.prod(s)) for s in aux_shapes) if aux else 0)

    return count_parameters


def test_7_2_solution_passes():
    assert check.count_parameters(good.count_parameters)
    assert check.count_parameters(counter())


def test_7_2_wrong_answers():
    failed(
        check.count_parameters(counter(skip_inputs=False)),
        "stage 2 of ResNet-18",
        "returned 590720, expected 525184",
        "the inputs you gave shapes for",
    )
    failed(
        check.count_parameters(counter(skip_labels=False)),
        "a FullyConnected layer",
        "returned 215, expected 210",
        "the label",
    )
    failed(check.count_parameters(counter(aux=True)), "auxiliary states", "third list")
    failed(check.count_parameters(counter(how=sum)), "adds up the dimensions", "np.prod")

    def arrays(symbol, **shapes):
        return len([n for n in symbol.list_arguments() if n not in shapes])

    failed(check.count_parameters(arrays), "how many parameter arrays")
    failed(
        check.count_parameters(lambda symbol, **shapes: symbol.infer_shape(**shapes)[0]),
        "returned list",
        "return one number",
    )


# --- 7.3 ---------------------------------------------------------------------------------------
def reader(
    name_of=lambda node: node + "_backward_output0",
    stat=lambda g: g.copy(),
    numpy=True,
    before_toc=True,
):
    def input_gradient(module, batch, node):
        monitor = mx.mon.Monitor(1, stat_func=stat, pattern=".*")
        module.install_monitor(monitor)
        monitor.tic()
        module.forward(batch, is_train=True)
        module.backward()
        if not before_toc:
            monitor.toc()
        found = next((a for _, n, a in monitor.queue if n == name_of(node)), None)
        if found is None or not numpy:
            return found
        return found.asnumpy()

    return input_gradient


def test_7_3_solution_passes():
    assert check.input_gradient(good.input_gradient)
    assert check.input_gradient(reader())


def test_7_3_wrong_answers():
    failed(check.input_gradient(reader(stat=None)), "one number", "stat_func=lambda g: g.copy()")
    failed(
        check.input_gradient(reader(name_of=lambda node: node + "_output")),
        "'stage2_unit1_conv2_output', the feature map",
        "'stage2_unit1_conv2_backward_output0'",
    )
    failed(
        check.input_gradient(reader(name_of=lambda node: node + "_backward_output1")),
        "in_grad[1]",
        "gradient of stage2_unit1_conv2's weight",
    )
    failed(check.input_gradient(reader(numpy=False)), "returned an NDArray", ".asnumpy()")
    failed(
        check.input_gradient(reader(before_toc=False)),
        "returned None",
        "toc() empties monitor.queue",
    )

    def from_toc(module, batch, node):
        monitor = mx.mon.Monitor(1, stat_func=lambda g: g.copy(), pattern=".*")
        module.install_monitor(monitor)
        monitor.tic()
        module.forward(batch, is_train=True)
        module.backward()
        return next(s for _, n, s in monitor.toc() if n == node + "_backward_output0")

    failed(
        check.input_gradient(from_toc),
        "returned the text",
        "read the array itself from monitor.queue before toc()",
    )


@pytest.mark.parametrize("node", ["stage2_unit1_conv2", "fc1", "stage1_unit1_bn1"])
def test_7_3_the_monitor_agrees_with_the_trace(node):
    """What the check compares with: the trace's in_grad[0], which the monitor must match."""
    net, module, batch = check._small_module()
    want = check._recorded(net, module, batch)[node][0]
    np.testing.assert_allclose(good.input_gradient(module, batch, node), want, rtol=1e-6)
