"""Pictures that survive printing: an operator's three lists and six arrays, drawn from the
engine's contract of one node (``minisym.contract.node_contract``) with matplotlib.

    fig = slot_diagram(mx.sym.Custom(data=x, label=y, op_type='softmax', name='softmax'))

The top row is what the Prop declares (``list_arguments``, ``list_outputs``,
``list_auxiliary_states``) and the three lists ``infer_shape`` returns in that order; below,
forward (``in_data[i]`` → ``out_data[j]``, written under forward ``req[j]``) and backward
(``out_grad[j]`` → ``in_grad[i]``, written under backward ``req[i]``), with ``aux[k]`` beside
both. ``python -m minisym_widgets.diagrams FOLDER`` writes the pictures the lessons and
``index_rules.md`` show.
"""

import io
import sys
from functools import lru_cache
from pathlib import Path

from matplotlib import font_manager, rc_context, rcParams
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from minisym.contract import node_contract

from .i18n import N_, language
from .i18n import gettext as _

__all__ = ["slot_diagram", "dependency_diagram", "Picture", "COLOURS", "write_course_pictures"]

# the widgets' palette (_common.css): colour-blind safe, the same role, the same colour
COLOURS = {
    "in": "#0072B2",
    "out": "#D55E00",
    "aux": "#CC79A7",
    "grad": "#009E73",
    "req": "#B07800",
    "op": "#444444",
    "muted": "#999999",
}
TEXT = {
    "declares": N_(
        "the Prop declares three lists; infer_shape returns three lists in the same order"
    ),
    "forward": "forward(is_train, req, in_data, out_data, aux)",  # code: never translated
    "backward": "backward(req, out_grad, in_data, out_data, in_grad, aux)",
    "no_out_grad": N_("no out_grad: need_top_grad=False (a loss makes its own gradient)"),
    "aux_note": N_("aux: state, read and written in place;\nno gradient; kept between calls"),
    "no_aux": N_("no auxiliary states"),
    "forward_req": N_("forward's req[j]: how to write out_data[j]"),
    "backward_req": N_("backward's req[i]: how to write in_grad[i]"),
    "reads_again": N_(
        "backward also gets in_data and out_data again\n(those declare_backward_dependency lists)"
    ),
    "shapes": (
        N_("infer_shape's 1st list: their shapes\n(in_shape[i] is list_arguments()[i]'s)"),
        N_("infer_shape's 2nd list: their shapes"),
        N_("infer_shape's 3rd list: their shapes"),
    ),
}
CHINESE_FONTS = (
    "Noto Sans CJK SC",
    "Source Han Sans SC",
    "WenQuanYi Zen Hei",
    "SimHei",
    "Microsoft YaHei",
    "PingFang SC",
)
OP_WIDTH = 4.8  # the forward / backward boxes, centred at x = 6
OP_LEFT, OP_RIGHT = 6 - OP_WIDTH / 2, 6 + OP_WIDTH / 2


class Picture:
    """A drawing a notebook shows as a PNG, with a text form that says what it shows (what a
    static render without images, and nbval, read). ``figure`` is the matplotlib Figure."""

    def __init__(self, figure, text):
        self.figure, self.text = figure, text

    def _repr_png_(self):
        buffer = io.BytesIO()
        self.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
        return buffer.getvalue()

    def savefig(self, *args, **kwargs):
        """The Figure's ``savefig``."""
        return self.figure.savefig(*args, **kwargs)

    def __repr__(self):
        return self.text


def _fonts():
    """matplotlib settings for the language in use: in Chinese, a font with Chinese glyphs
    after the default one (matplotlib falls back along the list); in English, none."""
    if language() != "zh_CN":
        return {}
    return {"font.family": rcParams["font.sans-serif"][:1] + _chinese_fonts()}


def _mono():
    """The family of code text: monospace, with Chinese glyphs after it in Chinese."""
    if language() != "zh_CN":
        return "monospace"
    return rcParams["font.monospace"][:1] + _chinese_fonts()


