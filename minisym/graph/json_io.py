"""MXNet 1.9.1's JSON graph format, written byte for byte as MXNet writes it, and read back.

MXNet writes JSON with dmlc's JSONWriter: objects and arrays are multi-line except maps of at
most one entry and arrays of at most ten plain numbers, items are separated by ``", "`` and
indentation is two spaces per level. Reading uses ``json.loads`` and checks every record: text
is never evaluated, and a damaged or crafted file is an error naming the node.
"""

import json
import os
import re
import warnings

from ..base import DTYPE_MX_TO_NP, MXNetError, MXNetValueError
from ..fileio import describe, read_bytes
from ..ops.operator_base import get_op
from ..util import is_np_shape
from .nodes import Node, variable_node

__all__ = ["graph_to_json", "graph_from_json", "heads_from_text", "heads_from_file"]

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
        escaped = (
            text.replace("\\", "\\\\")
            .replace('"', '\\"')
            .replace("\n", "\\n")
            .replace("\r", "\\r")
            .replace("\t", "\\t")
        )
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
        row_ptr.append(row_ptr[-1] + node.num_outputs + has_onednn_workspace(node))
    w.key("node_row_ptr")
    w.int_array(row_ptr)
    w.key("heads")
    w.entries(_head_entries(symbol, order, index, versions))
    w.key("attrs")
    numpy_shapes = is_np_shape()  # MXNet marks a graph written under np_shape(True)
    w.begin("{", numpy_shapes)
    if numpy_shapes:
        w.key("is_np_shape")
        w.raw('["int", 1]')
    w.key("mxnet_version")
    w.raw(f'["int", {MXNET_VERSION}]')
    w.end("}")
    w.end("}")
    return "".join(w.parts)


def has_onednn_workspace(node):
    """True for a node to which MXNet 1.9.1's saved graph gives a hidden output
    (``Operator.mxnet_json_outputs``: oneDNN's max pooling); the writer counts it to write
    MXNet's bytes, the reader accepts files with and without it."""
    return not node.is_variable and node.op.mxnet_json_outputs() > node.num_outputs


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


def _head_entries(symbol, order, index, versions):
    """``[node_id, output, version]`` of each head.

    In MXNet an entry keeps the version it was made with: 0 for a Variable, but the
    variable's version (how often operators mutated it) among the heads of get_internals().
    minisym's entries hold no version, so a symbol whose heads are every node of its graph
    (get_internals()) writes the versions of its auxiliary variables; any other writes 0."""
    internals = len(symbol.outputs) >= len(order) and (
        {id(node) for node, _ in symbol.outputs} == {id(node) for node in order}
    )
    return [
        (index[id(node)], idx, versions.get(id(node), 0) if internals else 0)
        for node, idx in symbol.outputs
    ]


def graph_from_json(text, where="load_json"):
    """The heads ``[(node, index)]`` of the graph MXNet JSON ``text`` describes.

    Loading is parsing: every record is checked (its fields, the entries it reads, the
    operator and its parameters) and a damaged or crafted file is an MXNetValueError saying
    ``where`` and which node, never a Python error from deep inside."""
    try:
        graph = json.loads(text)
    except json.JSONDecodeError as exc:
        if not text.strip():
            raise MXNetValueError(f"{where}: the text is empty, not a symbol's JSON") from None
        ends = exc.pos >= len(text.rstrip()) - 1 or exc.msg.startswith("Unterminated")
        raise MXNetValueError(
            f"{where}: the text is not valid JSON ({exc})"
            + (": it stops in the middle (a truncated file?)" if ends else "")
        ) from None
    except RecursionError:
        raise MXNetValueError(
            f"{where}: the JSON nests brackets too deeply to be a symbol file"
        ) from None
    if not isinstance(graph, dict) or "nodes" not in graph or "heads" not in graph:
        raise MXNetValueError(f"{where}: not an MXNet symbol file (it needs 'nodes' and 'heads')")
    if not isinstance(graph["nodes"], list) or not isinstance(graph["heads"], list):
        raise MXNetValueError(
            f"{where}: not an MXNet symbol file ('nodes' and 'heads' must be "
            f"lists, got {type(graph['nodes']).__name__} and "
            f"{type(graph['heads']).__name__})"
        )
    version = _saved_by(graph, where)
    nodes = []
    for i, record in enumerate(graph["nodes"]):
        nodes.append(_node_from_record(i, record, nodes, where, version))
    if not graph["heads"]:
        raise MXNetValueError(f"{where}: 'heads' is empty: the file names no output")
    outputs = [
        _entry(head, nodes, len(nodes), where, f"head {k}") for k, head in enumerate(graph["heads"])
    ]
    return outputs


