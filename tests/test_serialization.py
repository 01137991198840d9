"""mx.nd.save / mx.nd.load and mx.model checkpoints in MXNet's binary .params format."""

import importlib.util
import logging
import os
import struct

import numpy as np
import pytest

import minisym as mx
from minisym.arrays.serialization import load_from_bytes, save_to_bytes

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures")


def _make_minisym_files():
    path = os.path.join(HERE, "differential", "make_minisym_files.py")
    spec = importlib.util.spec_from_file_location("make_minisym_files", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_minisym_still_writes_the_committed_bytes_that_mxnet_read(tmp_path):
    committed = os.path.join(FIXTURES, "minisym_params")
    names = _make_minisym_files().build_files(mx, str(tmp_path))
    assert names == sorted(os.listdir(committed))
    for name in names:
        with open(os.path.join(committed, name), "rb") as f:
            expected = f.read()
        assert (tmp_path / name).read_bytes() == expected, f"{name} changed"


def test_reads_files_written_by_mxnet():
    loaded = mx.nd.load(os.path.join(FIXTURES, "mxnet_params", "dict_mixed.params"))
    assert list(loaded) == ["fc1_weight", "fc1_bias", "scale", "counts"]
    assert np.array_equal(
        loaded["fc1_weight"].asnumpy(),
        (-1.5 + 0.25 * np.arange(12)).reshape(3, 4).astype(np.float32),
    )
    assert loaded["scale"].dtype == np.float64
    assert loaded["counts"].asnumpy().tolist() == [[-10, -3, 4], [11, 18, 25]]
    listed = mx.nd.load(os.path.join(FIXTURES, "mxnet_params", "list_mixed.params"))
    assert isinstance(listed, list) and [a.shape for a in listed] == [(2, 3, 2), (4,), (1, 5)]


def test_exact_layout_of_one_array():
    payload = save_to_bytes({"a": mx.nd.array([[1, 2]], dtype="int32")})
    expected = (
        struct.pack("<QQQ", 0x112, 0, 1)
        + struct.pack("<IiiqqiiI", 0xF993FAC9, 0, 2, 1, 2, 1, 0, 4)
        + struct.pack("<ii", 1, 2)
        + struct.pack("<QQ", 1, 1)
        + b"a"
    )
    assert payload == expected


@pytest.mark.parametrize(
    "dtype", ["float32", "float64", "float16", "uint8", "int32", "int8", "int64", "bool"]
)
def test_every_dtype_round_trips(tmp_path, dtype):
    arr = mx.nd.array(np.arange(6).reshape(2, 3) % 2, dtype=dtype)
    mx.nd.save(str(tmp_path / "x.params"), [arr])
    back = mx.nd.load(str(tmp_path / "x.params"))[0]
    assert back.dtype == arr.dtype and np.array_equal(back.asnumpy(), arr.asnumpy())


def test_views_and_other_devices_are_saved_as_their_values(tmp_path):
    base = mx.nd.array(np.arange(12).reshape(3, 4))
    on_gpu = mx.nd.array([1.0, 2.0], ctx=mx.Context("gpu", 1))
    payload = save_to_bytes([base[1:2], base.T, on_gpu])
    back = load_from_bytes(payload)
    assert np.array_equal(back[1].asnumpy(), base.asnumpy().T)
    assert back[0].asnumpy().tolist() == [[4, 5, 6, 7]]
    assert struct.pack("<ii", 2, 1) in payload  # gpu(1) is recorded, as MXNet does
    assert str(back[2].context) == "cpu(0)"


def test_empty_dict_comes_back_as_a_list():
    assert load_from_bytes(save_to_bytes({})) == []


def test_old_array_layouts_still_load():
    values = np.array([1.5, -2.0], dtype=np.float32).tobytes()
    header = struct.pack("<QQQ", 0x112, 0, 1)
    version1 = struct.pack("<Iiq", 0xF993FAC8, 1, 2) + struct.pack("<iii", 1, 0, 0) + values
    original = struct.pack("<II", 1, 2) + struct.pack("<iii", 1, 0, 0) + values
    for record in (version1, original):
        loaded = load_from_bytes(header + record + struct.pack("<Q", 0))
        assert loaded[0].asnumpy().tolist() == [1.5, -2.0]


def test_refusals_teach():
    with pytest.raises(TypeError, match="mx.nd.array"):
        save_to_bytes({"a": np.ones(2)})
    with pytest.raises(mx.base.MXNetError, match="header"):
        load_from_bytes(b"not a params file at all")
    sparse = struct.pack("<QQQ", 0x112, 0, 1) + struct.pack("<Ii", 0xF993FAC9, 2)
    with pytest.raises(mx.base.MXNetError, match="csr"):
        load_from_bytes(sparse)
    truncated = save_to_bytes([mx.nd.ones((4,))])[:-12]
    with pytest.raises(ValueError, match="ends"):
        load_from_bytes(truncated)


def test_checkpoint_round_trip_and_file_names(tmp_path):
    data = mx.sym.Variable("data")
    net = mx.sym.BatchNorm(mx.sym.FullyConnected(data, num_hidden=2, name="fc"), name="bn")
    args = {"fc_weight": mx.nd.ones((2, 3)), "fc_bias": mx.nd.zeros((2,))}
    aux = {"bn_moving_mean": mx.nd.ones((2,)) * 3}
    prefix = str(tmp_path / "net")
    mx.model.save_checkpoint(prefix, 12, net, args, aux)
    assert sorted(os.listdir(tmp_path)) == ["net-0012.params", "net-symbol.json"]
    assert sorted(mx.nd.load(prefix + "-0012.params")) == [
        "arg:fc_bias",
        "arg:fc_weight",
        "aux:bn_moving_mean",
    ]
    symbol, arg_params, aux_params = mx.model.load_checkpoint(prefix, 12)
    assert symbol.tojson() == net.tojson()
    assert sorted(arg_params) == ["fc_bias", "fc_weight"]
    assert aux_params["bn_moving_mean"].asnumpy().tolist() == [3.0, 3.0]


def test_empty_params_file_warns_and_a_list_file_is_not_a_checkpoint(tmp_path, caplog):
    mx.nd.save(str(tmp_path / "e-0001.params"), {})
    with caplog.at_level(logging.WARNING):
        assert mx.model.load_params(str(tmp_path / "e"), 1) == ({}, {})
    assert "is empty" in caplog.text
    mx.nd.save(str(tmp_path / "l-0001.params"), [mx.nd.ones((1,))])
    with pytest.raises(AttributeError, match="without names"):
        mx.model.load_params(str(tmp_path / "l"), 1)
