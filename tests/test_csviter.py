"""mx.io.CSVIter: MXNet's batches (recorded in p715), the errors that name the line and the fix,
and a Module trained from it."""

import numpy as np
import pytest

import minisym as mx


@pytest.fixture
def files(tmp_path):
    data = tmp_path / "data.csv"
    data.write_text("".join(f"{3 * i},{3 * i + 1},{3 * i + 2}\n" for i in range(10)))
    label = tmp_path / "label.csv"
    label.write_text("".join(f"{i % 2}\n" for i in range(10)))
    return tmp_path, str(data), str(label)


def test_batches_wrap_around_and_the_next_epoch_starts_after_the_wrapped_rows(files):
    _, data, label = files
    it = mx.io.CSVIter(data_csv=data, data_shape=(3,), label_csv=label, batch_size=4)
    first = [(b.data[0].asnumpy()[:, 0].tolist(), b.pad) for b in it]
    assert first == [([0, 3, 6, 9], 0), ([12, 15, 18, 21], 0), ([24, 27, 0, 3], 2)]
    it.reset()
    assert [b.index.tolist() for b in it] == [[2, 3, 4, 5], [6, 7, 8, 9]]
    assert it.provide_label[0].shape == (4,) and it.provide_data[0].shape == (4, 3)


def test_without_round_batch_the_pad_rows_keep_the_previous_batch(files):
    _, data, _ = files
    it = mx.io.CSVIter(data_csv=data, data_shape=(3,), batch_size=3, round_batch=False)
    last = list(it)[-1]
    assert last.pad == 2 and last.data[0].asnumpy()[:, 0].tolist() == [27, 21, 24]
    assert last.label[0].asnumpy().tolist() == [0, 0, 0]  # no label_csv: zeros


def test_a_row_of_the_wrong_length_names_the_line_and_the_shape_to_give(files):
    folder, data, _ = files
    with pytest.raises(mx.base.MXNetError) as info:
        mx.io.CSVIter(data_csv=data, data_shape=(2,), batch_size=2)
    text = str(info.value)
    assert "line 1 of data_csv=" in text and "has 3 numbers but data_shape=(2,) needs 2" in text
    assert "data_shape=(3,)" in text
    ragged = folder / "ragged.csv"
    ragged.write_text("1,2,3\n4,5\n")
    with pytest.raises(ValueError, match="line 2 of data_csv=.* has 2 numbers"):
        mx.io.CSVIter(data_csv=str(ragged), data_shape=(3,), batch_size=1)


def test_a_header_line_is_named_with_the_fix(files):
    folder, _, _ = files
    header = folder / "header.csv"
    header.write_text("a,b,c\n1,2,3\n")
    with pytest.raises(
        mx.base.MXNetError, match="'a', which is not a number.*remove the header line"
    ):
        mx.io.CSVIter(data_csv=str(header), data_shape=(3,), batch_size=1)


def test_a_missing_file_is_an_os_error_too(files):
    folder, _, _ = files
    with pytest.raises(OSError) as info:
        mx.io.CSVIter(data_csv=str(folder / "nope.csv"), data_shape=(3,), batch_size=1)
    assert isinstance(info.value, mx.base.MXNetError)
    assert "cannot read data_csv=" in str(info.value) and "nope.csv" in str(info.value)


def test_parameters_are_checked_when_it_is_made(files):
    _, data, _ = files
    with pytest.raises(TypeError, match=r"unexpected keyword argument\(s\) \['batchsize'\]"):
        mx.io.CSVIter(data_csv=data, data_shape=(3,), batch_size=2, batchsize=4)
    with pytest.raises(mx.base.MXNetError, match="Required parameter data_shape"):
        mx.io.CSVIter(data_csv=data, batch_size=2)
    with pytest.raises(ValueError, match="batch_size=0 must be a whole number >= 1"):
        mx.io.CSVIter(data_csv=data, data_shape=(3,), batch_size=0)
    with pytest.raises(mx.base.MXNetError, match="write dtype='int32'"):
        mx.io.CSVIter(data_csv=data, data_shape=(3,), batch_size=2, dtype=np.int32)
    with pytest.raises(mx.base.MXNetError, match="float64 is not supported for CSVIter"):
        mx.io.CSVIter(data_csv=data, data_shape=(3,), batch_size=2, dtype="float64")


def test_fewer_label_rows_than_data_rows_names_both_counts(files):
    folder, data, _ = files
    short = folder / "short.csv"
    short.write_text("1\n2\n")
    with pytest.raises(mx.base.MXNetError, match="has 2 rows but data_csv .* has 10"):
        mx.io.CSVIter(data_csv=data, data_shape=(3,), label_csv=str(short), batch_size=2)


def test_module_fit_reads_a_csv_iter(files):
    _, data, label = files
    it = mx.io.CSVIter(data_csv=data, data_shape=(3,), label_csv=label, batch_size=5)
    net = mx.sym.SoftmaxOutput(
        mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=2), name="softmax"
    )
    mod = mx.mod.Module(net)
    mod.fit(it, num_epoch=2, optimizer_params={"learning_rate": 0.01}, progress_bar="off")
    assert mod.get_params()[0]["fullyconnected0_weight"].shape == (2, 3)


def test_long_decimals_are_read_bit_for_bit_as_mxnet_reads_them(tmp_path):
    import json
    import os

    fixtures = os.path.join(os.path.dirname(__file__), "fixtures")
    with open(os.path.join(fixtures, "p715_csviter.json")) as f:
        entry = json.load(f)["result"]["long_decimals"][0][0]["data"]["__array__"]
    recorded = np.load(os.path.join(fixtures, "p715_csviter.npz"))[entry]  # MXNet 1.9.1's
    path = str(tmp_path / "long.csv")
    values = np.random.RandomState(0).rand(40, 3) * [1, 1e3, 1e-3]
    np.savetxt(path, values, delimiter=",")  # the same file p715 writes
    read = mx.io.CSVIter(data_csv=path, data_shape=(3,), batch_size=40).next().data[0]
    assert np.array_equal(read.asnumpy().view(np.uint32), recorded.view(np.uint32))
    assert not np.array_equal(recorded, values.astype(np.float32))  # not numpy's rounding
