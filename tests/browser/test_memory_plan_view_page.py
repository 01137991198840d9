"""The memory plan view on ResNet-50 at batch 1 in a real JupyterLab: a click on a buffer fills
the side panel and reaches Python, and the inference plan replaces the training one."""

import re
import time
from pathlib import Path

import pytest
from lab import cell_output, open_notebook, run_all, write_notebook
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.xdist_group("browser")]

TESTS = Path(__file__).resolve().parents[1]

CELLS = [
    f"import sys; sys.path.insert(0, {str(TESTS)!r})\n"
    "import time\n"
    "import ipywidgets\n"
    "import minisym as mx\n"
    "from nets import resnet\n"
    "from minisym_widgets import MemoryPlanView\n"
    "from minisym_widgets._base import MAX_MESSAGE_BYTES\n"
    "net = resnet(50, num_classes=1000)",
    "start = time.perf_counter()\n"
    "view = MemoryPlanView(net, data=(1, 3, 224, 224))\n"
    "print(f'MemoryPlanView built in {time.perf_counter() - start:.2f} s')\n"
    "shared = view.plan.entry('stage1_unit1_conv3_output').buffer\n"
    "print(f'the buffer of stage1_unit1_conv3_output: {shared}')\n"
    "echo = ipywidgets.HTML('python sees nothing yet')\n"
    "echo.add_class('echo-memory')\n"
    "def update(_):\n"
    "    echo.value = (f'python sees selected={view.selected} entry={view.entry} '\n"
    "                  f'variant={view.variant}')\n"
    "view.observe(update, names=['selected', 'entry', 'variant'])\n"
    "display(view, echo)",
    "print('largest message under cap:', view.largest_message < MAX_MESSAGE_BYTES)",
]


@pytest.fixture
def notebook(lab):
    write_notebook(lab.root / "memory_plan_view.ipynb", CELLS)
    return "memory_plan_view.ipynb"


def test_memory_plan_view_on_resnet50(page, lab, notebook, screenshot):
    panel = open_notebook(page, lab, notebook)
    run_all(page, panel)
    output = cell_output(panel, 1)
    view = output.locator(".msw-memory-plan")
    expect(view.locator(".msw-mp-caption")).to_contain_text("277 outputs of 175 operators")
    expect(view.locator(".msw-mp-detail-empty")).to_be_visible()
    printed = output.first.inner_text()
    print("\n[memory plan view] " + printed.splitlines()[0])
    buffer = re.search(r"stage1_unit1_conv3_output: (\d+)", printed).group(1)

    row = view.locator(f".msw-mp-row[data-buffer='{buffer}']")
    row.click()
    detail = view.locator(".msw-mp-detail")
    expect(detail).to_contain_text(f"buffer {buffer}")
    expect(detail).to_contain_text("shared by 2 outputs")
    expect(detail.locator(".msw-mp-entries")).to_contain_text("stage1_unit1_conv3_output")
    expect(detail.locator(".msw-mp-entries")).to_contain_text("(1, 256, 56, 56) float32")
    expect(panel.locator(".echo-memory")).to_contain_text(f"selected={buffer} ")
    expect(view.locator(".msw-mp-row-selected")).to_have_count(1)
    view.locator(".msw-mp-bar[data-entry='stage1_unit2_bn1_output']").click()
    picked = detail.locator(".msw-mp-entry-picked")
    expect(picked).to_contain_text("stage1_unit2_bn1_output")
    expect(picked).to_contain_text("backward reads it: stage1_unit2_bn1 (out_data[0])")
    expect(panel.locator(".echo-memory")).to_contain_text(
        f"selected={buffer} entry=stage1_unit2_bn1_output"
    )
    time.sleep(0.3)  # let the native tooltip of the pointer settle before the picture
    page.mouse.move(0, 0)
    screenshot(view, "memory_plan_view")

    view.locator(".msw-mp-small-box").check()
    expect(panel.locator(".echo-memory")).to_contain_text(f"selected={buffer} ")
    small_rows = view.locator(".msw-mp-row").count()
    assert small_rows == 257, small_rows  # every buffer, the small ones too

    view.locator(".msw-mp-variant-inference").click()
    expect(view.locator(".msw-mp-caption")).to_contain_text("no backward runs")
    expect(panel.locator(".echo-memory")).to_contain_text("variant=inference")
    expect(view.locator(".msw-mp-detail-empty")).to_be_visible()  # the selection is cleared
    expect(view.locator(".msw-mp-row")).to_have_count(9)

    expect(cell_output(panel, 2)).to_contain_text("largest message under cap: True")
    assert not page.errors, page.errors
    assert not page.external, page.external
    expect(panel.get_by_text("Error displaying widget")).to_have_count(0)
