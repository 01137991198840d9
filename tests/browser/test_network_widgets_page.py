"""The shape explorer, the stepper and the graph view on ResNet-50, and a custom operator's
lifecycle, in a real JupyterLab: each reacts to the page, and Python sees what the page did."""

import time
from pathlib import Path

import pytest
from lab import cell_output, open_notebook, run_all, write_notebook
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.xdist_group("browser")]

TESTS = Path(__file__).resolve().parents[1]

SETUP = f"""
import sys; sys.path.insert(0, {str(TESTS)!r})
import numpy as np
import ipywidgets
import minisym as mx
from nets import resnet
from minisym_widgets import GraphView, Lifecycle, ShapeExplorer, Stepper

def echo_of(widget, traits, css_class):
    shown = ipywidgets.HTML('python sees nothing yet')
    shown.add_class(css_class)
    def update(_):
        shown.value = 'python sees ' + ' '.join(f'{{t}}={{getattr(widget, t)!r}}' for t in traits)
    widget.observe(update, names=traits)
    return shown

net = resnet(50, num_classes=1000)
"""

LIFECYCLE = """
class Softmax(mx.operator.CustomOp):
    def __init__(self):
        print('the Op is created at bind')

    def forward(self, is_train, req, in_data, out_data, aux):
        x = in_data[0].asnumpy()
        y = np.exp(x - x.max(axis=1, keepdims=True))
        self.assign(out_data[0], req[0], mx.nd.array(y / y.sum(axis=1, keepdims=True)))

@mx.operator.register('softmax')
class SoftmaxProp(mx.operator.CustomOpProp):
    def __init__(self, scale='1'):
        super().__init__(need_top_grad=False)

    def list_arguments(self):
        return ['data', 'label']

    def infer_shape(self, in_shape):
        return [in_shape[0], (in_shape[0][0],)], [in_shape[0]], []

    def create_operator(self, ctx, shapes, dtypes):
        return Softmax()

life = Lifecycle('softmax')
display(life, echo_of(life, ['selected'], 'echo-lifecycle'))
"""

CELLS = [
    SETUP,
    "explorer = ShapeExplorer(net, data=(1, 3, 224, 224))\n"
    "display(explorer, echo_of(explorer, ['shapes'], 'echo-explorer'))",
    "import time\n"
    "start = time.perf_counter()\n"
    "graph = GraphView(net, data=(1, 3, 224, 224))\n"
    "print(f'GraphView built in {time.perf_counter() - start:.1f} s')\n"
    "display(graph, echo_of(graph, ['selected'], 'echo-graph'))",
    "executor = net.simple_bind(mx.cpu(), data=(1, 3, 224, 224))\n"
    "stepper = Stepper(executor)\n"
    "display(stepper, echo_of(stepper, ['cursor'], 'echo-stepper'))",
    LIFECYCLE,
    "loss = mx.sym.Custom(data=mx.sym.Variable('data'), op_type='softmax', scale=2, name='loss')\n"
    "bound = loss.simple_bind(mx.cpu(), data=(4, 3))",
    "sizes = {name: w.largest_message for name, w in [('explorer', explorer), ('graph', graph),\n"
    "         ('stepper', stepper), ('lifecycle', life)]}\n"
    "from minisym_widgets._base import MAX_MESSAGE_BYTES\n"
    "print('largest message under cap:', max(sizes.values()) < MAX_MESSAGE_BYTES)",
]


@pytest.fixture
def notebook(lab):
    write_notebook(lab.root / "network_widgets.ipynb", CELLS)
    return "network_widgets.ipynb"


def test_network_widgets_on_resnet50(page, lab, notebook, screenshot):
    panel = open_notebook(page, lab, notebook)
    started = time.perf_counter()
    run_all(page, panel)
    graph_svg = cell_output(panel, 2).locator(".msw-graph-view svg")
    expect(graph_svg).to_be_visible()
    print(f"\n[network widgets] every cell ran in {time.perf_counter() - started:.1f} s")

    check_shape_explorer(panel, screenshot)
    check_graph_view(panel, screenshot)
    check_stepper(panel, screenshot)
    check_lifecycle(panel, screenshot)

    expect(cell_output(panel, 6)).to_contain_text("largest message under cap: True")
    assert not page.errors, page.errors
    assert not page.external, page.external
    expect(panel.get_by_text("Error displaying widget")).to_have_count(0)


