"""Random small graphs drawn from the operator registry, for the property tests.

``graphs(...)`` is a hypothesis strategy. It starts from one to three data variables with drawn
shapes and applies up to ``max_ops`` operators, each to entries drawn from everything made so
far, so inputs are shared, an output feeds several consumers, and multi-output operators
(SliceChannel) feed different places. Every operator's parameters are drawn so that they are
valid for the shapes at hand (a kernel that fits, a split that divides, a concat whose other
axes agree ...). What nobody consumes becomes a head (a Group when there are several).

The drawn ``Graph`` prints as the Python code that rebuilds it, so a falsifying example reads as
a program:

    data0 = mx.sym.Variable('data0')  # shape (2, 3)
    n1 = mx.sym.FullyConnected(data0, num_hidden=2, no_bias=False, name='n1')
    ...

Options, one per property's needs:
- ``smooth=True``: only operators whose gradient is the derivative of their output (no losses,
  no BlockGrad, comparisons, argmax or random operators); a non-differentiable point (relu's 0,
  a max tie) is recorded as a ``Kink`` so that a test can draw its inputs away from it;
- ``batch_free=True``: axis 0 of every data variable is one batch size N and every operator
  keeps it (no transpose, reduction, concat or split over axis 0), so the graph is valid for any
  N (``Executor.reshape``);
- ``losses=True`` adds loss heads (SoftmaxOutput, the regression outputs, MakeLoss) with label
  variables; ``random_ops=True`` adds Dropout and LeakyReLU rrelu.

``values(graph, shapes, dtype, seed)`` gives well-scaled values for every argument and auxiliary
state: data in [-1, 1], weights scaled by their fan-in, class labels in range, moving variances
positive.
"""

from dataclasses import dataclass, field

import numpy as np
from hypothesis import strategies as st

import minisym as mx
from minisym.ops.operator_base import all_ops
from minisym.ops.tensor import elemwise

EXAMPLES_PER_PROPERTY = 100  # the minisym-ci profile's max_examples (conftest.py)


class Skip(Exception):
    """The drawn operator does not apply to anything in the pool: draw another."""


@dataclass(eq=False)
class Entry:
    """One output of the graph so far: its Symbol, shape, and how the code names it."""

    sym: object
    shape: tuple
    code: str
    positive: float = 0.0  # every value is >= this (> 0 only for entries built that way)
    consumers: int = 0
    expected: tuple = None  # the shape NumPy's rules give (the generator's own oracle)


@dataclass(eq=False)
class Kink:
    """A point where an operator is not differentiable, checked against the values of its input
    entries: ``zero`` (at ``offset``: relu, abs, leaky, max(x, s)), ``pair`` (lhs == rhs:
    broadcast_maximum / minimum), ``reduce`` (a tie along ``axes``: max / min) and ``pool`` (a
    tie in a max-pooling window)."""

    kind: str
    inputs: list
    info: dict = field(default_factory=dict)


class Graph:
    """A drawn graph: ``symbol``, the shapes of its explicit variables, and what kind each is."""

    def __init__(self, symbol, shapes, data_names, labels, kinks, code, ops, batch_size, entries):
        self.symbol = symbol
        self.var_shapes = shapes  # every explicit Variable's shape, used or not
        self.data_names = data_names  # variables with the batch axis (data and labels)
        self.labels = labels  # label name -> ("class", n) | ("real",)
        self.kinks = kinks
        self.code = code
        self.ops = ops  # the mx.sym functions used, in order
        self.batch_size = batch_size  # N of every data variable when batch_free, else None
        self.entries = entries  # every operator output made, consumed or not

    def shapes(self, symbol=None, batch_size=None):
        """{argument: shape} for the explicit variables that ``symbol`` uses; with
        ``batch_size``, axis 0 of every data / label variable becomes that size."""
        symbol = self.symbol if symbol is None else symbol
        shapes = {}
        for name in symbol.list_arguments():
            if name in self.var_shapes:
                shape = self.var_shapes[name]
                if batch_size is not None and name in self.data_names:
                    shape = (batch_size,) + tuple(shape[1:])
                shapes[name] = shape
        return shapes

    def grad_req(self, req):
        """``req`` for every argument, 'null' for labels (as Module binds them)."""
        return {n: ("null" if n in self.labels else req) for n in self.symbol.list_arguments()}

    def __repr__(self):
        return "Graph:\n    " + "\n    ".join(self.code)


# --- the values an executor gets -------------------------------------------------------------
def values(graph, arg_shapes, aux_shapes, dtype=np.float32, seed=0):
    """({argument: array}, {aux: array}) of well-scaled values for the shapes given."""
    rng = np.random.default_rng(seed)
    args = {}
    for name, shape in arg_shapes.items():
        if name in graph.labels:
            label = graph.labels[name]
            if label[0] == "class":
                args[name] = rng.integers(0, label[1], size=shape).astype(dtype)
            else:
                args[name] = rng.uniform(-1, 1, size=shape).astype(dtype)
        elif name.endswith("_gamma"):
            args[name] = rng.uniform(0.5, 1.5, size=shape).astype(dtype)
        elif name.endswith("_weight"):
            fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 1
            args[name] = (rng.uniform(-1, 1, size=shape) * np.sqrt(3.0 / fan_in)).astype(dtype)
        else:  # data, biases, beta, explicit broadcast parameters
            args[name] = rng.uniform(-1, 1, size=shape).astype(dtype)
    aux = {}
    for name, shape in aux_shapes.items():
        low, high = (0.5, 1.5) if name.endswith("_var") else (-0.2, 0.2)
        aux[name] = rng.uniform(low, high, size=shape).astype(dtype)
    return args, aux


