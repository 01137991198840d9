"""Utilities shared by the differential programs (imported as ``from _common import err``)."""
import contextlib
import hashlib
import io
import json
import os
import re

import numpy as np


def err(mx, fn, *args, **kwargs):
    """Call ``fn(*args, **kwargs)`` and describe what happened, without any message text.

    Returns ``{"raised": "MXNetError"}`` for an ``mx.base.MXNetError`` (subclasses included),
    ``{"raised": <built-in class name>}`` for any other exception (``"ValueError"``,
    ``"TypeError"``, ``"IndexError"``, ...), or ``{"returned": None}`` if nothing was raised.
    """
    try:
        fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - the category is the point
        if isinstance(e, mx.base.MXNetError):
            return {"raised": "MXNetError"}
        return {"raised": _builtin_name(e)}
    return {"returned": None}


def _builtin_name(e):
    """Name of the nearest built-in exception class of ``e``."""
    for cls in type(e).__mro__:
        if cls.__module__ == "builtins":
            return cls.__name__
    return type(e).__name__


def dtype_name(t):
    """numpy type class (as returned by infer_type) -> 'float32'; None stays None."""
    return None if t is None else np.dtype(t).name


def types(res):
    """Convert an infer_type / infer_type_partial result into dtype names."""
    if res is None:
        return None
    return [None if part is None else [dtype_name(t) for t in part] for part in res]


def names(sym):
    """The four listings of a symbol, in one dict."""
    return {
        "arguments": sym.list_arguments(),
        "outputs": sym.list_outputs(),
        "auxiliary_states": sym.list_auxiliary_states(),
        "inputs": sym.list_inputs(),
    }


def node_ops(sym):
    """[(op, name, attrs-or-None)] of every node of ``sym``, read from its JSON."""
    return [[n["op"], n["name"], n.get("attrs")] for n in json.loads(sym.tojson())["nodes"]]


# --------------------------------------------------------------------------- numerics
def f32(a):
    """``a`` as a float32 numpy array."""
    return np.asarray(a, dtype=np.float32)


def bind_inputs(mx, sym, inputs, **kwargs):
    """simple_bind ``sym`` (CPU) to the shapes of ``inputs`` {name: array} and copy them in."""
    ex = sym.simple_bind(ctx=mx.cpu(), **kwargs, **{k: v.shape for k, v in inputs.items()})
    for k, v in inputs.items():
        ex.arg_dict[k][:] = v
    return ex


def train_step(mx, sym, inputs, heads=None):
    """Train forward, backward with ``heads``: {"outs": [...], "grad_<argument>": ...}."""
    ex = bind_inputs(mx, sym, inputs)
    ex.forward(is_train=True)
    res = {"outs": [o.asnumpy() for o in ex.outputs]}
    if isinstance(heads, np.random.RandomState):
        heads = [f32(heads.randn(*o.shape)) for o in res["outs"]]
    ex.backward(None if heads is None else [mx.nd.array(h) for h in heads])
    for name in sym.list_arguments():
        res["grad_" + name] = ex.grad_dict[name].asnumpy()
    return res


def fwd_bwd(mx, sym, inputs, heads=None):
    """train_step with a lone output as "out"; heads: arrays, a RandomState to draw them, None."""
    res = train_step(mx, sym, inputs, heads)
    if len(res["outs"]) == 1:
        res["out"] = res.pop("outs")[0]
    return res


# --------------------------------------------------------------------------- io, viz, params
def ndarrayiter_epochs(mx, handle, num, batch_size, count=3):
    """Every batch of ``count`` epochs (with reset()) of a num x 3 NDArrayIter, and the cursors."""
    data = np.arange(num * 3, dtype=np.float32).reshape(num, 3)
    label = np.arange(num, dtype=np.float32) * 10
    it = mx.io.NDArrayIter(data, label, batch_size=batch_size, last_batch_handle=handle)
    out, cursors = [], []
    for _ in range(count):
        out.append([{"data": batch.data[0].asnumpy(), "label": batch.label[0].asnumpy(),
                     "pad": batch.pad, "index": batch.index, "str": str(batch)} for batch in it])
        cursors.append(it.cursor)
        it.reset()
        cursors.append(it.cursor)
    return {"epochs": out, "cursors": cursors, "num_data": it.num_data}


