"""Properties of the engine over random graphs drawn from the operator registry (graphs.py).

Each property is its own test, derandomized under the ``minisym-ci`` profile (conftest.py) with
the number of examples stated in ``EXAMPLES``:

1. the shapes infer_shape gives equal the shapes execution produces, for every internal output;
2. gradients equal float64 central finite differences (eps=1e-6, rtol=1e-4, atol=1e-6);
3. tojson / load_json round-trip exactly: the same text, the same list_*, the same results;
4. bind then reshape to another batch size keeps the parameters and gives a fresh bind's results;
5. grad_req='add' after k backward calls equals k times 'write' (added to what was there);
6. the memory plan (MINISYM_MEMORY_PLAN=0 against the default) never changes a result;
7. the fast kernels (numba / BLAS) and the NumPy references (MINISYM_KERNELS=reference) agree.
"""

import contextlib
import os
import tempfile

import numpy as np
import pytest
from graphs import EXAMPLES_PER_PROPERTY, bind, graphs, head_gradients, kink_distance
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

import minisym as mx

pytestmark = [
    pytest.mark.slow,  # 1-3 s per property with numba, far more with NUMBA_DISABLE_JIT=1
    # Draws reach inf (exp, a max-pooling window past the input holds the lowest float, as in
    # MXNet) and NumPy says so where an operator does not silence it; MXNet computes the same
    # silently, and the properties compare those values like any other.
    pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:divide by zero encountered:RuntimeWarning"),
]

_BASE = settings.default.max_examples / EXAMPLES_PER_PROPERTY  # minisym-ci: 1, -explore: 10
EXAMPLES = {
    "shapes": 100,
    "gradients": 100,
    "json": 100,
    "reshape": 100,
    "grad_req_add": 100,
    "memory_plan": 100,
    "kernels": 100,
}


seeds = st.integers(0, 2**16 - 1)
dtypes = st.sampled_from([np.float32, np.float64, np.float16])
STRATEGIES, PROPERTIES = {}, {}  # what each draws, its body (test_properties_catch_bugs.py)


def prop(name, **strategies):
    """Decorate a property: ``@given(**strategies)`` with EXAMPLES[name] examples."""

    def decorate(body):
        STRATEGIES[name], PROPERTIES[name] = strategies, body
        return settings(max_examples=max(1, int(EXAMPLES[name] * _BASE)))(given(**strategies)(body))

    return decorate


def _numpy(arrays):
    return [a.asnumpy().copy() for a in arrays]


def _grads(ex):
    return {n: g.asnumpy().copy() for n, g in ex.grad_dict.items() if g is not None}


def _aux(ex):
    return {n: a.asnumpy().copy() for n, a in ex.aux_dict.items()}


def _assert_same(a, b, what):
    """Exactly equal (NaN where NaN): the property claims the same computation."""
    assert type(a) is type(b)
    if isinstance(a, dict):
        assert a.keys() == b.keys(), what
        for k in a:
            np.testing.assert_array_equal(a[k], b[k], err_msg=f"{what} {k!r}")
    else:
        assert len(a) == len(b), what
        for i, (x, y) in enumerate(zip(a, b)):
            np.testing.assert_array_equal(x, y, err_msg=f"{what} [{i}]")


# --- 1. inferred shapes = executed shapes ----------------------------------------------------
@prop("shapes", graph=graphs(losses=True, random_ops=True, max_ops=8))
def test_inferred_shapes_equal_executed_shapes(graph):
    internals = graph.symbol.get_internals()
    names = internals.list_outputs()
    arg_shapes, out_shapes, aux_shapes = internals.infer_shape(**graph.shapes(internals))
    arg_types, out_types, aux_types = internals.infer_type(
        **{n: np.float32 for n in graph.shapes(internals)}
    )
    ex, _, _ = bind(graph, internals, grad_req="null")
    for is_train in (False, True):
        ex.forward(is_train=is_train)
        got = [o.shape for o in ex.outputs]
        for name, inferred, shape in zip(names, out_shapes, got):
            assert tuple(inferred) == shape, f"{name}: inferred {inferred}, executed {shape}"
        for name, inferred, out in zip(names, out_types, ex.outputs):
            assert np.dtype(inferred) == out.dtype, f"{name}: inferred {inferred}, ran {out.dtype}"
    assert [a.shape for a in ex.arg_arrays] == [tuple(s) for s in arg_shapes]
    assert [a.shape for a in ex.aux_arrays] == [tuple(s) for s in aux_shapes]
    assert [a.dtype for a in ex.arg_arrays] == [np.dtype(t) for t in arg_types]
    assert [a.dtype for a in ex.aux_arrays] == [np.dtype(t) for t in aux_types]
    # inference on the graph as it grew (each step alone) agrees with the whole graph's, and
    # with the shape NumPy's rules give (the executor allocates what inference says, so this
    # is what catches a rule that is wrong but consistent, e.g. a pooling size)
    by_name = dict(zip(names, map(tuple, out_shapes)))
    for entry in graph.entries:
        name = entry.sym.list_outputs()[0]
        assert by_name[name] == entry.shape, f"{name}: {entry.shape} then {by_name[name]}"
        assert entry.shape == entry.expected, (
            f"{name}: inferred {entry.shape}, NumPy's rules give {entry.expected}"
        )
    # and the heads of the graph itself
    _, heads, _ = graph.symbol.infer_shape(**graph.shapes())
    run, _, _ = bind(graph, grad_req="null")
    assert [o.shape for o in run.forward()] == [tuple(s) for s in heads]