def bind(graph, symbol=None, dtype=np.float32, seed=0, grad_req="write", batch_size=None):
    """``simple_bind`` ``symbol`` (the graph's own by default) with ``values(...)`` filled in;
    returns (executor, arg values, aux values)."""
    symbol = graph.symbol if symbol is None else symbol
    shapes = graph.shapes(symbol, batch_size)
    types = {n: dtype for n in shapes}  # the rest is inferred (float16 BatchNorm: float32 gamma)
    if isinstance(grad_req, str) and grad_req != "null":
        grad_req = {n: ("null" if n in graph.labels else grad_req) for n in symbol.list_arguments()}
    ex = symbol.simple_bind(mx.cpu(), grad_req=grad_req, type_dict=types, **shapes)
    args, aux = values(
        graph,
        {n: a.shape for n, a in ex.arg_dict.items()},
        {n: a.shape for n, a in ex.aux_dict.items()},
        dtype,
        seed,
    )
    for name, value in args.items():
        ex.arg_dict[name][:] = value
    for name, value in aux.items():
        ex.aux_dict[name][:] = value
    return ex, args, aux


def head_gradients(executor, seed=0):
    """One random head gradient per output, in the outputs' dtype."""
    rng = np.random.default_rng(seed + 7919)
    return [mx.nd.array(rng.uniform(-1, 1, size=o.shape), dtype=o.dtype) for o in executor.outputs]


# --- non-differentiable points ---------------------------------------------------------------
def kink_distance(kink, arrays):
    """How far the values ``arrays`` (one per kink input) are from the kink: the smallest
    distance to it over every element, ignoring values that are exactly at it when they are
    locally constant (an exact 0 comes from a relu of a negative, a max tie at exactly 0 from
    relu zeros: their gradient is 0 whichever side is taken)."""
    if kink.kind == "zero":
        gap = np.abs(arrays[0].astype(np.float64) - kink.info["offset"])
        gap = gap[arrays[0] != 0] if kink.info["offset"] == 0 else gap
    elif kink.kind == "pair":
        lhs, rhs = np.broadcast_arrays(*(a.astype(np.float64) for a in arrays))
        gap = np.abs(lhs - rhs)
        gap = gap[gap != 0]  # an exact tie is one value reached two ways: both move together
    elif kink.kind == "reduce":
        gap = _tie_gaps(arrays[0], kink.info["axes"], kink.info["op"])
    else:
        gap = _pool_gaps(arrays[0], **kink.info)
    return float(gap.min()) if gap.size else np.inf


def _tie_gaps(data, axes, op):
    """The gap between the best and second best value of each reduced group (inf for a group of
    one, and for a tie at exactly 0, see kink_distance)."""
    data = np.asarray(data, np.float64)
    if op == "min":
        data = -data
    kept = [i for i in range(data.ndim) if i not in axes]
    groups = np.transpose(data, kept + list(axes)).reshape(
        int(np.prod([data.shape[i] for i in kept])), -1
    )
    return _gaps(groups)


def _gaps(groups):
    """Per row of ``groups``: best - second best; inf where there is one value, or the best is an
    exact 0 (relu zeros) or -inf (a window wholly in the padding)."""
    if groups.shape[1] < 2:
        return np.full(groups.shape[0], np.inf)
    top = -np.sort(-groups, axis=1)[:, :2]
    gaps = top[:, 0] - top[:, 1]
    gaps[(top[:, 0] == 0) | ~np.isfinite(top[:, 0])] = np.inf
    return gaps


def _pool_gaps(data, kernel, stride, pad, out_spatial):
    """The tie gap of every max-pooling window of ``data`` (N, C, *spatial)."""
    data = np.asarray(data, np.float64)
    nd = len(kernel)
    spatial = data.shape[2:]
    ends = [
        max(p + s, (o - 1) * st_ + k)
        for s, p, o, st_, k in zip(spatial, pad, out_spatial, stride, kernel)
    ]
    padded = np.full(data.shape[:2] + tuple(ends), -np.inf)
    padded[(slice(None), slice(None)) + tuple(slice(p, p + s) for p, s in zip(pad, spatial))] = data
    gaps = []
    for index in np.ndindex(*out_spatial):
        window = padded[
            (slice(None), slice(None))
            + tuple(slice(o * st_, o * st_ + k) for o, st_, k in zip(index, stride, kernel))
        ]
        gaps.append(_gaps(window.reshape(data.shape[0] * data.shape[1], -1)))
    assert nd >= 1
    return np.concatenate(gaps) if gaps else np.array([np.inf])


# --- the builder -------------------------------------------------------------------------------
def _fmt(value):
    return repr(value)


def _dummy(shape):
    """A read-only array of ``shape`` costing no memory: NumPy computes result shapes on it."""
    return np.broadcast_to(np.float32(0), shape)


def _at_least_1d(shape):
    """MXNet gives a reduction to a scalar the shape (1,)."""
    return tuple(shape) or (1,)


def _divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


