"""The graph view as a static SVG string: what GitHub and nbval show without a live kernel.

Drawn from the very rows the ES module draws (``GraphView.nodes / edges / frames``), with the
palette's colours written out, since no stylesheet reaches a static page.
"""

from ._base import escape

__all__ = ["static_svg"]

# Okabe-Ito tints (25 % colour on white) by plot_network colour index; -1: a collapsed group
_FILLS = {
    -1: "#eeeeee",
    0: "#bfdcec",
    1: "#f9e7bf",
    2: "#bfe7dc",
    3: "#f2ddea",
    4: "#d5ecf9",
    5: "#eeeeee",
    6: "#bfdcec",
    7: "#eeeeee",
}
_FAILED_FILL, _FAILED_STROKE, _STROKE, _TEXT = "#f4d6bf", "#D55E00", "#777777", "#111111"


def static_svg(nodes, edges, frames, size, flags):
    """``<svg>`` of the rows: frames, then edges with their shape labels, then boxes;
    ``flags`` is ``{name: bit}`` of a node row's flags (``GraphView.flags``)."""
    width, height = size
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="monospace" font-size="11">'
    ]
    for group, x, y, w, h in frames:
        parts.append(
            f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="none" '
            f'stroke="{_STROKE}" stroke-dasharray="5 4"/>'
            f'<text x="{x + 6}" y="{y + 13}" fill="{_STROKE}">{escape(group)}</text>'
        )
    for points, label in edges:
        coords = " ".join(f"{points[i]},{points[i + 1]}" for i in range(0, len(points), 2))
        parts.append(f'<polyline points="{coords}" fill="none" stroke="{_STROKE}"/>')
        if label:
            x, y = _label_point(points)
            parts.append(f'<text x="{x + 5}" y="{y}" fill="{_STROKE}">{escape(label)}</text>')
    for _, label, detail, kind, x, y, w, h, bits in nodes:
        failed, group = bits & flags["failed"], bits & flags["group"]
        fill = _FAILED_FILL if failed else _FILLS.get(kind, _FILLS[7])
        stroke = _FAILED_STROKE if failed else _STROKE
        dash = ' stroke-dasharray="5 3"' if group else ""
        left, top = x - w / 2, y - h / 2
        parts.append(
            f'<rect x="{left:g}" y="{top:g}" width="{w}" height="{h}" rx="5" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="{3 if failed else 1}"{dash}/>'
            f'<text x="{x:g}" y="{top + 18:g}" text-anchor="middle" font-weight="bold" '
            f'fill="{_TEXT}">{escape(label)}</text>'
            f'<text x="{x:g}" y="{top + 34:g}" text-anchor="middle" '
            f'font-family="sans-serif" fill="{_TEXT}">{escape(detail)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _label_point(points):
    """Middle of an edge's last segment (near the operator that reads it)."""
    x0, y0, x1, y1 = points[-4:]
    return round((x0 + x1) / 2), round((y0 + y1) / 2)