# --- 2. gradients = float64 finite differences -----------------------------------------------
EPS, RTOL, ATOL = 1e-6, 1e-4, 1e-6
MARGIN = 1e-3  # values this close to a kink (relu's 0, a max tie) are not drawn
PER_ARGUMENT = 6  # elements perturbed per argument (all of them when it has no more)


def _away_from_kinks(graph, args, aux):
    """Whether every recorded kink's inputs are at least MARGIN from it, for these values."""
    if not graph.kinks:
        return True
    entries = list({id(e): e for k in graph.kinks for e in k.inputs}.values())
    group = mx.sym.Group([e.sym for e in entries])
    ex = group.simple_bind(
        mx.cpu(),
        grad_req="null",
        type_dict={n: np.float64 for n in group.list_arguments()},
        **graph.shapes(group),
    )
    for name, array in ex.arg_dict.items():
        array[:] = args[name]
    for name, array in ex.aux_dict.items():
        array[:] = aux[name]
    value = {id(e): out.asnumpy() for e, out in zip(entries, ex.forward(is_train=True))}
    return all(kink_distance(k, [value[id(e)] for e in k.inputs]) >= MARGIN for k in graph.kinks)


def _objective(ex, heads):
    return sum(
        float(np.sum(o.asnumpy().astype(np.float64) * h.asnumpy()))
        for o, h in zip(ex.forward(is_train=True), heads)
    )


@prop("gradients", graph=graphs(smooth=True, max_ops=5), seed=seeds)
def test_gradients_match_float64_finite_differences(graph, seed):
    ex, args, aux = bind(graph, dtype=np.float64, seed=seed)
    away = _away_from_kinks(graph, args, aux)
    event(f"values away from every kink: {away}" if graph.kinks else "no kink")
    assume(away)
    outs = _numpy(ex.forward(is_train=True))
    assume(all(np.isfinite(o).all() and np.abs(o).max(initial=0) < 1e3 for o in outs))
    heads = head_gradients(ex, seed)
    ex.backward(heads)
    analytic = _grads(ex)
    rng = np.random.default_rng(seed)
    for name, grad in analytic.items():
        base = args[name]
        picked = (
            range(base.size)
            if base.size <= PER_ARGUMENT
            else rng.choice(base.size, PER_ARGUMENT, replace=False)
        )
        for i in picked:
            x = base.copy()
            x.flat[i] += EPS
            ex.arg_dict[name][:] = x
            plus = _objective(ex, heads)
            x.flat[i] -= 2 * EPS
            ex.arg_dict[name][:] = x
            minus = _objective(ex, heads)
            numeric = (plus - minus) / (2 * EPS)
            np.testing.assert_allclose(
                grad.flat[i],
                numeric,
                rtol=RTOL,
                atol=ATOL,
                err_msg=f"d objective / d {name}.flat[{i}] (analytic, numeric)",
            )
        ex.arg_dict[name][:] = base


def _assert_same_text(got, want, what):
    """Equal texts, or the first line that differs."""
    if got != want:
        line = next(
            i
            for i, (a, b) in enumerate(zip(got.splitlines() + [""], want.splitlines() + [""]))
            if a != b
        )
        raise AssertionError(
            f"{what} differs from tojson() at line {line + 1}: "
            f"{got.splitlines()[line : line + 1]} instead of "
            f"{want.splitlines()[line : line + 1]}"
        )


