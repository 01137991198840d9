"""``mx.viz``: a network as a text table (``print_summary``) or a Graphviz drawing
(``plot_network``).

Both read the network from ``symbol.tojson()``, whose nodes are already in topological order,
so they walk a list and never recurse. With ``shape`` given, ``print_summary`` prints exactly
MXNet 1.9.1's table, quirks included:

- only operator nodes are rows, plus node 0 (usually ``data``);
- "Previous Layer" lists an input only when it is an operator or node 0: MXNet tests
  ``id in set(heads[0])`` and ``heads[0]`` is ``[head_id, output_index, 0]``;
- the parameter count of Convolution and FullyConnected uses the channel count (``shape[1]``)
  of those listed inputs only; BatchNorm counts gamma and beta; Embedding its table.

Without ``shape`` MXNet counts as if every input had 0 channels and prints wrong numbers.
minisym instead uses the ``__shape__`` hints of the variables (``mx.sym.var('data',
shape=...)``): when they settle every shape the table is the one MXNet prints for those shapes,
otherwise unknown counts show as ``?`` and a last line names the missing input shapes.
"""

import copy
import json
import re
import shutil
import warnings

from .graph.infer import infer_shape
from .module import BaseModule
from .symbol import Symbol

__all__ = ["print_summary", "plot_network"]

_HEADER = ["Layer (type)", "Output Shape", "Param #", "Previous Layer"]
_UNKNOWN = "?"


def _str2tuple(string):
    """The digit runs of a shape string: ``'(3, 3)'`` -> ``['3', '3']``."""
    return re.findall(r"\d+", string)


# --- print_summary ---------------------------------------------------------------------------
def print_summary(symbol, shape=None, line_length=120, positions=(0.44, 0.64, 0.74, 1.0)):
    """Print a table of layers, output shapes (batch dim dropped) and parameter counts.

    ``shape``: {input name: shape}, e.g. ``{'data': (1, 3, 32, 32)}``.
    """
    if not isinstance(symbol, Symbol):
        raise TypeError("symbol must be Symbol" + _what_instead(symbol, "print_summary"))
    _check_mapping(shape, "shape", "print_summary", "{'data': (1, 3, 32, 32)}")
    if not isinstance(positions, (list, tuple)) or len(positions) != len(_HEADER):
        # MXNet fails with an IndexError while drawing the header; same type, clearer text
        raise IndexError(
            f"print_summary: positions gives where each of the {len(_HEADER)} "
            f"columns ({', '.join(_HEADER)}) ends, as fractions of line_length "
            f"(default (.44, .64, .74, 1.)); got {positions!r}"
        )
    if shape is not None:
        shape_dict, missing = _output_shapes(symbol, shape), []
    else:
        shape_dict, missing = _hinted_output_shapes(symbol)
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]
    table = _SummaryTable(json.loads(symbol.tojson()), shape_dict, positions, line_length)
    for line in table.lines():
        print(line)
    if missing:
        what = "Output shapes left blank"
        if table.unknown:
            what += f" and parameter counts marked {_UNKNOWN}"
        example = ", ".join(f"'{name}': (...)" for name in missing)
        print(
            f"{what} need the shapes of: {', '.join(missing)}. Give them: "
            f"print_summary(symbol, shape={{{example}}})"
        )


def _quiet_infer_shape(symbol, shape):
    """symbol.infer_shape(**shape) without the lines it prints when it fails: the error says
    it all here."""
    return infer_shape(symbol, (), shape, partial=False)


def _output_shapes(symbol, shape):
    """{output name: shape} of every internal output, as MXNet's print_summary computes it."""
    internals = symbol.get_internals()
    _, out_shapes, _ = _quiet_infer_shape(internals, shape)
    if out_shapes is None:
        raise ValueError("Input shape is incomplete")
    return dict(zip(internals.list_outputs(), out_shapes))


def _hinted_output_shapes(symbol):
    """({output name: shape or None}, [unknown inputs]) from the variables' ``__shape__`` hints."""
    internals = symbol.get_internals()
    arg_shapes, out_shapes, aux_shapes = internals.infer_shape_partial()
    names = internals.list_arguments() + internals.list_auxiliary_states()
    unknown = [name for name, shp in zip(names, arg_shapes + aux_shapes) if not _known(shp)]
    shape_dict = {
        name: (tuple(shp) if _known(shp) else None)
        for name, shp in zip(internals.list_outputs(), out_shapes)
    }
    # name what the user has to give (data, not the weights that follow from it)
    parameters = _implicit_inputs(symbol)
    return shape_dict, [name for name in unknown if name not in parameters] or unknown


