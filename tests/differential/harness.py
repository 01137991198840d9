"""Shared machinery of the differential tests (used by the recorder and by the replay test).

A *program* is ``programs/pNNN_topic.py`` defining ``run(mx) -> dict``.  It must run unchanged
under MXNet 1.9.1 (``import mxnet as mx``) and under minisym (``import minisym as mx``).

This module knows how to
- find and load programs (``list_programs``, ``load_program``, ``program_sha256``);
- run one under an engine the same way everywhere (``run_program``): a fresh
  ``mx.name.NameManager()``, warnings recorded, UserWarnings (but minisym's MistakeWarnings)
  stored under ``"__warnings__"``;
- normalize a result into JSON + named numpy arrays (``normalize``);
- read and write fixtures (``fixture_paths``, ``write_fixture``, ``read_fixture``);
- compare a replayed result with a fixture (``compare``), floats within tolerance, the
  rest exactly, reporting the path inside the result of every mismatch.

It imports neither MXNet nor minisym: the engine module is passed in.
"""

import hashlib
import importlib.util
import json
import math
import os
import sys
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS_DIR = os.path.join(HERE, "programs")
FIXTURES_DIR = os.path.normpath(os.path.join(HERE, "..", "fixtures"))
PROJECT_ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))

DEFAULT_TOLERANCE = dict(rtol=1e-4, atol=1e-5)
RECORD_COMMAND = (
    "python tests/differential/record.py {name}   (under a real MXNet 1.9.1 installation)"
)

_ARRAY_TAG = "__array__"


# --------------------------------------------------------------------------- programs
def list_programs():
    """Names (without ``.py``) of every program, sorted."""
    names = []
    for fn in os.listdir(PROGRAMS_DIR):
        if fn.startswith("p") and fn.endswith(".py") and fn[1:4].isdigit():
            names.append(fn[:-3])
    return sorted(names)


def program_path(name):
    return os.path.join(PROGRAMS_DIR, name + ".py")


