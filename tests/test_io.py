"""mx.io: NDArrayIter's batches, shuffling with the engine's seed, DataIter subclasses, errors."""

import numpy as np
import pytest

import minisym as mx


def rows(it):
    """The first column of every batch's data, as ints, and the pads."""
    return [(b.data[0].asnumpy()[:, 0].astype(int).tolist(), b.pad) for b in it]


def test_pad_wraps_to_the_start_and_reports_padding():
    it = mx.io.NDArrayIter(np.arange(10).reshape(5, 2), batch_size=2)
    assert rows(it) == [([0, 2], 0), ([4, 6], 0), ([8, 0], 1)]


def test_roll_over_carries_leftovers_into_the_next_epoch_only_after_reset():
    it = mx.io.NDArrayIter(np.arange(10).reshape(5, 2), batch_size=2, last_batch_handle="roll_over")
    assert rows(it) == [([0, 2], 0), ([4, 6], 0)]
    it.reset()
    # pad counts the rows that came from the previous epoch
    assert rows(it) == [([8, 0], 1), ([2, 4], 0), ([6, 8], 0)]
    it.hard_reset()
    assert rows(it) == [([0, 2], 0), ([4, 6], 0)]


def test_batches_are_copies_of_the_source():
    source = mx.nd.array(np.arange(6).reshape(3, 2))
    batch = next(mx.io.NDArrayIter(source, batch_size=2))
    batch.data[0][:] = -1
    assert source.asnumpy()[0, 0] == 0


def test_input_dtypes_numpy_becomes_float32_ndarray_keeps_its_own():
    it = mx.io.NDArrayIter(
        {"f": np.ones((4, 2), dtype=np.float64), "i": mx.nd.ones((4, 2), dtype="int32")},
        batch_size=2,
    )
    assert [np.dtype(d.dtype).name for d in it.provide_data] == ["float32", "int32"]
    assert [d.name for d in it.provide_data] == ["f", "i"]


def test_shuffle_is_repeatable_with_the_engine_seed_and_keeps_labels_aligned():
    def one_epoch():
        it = mx.io.NDArrayIter(
            np.arange(20).reshape(10, 2), np.arange(10) * 2, batch_size=5, shuffle=True
        )
        out = []
        for batch in it:
            data, label = batch.data[0].asnumpy(), batch.label[0].asnumpy()
            assert np.array_equal(data[:, 0], label)
            out.extend(label.astype(int).tolist())
        return out

    mx.random.seed(7)
    first = one_epoch()
    mx.random.seed(7)
    assert one_epoch() == first
    assert sorted(first) == list(range(0, 20, 2))
    mx.random.seed(8)
    assert one_epoch() != first


def test_data_desc_is_a_name_shape_pair_with_dtype_and_layout():
    desc = mx.io.DataDesc("data", (2, 3), np.int32, "NC")
    assert tuple(desc) == ("data", (2, 3))
    assert repr(desc) == "DataDesc[data,(2, 3),<class 'numpy.int32'>,NC]"
    assert mx.io.DataDesc.get_batch_axis("TNC") == 1


def test_data_batch_str():
    batch = mx.io.DataBatch([mx.nd.ones((2, 3))], [mx.nd.ones((2,))])
    assert str(batch) == "DataBatch: data shapes: [(2, 3)] label shapes: [(2,)]"
    with pytest.raises(AssertionError, match="Data must be list of NDArrays"):
        mx.io.DataBatch(mx.nd.ones((2, 3)))


def test_data_iter_subclass_sets_provide_data_or_hears_what_is_missing():
    class Given(mx.io.DataIter):
        def __init__(self):
            super().__init__(4)
            self.provide_data = [mx.io.DataDesc("x", (4, 1))]

    assert Given().provide_data[0].name == "x"
    bare = mx.io.DataIter()
    assert not hasattr(bare, "provide_label")
    with pytest.raises(AttributeError, match="provide_data"):
        _ = bare.provide_data


def test_roll_over_batch_larger_than_the_data_is_an_error_that_says_so():
    it = mx.io.NDArrayIter(np.arange(2), batch_size=5, last_batch_handle="roll_over")
    assert list(it) == []
    it.reset()
    with pytest.raises(mx.base.MXNetError, match="batch_size 5 is too large for 2 examples"):
        next(it)


def test_getdata_after_the_end_needs_reset():
    it = mx.io.NDArrayIter(np.arange(4), batch_size=2)
    list(it)
    with pytest.raises(AssertionError, match="needs reset"):
        it.getdata()