def _known(shape):
    return bool(shape) and all(int(d) > 0 for d in shape)


def _implicit_inputs(symbol):
    """Names of variables created by an operator for its own inputs (``fc1_weight``,
    ``softmax_label``)."""
    names = set()
    for node in symbol.topo_order():
        if node.op is None:
            continue
        slots = node.op.list_arguments() + node.op.list_auxiliary_states()
        for slot, (src, _) in zip(slots, node.inputs):
            if src.is_variable and src.name == f"{node.name}_{slot}":
                names.add(src.name)
    return names


class _SummaryTable:
    """MXNet's print_summary lines for parsed ``tojson()`` ``conf``.

    ``shape_dict`` maps output names to shapes; a None value is a shape that is not known, which
    makes the counts that depend on it ``?``.
    """

    def __init__(self, conf, shape_dict, positions, line_length):
        self.nodes = conf["nodes"]
        self.heads = set(conf["heads"][0])  # MXNet's quirk: node ids *and* output index/version
        self.shape_dict = shape_dict
        self.positions = positions
        self.line_length = line_length
        self.unknown = False  # set by lines(): whether some count is ``?``

    def row(self, fields):
        """One line: each field cut or padded to end at its position."""
        line = ""
        for field, position in zip(fields, self.positions):
            line += str(field)
            line = line[:position]
            line += " " * (position - len(line))
        return line

    def lines(self):
        """Every line of the table, rules and total included."""
        out = ["_" * self.line_length, self.row(_HEADER), "=" * self.line_length]
        total, unknown = 0, False
        for i, node in enumerate(self.nodes):
            if node["op"] == "null" and i > 0:
                continue
            count = self.layer(node, i, out)
            if count == _UNKNOWN:
                unknown = True
            else:
                total += count
            out.append(("=" if i == len(self.nodes) - 1 else "_") * self.line_length)
        self.unknown = unknown
        out.append(f"Total params: {_UNKNOWN if unknown else total}")
        out.append("_" * self.line_length)
        return out

    def key(self, node):
        """The shape_dict key of ``node``'s output as MXNet forms it (no index: multi-output
        misses)."""
        return node["name"] + "_output" if node["op"] != "null" else node["name"]

    def layer(self, node, i, out):
        """Append ``node``'s row(s) to ``out``; return its parameter count (or ``?``)."""
        out_shape = []
        if node["op"] != "null" or i in self.heads:
            known = self.shape_dict.get(self.key(node))
            out_shape = known[1:] if known is not None else []
        previous, channels = [], 0
        if node["op"] != "null":
            for item in node["inputs"]:
                source = self.nodes[item[0]]
                if source["op"] != "null" or item[0] in self.heads:
                    previous.append(source["name"])
                    key = self.key(source)
                    if key in self.shape_dict:
                        known = self.shape_dict[key]
                        channels = (
                            _UNKNOWN
                            if known is None or channels == _UNKNOWN
                            else channels + int(known[1:][0])
                        )
        count = self.param_count(node, channels)
        fields = [
            f"{node['name']}({node['op']})",
            "x".join(str(x) for x in out_shape),
            count,
            previous[0] if previous else "",
        ]
        out.append(self.row(fields))
        for name in previous[1:]:
            out.append(self.row(["", "", "", name]))
        return count

    def param_count(self, node, channels):
        """Parameters of one layer by MXNet's formulas; ``?`` when a needed shape is unknown."""
        op, attrs = node["op"], node.get("attrs", {})
        if op in ("Convolution", "FullyConnected") and channels == _UNKNOWN:
            return _UNKNOWN
        no_bias = attrs.get("no_bias") == "True"
        if op == "Convolution":
            count = channels * int(attrs["num_filter"]) // int(attrs.get("num_group", "1"))
            for k in _str2tuple(attrs["kernel"]):
                count *= int(k)
            return count if no_bias else count + int(attrs["num_filter"])
        if op == "FullyConnected":
            hidden = int(attrs["num_hidden"])
            return channels * hidden if no_bias else (channels + 1) * hidden
        if op == "BatchNorm":
            known = self.shape_dict.get(self.key(node))
            return _UNKNOWN if known is None else int(known[1]) * 2
        if op == "Embedding":
            return int(attrs["input_dim"]) * int(attrs["output_dim"])
        return 0


