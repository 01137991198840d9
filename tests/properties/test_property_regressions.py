"""Engine bugs the properties found, each pinned by a plain test.

1. (test_fast_kernels_agree_with_the_numpy_references) avg Pooling with
   pooling_convention='full' whose last window lies wholly past the input: the NumPy reference
   (float16 data, 3-D pooling, MINISYM_KERNELS=reference) divided its empty sum by 0 and gave
   NaN with a RuntimeWarning; MXNet 1.9.1 and the fast kernel give 0. Values recorded with
   ../shared/tools/mxnet-oracle (MXNET_MKLDNN_ENABLED=0 for count_include_pad=False, which
   MXNet's oneDNN path refuses: "could not create a descriptor").
"""

import warnings

import numpy as np
import pytest

import minisym as mx

DATA = np.arange(20.0).reshape(1, 1, 4, 5) + 1
GEOMETRY = dict(kernel=(1, 2), stride=(2, 1), pad=(0, 1), pooling_convention="full")
MXNET = {  # count_include_pad -> (output (1, 1, 3, 6), gradient of data under ones)
    None: (
        [[0.5, 1.5, 2.5, 3.5, 4.5, 2.5], [5.5, 11.5, 12.5, 13.5, 14.5, 7.5], [0.0] * 6],
        [[1.0] * 5, [0.0] * 5, [1.0] * 5, [0.0] * 5],
    ),
    False: (
        [[1.0, 1.5, 2.5, 3.5, 4.5, 5.0], [11.0, 11.5, 12.5, 13.5, 14.5, 15.0], [0.0] * 6],
        [[1.5, 1.0, 1.0, 1.0, 1.5], [0.0] * 5, [1.5, 1.0, 1.0, 1.0, 1.5], [0.0] * 5],
    ),
}


def _run(dtype, **params):
    x = mx.sym.Variable("x")
    ex = mx.sym.Pooling(x, pool_type="avg", name="pool", **params).simple_bind(
        mx.cpu(), x=DATA.shape, type_dict={"x": dtype}
    )
    ex.arg_dict["x"][:] = DATA
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "invalid value encountered in divide" either
        out = ex.forward(is_train=True)[0].asnumpy()
        ex.backward(mx.nd.ones(out.shape, dtype=dtype))
    return out[0, 0], ex.grad_dict["x"].asnumpy()[0, 0]


@pytest.mark.parametrize(
    "kernels,dtype",
    [
        ("fast", np.float32),
        ("reference", np.float32),
        ("fast", np.float16),
        ("reference", np.float64),
    ],
)
@pytest.mark.parametrize("count_include_pad", [None, False])
def test_avg_pool_window_wholly_past_the_input_gives_zero(
    monkeypatch, kernels, dtype, count_include_pad
):
    monkeypatch.setenv("MINISYM_KERNELS", kernels)
    extra = {} if count_include_pad is None else {"count_include_pad": count_include_pad}
    out, grad = _run(dtype, **GEOMETRY, **extra)
    expected_out, expected_grad = MXNET[count_include_pad]
    np.testing.assert_array_equal(out, np.array(expected_out, dtype))
    np.testing.assert_array_equal(grad, np.array(expected_grad, dtype))


def test_3d_avg_pool_window_past_the_input_gives_zero():
    """3-D pooling always runs the NumPy reference."""
    x = mx.sym.Variable("x")
    ex = mx.sym.Pooling(
        x, pool_type="avg", kernel=(1, 1, 1), stride=(2, 1, 1), pooling_convention="full"
    ).simple_bind(mx.cpu(), x=(1, 1, 2, 2, 2))
    ex.arg_dict["x"][:] = 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = ex.forward()[0].asnumpy()
    assert out.shape == (1, 1, 2, 2, 2)
    np.testing.assert_array_equal(out[0, 0, 0], np.ones((2, 2)))
    np.testing.assert_array_equal(out[0, 0, 1], np.zeros((2, 2)))  # the window past the end