@lru_cache(maxsize=1)
def _chinese_fonts():
    """The CHINESE_FONTS matplotlib can use; fonts installed after its font cache was built are
    added from the system's font folders first."""

    def installed():
        return {font.name for font in font_manager.fontManager.ttflist}

    if not installed() & set(CHINESE_FONTS):
        for path in font_manager.findSystemFonts():
            if any(mark in Path(path).name.lower() for mark in ("cjk", "wqy", "sourcehan")):
                font_manager.fontManager.addfont(path)
    return [name for name in CHINESE_FONTS if name in installed()]


def _box(ax, x, y, text, colour, width=2.6, height=0.52, filled=False, fontsize=9.5):
    patch = FancyBboxPatch(
        (x - width / 2, y - height / 2),
        width,
        height,
        boxstyle="round,pad=0.04,rounding_size=0.12",
        linewidth=1.6,
        edgecolor=colour,
        facecolor=colour if filled else "white",
    )
    ax.add_patch(patch)
    ax.text(
        x,
        y,
        text,
        ha="center",
        va="center",
        fontsize=fontsize,
        family=_mono(),
        color="white" if filled else colour,
    )


def _arrow(ax, start, end, colour, label=None, dashed=False):
    ax.add_patch(
        FancyArrowPatch(
            start,
            end,
            arrowstyle="-|>",
            mutation_scale=14,
            linewidth=1.4,
            color=colour,
            linestyle=(0, (4, 3)) if dashed else "-",
        )
    )
    if label:
        x, y = (start[0] + end[0]) / 2, (start[1] + end[1]) / 2
        ax.text(
            x,
            y + 0.16,
            label,
            ha="center",
            va="bottom",
            fontsize=8.5,
            family=_mono(),
            color=COLOURS["req"],
        )


def _column(count, centre, gap=0.72):
    """y positions of ``count`` boxes centred on ``centre``."""
    return [centre + gap * ((count - 1) / 2 - i) for i in range(count)]


def _names(contract, role):
    return [doc.name for doc in contract if doc.role == role]


def _declarations(ax, y, contract):
    args, outs, auxs = (_names(contract, r) for r in ("in_data", "out_data", "aux"))
    ax.text(6, y + 0.62, _(TEXT["declares"]), ha="center", fontsize=9.5, color=COLOURS["op"])
    for x, method, names, colour, shapes in (
        (1.9, "list_arguments()", args, COLOURS["in"], _(TEXT["shapes"][0])),
        (6.0, "list_outputs()", outs, COLOURS["out"], _(TEXT["shapes"][1])),
        (10.1, "list_auxiliary_states()", auxs, COLOURS["aux"], _(TEXT["shapes"][2])),
    ):
        _box(ax, x, y, f"{method}\n-> {names!r}", colour, width=3.8, height=0.72)
        ax.text(x, y - 0.47, shapes, ha="center", va="top", fontsize=8.5, color=COLOURS["muted"])


def _forward(ax, y, contract):
    args, outs = _names(contract, "in_data"), _names(contract, "out_data")
    _box(
        ax,
        6,
        y,
        TEXT["forward"],
        COLOURS["op"],
        width=OP_WIDTH,
        height=0.62,
        filled=True,
        fontsize=8.5,
    )
    for i, (name, ya) in enumerate(zip(args, _column(len(args), y))):
        _box(ax, 1.5, ya, f"in_data[{i}] {name}", COLOURS["in"])
        _arrow(ax, (2.85, ya), (OP_LEFT, y), COLOURS["in"])
    for j, (name, yo) in enumerate(zip(outs, _column(len(outs), y))):
        _box(ax, 10.7, yo, f"out_data[{j}] {name}", COLOURS["out"])
        _arrow(ax, (OP_RIGHT, y), (9.35, yo), COLOURS["out"], f"req[{j}]")
    ax.text(
        10.7,
        max(_column(len(outs), y)) + 0.45,
        _(TEXT["forward_req"]),
        ha="center",
        fontsize=8,
        color=COLOURS["req"],
    )


