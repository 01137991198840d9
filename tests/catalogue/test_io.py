"""Catalogue, io: mistakes a learner makes with mx.io.NDArrayIter and DataBatch.

MXNet 1.9.1 accepts several of these and then loops forever (batch_size=0), yields nothing
(an unknown last_batch_handle, an empty data set) or fails inside its slicing with a message
about slice_axis; minisym refuses them when the iterator is made, naming the input and the fix.
The arrays the learner passed are never changed by a failed call.
"""

import numpy as np
import pytest

import minisym as mx

from .state import assert_unchanged, snapshot

X = np.arange(40, dtype=np.float32).reshape(10, 4)
Y = (np.arange(10) % 3).astype(np.float32)


def test_labels_for_fewer_examples_than_the_data():
    """MXNet: "slice_axis: Invalid end for end=8 as axis_size is 7" at the second batch, or an
    IndexError with shuffle=True."""
    for shuffle in (False, True):
        with pytest.raises(mx.base.MXNetError) as info:
            mx.io.NDArrayIter(X, Y[:7], batch_size=4, shuffle=shuffle)
        assert isinstance(info.value, ValueError)
        assert (
            "NDArrayIter: 'softmax_label' has 7 examples (shape (7,)) but 'data' has 10 "
            "(shape (10, 4)): every input and label needs one entry per example" in str(info.value)
        )


def test_a_batch_size_of_zero():
    """MXNet makes the iterator, and fit then fails inside slice_axis (begin=0, end=0); a loop
    over the batches by hand never ends."""
    with pytest.raises(
        ValueError,
        match=r"NDArrayIter: batch_size=0, but a batch holds at "
        r"least one example: give batch_size=1 or more",
    ):
        mx.io.NDArrayIter(X, Y, batch_size=0)
    with pytest.raises(ValueError, match="batch_size=-2"):  # MXNet: silently no batch at all
        mx.io.NDArrayIter(X, Y, batch_size=-2)


def test_a_fractional_batch_size():
    with pytest.raises(
        mx.base.MXNetError,
        match=r"batch_size is how many examples each batch "
        r"holds, a whole number such as "
        r"batch_size=32; got 2\.5",
    ):
        mx.io.NDArrayIter(X, Y, batch_size=2.5)


def test_a_misspelled_last_batch_handle():
    """MXNet accepts 'padd' and behaves as 'discard'."""
    with pytest.raises(
        ValueError,
        match=r"last_batch_handle='padd' is not one of 'pad', "
        r"'discard', 'roll_over' \('pad' fills the last batch",
    ):
        mx.io.NDArrayIter(X, Y, batch_size=4, last_batch_handle="padd")


def test_an_empty_data_set():
    """MXNet yields no batch, so fit trains on nothing without a word."""
    with pytest.raises(
        ValueError,
        match=r"NDArrayIter: 'data' has no examples \(shape \(0, 4\)"
        r"\): there is nothing to iterate over",
    ):
        mx.io.NDArrayIter(np.zeros((0, 4), np.float32), batch_size=2)


def test_no_data_at_all():
    with pytest.raises(
        AssertionError,
        match=r"NDArrayIter needs data: NDArrayIter\(X, y, "
        r"batch_size=32\)",
    ):
        mx.io.NDArrayIter(None, Y)


def test_text_labels():
    labels = np.array(["cat", "dog"] * 5)
    with pytest.raises(
        TypeError,
        match=r"its dtype is <U3, not numbers; NDArrayIter holds "
        r"numbers.*np\.unique\(y, return_inverse=True\)",
    ):
        mx.io.NDArrayIter(X, labels, batch_size=2)


def test_a_layout_without_a_batch_axis():
    """MXNet takes axis -1 as the batch axis and describes data of shape (10, 2, 10, 4)."""
    with pytest.raises(ValueError, match=r"layout='TC' has no N, the batch axis"):
        mx.io.NDArrayIter(X, Y, batch_size=2, layout="TC")


def test_a_python_list_of_rows_warns_that_it_is_several_inputs():
    rows = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
    with pytest.warns(
        UserWarning,
        match=r"data is a Python list of 3 lists or numbers, which "
        r"NDArrayIter \(like MXNet\) reads as 3 separate "
        r"inputs \(_0_data, _1_data, \.\.\.\).*np\.array\(data\)",
    ):
        it = mx.io.NDArrayIter(rows, batch_size=1)
    assert [d.name for d in it.provide_data] == ["_0_data", "_1_data", "_2_data"]  # MXNet's quirk


def test_a_batch_larger_than_the_data_with_discard_warns():
    with pytest.warns(
        UserWarning,
        match=r"batch_size 20 is larger than the 10 examples.*an "
        r"epoch has no batch at all",
    ):
        it = mx.io.NDArrayIter(X, Y, batch_size=20, last_batch_handle="discard")
    assert list(it) == []


def test_a_databatch_of_one_array_instead_of_a_list():
    with pytest.raises(AssertionError, match="Data must be list of NDArrays"):
        mx.io.DataBatch(mx.nd.ones((2, 2)))
    with pytest.raises(AssertionError, match="Label must be list of NDArrays"):
        mx.io.DataBatch([mx.nd.ones((2, 2))], mx.nd.ones((2,)))


def test_the_learners_arrays_are_not_changed_by_a_failed_iterator():
    x, y = mx.nd.array(X), mx.nd.array(Y[:7])
    before = snapshot([x, y])
    with pytest.raises(ValueError):
        mx.io.NDArrayIter({"data": x}, {"softmax_label": y}, batch_size=4)
    assert_unchanged(before, [x, y])


def test_nan_data_is_passed_through_unchanged():
    """Not a mistake NDArrayIter can see: NaN rows reach the batches as they are (MXNet too)."""
    data = np.full((4, 2), np.nan, np.float32)
    batch = next(iter(mx.io.NDArrayIter(data, batch_size=2)))
    assert np.isnan(batch.data[0].asnumpy()).all()
