"""mx.nd.to_dlpack_for_read / to_dlpack_for_write / from_dlpack (checked against MXNet in p852)."""

import numpy as np
import pytest

import minisym as mx


def test_capsule_is_named_dltensor_and_used_once():
    x = mx.nd.ones((2, 3))
    capsule = mx.nd.to_dlpack_for_read(x)
    assert type(capsule).__name__ == "PyCapsule" and '"dltensor"' in repr(capsule)
    z = mx.nd.from_dlpack(capsule)
    assert '"used_dltensor"' in repr(capsule)
    assert z.shape == (2, 3) and z.asnumpy().tolist() == [[1] * 3] * 2
    with pytest.raises(AssertionError, match="consumed only once"):
        mx.nd.from_dlpack(capsule)


def test_write_through_the_imported_array_reaches_the_source():
    x = mx.nd.ones((2, 3))
    u = mx.nd.from_dlpack(x.to_dlpack_for_write())
    u += 1
    assert x.asnumpy().tolist() == [[2] * 3] * 2
    x[0] = 7
    assert u.asnumpy()[0].tolist() == [7] * 3


def test_numpy_capsules_in_and_out():
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    nd = mx.nd.from_dlpack(a.__dlpack__())
    assert nd.dtype == np.int32 and nd.context == mx.cpu(0)
    with pytest.raises(mx.MXNetError, match="compact"):
        mx.nd.from_dlpack(a[:, 1:].__dlpack__())

    class Capsule:
        def __init__(self, capsule):
            self.capsule = capsule

        def __dlpack__(self, **kwargs):
            return self.capsule

        def __dlpack_device__(self):
            return (1, 0)

    back = np.from_dlpack(Capsule(mx.nd.array([1, 2]).to_dlpack_for_read()))
    assert back.tolist() == [1, 2]


def test_the_array_outlives_its_source():
    def make():
        return mx.nd.from_dlpack(mx.nd.array([1, 2, 3]).to_dlpack_for_read())

    kept = make()
    for _ in range(50):
        np.ones(1000)
    assert kept.asnumpy().tolist() == [1, 2, 3]


def test_not_a_capsule_or_not_an_ndarray():
    with pytest.raises(AssertionError):
        mx.nd.from_dlpack(5)
    with pytest.raises(AttributeError):
        mx.nd.to_dlpack_for_read(np.ones(2))
