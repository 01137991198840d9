"""The first minute after `make lab`, in a real JupyterLab started as the Makefile starts it:
the course's start page, lessons/README.md, is open as a rendered page (not an empty
Launcher), no "Jupyter news" prompt, and none of the instructor's grading menus."""

import re
import shutil
import time
from pathlib import Path

import pytest
from lab import Lab

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.xdist_group("browser")]

REPO = Path(__file__).resolve().parents[2]


def make_lab_command():
    """The config file and folder `make lab` passes to jupyter lab."""
    line = next(
        line
        for line in (REPO / "Makefile").read_text().splitlines()
        if "jupyter lab" in line and "learner_lab_config.py" in line
    )
    config = re.search(r"--config=(\S+)", line).group(1)
    return REPO / config, line.split()[-1]


def test_make_lab_opens_the_start_page_without_grading_menus(browser, tmp_path, screenshot):
    config, folder = make_lab_command()
    assert folder == "lessons/"
    server = Lab(tmp_path, extra_args=[f"--config={config}"], quiet_news=False)
    shutil.copy(REPO / "lessons" / "README.md", server.root / "README.md")
    server.start()
    try:
        context = browser.new_context(viewport={"width": 1360, "height": 900})
        page = context.new_page()
        page.goto(f"{server.url}/?token={server.token}")
        heading = page.locator(".jp-RenderedMarkdown h1").first
        heading.wait_for(timeout=60_000)
        assert heading.inner_text().startswith("The lessons")
        assert "/lab/tree/README.md" in page.url
        time.sleep(2)  # the news prompt, when it comes, comes a moment after the page
        menus = page.locator(".lm-MenuBar-itemLabel").all_inner_texts()
        assert "Help" in menus and "Nbgrader" not in menus, menus
        assert page.locator("text=Create Assignment").count() == 0
        assert page.locator(".jp-toast-message, .Toastify__toast").count() == 0
        assert page.locator(".jp-Launcher").count() == 0
        screenshot(page, "first_minute")
        context.close()
    finally:
        server.stop()
