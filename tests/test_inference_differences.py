"""The deliberate differences from MXNet at the graph layer (README, "Differences from MXNet",
items 1, 3, 8 and 9): each one pinned down so that it cannot drift."""

import numpy as np
import pytest

import minisym as mx
from minisym.base import MXNetError

data = mx.sym.Variable("data")


def test_positional_infer_shape_works_as_documented():
    fc = mx.sym.FullyConnected(data, num_hidden=4, name="fc")
    by_position = fc.infer_shape((2, 3), None, None)
    assert by_position == fc.infer_shape(data=(2, 3)) == ([(2, 3), (4, 3), (4,)], [(2, 4)], [])
    assert fc.infer_type("float64")[0][1].__name__ == "float64"


def test_reshape_with_the_wrong_size_raises():
    with pytest.raises(ValueError, match="120 values"):
        mx.sym.Reshape(data, shape=(-3, 0), name="r").infer_shape(data=(2, 3, 4, 5))


@pytest.mark.parametrize("given", [dict(bn_gamma=(3,)), dict(bn_beta=(5,))])
def test_batchnorm_parameter_of_the_wrong_shape_raises(given):
    bn = mx.sym.BatchNorm(data, axis=2, name="bn")
    with pytest.raises(MXNetError, match=r"needs \(4,\)"):
        bn.infer_shape(data=(2, 3, 4, 5), **given)


def test_prelu_gamma_must_be_one_or_per_channel():
    prelu = mx.sym.LeakyReLU(data, act_type="prelu", name="p")
    assert prelu.infer_shape(data=(2, 3, 4, 4), p_gamma=(1,))[0][1] == (1,)
    assert prelu.infer_shape(data=(2, 3, 4, 4), p_gamma=(3,))[0][1] == (3,)
    with pytest.raises(MXNetError, match="p_gamma"):
        prelu.infer_shape(data=(2, 3, 4, 4), p_gamma=(4,))


def test_prelu_gamma_lines_up_with_data_axes_0_and_1_as_in_mxnet():
    """MXNet 1.9.1 runs any gamma it can lay on axes 0 and 1 (element-wise for 2-D data) and
    fails only when it runs the others; minisym runs the same ones and refuses the others at
    inference, naming the gamma variable and the shapes that would work."""
    gamma = mx.sym.Variable("g")
    prelu = mx.sym.LeakyReLU(data, gamma, act_type="prelu", name="p")
    for given in [(1,), (3,), (2,), (1, 3), (2, 3), (2, 1)]:
        assert prelu.infer_shape(data=(2, 3, 4, 4), g=given)[0][1] == given
    assert prelu.infer_shape(data=(4, 3), g=(4, 3))[0][1] == (4, 3)
    with pytest.raises(MXNetError) as info:
        prelu.infer_shape(data=(2, 3, 4, 4), g=(2, 3, 4, 4))
    text = str(info.value)
    assert "gamma 'g' has shape (2, 3, 4, 4), which does not line up with data" in text
    assert "(3,) for one per channel" in text and "(2, 3) for one per sample and channel" in text
    assert "works only for 2-D data (N, C)" in text
    x = np.array([[-1.0, 2.0], [-3.0, -4.0]])
    out = mx.nd.LeakyReLU(mx.nd.array(x), mx.nd.array([[0.1, 0.2], [0.3, 0.4]]), "prelu")
    np.testing.assert_allclose(out.asnumpy(), [[-0.1, 2.0], [-0.9, -1.6]], rtol=1e-6)


def test_softmax_axis_out_of_range_raises():
    with pytest.raises(MXNetError, match="axis=3"):
        mx.sym.softmax(data, axis=3, name="s").infer_shape(data=(2, 3))


def test_concat_fills_one_unknown_input_from_its_output():
    a, b, c, o = (mx.sym.Variable(n) for n in "abco")
    cat = mx.sym.Concat(a, b, c, dim=0, name="cat") + o
    args, outs, _ = cat.infer_shape(a=(1, 3), b=(2, 3), c=(0, 3), o=(7, 3))
    assert args == [(1, 3), (2, 3), (4, 3), (7, 3)] and outs == [(7, 3)]
    partial = mx.sym.Concat(a, b, c, dim=0).infer_shape_partial(a=(1, 3), b=(2, 3))
    assert partial[1] == [(0, 3)]  # unknown, not MXNet's (3, 3)


def test_transpose_infers_its_input_from_its_output():
    a, b = mx.sym.Variable("a"), mx.sym.Variable("b")
    args, _, _ = (mx.sym.transpose(a, axes=(1, 2, 0)) + b).infer_shape(b=(3, 4, 2))
    assert args == [(2, 3, 4), (3, 4, 2)]


def test_every_parameter_is_checked_when_the_symbol_is_created():
    with pytest.raises(ValueError, match="grad_scale='x'"):
        mx.sym.LinearRegressionOutput(data, grad_scale="x", name="lro")
