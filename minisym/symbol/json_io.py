"""MXNet 1.9.1's JSON graph format, written byte for byte as MXNet writes it, and read back.

MXNet writes JSON with dmlc's JSONWriter: objects and arrays are multi-line except maps of at
most one entry and arrays of at most ten plain numbers, items are separated by ``", "`` and
indentation is two spaces per level. Reading uses ``json.loads``: text is never evaluated.
"""
import json

from ..base import MXNetValueError
from ..graph import Node, variable_node
from ..ops.registry import get_op
from .symbol import Symbol

__all__ = ["graph_to_json", "graph_from_json", "load_json", "load"]

MXNET_VERSION = 10901


class _Writer:
    """A port of dmlc::JSONWriter's layout rules (dmlc-core/include/dmlc/json.h)."""

    def __init__(self):
        self.parts = []
        self.scopes = []  # [multi_line, count] per open object/array

    def _separator(self):
        if not self.scopes or self.scopes[-1][0]:
            self.parts.append("\n" + "  " * len(self.scopes))

    def _item_prefix(self):
        if self.scopes[-1][1] > 0:
            self.parts.append(", ")
        self._separator()
        self.scopes[-1][1] += 1

    def begin(self, bracket, multi_line):
        self.parts.append(bracket)
        self.scopes.append([multi_line, 0])

    def end(self, bracket):
        multi_line, count = self.scopes.pop()
        if multi_line and count:
            self._separator()
        self.parts.append(bracket)

    def key(self, name):
        self._item_prefix()
        self.parts.append(f'"{name}": ')

    def item(self):
        self._item_prefix()

    def string(self, text):
        escaped = (text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
                   .replace("\r", "\\r").replace("\t", "\\t"))
        self.parts.append(f'"{escaped}"')

    def raw(self, text):
        self.parts.append(text)

    def int_array(self, values):
        self.begin("[", len(values) > 10)
        for value in values:
            self.item()
            self.raw(str(value))
        self.end("]")

    def entries(self, entries):
        self.begin("[", len(entries) > 10)
        for entry in entries:
            self.item()
            self.raw("[" + ", ".join(str(v) for v in entry) + "]")
        self.end("]")

    def str_map(self, mapping):
        self.begin("{", len(mapping) > 1)
        for key in sorted(mapping):
            self.key(key)
            self.string(mapping[key])
        self.end("}")


def graph_to_json(symbol):
    """``symbol.tojson()``: nodes in DFS order, inputs as ``[node_id, output, 0]``."""
    order = symbol.topo_order()
    index = {id(node): i for i, node in enumerate(order)}
    w = _Writer()
    w.begin("{", True)
    w.key("nodes")
    w.begin("[", True)
    versions = {}  # a variable's version grows each time an operator mutates it (nnvm)
    for node in order:
        w.item()
        w.begin("{", True)
        w.key("op")
        w.string(node.op_name)
        w.key("name")
        w.string(node.name)
        if node.attrs:
            w.key("attrs")
            w.str_map(dict(node.attrs))
        w.key("inputs")
        w.entries(_input_entries(node, index, versions))
        w.end("}")
    w.end("]")
    w.key("arg_nodes")
    w.int_array([i for i, node in enumerate(order) if node.is_variable])
    row_ptr = [0]
    for node in order:
        row_ptr.append(row_ptr[-1] + node.num_outputs)
    w.key("node_row_ptr")
    w.int_array(row_ptr)
    w.key("heads")
    w.entries([(index[id(node)], idx, 0) for node, idx in symbol.outputs])
    w.key("attrs")
    w.begin("{", False)
    w.key("mxnet_version")
    w.raw(f'["int", {MXNET_VERSION}]')
    w.end("}")
    w.end("}")
    return "".join(w.parts)


def _input_entries(node, index, versions):
    """``[node_id, output, version]`` for each input; auxiliary inputs bump the version."""
    entries = []
    first_aux = len(node.arg_inputs)
    for position, (src, idx) in enumerate(node.inputs):
        version = 0
        if position >= first_aux:
            version = versions[id(src)] = versions.get(id(src), 0) + 1
        entries.append((index[id(src)], idx, version))
    return entries


def graph_from_json(text):
    """The Symbol described by MXNet JSON ``text`` (``mx.sym.load_json``)."""
    try:
        graph = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MXNetValueError(f"load_json: the text is not valid JSON ({exc})") from None
    if not isinstance(graph, dict) or "nodes" not in graph or "heads" not in graph:
        raise MXNetValueError("load_json: not an MXNet symbol file (it needs 'nodes' and 'heads')")
    nodes = []
    for i, record in enumerate(graph["nodes"]):
        nodes.append(_node_from_record(i, record, nodes))
    outputs = []
    for head in graph["heads"]:
        node_id, out_index = head[0], head[1]
        outputs.append((nodes[node_id], out_index))
    return Symbol(outputs)


def _node_from_record(i, record, built):
    """One node from its JSON record; inputs refer to already built nodes."""
    name = record.get("name", "")
    # MXNet < 1.0 wrote "param" (operator parameters) and "attr" (user attributes).
    attrs = {}
    for key in ("param", "attr", "attrs"):
        attrs.update(record.get(key) or {})
    attrs = {str(k): str(v) for k, v in attrs.items()}
    op_name = record.get("op", "null")
    if op_name == "null":
        return variable_node(name, attrs)
    inputs = []
    for entry in record.get("inputs", []):
        if entry[0] >= i:
            raise MXNetValueError(f"load_json: node {i} '{name}' has input {entry[0]}, which "
                                  "does not come before it")
        inputs.append((built[entry[0]], entry[1]))
    op = get_op(op_name)(attrs, name)
    return Node(op, name, attrs, inputs)


def load_json(json_str):
    """``mx.sym.load_json``: a Symbol from MXNet JSON text."""
    if not isinstance(json_str, str):
        raise TypeError("json_str needs to be string")
    return graph_from_json(json_str)


def load(fname):
    """``mx.sym.load``: a Symbol from a JSON file written by ``save`` (or by MXNet)."""
    if not isinstance(fname, str):
        raise TypeError("fname needs to be string")
    with open(fname, encoding="utf-8") as fin:
        return graph_from_json(fin.read())
