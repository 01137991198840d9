"""The whole project passes `ruff check` (rules and exclusions: [tool.ruff] in pyproject.toml)."""
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_reports_nothing():
    if importlib.util.find_spec("ruff") is None:
        pytest.skip(f"ruff is not installed in {sys.prefix}; install the test extra: "
                    "pip install -e '.[test]'")
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise",
         str(ROOT)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, (
        "ruff found problems (fix them, or run `.venv/bin/ruff check --fix .` for the "
        f"fixable ones):\n{done.stdout}{done.stderr}"
    )
