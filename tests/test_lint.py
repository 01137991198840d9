"""The whole project passes `ruff check` and `ruff format --check` (rules and exclusions:
[tool.ruff] in pyproject.toml). Without ruff the tests skip, except under CI=true."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ruff(*args):
    if importlib.util.find_spec("ruff") is None:
        message = (
            f"ruff is not installed in {sys.prefix}; install the test extra: "
            "pip install -e '.[test]'"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args, str(ROOT)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_ruff_reports_nothing():
    done = _ruff("check", "--no-cache", "--output-format", "concise")
    assert done.returncode == 0, (
        "ruff found problems (fix them, or run `.venv/bin/ruff check --fix .` for the "
        f"fixable ones):\n{done.stdout}{done.stderr}"
    )


def test_ruff_format_changes_nothing():
    done = _ruff("format", "--check", "--no-cache")
    assert done.returncode == 0, (
        f"run `.venv/bin/ruff format .`; these files are not formatted:\n{done.stdout}{done.stderr}"
    )
