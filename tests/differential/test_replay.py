"""Replay every differential program under minisym and compare with the MXNet 1.9.1 fixture."""

import importlib
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import harness  # noqa: E402


def _minisym():
    # Imported per test, so that one broken area of the engine does not break collection.
    if harness.PROJECT_ROOT not in sys.path:
        sys.path.insert(0, harness.PROJECT_ROOT)
    return importlib.import_module("minisym")


def _param(name):
    # A program that takes more than a few seconds says so with a line ``SLOW = True``.
    with open(harness.program_path(name), encoding="utf-8") as f:
        slow = "\nSLOW = True\n" in f.read()
    return pytest.param(name, marks=pytest.mark.slow) if slow else name


@pytest.mark.parametrize("name", [_param(name) for name in harness.list_programs()])
def test_replay(name):
    doc, _ = harness.read_fixture(name)
    if doc is None:
        pytest.fail(
            "no fixture; record it with: " + harness.RECORD_COMMAND.format(name=name), pytrace=False
        )
    if doc.get("sha256") != harness.program_sha256(name):
        pytest.fail(
            "program changed since it was recorded; re-record it: "
            + harness.RECORD_COMMAND.format(name=name),
            pytrace=False,
        )
    try:
        mx = _minisym()
    except Exception as e:  # noqa: BLE001 - report, do not break the other tests
        pytest.fail("cannot import minisym: %s: %s" % (type(e).__name__, e), pytrace=False)
    status, message = harness.replay(mx, name)
    if status != "ok":
        pytest.fail(message, pytrace=False)
