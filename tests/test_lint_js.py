"""The widgets' ES modules (widgets/*.js) pass ESLint (@eslint/js recommended, browser globals;
set-up and pinned versions in .ci/js). ESLint is installed into .ci/js/node_modules by
``npm ci`` on first use. Without node and npm the tests skip, except under CI=true."""

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SETUP = ROOT / ".ci" / "js"
ESLINT = SETUP / "node_modules" / ".bin" / "eslint"


def _missing(message):
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def eslint():
    """The path of the eslint command, installed with ``npm ci`` when it is not there yet."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        _missing("node and npm are needed to lint widgets/*.js (apt-get install nodejs npm)")
    with open(SETUP / "package.json") as lock:  # one installer at a time (xdist workers)
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not ESLINT.exists():
            done = subprocess.run(
                ["npm", "ci", "--prefix", str(SETUP), "--no-audit", "--no-fund"],
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=600,
            )
            if done.returncode != 0 or not ESLINT.exists():
                _missing(f"`npm ci --prefix .ci/js` failed:\n{done.stdout}{done.stderr}")
    return str(ESLINT)


def _lint(eslint, *args, stdin=None):
    return subprocess.run(
        [eslint, "--config", str(SETUP / "eslint.config.mjs"), "--max-warnings", "0", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_eslint_reports_nothing_in_the_widgets(eslint):
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "widgets").glob("*.js"))
    assert files, "no widgets/*.js found"
    done = _lint(eslint, *files)
    assert done.returncode == 0, f"ESLint found problems:\n{done.stdout}{done.stderr}"


def test_eslint_finds_a_planted_mistake(eslint):
    """The set-up is live: an undefined name, an unused variable and a redefined helper of
    _common.js (a SyntaxError once the modules are concatenated) are each reported."""
    planted = (
        "const unused = 1;\nfunction h() {}\n"
        "export default { render() { return undefinedName + fillLabel('', {}); } };\n"
    )
    done = _lint(eslint, "--stdin", "--stdin-filename", "widgets/planted.js", stdin=planted)
    assert done.returncode == 1, done.stdout + done.stderr
    for rule in ("no-undef", "no-unused-vars", "no-restricted-syntax"):
        assert rule in done.stdout, done.stdout
    assert "fillLabel" not in done.stdout  # a helper of _common.js is a known global