def _backward(ax, y, contract):
    args = _names(contract, "in_grad")
    outs = [doc for doc in contract if doc.role == "out_grad"]
    _box(
        ax,
        6,
        y,
        TEXT["backward"],
        COLOURS["op"],
        width=OP_WIDTH,
        height=0.62,
        filled=True,
        fontsize=8.5,
    )
    given = [doc for doc in outs if doc.in_backward]
    if given:
        for doc, yo in zip(given, _column(len(given), y)):
            label = _("{slot} grad of {name}").format(slot=f"out_grad[{doc.index}]", name=doc.name)
            _box(ax, 10.7, yo, label, COLOURS["grad"])
            _arrow(ax, (9.35, yo), (OP_RIGHT, y), COLOURS["grad"])
    else:
        ax.text(
            10.7,
            y,
            _(TEXT["no_out_grad"]).replace(": ", ":\n", 1),
            ha="center",
            va="center",
            fontsize=8.5,
            color=COLOURS["muted"],
            style="italic",
        )
    for i, (name, ya) in enumerate(zip(args, _column(len(args), y))):
        _box(
            ax,
            1.5,
            ya,
            _("{slot} grad of {name}").format(slot=f"in_grad[{i}]", name=name),
            COLOURS["grad"],
        )
        _arrow(ax, (OP_LEFT, y), (2.85, ya), COLOURS["grad"], f"req[{i}]")
    ax.text(
        1.5,
        min(_column(len(args), y)) - 0.5,
        _(TEXT["backward_req"]),
        ha="center",
        va="top",
        fontsize=8,
        color=COLOURS["req"],
    )
    ax.text(
        6,
        y - 0.42,
        _(TEXT["reads_again"]),
        ha="center",
        va="top",
        fontsize=8,
        color=COLOURS["muted"],
    )


def _aux(ax, y_forward, y_backward, contract):
    auxs = _names(contract, "aux")
    y = (y_forward + y_backward) / 2
    if not auxs:
        ax.text(
            6,
            y,
            _(TEXT["no_aux"]),
            ha="center",
            va="center",
            fontsize=8.5,
            color=COLOURS["muted"],
            style="italic",
        )
        return
    label = "  ".join(f"aux[{k}] {name}" for k, name in enumerate(auxs))
    width = max(2.6, 0.13 * len(label) + 0.6)
    _box(ax, 6, y, label, COLOURS["aux"], width=width)
    ax.text(
        6 + width / 2 + 0.2,
        y,
        _(TEXT["aux_note"]),
        ha="left",
        va="center",
        fontsize=8,
        color=COLOURS["aux"],
    )
    for end in (y_forward - 0.34, y_backward + 0.34):
        _arrow(ax, (6, y + (0.27 if end > y else -0.27)), (6, end), COLOURS["aux"], dashed=True)


def slot_diagram(symbol, title=None):
    """A Picture of the three lists and six arrays of ``symbol``'s head operator."""
    with rc_context(_fonts()):
        return _slot_diagram(symbol, title)


def _slot_diagram(symbol, title):
    node = _head_node(symbol, "slot_diagram")
    contract = node_contract(node)
    rows = max(len(_names(contract, "in_data")), len(_names(contract, "out_data")), 1)
    spread = 0.72 * (rows - 1)
    y_top, y_fwd = 0.0, -2.2 - spread / 2
    y_bwd = y_fwd - 2.0 - spread
    fig = Figure(figsize=(12, 4.6 + 1.2 * spread))  # no pyplot: no backend, no global state
    ax = fig.subplots()
    _declarations(ax, y_top, contract)
    _forward(ax, y_fwd, contract)
    _aux(ax, y_fwd, y_bwd, contract)
    _backward(ax, y_bwd, contract)
    ax.set(xlim=(-0.1, 12.1), ylim=(y_bwd - spread / 2 - 1.2, y_top + 1.0))
    ax.axis("off")
    title = title or _("{op} '{node}': every index and the name behind it").format(
        op=node.op.op_name, node=node.name
    )
    ax.set_title(title, fontsize=11, loc="left")
    fig.tight_layout()
    return Picture(fig, title)


