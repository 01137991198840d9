"""A layered top-to-bottom drawing of a directed acyclic graph, without Graphviz.

Sugiyama-lite, deterministic (no randomness, ties broken by the order the boxes are given):

1. layers: longest path from the sources; a source is then pulled down to just above its
   first consumer (a label variable sits beside the loss, not at the top);
2. an edge spanning several layers gets a dummy point in each layer it crosses, so it is
   routed around the boxes;
3. order within a layer: barycentre sweeps down and up, keeping the order with fewest crossings;
4. x: each box pulled towards the mean x of its neighbours (going down, of the boxes that feed
   it; weights ``beside`` it only follow it), the layer's order and spacing kept exactly
   (isotonic regression by pool-adjacent-violators).
"""

from dataclasses import dataclass

__all__ = ["Layout", "layered_layout"]

LAYER_GAP = 40  # vertical space between two layers (room for an edge label)
BOX_GAP = 24  # horizontal space between two boxes of one layer
DUMMY_WIDTH = 8  # the width a routed edge takes in a layer it crosses
MARGIN = 16
_SWEEPS = 6
_LIGHT = 1e-3  # how much a weight drawn beside its consumer counts when a row is spaced


@dataclass(frozen=True)
class Layout:
    """Centres of the boxes, the polyline of each edge, and the drawing's size (pixels)."""

    centres: dict  # key -> (x, y)
    routes: dict  # (source key, target key) -> [(x, y), ...] from source to target
    layers: dict  # key -> layer index (0 at the top)
    width: int
    height: int


def layered_layout(boxes, edges, beside=()):
    """The layout of ``boxes`` [(key, width, height)] joined by ``edges`` [(source, target)].

    ``beside``: keys of sources drawn to the right of the box they feed (weights), which then
    sits under its other inputs. Works for any DAG; a repeated edge is drawn once.
    """
    sizes = {key: (w, h) for key, w, h in boxes}
    order = [key for key, _, _ in boxes]
    edges = list(dict.fromkeys((s, t) for s, t in edges if s != t))
    layer = _layers(order, edges)
    rows, chains = _with_dummies(order, edges, layer)
    width_of = lambda key: sizes[key][0] if key in sizes else DUMMY_WIDTH
    ups, downs = _neighbours(rows, chains)
    rows = _order_rows(rows, ups, downs)
    xs = _x_coordinates(rows, ups, downs, width_of, set(beside))
    ys, height = _y_coordinates(rows, sizes)
    left = min((xs[k] - width_of(k) / 2 for row in rows for k in row), default=0)
    shift = MARGIN - left
    centres = {k: (round(xs[k] + shift), ys[k]) for k in order}
    routes = {}
    for edge, chain in chains.items():
        points = [(xs[k] + shift, ys[k]) for k in chain]
        source_h, target_h = sizes[edge[0]][1], sizes[edge[1]][1]
        points[0] = (points[0][0], points[0][1] + source_h / 2)
        points[-1] = (points[-1][0], points[-1][1] - target_h / 2)
        routes[edge] = [(round(x), round(y)) for x, y in points]
    right = max((xs[k] + shift + width_of(k) / 2 for row in rows for k in row), default=0)
    return Layout(centres, routes, layer, round(right + MARGIN), round(height + MARGIN))


def _layers(order, edges):
    """Longest-path layer of each key; sources moved down to just above their first consumer."""
    preds = {key: [] for key in order}
    succs = {key: [] for key in order}
    for s, t in edges:
        preds[t].append(s)
        succs[s].append(t)
    layer = {}
    for key in _topological(order, preds, succs):
        layer[key] = max((layer[p] + 1 for p in preds[key]), default=0)
    for key in order:
        if not preds[key] and succs[key]:
            layer[key] = min(layer[t] for t in succs[key]) - 1
    return layer


def _topological(order, preds, succs):
    """``order`` rearranged so every key follows its predecessors (stable: Kahn's algorithm
    taking keys in the given order)."""
    waiting = {key: len(preds[key]) for key in order}
    position = {key: i for i, key in enumerate(order)}
    ready = [key for key in order if waiting[key] == 0]
    result = []
    while ready:
        ready.sort(key=position.__getitem__, reverse=True)
        key = ready.pop()
        result.append(key)
        for t in succs[key]:
            waiting[t] -= 1
            if waiting[t] == 0:
                ready.append(t)
    if len(result) != len(order):
        raise ValueError("layered_layout: the graph has a cycle")
    return result


def _with_dummies(order, edges, layer):
    """(rows: [[key, ...] per layer], chains: {edge: [source, dummy..., target]})."""
    depth = max(layer.values(), default=-1) + 1
    rows = [[] for _ in range(depth)]
    for key in order:
        rows[layer[key]].append(key)
    chains = {}
    for s, t in edges:
        chain = [s]
        for level in range(layer[s] + 1, layer[t]):
            dummy = ("dummy", s, t, level)
            rows[level].append(dummy)
            chain.append(dummy)
        chains[(s, t)] = chain + [t]
    return rows, chains


