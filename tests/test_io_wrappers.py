"""mx.io.ResizeIter, PrefetchingIter and MNISTIter (values checked against MXNet in p850, p854)."""

import struct

import numpy as np
import pytest

import minisym as mx
from minisym.io.mnist import mt19937_shuffle


def firsts(it):
    """The first column of each data array of every batch, as ints."""
    return [[d.asnumpy()[:, 0].astype(int).tolist() for d in b.data] for b in it]


X = np.arange(10, dtype=np.float32).reshape(5, 2)


def test_resize_iter_docstring_example():
    nd_iter = mx.io.NDArrayIter(mx.nd.ones((100, 10)), batch_size=25)
    shapes = [[d.shape for d in b.data] for b in mx.io.ResizeIter(nd_iter, 2)]
    assert shapes == [[(25, 10)], [(25, 10)]]


def test_resize_iter_restarts_a_shorter_iterator_and_resets():
    it = mx.io.ResizeIter(mx.io.NDArrayIter(X, batch_size=2), 4)
    assert firsts(it) == [[[0, 2]], [[4, 6]], [[8, 0]], [[0, 2]]]
    it.reset()
    assert len(firsts(it)) == 4


def test_resize_iter_without_reset_internal_goes_on():
    it = mx.io.ResizeIter(mx.io.NDArrayIter(X, batch_size=2), 1, reset_internal=False)
    assert firsts(it) == [[[0, 2]]]
    it.reset()
    assert firsts(it) == [[[4, 6]]]


def test_prefetching_iter_docstring_example_renames():
    iter1 = mx.io.NDArrayIter({"data": mx.nd.ones((100, 10))}, batch_size=25)
    iter2 = mx.io.NDArrayIter({"data": mx.nd.ones((100, 10))}, batch_size=25)
    piter = mx.io.PrefetchingIter(
        [iter1, iter2], rename_data=[{"data": "data_1"}, {"data": "data_2"}]
    )
    assert [(d.name, d.shape) for d in piter.provide_data] == [
        ("data_1", (25, 10)),
        ("data_2", (25, 10)),
    ]
    assert piter.batch_size == 25 and piter.provide_label == []
    assert [len(b.data) for b in piter] == [2, 2, 2, 2]


def test_prefetching_iter_joins_batches_and_labels_and_resets():
    a = mx.io.NDArrayIter(X, np.arange(5), batch_size=2, data_name="a", label_name="la")
    b = mx.io.NDArrayIter(X * 10, np.arange(5) * 10, batch_size=2, data_name="b", label_name="lb")
    it = mx.io.PrefetchingIter([a, b], rename_label=[{"la": "A"}, {"lb": "B"}])
    assert [d.name for d in it.provide_label] == ["A", "B"]
    assert firsts(it) == [[[0, 2], [0, 20]], [[4, 6], [40, 60]], [[8, 0], [80, 0]]]
    assert not it.iter_next()
    it.reset()
    batch = it.next()
    assert [lab.asnumpy().tolist() for lab in batch.label] == [[0, 1], [0, 10]]
    assert [d.name for d in batch.provide_label] == ["A", "B"]


def test_prefetching_iter_reads_one_batch_ahead_as_mxnet():
    source = mx.io.NDArrayIter(X, batch_size=2)
    it = mx.io.PrefetchingIter(source)
    assert source.cursor == 0  # the first batch was read when it was made
    it.next()
    assert source.cursor == 2


def test_prefetching_iter_mismatched_iterators_say_so():
    it = mx.io.PrefetchingIter(
        [mx.io.NDArrayIter(X, batch_size=2), mx.io.NDArrayIter(X[:2], batch_size=2)]
    )
    assert it.iter_next()
    with pytest.raises(AttributeError, match="Number of entry mismatches"):
        it.iter_next()


def test_prefetching_iter_rename_map_without_the_name():
    with pytest.raises(KeyError, match="no entry for 'data'"):
        mx.io.PrefetchingIter(mx.io.NDArrayIter(X, batch_size=2), rename_data=[{"x": "y"}])


def test_std_shuffle_order_is_mxnets():
    # MNISTIter(shuffle=True) of 10 images in MXNet 1.9.1 gives this order
    assert mt19937_shuffle(10, 0).tolist() == [0, 2, 3, 5, 9, 1, 6, 8, 4, 7]


def write_idx(path, items, rows=2, cols=2, images=True):
    with open(path, "wb") as f:
        if images:
            f.write(struct.pack(">IIII", 2051, items, rows, cols))
            f.write((np.arange(items * rows * cols) % 256).astype(np.uint8).tobytes())
        else:
            f.write(struct.pack(">II", 2049, items))
            f.write(np.arange(items, dtype=np.uint8).tobytes())


def test_mnist_iter_reads_drops_the_incomplete_batch_and_flattens(tmp_path):
    write_idx(tmp_path / "img", 5)
    write_idx(tmp_path / "lab", 5, images=False)
    it = mx.io.MNISTIter(
        image=str(tmp_path / "img"),
        label=str(tmp_path / "lab"),
        batch_size=2,
        shuffle=False,
        flat=True,
        silent=True,
    )
    batches = list(it)
    assert [b.label[0].asnumpy().tolist() for b in batches] == [[0, 1], [2, 3]]
    assert batches[0].data[0].shape == (2, 4)
    assert batches[0].data[0].asnumpy()[1].tolist() == [4 / 256, 5 / 256, 6 / 256, 7 / 256]


def test_mnist_iter_missing_file(tmp_path):
    with pytest.raises(mx.base.MXNetOSError, match="cannot read image="):
        mx.io.MNISTIter(image=str(tmp_path / "none"), label=str(tmp_path / "none"))