class Builder:
    """Grows one graph: ``pool`` holds every entry an operator may read."""

    def __init__(self, draw, smooth, batch_free, losses, random_ops):
        self.draw = draw
        self.smooth, self.batch_free = smooth, batch_free
        self.losses, self.random_ops = losses, random_ops
        self.pool, self.entries = [], []
        self.shapes, self.data_names, self.labels = {}, [], {}
        self.kinks, self.code, self.ops = [], [], []
        self.count = 0
        self.batch_size = None
        self.random = None

    # drawing helpers
    def integer(self, lo, hi):
        return self.draw(st.integers(lo, hi))

    def boolean(self):
        return self.draw(st.booleans())

    def uniform(self, n):
        """An index in range(n), uniformly: hypothesis's own integers favour 0 (the simplest
        example), which would make the first option of every choice far more frequent."""
        if self.random is None:
            self.random = self.draw(st.randoms(use_true_random=False))
        return self.random.randrange(n)

    def choice(self, options):
        options = list(options)
        if not options:
            raise Skip
        return options[self.uniform(len(options))]

    def pick(self, predicate=lambda e: True):
        """An entry of the pool that satisfies ``predicate``: half the time the newest one (so
        graphs grow deep chains, where the memory plan shares buffers), else any."""
        candidates = [e for e in self.pool if predicate(e)]
        if candidates and self.boolean():
            return candidates[-1]
        return self.choice(candidates)

    @property
    def first_axis(self):
        """The first axis an operator may change: 1 when axis 0 is the batch."""
        return 1 if self.batch_free else 0

    # making symbols
    def variable(self, prefix, shape, data=True):
        name = f"{prefix}{sum(n.startswith(prefix) for n in self.shapes)}"
        self.shapes[name] = tuple(shape)
        if data:
            self.data_names.append(name)
        self.code.append(f"{name} = mx.sym.Variable({name!r})  # shape {tuple(shape)}")
        return Entry(mx.sym.Variable(name), tuple(shape), name)

    def apply(
        self, func, inputs, params=None, kink=None, positive=0.0, into_pool=True, expect=None
    ):
        """Create ``mx.sym.<func>(*inputs, **params)``; returns its output entries.

        ``expect``: the shape of each output by NumPy's rules (default: every output has the
        first input's shape), kept in ``Entry.expected`` for the shape property."""
        params = dict(params or {})
        self.count += 1
        name = f"n{self.count}"
        sym = getattr(mx.sym, func)(*[e.sym for e in inputs], name=name, **params)
        for e in inputs:
            e.consumers += 1
        shown = [e.code for e in inputs] + [f"{k}={_fmt(v)}" for k, v in params.items()]
        self.code.append(f"{name} = mx.sym.{func}({', '.join(shown + [f'name={name!r}'])})")
        self.ops.append(func)
        shapes = {n: self.shapes[n] for n in sym.list_arguments() if n in self.shapes}
        _, outs, _ = sym.infer_shape(**shapes)
        assert outs is not None and all(o is not None for o in outs), self.code
        if expect is None:
            expect = [inputs[0].shape] * len(outs)
        elif isinstance(expect, tuple):
            expect = [expect]
        assert len(expect) == len(outs), (self.code, expect, outs)
        if len(outs) == 1:
            made = [Entry(sym, tuple(outs[0]), name, positive, expected=tuple(expect[0]))]
        else:
            made = [
                Entry(sym[i], tuple(o), f"{name}[{i}]", positive, expected=tuple(x))
                for i, (o, x) in enumerate(zip(outs, expect))
            ]
        if self.batch_free:  # the design keeps axis 0 the batch everywhere
            for e in made:
                assert len(e.shape) >= 1 and e.shape[0] == self.batch_size, (self.code, e.shape)
        if kink is not None:
            self.kinks.append(kink)
        self.entries.extend(made)
        if into_pool:
            self.pool.extend(made)
        return made


# --- the operator families -----------------------------------------------------------------------
def _registered(base, but=None):
    """The registered operators built on ``base`` (not on ``but``), by name."""
    return sorted(
        name
        for name, cls in all_ops().items()
        if issubclass(cls, base) and not (but and issubclass(cls, but))
    )


