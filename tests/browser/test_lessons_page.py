"""Every lesson, opened in a real JupyterLab and run with Run All, as a learner first meets it:
no error outputs except in cells tagged raises-exception, every widget rendered, no page
errors, nothing fetched from outside."""

import shutil
from pathlib import Path

import pytest
from lab import open_notebook, run_all
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.xdist_group("browser")]

LESSONS = sorted((Path(__file__).resolve().parents[2] / "lessons").glob("[0-9][0-9]_*.ipynb"))

# What the page's own notebook model holds after the run, per code cell.
CELLS = """() => {
  const model = window.jupyterapp.shell.currentWidget.content.model;
  const cells = [];
  for (let i = 0; i < model.cells.length; i++) {
    const cell = model.cells.get(i);
    if (cell.type !== 'code') continue;
    const outputs = cell.outputs.toJSON();
    cells.push({
      source: cell.sharedModel.getSource().slice(0, 60),
      tags: cell.getMetadata('tags') || [],
      errors: outputs.filter(o => o.output_type === 'error').map(o => o.ename),
      widgets: outputs.filter(o => o.data && o.data['application/vnd.jupyter.widget-view+json'])
                      .length,
    });
  }
  return cells;
}"""


@pytest.mark.parametrize("lesson", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_runs_clean_in_jupyterlab(page, lab, lesson, screenshot):
    shutil.copy(lesson, lab.root / lesson.name)
    # the pictures the lessons' markdown shows, where `make lab` has them (lessons/images)
    shutil.copytree(lesson.parent / "images", lab.root / "images", dirs_exist_ok=True)
    panel = open_notebook(page, lab, lesson.name)
    run_all(page, panel)
    cells = page.evaluate(CELLS)
    unexpected = [
        (c["source"], c["errors"])
        for c in cells
        if c["errors"] and "raises-exception" not in c["tags"]
    ]
    assert not unexpected, f"cells failed: {unexpected}"
    silent = [c["source"] for c in cells if "raises-exception" in c["tags"] and not c["errors"]]
    assert not silent, f"cells tagged raises-exception raised nothing: {silent}"
    widgets = sum(c["widgets"] for c in cells)
    # the widgets of minisym_widgets, and fit's live bars (lesson 8)
    expect(panel.locator(".msw, .msw-fit")).to_have_count(widgets, timeout=60_000)
    expect(panel.locator("text=Error displaying widget")).to_have_count(0)
    assert not page.errors, page.errors
    assert not page.external, f"requests outside 127.0.0.1: {page.external}"
    if widgets:  # the README's picture: the lesson around its first widget
        panel.locator(".jp-CodeCell:has(.msw)").first.evaluate(
            "cell => cell.scrollIntoView({block: 'start'})"
        )
    screenshot(panel, f"lesson_{lesson.stem}")