def _head_node(symbol, who):
    node = symbol.outputs[0][0]
    if node.is_variable:
        raise ValueError(
            _(
                "{who}: '{node}' is a Variable, not an operator; give the symbol an "
                "operator makes, e.g. mx.sym.Custom(..., op_type=...)"
            ).format(who=who, node=node.name)
        )
    return node


def dependency_diagram(symbol):
    """A Picture of the ids ``declare_backward_dependency`` receives for ``symbol``'s head
    operator (out_grad, then in_data, then out_data, as MXNet numbers them), those it
    returned filled, the rest marked as arriving empty."""
    with rc_context(_fonts()):
        return _dependency_diagram(symbol)


def _dependency_diagram(symbol):
    node = _head_node(symbol, "dependency_diagram")
    names = {
        "out_grad": node.op.list_outputs(),
        "in_data": node.op.list_arguments(),
        "out_data": node.op.list_outputs(),
    }
    ids, reads = node.op.dependency_ids(), node.op.backward_reads()
    colours = {"out_grad": COLOURS["grad"], "in_data": COLOURS["in"], "out_data": COLOURS["out"]}
    returned = [i for role in ids for i, read in zip(ids[role], reads[role]) if read]
    count = sum(len(v) for v in ids.values())
    fig = Figure(figsize=(max(6.5, 1.25 * count + 1.2), 2.6))
    ax = fig.subplots()
    x = 0.0
    for role in ("out_grad", "in_data", "out_data"):
        start = x
        for index, (number, name, read) in enumerate(zip(ids[role], names[role], reads[role])):
            colour = colours[role] if read else COLOURS["muted"]
            patch = FancyBboxPatch(
                (x + 0.06, 0.1),
                1.0,
                1.1,
                linewidth=1.6,
                boxstyle="round,pad=0.02,rounding_size=0.08",
                edgecolor=colour,
                facecolor=colour if read else "white",
                linestyle="-" if read else (0, (3, 2)),
            )
            ax.add_patch(patch)
            ink = "white" if read else COLOURS["muted"]
            ax.text(
                x + 0.56,
                0.88,
                str(number),
                ha="center",
                va="center",
                fontsize=15,
                weight="bold",
                color=ink,
            )
            ax.text(
                x + 0.56,
                0.5,
                f"{role}[{index}]\n{name}",
                ha="center",
                va="center",
                fontsize=7.5,
                family=_mono(),
                color=ink,
            )
            if not read:
                ax.text(
                    x + 0.56,
                    -0.12,
                    _("empty"),
                    ha="center",
                    va="center",
                    fontsize=7.5,
                    color=COLOURS["muted"],
                    style="italic",
                )
            x += 1.12
        if x > start:
            ax.text(
                (start + x) / 2 + 0.03,
                1.42,
                role,
                ha="center",
                fontsize=10,
                family=_mono(),
                color=colours[role],
            )
        x += 0.35
    call = ", ".join(f"{role}={ids[role]}" for role in ("out_grad", "in_data", "out_data"))
    title = f"declare_backward_dependency({call})\n" + _("returned {ids}").format(ids=returned)
    ax.set_title(
        title + _(": backward gets those arrays; the others arrive empty"),
        fontsize=9,
        family=_mono(),
        loc="left",
    )
    ax.set(xlim=(-0.1, x - 0.25), ylim=(-0.35, 1.7))
    ax.axis("off")
    fig.tight_layout()
    return Picture(fig, title.replace("\n", " "))


def write_course_pictures(folder):
    """Write the lessons' pictures into ``folder``; returns their paths."""
    from .diagram_examples import examples

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, (symbol, title) in examples().items():
        fig = slot_diagram(symbol, title)
        path = folder / f"{name}.png"
        fig.savefig(path, dpi=110, metadata={"Software": None})
        paths.append(path)
    return paths


if __name__ == "__main__":
    for written in write_course_pictures(sys.argv[1] if len(sys.argv) > 1 else "lessons/images"):
        print(written)