def _saved_by(graph, where):
    """The MXNet version that wrote ``graph`` (10901 for 1.9.1), warning when it is newer."""
    attrs = graph.get("attrs")
    value = attrs.get("mxnet_version") if isinstance(attrs, dict) else None
    version = value[1] if isinstance(value, list) and len(value) == 2 else None
    if not isinstance(version, int) or isinstance(version, bool):
        return None
    if version > MXNET_VERSION:
        warnings.warn(
            f"{where}: this symbol was saved by MXNet {_version_text(version)}, newer "
            f"than the {_version_text(MXNET_VERSION)} minisym follows: operators or "
            "parameters it added are not known here",
            UserWarning,
            stacklevel=4,
        )
    return version


def _version_text(version):
    return f"{version // 10000}.{version // 100 % 100}.{version % 100}"


def _entry(entry, built, limit, where, what):
    """``(node, output index)`` of a ``[node_id, output, version]`` entry read by ``what``."""
    if (
        not isinstance(entry, list)
        or len(entry) not in (2, 3)
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in entry)
    ):
        raise MXNetValueError(
            f"{where}: {what} reads the entry {_short(entry)}, which is not "
            "[node_id, output_index, version] (a damaged file)"
        )
    node_id, out_index = entry[0], entry[1]
    if not 0 <= node_id < limit:
        before = "it" if what.startswith("node") else "the heads"
        raise MXNetValueError(
            f"{where}: {what} reads node {node_id}, but only nodes 0 to "
            f"{limit - 1} come before {before} (a damaged file)"
        )
    source = built[node_id]
    if out_index == source.num_outputs and has_onednn_workspace(source):
        raise MXNetValueError(
            f"{where}: {what} reads output {out_index} of node {node_id} '{source.name}', the "
            "hidden workspace that pip's MXNet (built with oneDNN) keeps for a max Pooling's "
            "backward; it holds no values a graph can use (MXNet hands back uninitialised "
            f"int32 memory). Read output 0, '{source.name}_output', instead"
        )
    if not 0 <= out_index < source.num_outputs:
        raise MXNetValueError(
            f"{where}: {what} reads output {out_index} of node {node_id} "
            f"'{source.name}', which has {source.num_outputs} output"
            f"{'s' if source.num_outputs != 1 else ''} (a damaged file)"
        )
    return source, out_index


def _short(value, limit=60):
    text = json.dumps(value)
    return text if len(text) <= limit else text[:limit] + "..."


def _node_from_record(i, record, built, where="load_json", version=None):
    """One node from its JSON record; inputs refer to already built nodes."""
    if not isinstance(record, dict):
        raise MXNetValueError(
            f"{where}: node {i} is {_short(record)}, not an object with "
            "'op', 'name' and 'inputs' (a damaged file)"
        )
    for field in ("op", "name"):
        if not isinstance(record.get(field), str):
            got = "is missing" if field not in record else f"is {_short(record[field])}"
            raise MXNetValueError(
                f"{where}: node {i}: the field {field!r} {got}; every node "
                "has a string 'op' and 'name' (a damaged file)"
            )
    name = record["name"]
    # MXNet < 1.0 wrote "param" (operator parameters) and "attr" (user attributes).
    attrs = {}
    for key in ("param", "attr", "attrs"):
        value = record.get(key) or {}
        if not isinstance(value, dict):
            raise MXNetValueError(
                f"{where}: node {i} '{name}': {key!r} is {_short(value)}, not "
                "an object of parameters (a damaged file)"
            )
        attrs.update(value)
    attrs = {str(k): str(v) for k, v in attrs.items()}
    op_name = record["op"]
    entries = record.get("inputs", [])
    if not isinstance(entries, list):
        raise MXNetValueError(
            f"{where}: node {i} '{name}': 'inputs' is {_short(entries)}, not "
            "a list of entries (a damaged file)"
        )
    if op_name == "null":
        _check_hints(i, name, attrs, where)
        return variable_node(name, attrs)
    inputs = [_entry(entry, built, i, where, f"node {i} '{name}'") for entry in entries]
    try:
        op_cls = get_op(op_name)
    except MXNetError as exc:
        newer = (
            f" This file was saved by MXNet {_version_text(version)}, which has operators "
            "1.9.1 lacks."
            if version and version > MXNET_VERSION
            else ""
        )
        raise MXNetValueError(f"{where}: node {i} '{name}': {exc}.{newer}") from None
    op = op_cls(attrs, name)
    slots = len(op.list_arguments()) + len(op.list_auxiliary_states())
    if len(inputs) != slots:
        raise MXNetValueError(
            f"{where}: node {i} '{name}' ({op_name}) has {len(inputs)} inputs, "
            f"but {op_name} takes {slots}: {op.list_arguments()} and auxiliary "
            f"states {op.list_auxiliary_states()} (a damaged file)"
        )
    return Node(op, name, attrs, inputs)