# Elementwise operators added with the value operators (tests/test_ops_elemwise.py and p600-p605
# check them); not drawn yet, so that the examples still reach most drawn operators.
VALUES_ELEMWISE = {
    "sign",
    "round",
    "trunc",
    "logical_not",
    "rsqrt",
    "sin",
    "cos",
    "softsign",
    "smooth_l1",
    "_maximum",
    "_minimum",
    # and the math of MXNet's unit tests (p822), most with a narrow domain
    "reciprocal",
    "ceil",
    "floor",
    "fix",
    "tan",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "arcsinh",
    "arccosh",
    "arctanh",
    "degrees",
    "radians",
    "log2",
    "log10",
    "log1p",
    "expm1",
    "cbrt",
    "rcbrt",
    "gamma",
    "gammaln",
    "erf",
    "_hypot",
    "_hypot_scalar",
}
UNARY = [f for f in _registered(elemwise._Unary) if f not in VALUES_ELEMWISE]  # exp, log, relu
SCALAR = [f for f in _registered(elemwise._Scalar) if f not in VALUES_ELEMWISE]  # _plus_scalar
BINARY = [
    f
    for f in _registered(elemwise._Binary, but=elemwise._Broadcast)  # elemwise_add, _mod
    if f not in VALUES_ELEMWISE
]
BROADCAST = _registered(elemwise._Broadcast)  # broadcast_add ...
# What a smooth graph may use: the derivative is the gradient wherever the values are away
# from the recorded kinks. log / sqrt / division / powers only read entries known positive.
SMOOTH_UNARY = {"relu", "sigmoid", "tanh", "square", "negative", "abs", "exp"}
NEEDS_POSITIVE = {"log", "sqrt", "elemwise_div", "_power", "broadcast_div", "broadcast_power"}
SMOOTH_SCALAR = {
    "_plus_scalar",
    "_minus_scalar",
    "_rminus_scalar",
    "_mul_scalar",
    "_div_scalar",
    "_power_scalar",
    "_rpower_scalar",
    "_maximum_scalar",
    "_minimum_scalar",
}
SMOOTH_BINARY = {"elemwise_add", "elemwise_sub", "elemwise_mul", "elemwise_div", "_power"}
SMOOTH_BROADCAST = {
    "broadcast_add",
    "broadcast_sub",
    "broadcast_mul",
    "broadcast_maximum",
    "broadcast_minimum",
    "broadcast_div",
    "broadcast_power",
}
KINK_AT_ZERO = {"relu", "abs"}


def unary(b):
    """An elementwise math function, Activation or LeakyReLU."""
    x = b.pick()
    kind = b.choice(["func", "Activation", "LeakyReLU"])
    if kind == "func":
        funcs = [
            f
            for f in UNARY
            if not b.smooth or f in SMOOTH_UNARY or (f in NEEDS_POSITIVE and x.positive > 0)
        ]
        func = b.choice(funcs)
        kink = Kink("zero", [x], {"offset": 0.0}) if func in KINK_AT_ZERO else None
        b.apply(func, [x], kink=kink)
    elif kind == "Activation":
        act = b.choice(["relu", "sigmoid", "tanh", "softrelu", "softsign"])
        kink = Kink("zero", [x], {"offset": 0.0}) if act == "relu" else None
        b.apply("Activation", [x], {"act_type": act}, kink=kink)
    else:
        # QUIRK (MXNet, copied): selu's backward is lambda * (y + alpha) below 0, not the
        # derivative (tests/test_ops_nn.py), so a smooth graph leaves it out.
        acts = ["leaky", "elu", "gelu"] + ([] if b.smooth else ["selu"])
        acts += ["prelu"] if len(x.shape) >= 2 else []
        acts += ["rrelu"] if b.random_ops and not b.smooth else []
        act = b.choice(acts)
        params = {"act_type": act}
        if act in ("leaky", "elu") and b.boolean():
            params["slope"] = b.choice([0.1, 0.5, 2.0])
        kink = (
            Kink("zero", [x], {"offset": 0.0}) if act in ("leaky", "elu", "selu", "prelu") else None
        )
        b.apply("LeakyReLU", [x], params, kink=kink)


def scalar(b):
    """data (x) scalar: any registered one (the smooth ones for a smooth graph)."""
    x = b.pick()
    func = b.choice(f for f in SCALAR if not b.smooth or f in SMOOTH_SCALAR)
    if func == "_power_scalar":
        s = b.choice([2.0, 3.0])
    elif func == "_rpower_scalar":
        s = b.choice([0.5, 2.0])
    else:
        s = b.choice([0.5, -1.5, 2.0, 0.25])
    kink = (
        Kink("zero", [x], {"offset": s}) if func in ("_maximum_scalar", "_minimum_scalar") else None
    )
    b.apply(func, [x], {"scalar": s}, kink=kink)


def positive(b):
    """square(x) + c: an entry known to be >= c > 0, which sqrt, log, division and fractional
    powers may read; sometimes one of those right away."""
    x = b.pick()
    c = b.choice([0.5, 1.0, 2.0])
    (sq,) = b.apply("square", [x], into_pool=False)
    (pos,) = b.apply("_plus_scalar", [sq], {"scalar": c}, positive=c)
    then = b.choice([None, "sqrt", "log", "_rdiv_scalar", "_power_scalar"])
    if then == "_power_scalar":
        b.apply(then, [pos], {"scalar": b.choice([0.5, -1.0, 1.5])})
    elif then == "_rdiv_scalar":
        b.apply(then, [pos], {"scalar": b.choice([1.0, -2.0])})
    elif then is not None:
        b.apply(then, [pos])


def _allowed(b, funcs, smooth_set, lhs, rhs):
    """The binary functions a graph may apply to (lhs, rhs): in a smooth graph, the smooth ones,
    and division / power only with a positive denominator / base."""
    if not b.smooth:
        return list(funcs)
    ok = []
    for f in funcs:
        if f not in smooth_set:
            continue
        if f.endswith("div") and rhs.positive <= 0 or f.endswith("power") and lhs.positive <= 0:
            continue
        ok.append(f)
    return ok


def binary(b):
    """elemwise_* of two entries of one shape (often the same entry twice)."""
    x = b.pick()
    y = b.pick(lambda e: e.shape == x.shape)
    lhs, rhs = (x, y) if b.boolean() else (y, x)
    b.apply(b.choice(_allowed(b, BINARY, SMOOTH_BINARY, lhs, rhs)), [lhs, rhs])


