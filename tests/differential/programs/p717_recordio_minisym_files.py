"""MXNet reads what minisym writes: the record files in tests/fixtures/minisym_recordio/
(written by minisym, see tests/test_recordio.py) read with MXRecordIO and MXIndexedRecordIO,
every record unpacked (headers, labels, payloads), and the files' sha256."""
import os

import numpy as np
from _common import fixture_dir, fixture_files


def _unpacked(mx, s):
    h, payload = mx.recordio.unpack(s)
    label = h.label.tolist() if isinstance(h.label, np.ndarray) else h.label
    return [h.flag, label, h.id, h.id2, payload.hex()]


def run(mx):
    folder = fixture_dir("minisym_recordio")
    res = {"files": [[name, digest] for name, _, digest in fixture_files("minisym_recordio")]}
    r = mx.recordio.MXRecordIO(os.path.join(folder, "packed.rec"), "r")
    records = []
    while True:
        s = r.read()
        if s is None:
            break
        records.append(s)
    r.close()
    res["packed"] = [_unpacked(mx, s) for s in records[:-1]]
    res["raw_last"] = records[-1].hex()
    r = mx.recordio.MXIndexedRecordIO(os.path.join(folder, "indexed.idx"),
                                      os.path.join(folder, "indexed.rec"), "r")
    res["indexed"] = {"keys": list(r.keys), "by_key": {str(k): _unpacked(mx, r.read_idx(k))
                                                        for k in (1, 2, 3)}}
    r.close()
    return res