# --- 3. tojson / load_json round-trip exactly ------------------------------------------------
@prop("json", graph=graphs(losses=True, random_ops=True, max_ops=8), seed=seeds, dtype=dtypes)
def test_json_round_trip_is_exact(graph, seed, dtype):
    sym = graph.symbol
    text = sym.tojson()
    again = mx.sym.load_json(text)
    _assert_same_text(again.tojson(), text, "load_json(tojson()).tojson()")
    with tempfile.TemporaryDirectory() as folder:  # and through a file: save / load
        path = os.path.join(folder, "net-symbol.json")
        sym.save(path)
        _assert_same_text(mx.sym.load(path).tojson(), text, "load(save()).tojson()")
    for listing in ("list_arguments", "list_outputs", "list_auxiliary_states"):
        assert getattr(again, listing)() == getattr(sym, listing)(), listing
    assert again.get_internals().list_outputs() == sym.get_internals().list_outputs()
    assert again.attr_dict() == sym.attr_dict()
    assert again.infer_shape(**graph.shapes()) == sym.infer_shape(**graph.shapes())
    results = []
    for s in (sym, again):
        ex, _, _ = bind(graph, s, seed=seed, dtype=dtype)
        inference = _numpy(ex.forward(is_train=False))
        mx.random.seed(seed)
        train = _numpy(ex.forward(is_train=True))
        ex.backward(head_gradients(ex, seed))
        results.append((inference, train, _grads(ex), _aux(ex)))
    for what, a, b in zip(("inference", "train", "gradients", "aux"), *results):
        _assert_same(a, b, what)


# --- 4. bind then reshape = a fresh bind ---------------------------------------------------------
@prop(
    "reshape",
    graph=graphs(batch_free=True, losses=True, random_ops=True, max_ops=6),
    shift=st.integers(1, 3),
    seed=seeds,
    dtype=dtypes,
)
def test_reshape_keeps_parameters_and_matches_a_fresh_bind(graph, shift, seed, dtype):
    new_batch = (graph.batch_size - 1 + shift) % 4 + 1  # another of 1..4, smaller or larger
    data = [n for n in graph.data_names if n in graph.symbol.list_arguments()]
    ex, _, _ = bind(graph, seed=seed, dtype=dtype)
    mx.random.seed(seed)
    ex.forward(is_train=True)  # a training step first: BatchNorm's moving stats move
    ex.backward(head_gradients(ex, seed))
    params = {n: a.asnumpy().copy() for n, a in ex.arg_dict.items() if n not in data}
    aux = _aux(ex)
    new = ex.reshape(allow_up_sizing=True, **graph.shapes(batch_size=new_batch))
    _assert_same({n: new.arg_dict[n].asnumpy() for n in params}, params, "parameters kept")
    _assert_same(_aux(new), aux, "auxiliary states kept")
    fresh, _, _ = bind(graph, seed=seed + 1, batch_size=new_batch, dtype=dtype)
    for name, value in params.items():
        fresh.arg_dict[name][:] = value
    for name, value in aux.items():
        fresh.aux_dict[name][:] = value
    for name in data:
        new.arg_dict[name][:] = fresh.arg_dict[name].asnumpy()
    results = []
    for run in (new, fresh):
        inference = _numpy(run.forward(is_train=False))
        mx.random.seed(seed)
        train = _numpy(run.forward(is_train=True))
        run.backward(head_gradients(run, seed))
        results.append((inference, train, _grads(run), _aux(run)))
    for what, a, b in zip(("inference", "train", "gradients", "aux"), *results):
        _assert_same(a, b, f"reshaped vs fresh bind: {what}")