def broadcast(b):
    """broadcast_* of an entry with another whose axes are equal or 1, or with a new parameter
    variable of such a shape (right-aligned: leading axes may be left out)."""
    x = b.pick()
    rank = len(x.shape)

    def fits(e):
        return len(e.shape) == rank and all(
            p == q or p == 1 or q == 1 for p, q in zip(x.shape, e.shape)
        )

    if b.boolean() and any(fits(e) for e in b.pool):
        y = b.pick(fits)
    else:
        shape = [d if b.boolean() else 1 for d in x.shape]
        if b.batch_free:
            shape[0] = 1  # a parameter has no batch axis
        y = b.variable("p", shape[b.integer(0, rank - 1) :], data=False)
    lhs, rhs = (x, y) if b.boolean() else (y, x)
    func = b.choice(_allowed(b, BROADCAST, SMOOTH_BROADCAST, lhs, rhs))
    kink = Kink("pair", [lhs, rhs]) if func in ("broadcast_maximum", "broadcast_minimum") else None
    b.apply(func, [lhs, rhs], kink=kink, expect=np.broadcast_shapes(lhs.shape, rhs.shape))


def fully_connected(b):
    x = b.pick(lambda e: len(e.shape) >= 2)
    params = {"num_hidden": b.integer(1, 4), "no_bias": b.boolean()}
    if b.boolean():
        params["flatten"] = b.boolean()
    if params.get("flatten", True):
        expect = (x.shape[0], params["num_hidden"])
    else:
        expect = x.shape[:-1] + (params["num_hidden"],)
    b.apply("FullyConnected", [x], params, expect=expect)


def convolution(b):
    """1-D, 2-D or 3-D Convolution with kernel, stride, pad, dilate and groups that fit."""
    x = b.pick(lambda e: len(e.shape) in (3, 4, 5))
    channels = x.shape[1]
    group = b.choice(_divisors(channels)) if b.boolean() else 1
    kernel, stride, pad, dilate = [], [], [], []
    for size in x.shape[2:]:
        p, d = b.integer(0, 1), b.integer(1, 2)
        k = b.integer(1, 3)
        if d * (k - 1) + 1 > size + 2 * p:
            d = 1
            k = min(k, size + 2 * p)
        kernel.append(k)
        pad.append(p)
        dilate.append(d)
        stride.append(b.integer(1, 2))
    params = {
        "kernel": tuple(kernel),
        "num_filter": group * b.integer(1, 2),
        "num_group": group,
        "stride": tuple(stride),
        "pad": tuple(pad),
        "dilate": tuple(dilate),
        "no_bias": b.boolean(),
    }
    spatial = tuple(
        (size + 2 * p - d * (k - 1) - 1) // s + 1
        for size, k, s, p, d in zip(x.shape[2:], kernel, stride, pad, dilate)
    )
    b.apply("Convolution", [x], params, expect=(x.shape[0], params["num_filter"]) + spatial)


def pooling(b):
    """max / avg / sum Pooling, 1-D, 2-D or 3-D, valid or full, or global."""
    x = b.pick(lambda e: len(e.shape) in (3, 4, 5))
    pool_type = b.choice(["max", "avg", "sum"])
    params = {"pool_type": pool_type}
    if b.boolean() and b.boolean():
        params["global_pool"] = True
        kernel = x.shape[2:]
        stride, pad = (1,) * len(kernel), (0,) * len(kernel)
        spatial = (1,) * len(kernel)
    else:
        convention = b.choice(["valid", "full"])
        kernel, stride, pad = [], [], []
        for size in x.shape[2:]:
            past = _windows_past_the_end(size)
            if convention == "full" and past and b.boolean():
                k, p, s = b.choice(past)  # the edge: a last window wholly past the input
            else:
                k = b.integer(1, min(3, size + 1))
                p = b.integer(0, min(1, k - 1))
                k, s = min(k, size + 2 * p), b.integer(1, 3)
            kernel.append(k)
            pad.append(p)
            stride.append(s)
        kernel, stride, pad = tuple(kernel), tuple(stride), tuple(pad)
        params.update(kernel=kernel, stride=stride, pad=pad, pooling_convention=convention)
        if pool_type == "avg" and any(pad) and b.boolean():
            params["count_include_pad"] = b.boolean()
        rounding = np.floor if params["pooling_convention"] == "valid" else np.ceil
        spatial = tuple(
            int(rounding((size + 2 * p - k) / s)) + 1
            for size, k, s, p in zip(x.shape[2:], kernel, stride, pad)
        )
    (made,) = b.apply("Pooling", [x], params, expect=x.shape[:2] + spatial)
    if pool_type == "max":
        b.kinks.append(
            Kink(
                "pool",
                [x],
                {
                    "kernel": tuple(kernel),
                    "stride": tuple(stride),
                    "pad": tuple(pad),
                    "out_spatial": made.shape[2:],
                },
            )
        )


