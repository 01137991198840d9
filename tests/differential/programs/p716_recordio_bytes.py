"""mx.recordio's bytes: MXRecordIO records (empty, unaligned lengths, data holding the magic
number at aligned and unaligned places, so records are cut into parts) written to a file whose
hex is recorded, read back in order, after reset, and past the end; MXIndexedRecordIO's index
file text, keys, offsets and read_idx (int and str keys); pack / unpack with a number label,
an array label, a tuple header, a flag that pack overrides; and the exception classes of
misuse (read on a writer, write on a reader, str records, a bad flag, a missing file, a closed
file, an unknown key, tell on a reader, unpacking too few bytes)."""
import os
import struct
import tempfile

import numpy as np
from _common import err

MAGIC = struct.pack("<I", 0xced7230a)
RECORDS = [b"", b"a", b"abcd", b"hello world", MAGIC, b"abcd" + MAGIC + b"xy", MAGIC + MAGIC,
           b"12" + MAGIC + b"34", b"abcdefgh" + MAGIC, bytes(range(256)) * 3]


def _hex(path):
    with open(path, "rb") as f:
        return f.read().hex()


def _header(h):
    label = h.label.tolist() if isinstance(h.label, np.ndarray) else h.label
    return {"type": type(h).__name__, "fields": list(h._fields), "flag": h.flag, "label": label,
            "label_is_array": isinstance(h.label, np.ndarray), "id": h.id, "id2": h.id2}


def run(mx):
    folder = tempfile.mkdtemp()
    rec = os.path.join(folder, "a.rec")
    res = {}
    w = mx.recordio.MXRecordIO(rec, "w")
    res["writer"] = {"flag": w.flag, "is_open": w.is_open, "writable": w.writable}
    for r in RECORDS:
        w.write(r)
    res["read_on_writer"] = err(mx, w.read)
    res["write_str"] = err(mx, w.write, "text")
    w.close()
    res["file_hex"] = _hex(rec)
    r = mx.recordio.MXRecordIO(rec, "r")
    read = []
    while True:
        item = r.read()
        if item is None:
            break
        read.append(item.hex())
    res["read"] = read
    res["read_past_end"] = r.read() is None
    r.reset()
    res["after_reset"] = [r.read().hex(), r.read().hex()]
    res["write_on_reader"] = err(mx, r.write, b"x")
    r.close()
    res["closed"] = {"is_open": r.is_open, "read": err(mx, r.read)}
    res["bad_flag"] = err(mx, mx.recordio.MXRecordIO, rec, "a")
    res["missing_file"] = err(mx, mx.recordio.MXRecordIO, os.path.join(folder, "no.rec"), "r")
    res["missing_folder"] = err(mx, mx.recordio.MXRecordIO,
                                os.path.join(folder, "no", "x.rec"), "w")
    idx, rec2 = os.path.join(folder, "b.idx"), os.path.join(folder, "b.rec")
    w = mx.recordio.MXIndexedRecordIO(idx, rec2, "w")
    for i, item in enumerate([b"zero", b"one1", b"two!!", MAGIC * 2]):
        w.write_idx(i * 10, item)
    res["indexed_writer"] = {"keys": list(w.keys), "idx": sorted(w.idx.items()),
                             "tell": w.tell()}
    w.close()
    with open(idx) as f:
        res["index_text"] = f.read()
    res["indexed_hex"] = _hex(rec2)
    r = mx.recordio.MXIndexedRecordIO(idx, rec2, "r")
    res["indexed_reader"] = {"keys": list(r.keys), "idx": sorted(r.idx.items()),
                             "read_idx_20": r.read_idx(20).hex(), "read_idx_0": r.read_idx(0).hex(),
                             "then_read": r.read().hex(), "unknown_key": err(mx, r.read_idx, 5),
                             "tell_on_reader": err(mx, r.tell)}
    r.seek(30)
    res["seek_30"] = r.read().hex()
    r.close()
    sidx, srec = os.path.join(folder, "s.idx"), os.path.join(folder, "s.rec")
    w = mx.recordio.MXIndexedRecordIO(sidx, srec, "w", key_type=str)
    w.write_idx("a", b"A")
    w.write_idx("b", b"BB")
    w.close()
    r = mx.recordio.MXIndexedRecordIO(sidx, srec, "r", key_type=str)
    res["str_keys"] = {"keys": list(r.keys), "b": r.read_idx("b").hex()}
    r.close()
    h = mx.recordio.IRHeader(0, 3.5, 7, 0)
    packs = {"number": mx.recordio.pack(h, b"payload"),
             "array": mx.recordio.pack(mx.recordio.IRHeader(0, [1, 2.5, 3], 9, 1), b"xy"),
             "tuple_header": mx.recordio.pack((0, np.array([4.0]), 1, 2), b""),
             "flag_overridden": mx.recordio.pack(mx.recordio.IRHeader(5, 2, 1, 0), b"q"),
             "int_label": mx.recordio.pack(mx.recordio.IRHeader(0, 4, 2 ** 40, 3), b"z")}
    res["pack"] = {k: v.hex() for k, v in packs.items()}
    res["unpack"] = {k: [_header(mx.recordio.unpack(v)[0]), mx.recordio.unpack(v)[1].hex()]
                     for k, v in packs.items()}
    res["pack_str"] = err(mx, mx.recordio.pack, h, "text")
    res["unpack_short"] = err(mx, mx.recordio.unpack, b"abc")
    return res
