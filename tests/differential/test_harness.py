"""Self-tests of the differential harness: the comparator must be able to fail."""

import json
import os
import sys
import types

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import harness  # noqa: E402


def _norm(v):
    j, arrays = harness.normalize(v)
    return harness.roundtrip(j), arrays


def _cmp(expected, actual, **tol):
    (e, ea), (a, aa) = _norm(expected), _norm(actual)
    return harness.compare(e, a, ea, aa, **tol)


BASE = {
    "args": ["data", "fc1_weight", "fc1_bias", "softmax_label"],
    "shapes": [(2, 3), (4, 3), (4,)],
    "value": 0.5,
    "arr": np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32),
    "ints": np.array([1, 2, 3], dtype=np.int32),
    "n": 3,
    "flag": True,
}


def _changed(**kw):
    d = dict(BASE)
    d.update(kw)
    return d


def test_identical_is_equal():
    assert _cmp(BASE, dict(BASE)) == []


def test_changed_name_is_caught():
    bad = _changed(args=["data", "fc1_weight", "fc1_bias", "sm_label"])
    problems = _cmp(BASE, bad)
    assert len(problems) == 1
    assert "result['args'][3]" in problems[0]
    assert "'softmax_label'" in problems[0] and "'sm_label'" in problems[0]


def test_changed_shape_is_caught():
    problems = _cmp(BASE, _changed(shapes=[(2, 3), (4, 2), (4,)]))
    assert problems and problems[0].startswith("result['shapes'][1][1]")
    problems = _cmp(BASE, _changed(shapes=[(2, 3), (4, 3, 1), (4,)]))
    assert problems and problems[0].startswith("result['shapes'][1]")
    # the shape of an array is compared exactly too
    problems = _cmp(BASE, _changed(arr=BASE["arr"].reshape(1, 4)))
    assert problems and "result['arr']" in problems[0]


def test_float_beyond_tolerance_is_caught():
    assert _cmp(BASE, _changed(value=0.5 + 1e-3)) != []
    arr = BASE["arr"].copy()
    arr[1, 0] += 1e-2
    problems = _cmp(BASE, _changed(arr=arr))
    assert len(problems) == 1 and "result['arr']" in problems[0] and "[1, 0]" in problems[0]


def test_float_within_tolerance_is_accepted():
    assert _cmp(BASE, _changed(value=0.5 * (1 + 5e-5))) == []
    arr = BASE["arr"] * (1 + 5e-5)
    assert _cmp(BASE, _changed(arr=arr.astype(np.float32))) == []
    # ... and a looser tolerance accepts more
    assert _cmp(BASE, _changed(value=0.5 + 1e-3), rtol=1e-2, atol=0) == []


def test_exact_kinds():
    assert _cmp(BASE, _changed(n=3.0)) != []  # int vs float
    assert _cmp(BASE, _changed(flag=1)) != []  # bool vs int
    assert _cmp(BASE, _changed(ints=np.array([1, 2, 4], np.int32))) != []
    assert _cmp(BASE, _changed(ints=np.array([1, 2, 3], np.int64))) != []  # dtype
    assert _cmp(BASE, _changed(arr=BASE["arr"].astype(np.float64))) != []
    extra = dict(BASE, more=1)
    assert "unexpected ['more']" in _cmp(BASE, extra)[0]
    assert _cmp({"s": "a\nb\nc"}, {"s": "a\nB\nc"})[0].startswith("result['s']: strings differ")
    assert _cmp({"x": None}, {"x": [None]}) != []


def test_nan_and_inf_match_only_themselves():
    nan, inf = float("nan"), float("inf")
    assert _cmp({"v": nan}, {"v": nan}) == []
    assert _cmp({"v": inf}, {"v": inf}) == []
    for expected, actual in ((nan, 1.0), (1.0, nan), (inf, 1e300), (inf, -inf)):
        assert _cmp({"v": expected}, {"v": actual}, rtol=1.0, atol=1.0) != [], (expected, actual)
    arr = np.array([1.0, np.nan, np.inf])
    assert _cmp({"a": arr}, {"a": arr.copy()}) == []
    assert _cmp({"a": arr}, {"a": np.array([1.0, 2.0, np.inf])}) != []
    assert _cmp({"a": arr}, {"a": np.array([np.nan, np.nan, np.inf])}) != []
    assert _cmp({"a": arr}, {"a": np.array([1.0, np.nan, -np.inf])}) != []


def test_missing_keys_and_list_lengths_are_caught():
    problems = _cmp(BASE, {k: v for k, v in BASE.items() if k != "n"})
    assert len(problems) == 1 and "missing ['n']" in problems[0]
    problems = _cmp(BASE, _changed(args=BASE["args"][:3]))
    assert problems and "length 4, got length 3" in problems[0]


def test_normalize_converts_and_rejects():
    j, arrays = harness.normalize(
        {
            "t": (1, (2, 3)),
            "f": np.float32(0.25),
            "i": np.int64(7),
            "b": np.bool_(True),
            "a": np.zeros((2, 0)),
        }
    )
    assert j["t"] == [1, [2, 3]] and j["f"] == 0.25 and j["i"] == 7 and j["b"] is True
    assert type(j["i"]) is int and type(j["f"]) is float
    assert j["a"] == {"__array__": "arr0", "dtype": "float64", "shape": [2, 0]}
    assert arrays["arr0"].shape == (2, 0)
    with pytest.raises(TypeError, match=r"result\['k'\]"):
        harness.normalize({"k": object()})
    with pytest.raises(TypeError, match="not a str"):
        harness.normalize({1: 2})
    with pytest.raises(TypeError, match="object arrays"):
        harness.normalize({"o": np.array([None, 1], dtype=object)})