# --- 5. grad_req='add' after k backward calls = k x 'write' ----------------------------------
@prop(
    "grad_req_add",
    graph=graphs(losses=True, random_ops=True, max_ops=6),
    k=st.integers(1, 3),
    seed=seeds,
    dtype=dtypes,
    mixed=st.booleans(),
    data=st.data(),
)
def test_grad_req_add_after_k_backward_calls_is_k_times_write(graph, k, seed, dtype, mixed, data):
    """Every argument under 'add' (or, ``mixed``, each under its own 'add' / 'write' / 'null'):
    after k backward calls an 'add' gradient is what it held plus k times the 'write' one, and
    a 'write' gradient is the 'write' one, whatever the other arguments' reqs are."""
    ex, _, _ = bind(graph, grad_req="write", seed=seed, dtype=dtype)
    mx.random.seed(seed)
    ex.forward(is_train=True)
    heads = head_gradients(ex, seed)
    ex.backward(heads)
    write = _grads(ex)
    ex.backward(heads)  # 'write' again: the same gradients, not twice them
    _assert_same(_grads(ex), write, "a second backward under 'write'")
    reqs = graph.grad_req("add")
    if mixed:
        reqs = {
            n: r
            if r == "null"
            else data.draw(st.sampled_from(["add", "write", "null"]), label=f"grad_req[{n!r}]")
            for n, r in reqs.items()
        }
    adder, _, _ = bind(graph, grad_req=reqs, seed=seed, dtype=dtype)
    rng = np.random.default_rng(seed)
    start = {}
    for name, grad in adder.grad_dict.items():
        if grad is not None:
            start[name] = rng.uniform(-1, 1, grad.shape).astype(grad.dtype)
            grad[:] = start[name]
    mx.random.seed(seed)
    adder.forward(is_train=True)
    for _ in range(k):
        adder.backward(heads)
    rtol = {np.float16: 5e-3, np.float32: 1e-5, np.float64: 1e-12}[dtype]
    for name, value in _grads(adder).items():
        if reqs[name] == "add":
            expect = start[name] + k * write[name]
        else:  # 'write'; a 'null' argument has no gradient array under simple_bind
            expect = write[name]
        np.testing.assert_allclose(
            value,
            expect,
            rtol=rtol,
            atol=rtol,
            err_msg=f"grad_dict[{name!r}] after {k} backward under {reqs[name]!r} ({reqs})",
        )


# --- 6. the memory plan changes no result ----------------------------------------------------
@contextlib.contextmanager
def _environment(name, value):
    saved = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if saved is None:
            del os.environ[name]
        else:
            os.environ[name] = saved


@prop(
    "memory_plan", graph=graphs(losses=True, random_ops=True, max_ops=10), seed=seeds, dtype=dtypes
)
def test_memory_plan_changes_no_result(graph, seed, dtype):
    """Both an inference executor (grad_req='null': most sharing) and a training one."""
    results = []
    for plan in ("1", "0"):
        with _environment("MINISYM_MEMORY_PLAN", plan):  # read once, at bind
            infer, _, _ = bind(graph, seed=seed, grad_req="null", dtype=dtype)
            ex, _, _ = bind(graph, seed=seed, dtype=dtype)
        inference = _numpy(infer.forward(is_train=False))
        again = _numpy(infer.forward(is_train=False))  # a second run reads no stale buffer
        mx.random.seed(seed)
        train = _numpy(ex.forward(is_train=True))
        ex.backward(head_gradients(ex, seed))
        results.append((inference, again, train, _grads(ex), _aux(ex)))
        stats = [infer.memory_stats, ex.memory_stats]
        if plan == "1":
            shares = [s.planned_bytes < s.unplanned_bytes for s in stats]
            event(f"memory plan shares buffers: inference {shares[0]}, training {shares[1]}")
        else:
            assert all(s.planned_bytes == s.unplanned_bytes for s in stats)
    for what, a, b in zip(("inference", "inference again", "train", "gradients", "aux"), *results):
        _assert_same(a, b, f"planned vs unplanned: {what}")


# --- 7. fast kernels = NumPy references ------------------------------------------------------
@prop("kernels", graph=graphs(losses=True, random_ops=True, max_ops=6), seed=seeds)
def test_fast_kernels_agree_with_the_numpy_references(graph, seed):
    """Convolution, Pooling and BatchNorm (+ReLU) run numba / BLAS kernels for 1-D and 2-D
    float32 / float64 data, and the plain NumPy of kernels/reference.py otherwise (3-D, float16,
    MINISYM_KERNELS=reference): both give one result. In float64, so that a graph that cancels
    (the sum of a BatchNorm's output) and then amplifies (a BatchNorm of that) compares summation
    orders, not float32 rounding; tests/test_kernels.py compares float32 op by op."""
    dtype = np.float64
    results = []
    for kernels in ("fast", "reference"):
        with _environment("MINISYM_KERNELS", kernels):  # read at every call
            ex, _, _ = bind(graph, seed=seed, dtype=dtype)
            inference = _numpy(ex.forward(is_train=False))
            mx.random.seed(seed)
            train = _numpy(ex.forward(is_train=True))
            ex.backward(head_gradients(ex, seed))
        results.append((inference, train, list(_grads(ex).values()), list(_aux(ex).values())))
    for what, a, b in zip(("inference", "train", "gradients", "aux"), *results):
        assert len(a) == len(b)
        for i, (x, y) in enumerate(zip(a, b)):
            np.testing.assert_allclose(
                x, y, rtol=1e-7, atol=1e-9, err_msg=f"fast vs reference: {what} [{i}]"
            )