_SHAPE_TEXT = re.compile(r"\s*[(\[]?\s*(-?\d+\s*(,\s*-?\d+\s*)*,?)?\s*[)\]]?\s*")


def _check_hints(i, name, attrs, where):
    """A variable's ``__shape__`` / ``__dtype__`` must read as a shape / a type code."""
    shape = attrs.get("__shape__")
    if shape is not None and (len(shape) > 1000 or not _SHAPE_TEXT.fullmatch(shape)):
        raise MXNetValueError(
            f"{where}: node {i} '{name}' has __shape__={_short(shape)}, which "
            "is not a shape such as (2, 3) (a damaged file)"
        )
    dtype = attrs.get("__dtype__")
    if dtype is not None and (
        not dtype.strip().lstrip("-").isdigit() or DTYPE_MX_TO_NP.get(int(dtype)) is None
    ):
        raise MXNetValueError(
            f"{where}: node {i} '{name}' has __dtype__={_short(dtype)}, which "
            f"is not an MXNet type code ({sorted(set(DTYPE_MX_TO_NP) - {-1})}) "
            "(a damaged file)"
        )


def heads_from_text(json_str):
    """``mx.sym.load_json``'s graph: the heads ``[(node, index)]`` of MXNet JSON text."""
    if not isinstance(json_str, str):
        raise TypeError("json_str needs to be string")
    if _looks_like_a_path(json_str):
        text = json_str.strip()
        raise MXNetValueError(
            f"mx.sym.load_json wants the JSON text itself, not a file name: to read the file "
            f"use mx.sym.load({text!r}) (or mx.sym.load_json(open({text!r}).read())).\n"
            f"Check failed: ch == '{{' ({ord(text[0])} vs. {{) : Error at Line 0, around "
            f"^`{text[1:40]}`, Expect '{{' but get '{text[0]}'"
        )
    return graph_from_json(json_str)


def _looks_like_a_path(text):
    """A file name given where JSON text belongs: one line, no JSON bracket, an existing file
    or a name ending in .json."""
    text = text.strip()
    if not text or "\n" in text or text[0] in "{[" or len(text) > 4096:
        return False
    try:
        return text.lower().endswith(".json") or os.path.isfile(text)
    except ValueError:  # a NUL character: not a path either
        return False


def heads_from_file(fname):
    """``mx.sym.load``'s graph: the heads of a JSON file written by ``save`` (or by MXNet)."""
    if not isinstance(fname, str):
        raise TypeError("fname needs to be string")
    where = f'mx.sym.load("{fname}")'
    payload = read_bytes(fname, "mx.sym.load")
    what = describe(payload)
    if what and "JSON" not in what:  # an image, a pickle, a .params file, nothing at all
        raise MXNetValueError(f"{where}: not a symbol JSON file: it is {what}")
    try:
        text = payload.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise MXNetValueError(
            f"{where}: not a symbol JSON file: it is not text (byte {payload[exc.start]:#04x} "
            f"at position {exc.start} is not UTF-8)"
        ) from None
    return graph_from_json(text, where)
