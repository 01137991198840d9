"""minisym still writes exactly the JSON bytes that MXNet 1.9.1 was shown to read back
(program p076; the files come from tests/differential/make_minisym_json.py)."""

import os
import sys

import minisym as mx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "differential"))
import make_minisym_json  # noqa: E402


def test_minisym_writes_the_committed_bytes(tmp_path):
    names = make_minisym_json.build_files(mx, str(tmp_path))
    assert names == ["conv_bn_net.json", "shared_aux.json", "split_concat_group.json"]
    for name in names:
        with open(os.path.join(make_minisym_json.OUT, name), "rb") as committed:
            expected = committed.read()
        assert (tmp_path / name).read_bytes() == expected, f"{name} changed"