def _windows_past_the_end(size):
    """(kernel, pad, stride) whose 'full' pooling of ``size`` cells has a last window that
    starts past the input and its padding (MXNet: 0 for avg / sum, the lowest float for max)."""
    found = []
    for k in range(1, 4):
        for p in range(0, min(1, k - 1) + 1):
            for s in range(1, 4):
                if k > size + 2 * p:
                    continue
                last = -(-(size + 2 * p - k) // s) * s - p  # start of the last window
                if last >= size + p:
                    found.append((k, p, s))
    return found


def batch_norm(b):
    x = b.pick(lambda e: len(e.shape) >= 2)
    params = {"fix_gamma": b.boolean()}
    if b.boolean():
        params["eps"] = b.choice([1e-3, 1e-2, 2e-5])
    b.apply("BatchNorm", [x], params)


def reshape(b):
    """Reshape to a random factorisation, with the special codes 0, -1, -2, -3, -4."""
    x = b.pick()
    shape = x.shape
    lead = shape[:1] if b.batch_free else ()
    rest = shape[len(lead) :]
    total = int(np.prod(rest)) if rest else 1
    form = b.choice(["factors", "flat", "merge", "split"])
    if form == "merge" and len(rest) >= 2:
        codes = (0,) * len(lead) + (-3, -2)
        target = lead + (rest[0] * rest[1],) + rest[2:]
    elif form == "split" and rest and len(_divisors(rest[0])) > 1:
        f = b.choice(_divisors(rest[0]))
        codes = (0,) * len(lead) + (-4, f, -1, -2)
        target = lead + (f, rest[0] // f) + rest[1:]
    elif form == "flat":
        codes = (0, -1) if lead else (-1,)
        target = lead + (-1,)
    else:
        factors, left = [], total
        for _ in range(b.integer(0, 2)):
            f = b.choice(_divisors(left))
            factors.append(f)
            left //= f
        factors.append(left)
        if b.boolean():  # let one size be inferred
            factors[b.integer(0, len(factors) - 1)] = -1
        codes = (0,) * len(lead) + tuple(factors)
        target = lead + tuple(factors)
    b.apply("Reshape", [x], {"shape": codes}, expect=_dummy(shape).reshape(target).shape)


def flatten(b):
    x = b.pick(lambda e: len(e.shape) >= 2)
    b.apply("Flatten", [x], expect=(x.shape[0], int(np.prod(x.shape[1:]))))


def transpose(b):
    x = b.pick(lambda e: len(e.shape) >= 2)
    rank = len(x.shape)
    if not b.batch_free and b.boolean():
        b.apply("transpose", [x], expect=x.shape[::-1])  # axes=(): reverse every axis
        return
    axes = list(range(b.first_axis, rank))
    order = b.draw(st.permutations(axes))
    axes = tuple(range(b.first_axis)) + tuple(order)
    b.apply("transpose", [x], {"axes": axes}, expect=_dummy(x.shape).transpose(axes).shape)


def expand_dims(b):
    x = b.pick(lambda e: len(e.shape) <= 4)
    rank = len(x.shape)
    low = b.first_axis if b.batch_free else -rank - 1
    axis = b.integer(low, rank)
    b.apply("expand_dims", [x], {"axis": axis}, expect=np.expand_dims(_dummy(x.shape), axis).shape)


def slice_axis(b):
    x = b.pick(lambda e: any(d > 1 for d in e.shape[b.first_axis :]))
    axis = b.choice(a for a in range(b.first_axis, len(x.shape)) if x.shape[a] > 1)
    size = x.shape[axis]
    begin = b.integer(0, size - 1)
    end = b.integer(begin + 1, size)
    if b.boolean():  # counted from the end
        begin, end = begin - size, (None if end == size else end - size)
    if not b.batch_free and b.boolean():
        axis -= len(x.shape)
    index = (slice(None),) * (axis % len(x.shape)) + (slice(begin, end),)
    b.apply(
        "slice_axis",
        [x],
        {"axis": axis, "begin": begin, "end": end},
        expect=_dummy(x.shape)[index].shape,
    )


def concat(b):
    x = b.pick(lambda e: len(e.shape) > b.first_axis)
    dim = b.integer(b.first_axis, len(x.shape) - 1)

    def fits(e):
        return len(e.shape) == len(x.shape) and all(
            p == q for i, (p, q) in enumerate(zip(x.shape, e.shape)) if i != dim
        )

    others = [b.pick(fits) for _ in range(b.integer(1, 2))]
    b.apply(
        "Concat",
        [x] + others,
        {"dim": dim},
        expect=np.concatenate([_dummy(e.shape) for e in [x] + others], axis=dim).shape,
    )


def slice_channel(b):
    x = b.pick(lambda e: len(e.shape) > b.first_axis)
    axis = b.integer(b.first_axis, len(x.shape) - 1)
    n = b.choice(d for d in _divisors(x.shape[axis]) if d <= 4)
    params = {"num_outputs": n, "axis": axis}
    if x.shape[axis] == n and len(x.shape) > 1 and b.boolean():
        params["squeeze_axis"] = True
    parts = np.split(_dummy(x.shape), n, axis=axis)
    if params.get("squeeze_axis"):
        parts = [np.squeeze(part, axis=axis) for part in parts]
    b.apply("SliceChannel", [x], params, expect=[_at_least_1d(part.shape) for part in parts])


def reduce(b):
    """sum / mean / max / min over some axes, keepdims or not, exclude or not."""
    x = b.pick(lambda e: len(e.shape) > b.first_axis)
    rank = len(x.shape)
    func = b.choice(["sum", "mean", "max", "min"])
    params = {}
    if not b.batch_free and b.boolean():
        axes = tuple(range(rank))  # axis=None
    else:
        chosen = b.draw(st.sets(st.integers(b.first_axis, rank - 1), min_size=1))
        exclude = b.boolean()
        if exclude:  # exclude=True reduces the axes NOT listed
            listed = tuple(sorted(set(range(rank)) - chosen))
            if not listed:
                raise Skip
            params.update(axis=listed, exclude=True)
        else:
            params["axis"] = tuple(sorted(chosen))
        axes = tuple(sorted(chosen))
    if b.boolean():
        params["keepdims"] = True
    kink = Kink("reduce", [x], {"axes": axes, "op": func}) if func in ("max", "min") else None
    expect = np.sum(_dummy(x.shape), axis=axes, keepdims=params.get("keepdims", False)).shape
    b.apply(func, [x], params, kink=kink, expect=_at_least_1d(expect))


def softmax(b):
    x = b.pick()
    func = b.choice(["softmax", "log_softmax", "SoftmaxActivation"])
    if func == "SoftmaxActivation":
        # QUIRK (MXNet, copied): its backward sums over axis 1 in both modes, so 'instance' on
        # data of 3 or more axes (a softmax over the last one) has no true gradient.
        x = b.pick(lambda e: len(e.shape) >= 2)
        if len(x.shape) >= 3 and (b.smooth or b.boolean()):
            b.apply(func, [x], {"mode": "channel"})
        else:
            b.apply(func, [x])
        return
    params = {"axis": b.integer(-len(x.shape), len(x.shape) - 1)}
    if b.boolean():
        params["temperature"] = b.choice([0.5, 2.0])
    b.apply(func, [x], params)


def no_gradient(b):
    """argmax / argmin and BlockGrad: outputs without a gradient."""
    x = b.pick(lambda e: len(e.shape) > b.first_axis)
    func = b.choice(["argmax", "argmin", "BlockGrad"])
    if func == "BlockGrad":
        b.apply(func, [x])
        return
    params = {"axis": b.integer(b.first_axis, len(x.shape) - 1)}
    if b.boolean():
        params["keepdims"] = True
    expect = np.argmax(
        _dummy(x.shape), axis=params["axis"], keepdims=params.get("keepdims", False)
    ).shape
    b.apply(func, [x], params, expect=_at_least_1d(expect))


def dropout(b):
    b.apply("Dropout", [b.pick()], {"p": b.choice([0.25, 0.5])})


def loss(b):
    """A loss head with its label variable."""
    func = b.choice(
        [
            "SoftmaxOutput",
            "LinearRegressionOutput",
            "LogisticRegressionOutput",
            "MAERegressionOutput",
            "MakeLoss",
            "make_loss",
        ]
    )
    if func == "SoftmaxOutput":
        x = b.pick(lambda e: len(e.shape) == 2)
        label = b.variable("label", x.shape[:1])
        b.labels[label.code] = ("class", x.shape[1])
        params = {"normalization": b.choice(["null", "batch", "valid"])}
    elif func.endswith("RegressionOutput"):
        x = b.pick()
        label = b.variable("label", x.shape)
        b.labels[label.code] = ("real",)
        params = {"grad_scale": b.choice([1.0, 0.5])}
    else:
        b.apply(func, [b.pick()], {"grad_scale": b.choice([1.0, 2.0])})
        return
    b.apply(func, [x, label], params)


FAMILIES = {
    "unary": unary,
    "scalar": scalar,
    "positive": positive,
    "binary": binary,
    "broadcast": broadcast,
    "FullyConnected": fully_connected,
    "Convolution": convolution,
    "Pooling": pooling,
    "BatchNorm": batch_norm,
    "Reshape": reshape,
    "Flatten": flatten,
    "transpose": transpose,
    "expand_dims": expand_dims,
    "slice_axis": slice_axis,
    "Concat": concat,
    "SliceChannel": slice_channel,
    "reduce": reduce,
    "softmax": softmax,
}
WEIGHTS = {"Convolution": 3, "Pooling": 4, "FullyConnected": 2, "transpose": 2}
NOT_SMOOTH = {"no_gradient": no_gradient}
RANDOM = {"Dropout": dropout}
LOSSES = {"loss": loss}


def _data_shape(b, batch):
    rank = b.choice([2, 4, 4, 3, 5, 1] if not b.batch_free else [2, 4, 4, 3, 5])
    if rank == 5:  # 3-D maps: kept tiny
        return (batch or b.integer(1, 2), b.integer(1, 2)) + tuple(
            b.integer(1, 3) for _ in range(3)
        )
    head = (batch,) if batch is not None else (b.integer(1, 3),)
    if rank == 1:
        return head
    if rank == 2:
        return head + (b.integer(1, 5),)
    return head + (b.integer(1, 3),) + tuple(b.integer(1, 5) for _ in range(rank - 2))


@st.composite
def graphs(draw, smooth=False, batch_free=False, losses=False, random_ops=False, max_ops=6):
    """A random small Graph (see the module docstring)."""
    b = Builder(draw, smooth, batch_free, losses, random_ops)
    families = dict(FAMILIES)
    if not smooth:
        families.update(NOT_SMOOTH)
        families.update(LOSSES if losses else {})
        families.update(RANDOM if random_ops else {})
    batch = None
    if batch_free:
        batch = b.batch_size = b.integer(1, 3)
    for _ in range(b.integer(1, 3)):
        b.pool.append(b.variable("data", _data_shape(b, batch)))
    # the layers that need 3-D to 5-D data are drawn more often: many draws find none to read
    names = sorted(f for f in families for _ in range(WEIGHTS.get(f, 1)))
    used = []
    for _ in range(1 + b.uniform(max_ops)):
        family = b.choice(names)
        try:
            families[family](b)
        except Skip:
            continue
        used.append(family)
    if not b.ops:
        unary(b)
        used.append("unary")
    heads = [e for e in b.pool if e.consumers == 0 and e.code not in b.shapes]
    if len(heads) == 1:
        symbol = heads[0].sym
    else:
        symbol = mx.sym.Group([e.sym for e in heads])
        b.code.append(f"net = mx.sym.Group([{', '.join(e.code for e in heads)}])")
    graph = Graph(
        symbol,
        b.shapes,
        list(b.data_names),
        dict(b.labels),
        b.kinks,
        b.code,
        b.ops,
        b.batch_size,
        b.entries,
    )
    graph.families = used
    return graph


# Every operator of the registry is either one that graphs() can draw or left out with a reason
# (tests/properties/test_graphs.py checks it, so a new operator is a conscious choice).
DRAWN = set(UNARY + SCALAR + BINARY + BROADCAST) | {
    "Activation",
    "LeakyReLU",
    "FullyConnected",
    "Convolution",
    "Pooling",
    "BatchNorm",
    "Reshape",
    "Flatten",
    "transpose",
    "expand_dims",
    "slice_axis",
    "Concat",
    "SliceChannel",
    "sum",
    "mean",
    "max",
    "min",
    "softmax",
    "log_softmax",
    "SoftmaxActivation",
    "argmax",
    "argmin",
    "BlockGrad",
    "Dropout",
    "SoftmaxOutput",
    "LinearRegressionOutput",
    "LogisticRegressionOutput",
    "MAERegressionOutput",
    "MakeLoss",
    "make_loss",
}
NOT_DRAWN = {
    "Custom": "a custom operator is the learner's own Prop: tests/test_custom_ops.py and the "
    "catalogue cover it",
    "Embedding": "its data are integer indices below input_dim, not values drawn in [-1, 1]",
    "_contrib_Proposal": "its inputs are an RPN's scores, deltas and an image size, its output "
    "box coordinates from sorting and NMS (no gradient): "
    "tests/test_ops_proposal.py and p690-p692 cover it",
    "_contrib_MultiProposal": "as _contrib_Proposal, per image of a batch",
    # image operators (tests/test_ops_image.py, tests/test_ops_roi.py, p660-p667)
    **{
        op: "not drawn yet: it needs 4-D image data of fitting sizes (rois, affine matrices, "
        "grids); tests/test_ops_image.py / test_ops_roi.py check its shapes, gradient and "
        "req, and p660-p667 its values against MXNet"
        for op in (
            "Deconvolution",
            "UpSampling",
            "Pad",
            "LRN",
            "ROIPooling",
            "SpatialTransformer",
            "GridGenerator",
            "BilinearSampler",
        )
    },
    # value operators (minisym/ops/tensor/init_op.py and its neighbours,
    # tests/test_ops_values.py, p600-p605)
    **{
        op: "not drawn yet: tests/test_ops_values.py checks its shapes, gradient and req, and "
        "p600-p605 its values against MXNet"
        for op in (
            "_copy",
            "Cast",
            "clip",
            "where",
            "add_n",
            "zeros_like",
            "ones_like",
            "_zeros",
            "_ones",
            "_eye",
            "_linspace",
            "_arange",
            "_contrib_arange_like",
            "hard_sigmoid",
            "softmin",
            "softmax_cross_entropy",
            "SVMOutput",
            *VALUES_ELEMWISE,
        )
    },
    # indexing, matrix products, layout (tests/test_ops_indexing.py, _matmul.py, _layout.py,
    # the norm cases of test_ops_tensor.py, p630-p640)
    **{
        op: "not drawn yet: tests/test_ops_indexing.py / _matmul.py / _layout.py / _tensor.py "
        "check its shapes, gradient and req, and p630-p640 its values against MXNet"
        for op in (
            "slice",
            "pick",
            "take",
            "one_hot",
            "dot",
            "batch_dot",
            "SwapAxis",
            "reshape_like",
            "broadcast_axis",
            "broadcast_to",
            "tile",
            "repeat",
            "reverse",
            "stack",
            "squeeze",
            "norm",
        )
    },
    **{
        op: "not drawn yet: tests/test_ops_layout.py checks its shapes, gradient and req, and "
        "p825 its values and gradients against MXNet"
        for op in ("broadcast_like", "slice_like")
    },
    "_split_v2": "not drawn yet: tests/test_ops_tensor.py checks its shapes, gradient and req, "
    "and p830 its values and gradients against MXNet",
    "_identity_with_attr_like_rhs": "not drawn yet: tests/test_ops_values.py checks its shapes, "
    "gradient and req, and p833 its values against MXNet",
    **{
        op: "it has no gradient (MXNet registers none, its backward refuses), which a drawn "
        "graph's gradient check needs; tests/test_ops_indexing.py and p831 / p832 check it"
        for op in ("batch_take", "_slice_assign", "_slice_assign_scalar")
    },
}