def program_sha256(name):
    with open(program_path(name), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def load_program(name):
    """Import a program file as a fresh module (never cached in sys.modules)."""
    if PROGRAMS_DIR not in sys.path:
        sys.path.insert(0, PROGRAMS_DIR)  # so that programs can ``from _common import err``
    path = program_path(name)
    spec = importlib.util.spec_from_file_location("difftest_program_" + name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tolerance_of(module):
    tol = dict(DEFAULT_TOLERANCE)
    tol.update(getattr(module, "TOLERANCE", {}) or {})
    return tol


def run_program(mx, name, module=None):
    """Run ``name`` under the engine module ``mx``; return the raw result dict.

    The program runs inside a fresh ``mx.name.NameManager()`` (auto-name counters start at 0)
    and inside ``warnings.catch_warnings(record=True)`` with ``simplefilter("always")``; every
    UserWarning (or subclass) is stored as ``[category_name, str(message)]`` under
    ``result["__warnings__"]`` (always present, possibly empty).
    """
    if module is None:
        module = load_program(name)
    # programs register custom operators under common names ('softmax'); minisym's registry
    # is put back afterwards, so that no other test meets a program's class under that name
    registry = getattr(getattr(mx, "operator", None), "_PROPS", None)
    saved = dict(registry) if registry is not None else None
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with mx.name.NameManager():
                result = module.run(mx)
    finally:
        if registry is not None:
            registry.clear()
            registry.update(saved)
    if not isinstance(result, dict):
        raise TypeError("program %s: run(mx) must return a dict, got %r" % (name, type(result)))
    if "__warnings__" in result:
        raise ValueError("program %s: the key '__warnings__' is reserved for the harness" % name)
    result = dict(result)
    # minisym's MistakeWarnings have no MXNet counterpart (tests/test_mistakes_silent.py
    # checks that correct programs raise none; p119 means to)
    result["__warnings__"] = [
        [w.category.__name__, str(w.message)]
        for w in caught
        if issubclass(w.category, UserWarning) and w.category.__name__ != "MistakeWarning"
    ]
    return result


# --------------------------------------------------------------------------- normalization
def normalize(value, arrays=None, path="result"):
    """Return ``(json_value, arrays)``.

    tuples -> lists, numpy scalars -> Python scalars, numpy arrays -> ``arrays[key]`` with
    ``{"__array__": key, "dtype": str, "shape": [...]}`` in their place.  Dict keys must be
    str.  Anything else raises TypeError naming the path, so programs convert explicitly.
    Dict entries are visited in sorted key order so array keys are deterministic.
    """
    if arrays is None:
        arrays = {}
    return _norm(value, arrays, path), arrays


def _norm(v, arrays, path):
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return float(v)
    if isinstance(v, np.ndarray):
        if v.dtype.hasobject:
            raise TypeError("%s: object arrays are not allowed" % path)
        key = "arr%d" % len(arrays)
        arrays[key] = np.ascontiguousarray(v)
        return {_ARRAY_TAG: key, "dtype": v.dtype.name, "shape": list(v.shape)}
    if isinstance(v, (list, tuple)):
        return [_norm(x, arrays, "%s[%d]" % (path, i)) for i, x in enumerate(v)]
    if isinstance(v, dict):
        out = {}
        for k in sorted(v, key=lambda k: (not isinstance(k, str), str(k))):
            if not isinstance(k, str):
                raise TypeError("%s: dict key %r is not a str" % (path, k))
            if k == _ARRAY_TAG:
                raise TypeError("%s: the key %r is reserved" % (path, k))
            out[k] = _norm(v[k], arrays, "%s[%r]" % (path, k))
        return out
    raise TypeError(
        "%s: value of type %s has no stable representation; convert it in the "
        "program (e.g. .name, .list_outputs(), np.dtype(t).name, .asnumpy())"
        % (path, type(v).__name__)
    )


def to_json_text(obj):
    return json.dumps(obj, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def roundtrip(json_value):
    """What a normalized value looks like after being written to and read from a fixture."""
    return json.loads(json.dumps(json_value))


# --------------------------------------------------------------------------- fixtures
def fixture_paths(name):
    return (os.path.join(FIXTURES_DIR, name + ".json"), os.path.join(FIXTURES_DIR, name + ".npz"))


def write_fixture(name, result, version):
    json_value, arrays = normalize(result)
    jpath, npath = fixture_paths(name)
    doc = {
        "program": name,
        "sha256": program_sha256(name),
        "mxnet_version": version,
        "result": json_value,
    }
    os.makedirs(FIXTURES_DIR, exist_ok=True)
    with open(jpath, "w", encoding="utf-8") as f:
        f.write(to_json_text(doc))
    if arrays:
        with open(npath, "wb") as f:
            np.savez(f, **arrays)
    elif os.path.exists(npath):
        os.remove(npath)
    return jpath, (npath if arrays else None)


def read_fixture(name):
    """Return ``(doc, arrays)`` or ``(None, None)`` if the fixture does not exist."""
    jpath, npath = fixture_paths(name)
    if not os.path.exists(jpath):
        return None, None
    with open(jpath, encoding="utf-8") as f:
        doc = json.load(f)
    arrays = {}
    if os.path.exists(npath):
        with np.load(npath, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    return doc, arrays


# --------------------------------------------------------------------------- comparison
def _is_float(x):
    return isinstance(x, float)


def _close(e, a, rtol, atol):
    if math.isnan(e) or math.isnan(a):
        return math.isnan(e) and math.isnan(a)
    if math.isinf(e) or math.isinf(a):
        return e == a
    return abs(a - e) <= atol + rtol * abs(e)


def _show(v, limit=600):
    s = repr(v)
    return s if len(s) <= limit else s[:limit] + "... (%d chars)" % len(s)


def _typed(kind, x):
    return "None" if kind == "None" else "%s %s" % (kind, _show(x))


def _kind(x):
    if x is None:
        return "None"
    if isinstance(x, bool):
        return "bool"
    if isinstance(x, int):
        return "int"
    if isinstance(x, float):
        return "float"
    if isinstance(x, str):
        return "str"
    if isinstance(x, list):
        return "list"
    if isinstance(x, dict):
        return "array" if _ARRAY_TAG in x else "dict"
    return type(x).__name__


def compare(
    expected,
    actual,
    exp_arrays=None,
    act_arrays=None,
    rtol=1e-4,
    atol=1e-5,
    path="result",
    limit=20,
):
    """Compare two normalized values; return a list of mismatch descriptions (empty = equal).

    Floats (Python floats and float arrays) use ``|a - e| <= atol + rtol*|e|`` (NaN equals
    NaN); everything else -- str, int, bool, None, list lengths, dict keys, array dtypes and
    shapes -- must be exactly equal.  An int never equals a float.
    """
    out = []
    _cmp(expected, actual, exp_arrays or {}, act_arrays or {}, rtol, atol, path, out, limit)
    return out


def _cmp(e, a, ea, aa, rtol, atol, path, out, limit):
    if len(out) >= limit:
        return
    ke, ka = _kind(e), _kind(a)
    if ke != ka:
        out.append("%s: expected %s, got %s" % (path, _typed(ke, e), _typed(ka, a)))
        return
    if ke == "float":
        if not _close(e, a, rtol, atol):
            out.append("%s: expected %r, got %r (rtol=%g, atol=%g)" % (path, e, a, rtol, atol))
    elif ke == "list":
        if len(e) != len(a):
            out.append(
                "%s: expected a list of length %d, got length %d\n"
                "  expected: %s\n  got:      %s" % (path, len(e), len(a), _show(e), _show(a))
            )
            return
        for i, (x, y) in enumerate(zip(e, a)):
            _cmp(x, y, ea, aa, rtol, atol, "%s[%d]" % (path, i), out, limit)
    elif ke == "dict":
        missing = sorted(set(e) - set(a))
        extra = sorted(set(a) - set(e))
        if missing or extra:
            out.append("%s: dict keys differ; missing %s, unexpected %s" % (path, missing, extra))
        for k in sorted(set(e) & set(a)):
            _cmp(e[k], a[k], ea, aa, rtol, atol, "%s[%r]" % (path, k), out, limit)
    elif ke == "array":
        _cmp_array(e, a, ea, aa, rtol, atol, path, out)
    else:
        if e != a:
            if ke == "str" and "\n" in e + a:
                out.append("%s: strings differ\n%s" % (path, _str_diff(e, a)))
            else:
                out.append("%s: expected %s, got %s" % (path, _show(e), _show(a)))


def _cmp_array(e, a, ea, aa, rtol, atol, path, out):
    if e["dtype"] != a["dtype"] or e["shape"] != a["shape"]:
        out.append(
            "%s: expected array %s%s, got array %s%s"
            % (path, e["dtype"], tuple(e["shape"]), a["dtype"], tuple(a["shape"]))
        )
        return
    x, y = ea.get(e[_ARRAY_TAG]), aa.get(a[_ARRAY_TAG])
    if x is None or y is None:
        out.append(
            "%s: array data missing (npz key %r / %r)" % (path, e[_ARRAY_TAG], a[_ARRAY_TAG])
        )
        return
    if np.issubdtype(x.dtype, np.floating):
        xe, ye = x.astype(np.float64), y.astype(np.float64)
        ok = np.isclose(ye, xe, rtol=rtol, atol=atol, equal_nan=True)
        if not ok.all():
            first = int(np.flatnonzero(~ok.ravel())[0])
            idx = [int(i) for i in np.unravel_index(first, x.shape)] if x.ndim else []
            out.append(
                "%s: %d of %d elements differ beyond rtol=%g, atol=%g; first at %s: "
                "expected %r, got %r\n  expected: %s\n  got:      %s"
                % (
                    path,
                    int((~ok).sum()),
                    ok.size,
                    rtol,
                    atol,
                    idx,
                    x.ravel()[first].item(),
                    y.ravel()[first].item(),
                    _show(x.tolist(), 300),
                    _show(y.tolist(), 300),
                )
            )
    else:
        if not np.array_equal(x, y):
            out.append(
                "%s: array values differ\n  expected: %s\n  got:      %s"
                % (path, _show(x.tolist(), 300), _show(y.tolist(), 300))
            )


def _str_diff(e, a):
    import difflib

    lines = list(
        difflib.unified_diff(e.splitlines(), a.splitlines(), "expected", "got", lineterm="", n=2)
    )
    if not lines:  # differ only in trailing newline / line endings
        return "  expected: %s\n  got:      %s" % (_show(e), _show(a))
    if len(lines) > 60:
        lines = lines[:60] + ["... (%d more diff lines)" % (len(lines) - 60)]
    return "\n".join("  " + line for line in lines)


# --------------------------------------------------------------------------- replay
def replay(mx, name):
    """Run ``name`` under ``mx`` and compare with its fixture.

    Returns ``(status, message)``: ``("ok", "")``, ``("missing", msg)``, ``("changed", msg)``
    or ``("mismatch", msg)``.  Exceptions raised by the program propagate.
    """
    doc, exp_arrays = read_fixture(name)
    if doc is None:
        return "missing", "no fixture; record it with: " + RECORD_COMMAND.format(name=name)
    sha = program_sha256(name)
    if doc.get("sha256") != sha:
        return "changed", (
            "program changed since it was recorded; re-record it: %s\n"
            "(fixture sha256 %s, program sha256 %s)"
            % (RECORD_COMMAND.format(name=name), doc.get("sha256"), sha)
        )
    module = load_program(name)
    result = run_program(mx, name, module)
    json_value, act_arrays = normalize(result)
    json_value = roundtrip(json_value)
    tol = tolerance_of(module)
    problems = compare(doc["result"], json_value, exp_arrays, act_arrays, **tol)
    if problems:
        return "mismatch", (
            "%s differs from MXNet %s (%d mismatch%s shown):\n%s"
            % (
                name,
                doc.get("mxnet_version"),
                len(problems),
                "es" if len(problems) != 1 else "",
                "\n".join(problems),
            )
        )
    return "ok", ""