def check_shape_explorer(panel, screenshot):
    explorer = cell_output(panel, 1).locator(".msw-shape-explorer")
    field = explorer.locator("input.msw-shape-explorer-field[data-field='data']")
    field.fill("2, 3, 224, 224")
    field.press("Enter")
    expect(explorer.locator("tr[data-node='conv0']")).to_contain_text("(2, 64, 112, 112)")
    expect(panel.locator(".echo-explorer")).to_contain_text("2, 3, 224, 224")
    field.fill("2, 3, x")
    field.press("Enter")
    expect(explorer.locator("pre.msw-error")).to_contain_text("Shape field 'data'")
    field.fill("1, 3, 224, 224")
    field.press("Enter")
    expect(explorer.locator("pre.msw-error")).to_have_count(0)
    screenshot(explorer, "shape_explorer")


def check_lifecycle(panel, screenshot):
    life = cell_output(panel, 4).locator(".msw-lifecycle")
    created = life.locator(".msw-lifecycle-call[data-method='create_operator']")
    expect(created).to_contain_text("SoftmaxProp.create_operator(")
    expect(life).to_contain_text("the Op is created at bind")
    created.click()
    expect(life.locator(".msw-lifecycle-detail")).to_contain_text("simple_bind")
    expect(panel.locator(".echo-lifecycle")).not_to_contain_text("selected=0")
    expect(panel.locator(".echo-lifecycle")).to_contain_text("selected=")
    screenshot(life, "lifecycle")


def check_graph_view(panel, screenshot):
    graph = cell_output(panel, 2).locator(".msw-graph-view")
    expect(graph.locator(".msw-graph-view-node[data-name='conv0']")).to_be_visible()
    screenshot(graph, "graph_view")
    start = time.perf_counter()
    graph.locator(".msw-graph-view-node[data-name='conv0']").click()
    index_map = cell_output(panel, 2).locator(".msw-indexmap")
    expect(index_map.locator(".msw-im-caption")).to_contain_text("Convolution 'conv0'")
    opened = time.perf_counter() - start
    print(f"[network widgets] the index map of conv0 opened in {opened:.2f} s")
    expect(index_map).to_contain_text("(1, 3, 224, 224)")
    expect(panel.locator(".echo-graph")).to_contain_text("selected='conv0'")
    graph.locator(".msw-graph-view-group[data-name='stage1_unit1']").click()
    expect(graph.locator(".msw-graph-view-node[data-name='stage1_unit1_conv2']")).to_be_visible()
    start = time.perf_counter()  # every residual unit unfolded: all 175 operators drawn
    graph.locator(".msw-graph-view-expand-all").click()
    expect(graph.locator(".msw-graph-view-node[data-name='stage4_unit3_conv3']")).to_be_attached()
    drawn = time.perf_counter() - start
    print(f"[network widgets] the whole ResNet-50 graph drew in {drawn:.2f} s")
    expect(cell_output(panel, 2).first).to_contain_text("GraphView built in")


def check_stepper(panel, screenshot):
    stepper = cell_output(panel, 3).locator(".msw-stepper")
    position = stepper.locator(".msw-stepper-position")
    expect(position).to_contain_text("call 1 of 350")
    expect(stepper.locator("img.msw-stepper-img").first).to_be_visible()
    stepper.locator("button.msw-stepper-next").click()
    expect(position).to_contain_text("call 2 of 350")
    expect(panel.locator(".echo-stepper")).to_contain_text("cursor=1")
    stepper.locator("button.msw-stepper-back").click()
    expect(position).to_contain_text("call 1 of 350")
    expect(panel.locator(".echo-stepper")).to_contain_text("cursor=0")
    stepper.locator("input.msw-stepper-jump-input").fill("stage1_unit1_conv1")
    stepper.locator("button.msw-stepper-go").click()
    expect(stepper.locator(".msw-stepper-heading")).to_contain_text(
        "Convolution 'stage1_unit1_conv1'"
    )
    expect(stepper.locator(".msw-stepper-phase")).to_contain_text("forward")
    expect(stepper.locator("img.msw-stepper-img").first).to_be_visible()
    screenshot(stepper, "stepper")