def _neighbours(rows, chains):
    """({key: keys one layer up}, {key: keys one layer down}) over the dummy-split edges."""
    ups = {k: [] for row in rows for k in row}
    downs = {k: [] for row in rows for k in row}
    for chain in chains.values():
        for a, b in zip(chain, chain[1:]):
            downs[a].append(b)
            ups[b].append(a)
    return ups, downs


def _order_rows(rows, ups, downs):
    """Rows reordered by barycentre sweeps; the ordering with the fewest crossings wins."""
    best, best_crossings = [list(r) for r in rows], _crossings(rows, downs)
    current = [list(r) for r in rows]
    for sweep in range(_SWEEPS):
        down = sweep % 2 == 0
        levels = range(1, len(current)) if down else range(len(current) - 2, -1, -1)
        for level in levels:
            fixed = current[level - 1] if down else current[level + 1]
            links = ups if down else downs
            current[level] = _by_barycentre(current[level], fixed, links)
        crossings = _crossings(current, downs)
        if crossings < best_crossings:
            best, best_crossings = [list(r) for r in current], crossings
    return best


def _by_barycentre(row, fixed, links):
    """``row`` sorted by the mean position of each key's neighbours in ``fixed`` (a key without
    neighbours there keeps its place)."""
    where = {k: i for i, k in enumerate(fixed)}
    keyed = []
    for i, key in enumerate(row):
        places = [where[n] for n in links[key] if n in where]
        keyed.append((sum(places) / len(places) if places else i, i, key))
    return [key for _, _, key in sorted(keyed, key=lambda item: (item[0], item[1]))]


def _crossings(rows, downs):
    """Pairs of edges that cross between consecutive rows."""
    total = 0
    for upper, lower in zip(rows, rows[1:]):
        where = {k: i for i, k in enumerate(lower)}
        ends = sorted((i, where[t]) for i, k in enumerate(upper) for t in downs[k] if t in where)
        for a in range(len(ends)):
            for b in range(a + 1, len(ends)):
                if ends[a][0] < ends[b][0] and ends[a][1] > ends[b][1]:
                    total += 1
    return total


def _x_coordinates(rows, ups, downs, width_of, beside):
    """x of every key: rows packed left to right, then pulled towards their neighbours."""
    xs = {}
    for row in rows:
        x = 0.0
        for i, key in enumerate(row):
            if i:
                x += (width_of(row[i - 1]) + width_of(key)) / 2 + BOX_GAP
            xs[key] = x
    # a box follows its inputs but not its weights, which would pull it sideways layer after
    # layer (a BatchNorm has four) until the chain drifts off; the weights go to its right
    fed_by = {k: [n for n in ups[k] if n not in beside] for k in ups}
    shift = {k: (width_of(k) / 2 + BOX_GAP + 60 if k in beside else 0) for k in ups}
    for sweep in range(_SWEEPS):
        down = sweep % 2 == 0
        links = fed_by if down else downs
        for row in rows if down else rows[::-1]:
            wanted = [
                _mean([xs[n] for n in links[k]], xs[k]) + (0 if down else shift[k]) for k in row
            ]
            weights = [_LIGHT if k in beside else 1.0 for k in row]
            for key, x in zip(row, _spaced(wanted, [width_of(k) for k in row], weights)):
                xs[key] = x
    return xs


def _mean(values, default):
    return sum(values) / len(values) if values else default


def _spaced(wanted, widths, weights):
    """The x closest to ``wanted`` (weighted least squares) keeping order and gaps: with
    offsets o_i (the packed position of box i), y_i = x_i - o_i must not decrease, which
    pool-adjacent-violators solves exactly."""
    offsets, o = [], 0.0
    for i, w in enumerate(widths):
        if i:
            o += (widths[i - 1] + w) / 2 + BOX_GAP
        offsets.append(o)
    blocks = []  # [weighted mean, total weight, count]
    for want, off, weight in zip(wanted, offsets, weights):
        blocks.append([want - off, weight, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            mean, weight, count = blocks.pop()
            last = blocks[-1]
            last[0] = (last[0] * last[1] + mean * weight) / (last[1] + weight)
            last[1] += weight
            last[2] += count
    ys = [mean for mean, _, count in blocks for _ in range(count)]
    return [y + off for y, off in zip(ys, offsets)]


def _y_coordinates(rows, sizes):
    """(y centre of every key, total height): each layer as tall as its tallest box."""
    ys, top = {}, MARGIN
    for row in rows:
        tall = max((sizes[k][1] for k in row if k in sizes), default=DUMMY_WIDTH)
        for key in row:
            ys[key] = top + tall / 2
        top += tall + LAYER_GAP
    return ys, top - LAYER_GAP