def printed(fn, *args, **kwargs):
    """(what ``fn(*args, **kwargs)`` printed to stdout, what it returned)."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        returned = fn(*args, **kwargs)
    return buf.getvalue(), returned


def summary_text(mx, *args, **kwargs):
    """The table ``mx.viz.print_summary(*args, **kwargs)`` prints."""
    return printed(mx.viz.print_summary, *args, **kwargs)[0]


_DOT_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|->|[\[\]{}=;]|[^\s\[\]{}=;"]+')


def _unquote(token):
    """A DOT token without its quotes and backslash escapes."""
    if token.startswith('"'):
        return re.sub(r'\\(.)', r'\1', token[1:-1])
    return token


def parse_dot(source):
    """{'kind', 'name', 'nodes': [[name, attrs]], 'edges': [[tail, head, attrs]]} of DOT text."""
    tokens = _DOT_TOKEN.findall(source)
    graph = {"kind": tokens[0], "name": _unquote(tokens[1]), "nodes": [], "edges": []}
    pos = tokens.index("{") + 1
    while tokens[pos] != "}":
        if tokens[pos] == ";":
            pos += 1
            continue
        first = _unquote(tokens[pos])
        pos += 1
        second = None
        if tokens[pos] == "->":
            second = _unquote(tokens[pos + 1])
            pos += 2
        attrs = {}
        if tokens[pos] == "[":
            pos += 1
            while tokens[pos] != "]":
                attrs[_unquote(tokens[pos])] = _unquote(tokens[pos + 2])
                pos += 3
            pos += 1
        if second is None:
            graph["nodes"].append([first, attrs])
        else:
            graph["edges"].append([first, second, attrs])
    return graph


def describe_dot(dot):
    """The parsed graph of a plot_network Digraph, with its name, format and body length."""
    return {"graph": parse_dot(dot.source), "name": dot.name, "format": dot.format,
            "body_lines": len(dot.body)}


def fixture_dir(name):
    """The path of the folder tests/fixtures/``name``."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures", name)


def fixture_files(name):
    """[(file name, path, sha256 of its bytes)] of every file in tests/fixtures/``name``, sorted."""
    files = []
    for fn in sorted(os.listdir(fixture_dir(name))):
        path = os.path.join(fixture_dir(name), fn)
        with open(path, "rb") as f:
            files.append((fn, path, hashlib.sha256(f.read()).hexdigest()))
    return files


def describe_loaded(loaded):
    """What mx.nd.load returned (a dict or a list of NDArrays), as plain data."""
    items = list(loaded.items()) if isinstance(loaded, dict) else list(enumerate(loaded))
    return {
        "kind": type(loaded).__name__,
        "keys": [k for k, _ in items],
        "arrays": [[k, list(v.shape), np.dtype(v.dtype).name, str(v.context), v.asnumpy()]
                   for k, v in items],
    }


def describe_mxnet_json(mx, file_name, **shapes):
    """What minisym / MXNet read from tests/fixtures/mxnet_json/``file_name``: listings,
    internals, attrs, inferred shapes and types for ``shapes``, and whether tojson round-trips."""
    path = os.path.join(fixture_dir("mxnet_json"), file_name)
    with open(path, "rb") as f:
        raw = f.read()
    text = raw.decode("utf-8")
    sym = mx.sym.load(path)
    return {
        "file_sha256": hashlib.sha256(raw).hexdigest(),
        "names": names(sym),
        "internals": sym.get_internals().list_outputs(),
        "attr_dict": sym.attr_dict(),
        "infer_shape": sym.infer_shape(**shapes),
        "infer_type": [[None if t is None else t.__name__ for t in part]
                       for part in sym.infer_type(data="float32")],
        "tojson": sym.tojson(),
        "tojson_equals_file": sym.tojson() == text,
        "load_json_equals_file": mx.sym.load_json(text).tojson() == text,
        "counter_untouched": mx.sym.FullyConnected(mx.sym.Variable("x"), num_hidden=1).name,
    }


def inferred(mx, fn, **shapes):
    """``fn(**shapes)`` (an infer_shape) with each part as a list, or what it raised."""
    box = []
    outcome = err(mx, lambda: box.append(fn(**shapes)))
    if not box:
        return outcome
    return [list(part) if part is not None else None for part in box[0]]
