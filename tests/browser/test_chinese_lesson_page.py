"""The Chinese edition in a real JupyterLab started as `make lab-zh` starts it: the Chinese start
page (lessons/zh-CN/README.md) open, JupyterLab's menus in Chinese, Chinese characters drawn
with a real font (not as empty boxes), and a Chinese lesson run with its widgets' words in
Chinese, because the kernels get the Makefile's LANG / LANGUAGE."""

import re
import shlex
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from lab import Lab, run_all, watch_page
from playwright.sync_api import expect

from minisym_widgets import i18n

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.xdist_group("browser")]

REPO = Path(__file__).resolve().parents[2]
LESSONS = REPO / "lessons"
ZH = "zh-CN"
LESSON = LESSONS / ZH / "04_custom_softmax.ipynb"
WIDGET_CATALOGUE = i18n.catalogue_path("zh_CN", "minisym_widgets")
CJK = range(0x4E00, 0xA000)  # CJK Unified Ideographs
KERNEL_IDLE = "(ipykernel) | 空闲"  # the status bar's "(ipykernel) | Idle" in Chinese

# Each character drawn alone on a canvas with the page's sans-serif font. Without a CJK font
# every character comes out as the same empty box, like an unassigned code point's.
GLYPHS = """(chars) => chars.map((ch) => {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 48;
  const g = canvas.getContext('2d');
  g.font = '36px sans-serif';
  g.fillText(ch, 4, 40);
  return canvas.toDataURL();
})"""
NO_GLYPH = "\U000f0000"  # a private-use code point: no font draws it

# Per code cell of the open notebook: its tags and the names of its error outputs.
ERRORS = """() => {
  const model = window.jupyterapp.shell.currentWidget.content.model;
  const cells = [];
  for (let i = 0; i < model.cells.length; i++) {
    const cell = model.cells.get(i);
    if (cell.type !== 'code') continue;
    cells.push({source: cell.sharedModel.getSource().slice(0, 60),
                tags: cell.getMetadata('tags') || [],
                errors: cell.outputs.toJSON().filter(o => o.output_type === 'error')
                                             .map(o => o.ename)});
  }
  return cells;
}"""


