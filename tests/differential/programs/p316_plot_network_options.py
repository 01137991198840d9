"""plot_network options: hide_weights=False (weight edges drawn, nodes unstyled), dtype edge labels,
node_attrs, title and save_format, multi-output edges (always the last output's shape), repeated names."""
import warnings

import re

TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|->|[\[\]{}=;]|[^\s\[\]{}=;"]+')


def unquote(token):
    if token.startswith('"'):
        return re.sub(r'\\(.)', r'\1', token[1:-1])
    return token


def parse_dot(source):
    """{'kind', 'name', 'nodes': [[name, attrs]], 'edges': [[tail, head, attrs]]} of DOT text."""
    tokens = TOKEN.findall(source)
    graph = {"kind": tokens[0], "name": unquote(tokens[1]), "nodes": [], "edges": []}
    pos = tokens.index("{") + 1
    while tokens[pos] != "}":
        if tokens[pos] == ";":
            pos += 1
            continue
        first = unquote(tokens[pos])
        pos += 1
        second = None
        if tokens[pos] == "->":
            second = unquote(tokens[pos + 1])
            pos += 2
        attrs = {}
        if tokens[pos] == "[":
            pos += 1
            while tokens[pos] != "]":
                key, value = unquote(tokens[pos]), unquote(tokens[pos + 2])
                attrs[key] = value
                pos += 3
            pos += 1
        if second is None:
            graph["nodes"].append([first, attrs])
        else:
            graph["edges"].append([first, second, attrs])
    return graph


def branchy(mx):
    data = mx.sym.Variable("data")
    a = mx.sym.Convolution(data, kernel=(1, 1), num_filter=2, no_bias=True, name="a")
    b = mx.sym.Convolution(data, kernel=(3, 3), pad=(1, 1), num_filter=6, num_group=2, name="b")
    cat = mx.sym.Concat(a, b, name="cat")
    parts = mx.sym.SliceChannel(cat, num_outputs=2, name="sl")
    emb = mx.sym.Embedding(mx.sym.Variable("tok"), input_dim=7, output_dim=3, name="emb")
    fc = mx.sym.FullyConnected(parts[0], num_hidden=5, name="fcs")
    act = mx.sym.LeakyReLU(fc, act_type="elu", name="lr")
    bn = mx.sym.BatchNorm(mx.sym.Reshape(act, shape=(0, 5, 1), name="rs"), name="bn")
    return mx.sym.Group([bn + 1, emb, parts[1]])


def describe(dot):
    return {"graph": parse_dot(dot.source), "name": dot.name, "format": dot.format,
            "body_lines": len(dot.body)}


def run(mx):
    net = branchy(mx)
    shapes = {"data": (1, 4, 5, 5), "tok": (1, 3)}
    out = {
        "hidden": describe(mx.viz.plot_network(net, shape=shapes)),
        "shown_weights_with_types": describe(mx.viz.plot_network(
            net, shape=shapes, dtype={"data": "float32", "tok": "float32"}, hide_weights=False)),
        "types_only": describe(mx.viz.plot_network(net, dtype={"data": "float64", "tok": "int32"})),
        "options": describe(mx.viz.plot_network(
            net, title="my net", save_format="svg",
            node_attrs={"fixedsize": "false", "shape": "ellipse", "fontsize": "9"})),
    }
    a1, a2 = mx.sym.Variable("a"), mx.sym.Variable("a")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dup = mx.viz.plot_network(a1 + a2)
    out["repeated_names"] = {
        "warnings": [[w.category.__name__, str(w.message)] for w in caught
                     if "Repeated names" in str(w.message)],
        "graph": parse_dot(dup.source),
    }
    return out