def _what_instead(value, caller):
    """': got a Module: pass mod.symbol' -- what to give instead of ``value``."""
    if isinstance(value, BaseModule):
        return f"; got a Module: pass its symbol, {caller}(mod.symbol, ...)"
    if hasattr(value, "_symbol") and hasattr(value, "arg_dict"):
        return f"; got an Executor: pass the symbol you bound, {caller}(net, ...)"
    if isinstance(value, str):
        return (
            f"; got a str: a symbol saved as JSON is read back with mx.sym.load_json(text) "
            f"or mx.sym.load(file), then {caller}(net, ...)"
        )
    return f"; got {type(value).__name__}"


def _check_mapping(value, argument, caller, example):
    """``shape`` / ``dtype`` are {input name: value} (MXNet: 'argument after ** must be a
    mapping'): a TypeError, as there, showing the form."""
    if value is None or isinstance(value, dict):
        return
    raise TypeError(
        f"{caller}: {argument} is {{input name: {argument}}}, e.g. {argument}="
        f"{example}; got the {type(value).__name__} {value!r}"
    )


def _check_node_attrs(node_attrs):
    """Graphviz attributes are str -> str (MXNet: a ValueError or TypeError from deep inside)."""
    if node_attrs is None:
        return
    if not isinstance(node_attrs, dict):
        raise ValueError(
            "plot_network: node_attrs is a dict of Graphviz node attributes, e.g. "
            "node_attrs={'shape': 'oval', 'fixedsize': 'false'}; got the "
            f"{type(node_attrs).__name__} {node_attrs!r}"
        )
    for key, value in node_attrs.items():
        if not isinstance(key, str) or not isinstance(value, str):
            raise TypeError(
                f"plot_network: node_attrs values are strings, as Graphviz reads "
                f"them: {{{str(key)!r}: {str(value)!r}}}; got {{{key!r}: {value!r}}}"
            )


# --- plot_network ----------------------------------------------------------------------------
_COLORS = ("#8dd3c7", "#fb8072", "#ffffb3", "#bebada", "#80b1d3", "#fdb462", "#b3de69", "#fccde5")
_WEIGHT_SUFFIXES = (
    "_weight",
    "_bias",
    "_beta",
    "_gamma",
    "_moving_var",
    "_moving_mean",
    "_running_var",
    "_running_mean",
)
_DOT_MISSING = (
    "plot_network: the Graphviz program 'dot' is not installed, so the returned "
    "Digraph cannot be rendered (.render(), .view(), notebook display). Install it: "
    "'apt-get install graphviz' (Debian/Ubuntu), 'brew install graphviz' (macOS) or "
    "'conda install graphviz'."
)


def plot_network(
    symbol,
    title="plot",
    save_format="pdf",
    shape=None,
    dtype=None,
    node_attrs=None,
    hide_weights=True,
):
    """A ``graphviz.Digraph`` of the network; ``shape`` / ``dtype`` ({input: value}) label the
    edges."""
    try:
        from graphviz import Digraph
    except ImportError:
        raise ImportError(
            "Draw network requires graphviz library (pip install graphviz, and "
            "the 'dot' program: apt-get install graphviz / conda install "
            "graphviz)"
        ) from None
    if not isinstance(symbol, Symbol):
        raise TypeError("symbol must be a Symbol" + _what_instead(symbol, "plot_network"))
    _check_mapping(shape, "shape", "plot_network", "{'data': (1, 3, 224, 224)}")
    _check_mapping(dtype, "dtype", "plot_network", "{'data': 'float32'}")
    _check_node_attrs(node_attrs)
    shape_dict, type_dict = _edge_labels(symbol, shape, dtype)
    nodes = json.loads(symbol.tojson())["nodes"]
    _warn_repeated_names(nodes)
    node_attr = {
        "shape": "box",
        "fixedsize": "true",
        "width": "1.3",
        "height": "0.8034",
        "style": "filled",
    }
    node_attr.update(node_attrs or {})
    dot = Digraph(name=title, format=save_format)
    hidden = _add_nodes(dot, nodes, node_attr, hide_weights)
    _add_edges(dot, nodes, hidden, shape_dict, type_dict)
    if shutil.which("dot") is None:
        warnings.warn(_DOT_MISSING, RuntimeWarning, stacklevel=2)
    return dot


def _edge_labels(symbol, shape, dtype):
    """({output name: shape}, {output name: type}) of every internal output; None for what
    was not asked."""
    internals = symbol.get_internals()
    shape_dict = type_dict = None
    if shape is not None:
        _, out_shapes, _ = _quiet_infer_shape(internals, shape)
        if out_shapes is None:
            raise ValueError("Input shape is incomplete")
        shape_dict = dict(zip(internals.list_outputs(), out_shapes))
    if dtype is not None:
        _, out_types, _ = internals.infer_type(**dtype)
        if out_types is None:
            raise ValueError("Input type is incomplete")
        type_dict = dict(zip(internals.list_outputs(), out_types))
    return shape_dict, type_dict