class _FakeNameManager:
    entered = 0

    def __enter__(self):
        _FakeNameManager.entered += 1
        return self

    def __exit__(self, *exc):
        return False


def test_run_program_records_user_warnings(tmp_path, monkeypatch):
    import warnings

    prog = tmp_path / "p999_fake.py"
    prog.write_text(
        "import warnings\n"
        "def run(mx):\n"
        "    warnings.warn('shape unknown', UserWarning)\n"
        "    warnings.warn('old', DeprecationWarning)\n"
        "    return {'x': (1, 2)}\n"
    )
    monkeypatch.setattr(harness, "PROGRAMS_DIR", str(tmp_path))
    fake_mx = types.SimpleNamespace(name=types.SimpleNamespace(NameManager=_FakeNameManager))
    before = _FakeNameManager.entered
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the harness must not depend on the outer filter
        result = harness.run_program(fake_mx, "p999_fake")
    assert _FakeNameManager.entered == before + 1
    assert result == {"x": (1, 2), "__warnings__": [["UserWarning", "shape unknown"]]}


def test_fixture_roundtrip_and_sha_check(tmp_path, monkeypatch):
    prog = tmp_path / "p998_fake.py"
    prog.write_text(
        "import numpy as np\n"
        "def run(mx):\n"
        "    return {'a': np.arange(3, dtype=np.float32), 'n': mx.VALUE}\n"
    )
    monkeypatch.setattr(harness, "PROGRAMS_DIR", str(tmp_path))
    monkeypatch.setattr(harness, "FIXTURES_DIR", str(tmp_path / "fx"))
    mx = types.SimpleNamespace(name=types.SimpleNamespace(NameManager=_FakeNameManager), VALUE=1)
    harness.write_fixture("p998_fake", harness.run_program(mx, "p998_fake"), "1.9.1")
    assert (tmp_path / "fx" / "p998_fake.npz").exists()
    assert harness.replay(mx, "p998_fake") == ("ok", "")
    mx.VALUE = 2
    status, msg = harness.replay(mx, "p998_fake")
    assert status == "mismatch" and "result['n']: expected 1, got 2" in msg
    prog.write_text(prog.read_text() + "# edited\n")
    status, msg = harness.replay(mx, "p998_fake")
    assert status == "changed" and "re-record" in msg
    status, msg = harness.replay(mx, "p997_absent")
    assert status == "missing" and "record.py p997_absent" in msg


def test_every_program_has_a_run_function():
    names = harness.list_programs()
    assert len(names) >= 45
    for name in names:
        with open(harness.program_path(name), encoding="utf-8") as f:
            src = f.read()
        assert "def run(mx)" in src, name
        assert "import mxnet" not in src and "import minisym" not in src, name


def test_no_orphan_fixtures():
    programs = set(harness.list_programs())
    orphans = []
    for fn in sorted(os.listdir(harness.FIXTURES_DIR)):
        stem, ext = os.path.splitext(fn)
        if ext in (".json", ".npz") and stem[:1] == "p" and stem[1:4].isdigit():
            if stem not in programs:
                orphans.append(fn)
    assert not orphans, "fixtures without a program (delete them): %s" % orphans


def _fake_program(tmp_path, monkeypatch):
    """A one-program tree (p996_fake) with its fixture recorded from minisym itself."""
    import minisym as mx

    (tmp_path / "p996_fake.py").write_text(
        "def run(mx):\n    return {'shape': mx.sym.Variable('x', shape=(2, 3)).infer_shape()[0]}\n"
    )
    monkeypatch.setattr(harness, "PROGRAMS_DIR", str(tmp_path))
    monkeypatch.setattr(harness, "FIXTURES_DIR", str(tmp_path / "fx"))
    harness.write_fixture("p996_fake", harness.run_program(mx, "p996_fake"), "1.9.1")
    return tmp_path / "fx" / "p996_fake.json"


def test_record_reports_a_match_and_a_mismatch_under_minisym(tmp_path, monkeypatch, capsys):
    import record

    fixture = _fake_program(tmp_path, monkeypatch)
    assert record.main(["--engine", "minisym", "p996_fake"]) == 0
    assert "OK       p996_fake" in capsys.readouterr().out
    doc = json.loads(fixture.read_text())
    doc["result"]["shape"] = [[2, 4]]  # as if MXNet had said (2, 4)
    fixture.write_text(json.dumps(doc))
    assert record.main(["--engine", "minisym"]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH p996_fake" in out and "1 failed: p996_fake" in out
    with pytest.raises(SystemExit, match="unknown program 'p995_absent'"):
        record.main(["--engine", "minisym", "p995_absent"])


def test_record_refuses_any_mxnet_but_1_9_1(tmp_path, monkeypatch, capsys):
    import record

    fixture = _fake_program(tmp_path, monkeypatch)
    before = fixture.read_text()
    old_mxnet = types.SimpleNamespace(__version__="1.8.0")
    monkeypatch.setattr(record, "_import_engine", lambda engine: old_mxnet)
    assert record.main(["p996_fake"]) == 2
    assert "refusing to record with MXNet 1.8.0" in capsys.readouterr().out
    assert fixture.read_text() == before  # nothing written


def test_a_program_leaves_the_custom_operator_registry_as_it_was():
    """p740 registers MXNet's example softmax as 'softmax': other tests must not meet it."""
    import minisym as mx

    before = dict(mx.operator._PROPS)
    harness.run_program(mx, "p740_example_custom_softmax")
    assert mx.operator._PROPS == before