def make_lab_zh_command():
    """(environment, config file, folder) of the `jupyter lab` line that `make -n lab-zh`
    prints: the command as make runs it, variables expanded."""
    dry = subprocess.run(
        ["make", "-n", "--no-print-directory", "lab-zh"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    line = next(line for line in dry.stdout.splitlines() if "jupyter lab" in line)
    words = shlex.split(line)
    assert words[0] == "env", line
    settings = [word for word in words[1:] if re.match(r"[A-Z_][A-Z0-9_]*=", word)]
    env = dict(word.split("=", 1) for word in settings)
    config = next(word.split("=", 1)[1] for word in words if word.startswith("--config="))
    return env, REPO / config, words[-1]


def chinese(message):
    """``message`` as the Chinese catalogue has it; it must be translated for the test to see
    the kernel's language on the page."""
    i18n.set_language("zh_CN")
    try:
        text = i18n.gettext(message)
    finally:
        i18n.set_language(None)
    assert any(ord(ch) in CJK for ch in text), (
        f"{WIDGET_CATALOGUE.relative_to(REPO)} has no Chinese for {message!r}: translate it"
    )
    return text


@pytest.fixture(scope="module")
def lab_zh(browser, tmp_path_factory):
    """JupyterLab with `make lab-zh`'s environment, config and folder (a copy of the folder's
    Chinese edition and the pictures it shows)."""
    env, config, folder = make_lab_zh_command()
    assert folder == "lessons/", folder
    assert env.get("LANG") == "zh_CN.UTF-8" and env.get("LANGUAGE") == "zh_CN", env
    server = Lab(
        tmp_path_factory.mktemp("lab-zh"), extra_args=[f"--config={config}"], quiet_news=False
    )
    shutil.copytree(LESSONS / ZH, server.root / ZH)
    shutil.copytree(LESSONS / "images", server.root / "images")
    shutil.copy(LESSONS / "README.md", server.root / "README.md")  # the English edition's link
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env.items():  # the server's environment, and so its kernels'
            patch.setenv(name, value)
        server.start()
    yield server
    server.stop()


@pytest.fixture
def page_zh(browser, lab_zh):
    context = browser.new_context(viewport={"width": 1360, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    watch_page(page)
    yield page
    context.close()
    lab_zh.shutdown_sessions()


def open_notebook(page, lab, name):
    """Open ``name`` and wait until its kernel is really idle (as lab.open_notebook does, in
    the status bar's Chinese)."""
    page.goto(lab.notebook_url(name))
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
    expect(panel.locator(".jp-Cell").first).to_be_visible(timeout=60_000)
    expect(page.locator("#jp-main-statusbar")).to_contain_text(KERNEL_IDLE, timeout=60_000)
    return panel


def menu_labels(page):
    return page.locator("#jp-menu-panel .lm-MenuBar-itemLabel").all_inner_texts()


def assert_cjk_is_drawn(page, text):
    """Every distinct Chinese character of ``text`` is drawn, each as its own glyph."""
    chars = sorted({ch for ch in text if ord(ch) in CJK})[:6]
    assert len(chars) >= 2, f"no Chinese characters to look at in {text!r}"
    *drawn, missing = page.evaluate(GLYPHS, chars + [NO_GLYPH])
    boxes = [ch for ch, picture in zip(chars, drawn) if picture == missing]
    assert not boxes and len(set(drawn)) == len(chars), (
        f"Chinese characters drawn as boxes ({''.join(boxes) or ''.join(chars)}): no CJK font; "
        "install one (Debian: apt-get install fonts-noto-cjk; .ci/run does)"
    )


def test_make_lab_zh_opens_the_chinese_start_page_with_chinese_menus(page_zh, lab_zh, screenshot):
    page = page_zh
    page.goto(f"{lab_zh.url}/?token={lab_zh.token}")
    heading = page.locator(".jp-RenderedMarkdown h1").first
    heading.wait_for(timeout=60_000)
    start = (LESSONS / ZH / "README.md").read_text(encoding="utf-8")
    assert heading.inner_text().strip() == start.split("\n", 1)[0].lstrip("# ").strip()
    assert "/lab/tree/zh-CN/README.md" in page.url
    expect(page.locator(".jp-FileBrowser .jp-BreadCrumbs")).to_contain_text(ZH)
    time.sleep(2)  # the news prompt, when it comes, comes a moment after the page
    menus = menu_labels(page)
    assert "文件" in menus and "帮助" in menus and "File" not in menus, menus
    assert not any("nbgrader" in label.lower() for label in menus), menus
    assert page.locator(".jp-toast-message, .Toastify__toast").count() == 0
    assert_cjk_is_drawn(page, "".join(menus) + heading.inner_text())
    assert not page.errors, page.errors
    assert not page.external, f"requests outside 127.0.0.1: {page.external}"
    screenshot(page, "zh_first_minute")


@pytest.mark.skipif(
    not LESSON.exists(),
    reason=f"{LESSON.relative_to(REPO)} is not written "
    "yet: the Chinese lesson's page is tested once it exists",
)
@pytest.mark.skipif(
    not WIDGET_CATALOGUE.exists(),
    reason=f"{WIDGET_CATALOGUE.relative_to(REPO)}"
    " is not written yet: the widgets' Chinese words are tested once it exists",
)
def test_a_chinese_lesson_runs_with_the_widgets_in_chinese(page_zh, lab_zh, screenshot):
    page = page_zh
    panel = open_notebook(page, lab_zh, f"{ZH}/{LESSON.name}")
    run_all(page, panel)
    cells = page.evaluate(ERRORS)
    unexpected = [
        (c["source"], c["errors"])
        for c in cells
        if c["errors"] and "raises-exception" not in c["tags"]
    ]
    assert not unexpected, f"cells failed: {unexpected}"
    assert "文件" in menu_labels(page)

    index_map = panel.locator(".msw-indexmap").first
    expect(index_map.locator("button.msw-im-run")).to_have_text(chinese("run on a copy"))
    predict = panel.locator(".msw-predict").first
    expect(predict.locator("button.msw-predict-check")).to_have_text(chinese("check"))
    expect(panel.locator("text=Error displaying widget")).to_have_count(0)
    assert_cjk_is_drawn(page, index_map.text_content() + predict.text_content())
    assert not page.errors, page.errors
    assert not page.external, f"requests outside 127.0.0.1: {page.external}"

    index_map.evaluate("widget => widget.scrollIntoView({block: 'start'})")
    page.mouse.move(0, 0)  # no button drawn as hovered in the picture
    screenshot(page, "zh_lesson")
