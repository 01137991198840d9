"""The index map and the grad_req playground in a real JupyterLab: a learner clicks a slot and
switches grad_req, and both the page and the Python side change."""

import time
from pathlib import Path

import pytest
from lab import cell_output, open_notebook, run_all, write_notebook
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.xdist_group("browser")]

TESTS = Path(__file__).resolve().parents[1]

SOFTMAX = (
    (TESTS / "softmax_op.py").read_text()
    + """
import ipywidgets
from minisym_widgets import GradReqPlayground, IndexMap
"""
)

CELLS = [
    SOFTMAX,
    "index_map = IndexMap(SoftmaxProp, shapes={'data': (8, 10), 'label': (8,)})\n"
    "python_echo = ipywidgets.HTML('python sees nothing yet')\n"
    "python_echo.add_class('python-echo')\n"
    "def echo(_):\n"
    "    python_echo.value = (f'python sees selected={index_map.selected} '\n"
    "                         f'grad_req={sorted(index_map.grad_req.items())}')\n"
    "index_map.observe(echo, names=['selected', 'grad_req'])\n"
    "display(index_map, python_echo)",
    "x = mx.sym.Variable('data')\n"
    "net = mx.sym.FullyConnected(x, num_hidden=3, name='fc1')\n"
    "net = mx.sym.SoftmaxOutput(net, name='softmax')\n"
    "executor = net.simple_bind(mx.cpu(), data=(4, 5))\n"
    "executor.arg_dict['data'][:] = 1\n"
    "executor.arg_dict['fc1_weight'][:] = 0.1\n"
    "playground = GradReqPlayground(executor, argument='fc1_weight', runs=3)\n"
    "playground",
    f"import sys; sys.path.insert(0, {str(TESTS)!r})\n"
    "from nets import resnet\n"
    "resnet50 = resnet(50, num_classes=1000).simple_bind(mx.cpu(), data=(1, 3, 224, 224))\n"
    "big_map = IndexMap(resnet50, node='stage3_unit2_conv2')\n"
    "big_map",
]


@pytest.fixture
def notebook(lab):
    write_notebook(lab.root / "index_map.ipynb", CELLS)
    return "index_map.ipynb"


def test_index_map_and_playground(page, lab, notebook, screenshot):
    panel = open_notebook(page, lab, notebook)
    run_all(page, panel)
    index_map = cell_output(panel, 1).locator(".msw-indexmap")
    expect(index_map).to_contain_text("Custom 'softmax'")

    # A learner points at in_data[1]: the page says what it is, highlights its index.
    index_map.locator("td[data-label='in_data[1]']").click()
    detail = index_map.locator(".msw-im-detail")
    expect(detail).to_contain_text("is 'label'")
    expect(detail).to_contain_text("second in list_arguments()")
    expect(detail).to_contain_text("given as label=")
    expect(detail).to_contain_text("(8,)")
    expect(index_map.locator("td[data-label='in_grad[1]']")).to_have_class(
        "msw-im-slot msw-im-grad msw-im-linked"
    )
    echo = panel.locator(".python-echo")
    expect(echo).to_contain_text("python sees selected=in_data[1]")

    # out_grad[0] is not passed: need_top_grad=False.
    index_map.locator("td[data-label='out_grad[0]']").click()
    expect(detail).to_contain_text("need_top_grad=False")

    # Switching grad_req of data to 'add' turns backward req[0] to add, on both sides.
    req_cell = index_map.locator("td[data-label='backward req[0]']")
    expect(req_cell).to_contain_text("write")
    index_map.locator("button.msw-im-req-data-add").click()
    expect(req_cell).to_contain_text("add")
    expect(echo).to_contain_text("('data', 'add')")

    # A run on a copy shows values.
    index_map.locator("button.msw-im-run").click()
    expect(index_map.locator("td[data-label='in_grad[0]'] .msw-im-preview")).to_contain_text("[")
    screenshot(index_map, "index_map")

    playground = cell_output(panel, 2).locator(".msw-gradreq")
    expect(playground).to_contain_text("= 3 × run 1")
    playground.locator("select.msw-gr-argument").select_option("fc1_bias")
    expect(playground.locator(".msw-gr-add").last).to_contain_text("= 3 × run 1")
    screenshot(playground, "grad_req_playground")

    # ResNet-50: another node's index map opens in under a second.
    big = cell_output(panel, 3).locator(".msw-indexmap")
    expect(big).to_contain_text("stage3_unit2_conv2")
    start = time.perf_counter()
    big.locator("select.msw-im-node").select_option("stage4_unit1_bn2")
    expect(big.locator(".msw-im-caption")).to_contain_text("BatchNorm 'stage4_unit1_bn2'")
    opened = time.perf_counter() - start
    print(f"[index map] the ResNet-50 index map opened in {opened:.2f} s")
    expect(big.locator("td[data-label='aux[0]']")).to_be_visible()

    assert not page.errors, page.errors
    assert not page.external, page.external
    expect(panel.get_by_text("Error displaying widget")).to_have_count(0)
