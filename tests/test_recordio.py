"""mx.recordio: MXNet's bytes (p716 compares a whole file with MXNet's), the files minisym
wrote that MXNet read back (p717; here: minisym still writes exactly those bytes), messages,
and pack_img / unpack_img without and with OpenCV.

The files in tests/fixtures/minisym_recordio/ are written by ``build_files`` below:
``python -c "import sys; sys.path.insert(0, 'tests'); import test_recordio as t, minisym as mx;
t.build_files(mx, 'tests/fixtures/minisym_recordio')"``.
"""

import hashlib
import os
import struct
import sys
import types

import numpy as np
import pytest

import minisym as mx

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "minisym_recordio")
MAGIC = struct.pack("<I", 0xCED7230A)


def build_files(mx, folder):
    """Write the record files MXNet reads in p717: packed records with number and array
    labels, one holding the magic number (cut into parts), and an indexed pair."""
    os.makedirs(folder, exist_ok=True)
    w = mx.recordio.MXRecordIO(os.path.join(folder, "packed.rec"), "w")
    for i in range(4):
        label = float(i) / 2 if i % 2 else [i, i + 0.5, -1.0]
        w.write(
            mx.recordio.pack(
                mx.recordio.IRHeader(0, label, i, 100 + i), bytes(range(i * 7, i * 7 + 5 + i))
            )
        )
    w.write(b"raw" + MAGIC + b"data" + MAGIC)
    w.close()
    w = mx.recordio.MXIndexedRecordIO(
        os.path.join(folder, "indexed.idx"), os.path.join(folder, "indexed.rec"), "w"
    )
    for key in (3, 1, 2):
        w.write_idx(key, mx.recordio.pack((0, key * 1.5, key, 0), b"record %d" % key))
    w.close()


def _digests(folder):
    digests = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as f:
            digests[name] = hashlib.sha256(f.read()).hexdigest()
    return digests


def test_minisym_still_writes_the_files_mxnet_read(tmp_path):
    build_files(mx, str(tmp_path))
    assert _digests(str(tmp_path)) == _digests(FIXTURES)


def test_a_record_holding_the_magic_number_is_cut_into_parts_and_joined_back(tmp_path):
    path = str(tmp_path / "m.rec")
    with mx.recordio.MXRecordIO(path, "w") as w:
        w.write(b"abcd" + MAGIC + b"xy")
    with open(path, "rb") as f:
        raw = f.read()
    assert raw == (
        MAGIC
        + struct.pack("<I", 1 << 29 | 4)
        + b"abcd"
        + MAGIC
        + struct.pack("<I", 3 << 29 | 2)
        + b"xy\0\0"
    )
    r = mx.recordio.MXRecordIO(path, "r")
    assert r.read() == b"abcd" + MAGIC + b"xy" and r.read() is None


def test_pack_and_unpack_round_trip_both_kinds_of_label():
    header, payload = mx.recordio.unpack(mx.recordio.pack((0, [1, 2], 5, 6), b"xyz"))
    assert header.flag == 2 and header.label.dtype == np.float32
    assert header.label.tolist() == [1.0, 2.0] and payload == b"xyz"
    header, payload = mx.recordio.unpack(mx.recordio.pack((9, 0.5, 5, 6), b""))
    assert header == mx.recordio.IRHeader(0, 0.5, 5, 6) and payload == b""


def test_misuse_says_what_to_do(tmp_path):
    path = str(tmp_path / "a.rec")
    w = mx.recordio.MXRecordIO(path, "w")
    with pytest.raises(TypeError, match=r"encode text first: record.write\(text.encode"):
        w.write("text")
    with pytest.raises(AssertionError, match="opened to write .* flag='r' to read"):
        w.read()
    w.close()
    with pytest.raises(RuntimeError, match="is closed; call reset"):
        w.write(b"x")
    with pytest.raises(OSError) as info:
        mx.recordio.MXRecordIO(str(tmp_path / "missing.rec"), "r")
    assert isinstance(info.value, mx.base.MXNetError) and "missing.rec" in str(info.value)
    with pytest.raises(ValueError, match="Invalid flag a: MXRecordIO opens"):
        mx.recordio.MXRecordIO(path, "a")


def test_a_file_that_is_not_a_record_file_names_the_byte(tmp_path):
    path = tmp_path / "bad.rec"
    path.write_bytes(MAGIC + struct.pack("<I", 2) + b"ab\0\0" + b"junkjunk")
    r = mx.recordio.MXRecordIO(str(path), "r")
    assert r.read() == b"ab"
    with pytest.raises(mx.base.MXNetError, match="no record start at byte 12"):
        r.read()


def test_an_unknown_key_lists_the_keys(tmp_path):
    w = mx.recordio.MXIndexedRecordIO(str(tmp_path / "x.idx"), str(tmp_path / "x.rec"), "w")
    w.write_idx(7, b"seven")
    w.close()
    r = mx.recordio.MXIndexedRecordIO(str(tmp_path / "x.idx"), str(tmp_path / "x.rec"), "r")
    with pytest.raises(KeyError, match=r"5 is not a key .* its keys are \[7\]"):
        r.read_idx(5)
    assert r.read_idx(7) == b"seven"


def test_images_need_opencv_and_say_so(monkeypatch):
    monkeypatch.setitem(sys.modules, "cv2", None)  # import cv2 fails, as without OpenCV
    for call in (
        lambda: mx.recordio.pack_img((0, 1, 2, 0), np.zeros((2, 2, 3), np.uint8)),
        lambda: mx.recordio.unpack_img(mx.recordio.pack((0, 1, 2, 0), b"")),
    ):
        with pytest.raises(ImportError) as info:
            call()
        assert "needs OpenCV" in str(info.value) and "opencv-python-headless" in str(info.value)


def test_images_go_through_opencv_when_it_is_there(monkeypatch):
    calls = []
    fake = types.SimpleNamespace(
        IMWRITE_JPEG_QUALITY=1,
        IMWRITE_PNG_COMPRESSION=16,
        imencode=lambda fmt, img, params: (
            calls.append((fmt, params)) or True,
            np.frombuffer(img.tobytes(), np.uint8),
        ),
        imdecode=lambda buf, flag: calls.append(("decode", flag)) or buf.reshape(2, 2, 3),
    )
    monkeypatch.setitem(sys.modules, "cv2", fake)
    img = np.arange(12, dtype=np.uint8).reshape(2, 2, 3)
    s = mx.recordio.pack_img((0, 3.0, 1, 0), img, quality=80, img_fmt=".png")
    header, back = mx.recordio.unpack_img(s, iscolor=1)
    assert header.label == 3.0 and np.array_equal(back, img)
    assert calls == [(".png", [16, 80]), ("decode", 1)]
