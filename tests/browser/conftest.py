"""Fixtures for the browser tests: one JupyterLab and one Chromium per test session (the tests
are grouped on one xdist worker), a fresh page per test, a screenshot when a test fails.

``MINISYM_SCREENSHOTS=1`` also saves the pictures the README shows into ``docs/``.
"""

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from lab import CHROMIUM, CHROMIUM_ARGS, Lab, watch_page

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("BROWSER_ARTIFACTS", REPO / "test-artifacts"))
DOCS = REPO / "docs"


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium): browser tests skipped")
    from playwright.sync_api import sync_playwright

    xdg = tmp_path_factory.mktemp("chromium-xdg")
    # Chromium's crash reporter and dconf write under $HOME even with a temporary profile.
    env = dict(os.environ, XDG_CONFIG_HOME=str(xdg / "config"), XDG_CACHE_HOME=str(xdg / "cache"))
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, env=env)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def lab(browser, tmp_path_factory):
    server = Lab(tmp_path_factory.mktemp("lab")).start()
    yield server
    server.stop()


@pytest.fixture
def page(browser, lab, request):
    context = browser.new_context(viewport={"width": 1360, "height": 1000})
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    watch_page(pg)
    yield pg
    failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
    if failed:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    context.close()
    lab.shutdown_sessions()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.rep_call = report


@pytest.fixture
def screenshot():
    """``screenshot(locator, 'index_map')`` saves docs/index_map.png when MINISYM_SCREENSHOTS
    is set (the README's pictures are regenerated on purpose, not on every run)."""

    def save(locator, name):
        if os.environ.get("MINISYM_SCREENSHOTS"):
            DOCS.mkdir(exist_ok=True)
            locator.screenshot(path=str(DOCS / f"{name}.png"))

    return save