def _add_nodes(dot, nodes, node_attr, hide_weights):
    """Draw every node but the parameters; return the names of the hidden ones."""
    hidden = set()
    for node in nodes:
        if node["op"] == "null" and node["name"].endswith(_WEIGHT_SUFFIXES):
            # with hide_weights=False the node is still not styled, only its edges are drawn,
            # so Graphviz shows it as a plain ellipse (as MXNet does)
            if hide_weights:
                hidden.add(node["name"])
            continue
        label, fill = _node_style(node)
        attr = copy.deepcopy(node_attr)
        if node["op"] == "null":
            attr["shape"] = "oval"
        attr["fillcolor"] = fill
        dot.node(name=node["name"], label=label, **attr)
    return hidden


def _add_edges(dot, nodes, hidden, shape_dict, type_dict):
    """One edge per operator input not hidden, labelled with its shape / type when known."""
    for node in nodes:
        if node["op"] == "null":
            continue
        inputs = node["inputs"][:1] if node["op"] == "_contrib_BilinearResize2D" else node["inputs"]
        for item in inputs:
            source = nodes[item[0]]
            if source["name"] in hidden:
                continue
            attr = {"dir": "back", "arrowtail": "open", "label": ""}
            key = _edge_key(source)
            if shape_dict is not None:
                attr["label"] = "x".join(str(x) for x in shape_dict[key][1:])
            if type_dict is not None:
                attr["label"] += "(" + type_dict[key].__name__ + ")"
            dot.edge(tail_name=node["name"], head_name=source["name"], **attr)


def _node_style(node):
    """(label, fill colour) of one node, by operator."""
    op, name, attrs = node["op"], node["name"], node.get("attrs") or {}
    if op == "null":
        return name, _COLORS[0]
    if op == "Convolution":
        stride = "x".join(_str2tuple(attrs["stride"])) if "stride" in attrs else "1"
        kernel = "x".join(_str2tuple(attrs["kernel"]))
        return f"Convolution\n{kernel}/{stride}, {attrs['num_filter']}", _COLORS[1]
    if op == "FullyConnected":
        return f"FullyConnected\n{attrs['num_hidden']}", _COLORS[1]
    if op == "BatchNorm":
        return name, _COLORS[3]
    if op == "Activation":
        return f"Activation\n{attrs['act_type']}", _COLORS[2]
    if op == "LeakyReLU":
        return f"LeakyReLU\n{attrs.get('act_type', 'Leaky')}", _COLORS[2]
    if op == "Pooling":
        kernel = "x".join(_str2tuple(attrs["kernel"])) if "kernel" in attrs else "[]"
        stride = "x".join(_str2tuple(attrs["stride"])) if "stride" in attrs else "1"
        return f"Pooling\n{attrs['pool_type']}, {kernel}/{stride}", _COLORS[4]
    if op in ("Concat", "Flatten", "Reshape"):
        return name, _COLORS[5]
    if op == "Softmax":
        return name, _COLORS[6]
    if op == "Custom":
        return attrs["op_type"], _COLORS[7]
    return name, _COLORS[7]


def node_look(node):
    """(label, colour index into plot_network's palette) of one ``tojson()``-style node dict:
    what the graph widget draws, by the same rules as plot_network."""
    label, fill = _node_style(node)
    return label, _COLORS.index(fill)


def is_hidden_weight(node):
    """Whether plot_network(hide_weights=True) leaves this ``tojson()``-style node out: a
    variable named like a weight, bias, gamma / beta or moving statistic."""
    return node["op"] == "null" and node["name"].endswith(_WEIGHT_SUFFIXES)


def _edge_key(source):
    """The output name MXNet labels an edge from ``source`` with.

    An operator with ``num_outputs`` (SliceChannel) always gives its *last* output's name.
    """
    if source["op"] == "null":
        return source["name"]
    key = source["name"] + "_output"
    if "num_outputs" in source.get("attrs", {}):
        key += str(int(source["attrs"]["num_outputs"]) - 1)
    return key


def _warn_repeated_names(nodes):
    """A RuntimeWarning naming the node names used more than once (the drawing merges them)."""
    seen, repeated = set(), []
    for node in nodes:
        if node["name"] in seen and node["name"] not in repeated:
            repeated.append(node["name"])
        seen.add(node["name"])
    if repeated:
        warnings.warn(
            "There are multiple variables with the same name in your graph, this may "
            "result in cyclic graph. Repeated names: " + ",".join(repeated),
            RuntimeWarning,
            stacklevel=3,
        )
