"""Checking one operator outside any graph: run its forward/backward on NumPy arrays, compare
with finite differences, and check that it honours ``req``.

    op = make_op("FullyConnected", num_hidden=3)
    check_gradients(op, [x, w, b])          # float64 central differences
    check_req(op, [x, w, b])                # null leaves buffers, add accumulates
"""

import numpy as np

from minisym.ops import get_op

__all__ = [
    "make_op",
    "output_shapes",
    "run_forward",
    "run_backward",
    "numeric_gradient",
    "check_gradients",
    "check_req",
    "random_inputs",
]


def make_op(op_name, node_name="op", **params):
    """An operator instance with ``params`` given as MXNet would store them (strings)."""
    return get_op(op_name)({k: str(v) for k, v in params.items()}, node_name)


def output_shapes(op, in_shapes):
    """(out_shapes, aux_shapes) from the operator's shape rule."""
    _, outs, aux = op.infer_shape(list(in_shapes), [None] * len(op.list_outputs()))
    return outs, aux


def random_inputs(op, in_shapes, dtype=np.float64, seed=0):
    """Random inputs for ``op`` with ``in_shapes``, plus zeroed / unit aux states."""
    rng = np.random.default_rng(seed)
    ins = [rng.standard_normal(s).astype(dtype) for s in in_shapes]
    _, aux_shapes = output_shapes(op, in_shapes)
    aux = [
        np.zeros(s, dtype) if "mean" in n else np.ones(s, dtype)
        for n, s in zip(op.list_auxiliary_states(), aux_shapes)
    ]
    return ins, aux


def run_forward(op, ins, aux=(), is_train=True, req="write", outs=None):
    """Allocate outputs (every output, hidden ones too) and run ``op.forward``."""
    out_shapes, _ = output_shapes(op, [x.shape for x in ins])
    if outs is None:
        outs = [np.zeros(s, ins[0].dtype) for s in out_shapes]
    op.forward(is_train, [req] * len(outs), list(ins), outs, list(aux))
    return outs


def run_backward(op, ins, outs, out_grads, aux=(), req="write", in_grads=None):
    """Run ``op.backward`` into fresh (or given) input-gradient buffers."""
    if in_grads is None:
        in_grads = [np.zeros_like(x) for x in ins]
    reqs = (
        req
        if isinstance(req, list)
        else ["null" if name in op.no_gradient_inputs else req for name in op.list_arguments()]
    )
    op.backward(reqs, list(out_grads), list(ins), list(outs), in_grads, list(aux))
    return in_grads


def _objective(op, ins, aux, heads, is_train):
    outs = run_forward(op, ins, [a.copy() for a in aux], is_train)
    return sum(float(np.sum(o * h)) for o, h in zip(outs, heads))


def numeric_gradient(op, ins, index, heads, aux=(), eps=1e-6, is_train=True):
    """d sum(out_j * head_j) / d ins[index] by central differences (float64)."""
    x = ins[index]
    grad = np.zeros_like(x)
    flat, gflat = x.reshape(-1), grad.reshape(-1)
    for i in range(flat.size):
        saved = flat[i]
        flat[i] = saved + eps
        plus = _objective(op, ins, aux, heads, is_train)
        flat[i] = saved - eps
        minus = _objective(op, ins, aux, heads, is_train)
        flat[i] = saved
        gflat[i] = (plus - minus) / (2 * eps)
    return grad


def check_gradients(op, ins, aux=(), check=None, is_train=True, seed=1, rtol=1e-4, atol=1e-6):
    """Analytic gradients of ``op`` equal central differences for the inputs in ``check``.

    The head gradients are random for visible outputs and zero for hidden ones. Returns the
    analytic gradients.
    """
    ins = [np.asarray(x, np.float64) for x in ins]
    aux = [np.asarray(a, np.float64) for a in aux]
    rng = np.random.default_rng(seed)
    outs = run_forward(op, ins, [a.copy() for a in aux], is_train)
    visible = op.num_visible_outputs()
    heads = [
        rng.standard_normal(o.shape) if j < visible else np.zeros_like(o)
        for j, o in enumerate(outs)
    ]
    grads = run_backward(op, ins, outs, heads, [a.copy() for a in aux])
    names = op.list_arguments()
    default = [i for i in range(len(ins)) if names[i] not in op.no_gradient_inputs]
    for index in default if check is None else check:
        numeric = numeric_gradient(op, ins, index, heads, aux, is_train=is_train)
        np.testing.assert_allclose(
            grads[index],
            numeric,
            rtol=rtol,
            atol=atol,
            err_msg=f"{op.where}: gradient of input {index} '{op.list_arguments()[index]}'",
        )
    return grads


def check_req(op, ins, aux=(), is_train=True, seed=2):
    """``null`` leaves every buffer untouched, ``write`` overwrites, ``add`` accumulates.

    Covers forward outputs and backward input gradients, with one req for every buffer and,
    for several inputs, with a different req per input; returns nothing, asserts.
    """
    ins = [np.asarray(x) for x in ins]
    rng = np.random.default_rng(seed)
    reference = run_forward(op, ins, [np.array(a) for a in aux], is_train)
    heads = [rng.standard_normal(o.shape).astype(o.dtype) for o in reference]
    grads = run_backward(op, ins, reference, heads, [np.array(a) for a in aux])
    for req, start, expect in (
        ("null", 7.0, lambda r: 7.0 + 0 * r),
        ("write", 7.0, lambda r: r),
        ("add", 7.0, lambda r: 7.0 + r),
    ):
        outs = [np.full_like(o, start) for o in reference]
        run_forward(op, ins, [np.array(a) for a in aux], is_train, req=req, outs=outs)
        for j in range(op.num_visible_outputs()):
            np.testing.assert_allclose(
                outs[j],
                expect(reference[j]),
                rtol=1e-5,
                atol=1e-6,
                err_msg=f"{op.where}: forward req={req} output {j}",
            )
        in_grads = [np.full_like(g, start) for g in grads]
        run_backward(
            op, ins, reference, heads, [np.array(a) for a in aux], req=req, in_grads=in_grads
        )
        for i, g in enumerate(grads):
            if op.list_arguments()[i] in op.no_gradient_inputs:
                np.testing.assert_array_equal(in_grads[i], start)  # always 'null'
                continue
            np.testing.assert_allclose(
                in_grads[i],
                expect(g),
                rtol=1e-5,
                atol=1e-6,
                err_msg=f"{op.where}: backward req={req} in_grad {i}",
            )
    # Mixed: each input its own req (the executor asks this of every layer whose data needs no
    # gradient but whose weights do), rotated so that every input meets every req.
    names = op.list_arguments()
    if len(ins) > 1:
        expectations = {
            "null": lambda r: 7.0 + 0 * r,
            "write": lambda r: r,
            "add": lambda r: 7.0 + r,
        }
        for shift in range(3):
            reqs = [
                "null" if n in op.no_gradient_inputs else ("null", "write", "add")[(i + shift) % 3]
                for i, n in enumerate(names)
            ]
            in_grads = [np.full_like(g, 7.0) for g in grads]
            run_backward(
                op, ins, reference, heads, [np.array(a) for a in aux], req=reqs, in_grads=in_grads
            )
            for i, g in enumerate(grads):
                np.testing.assert_allclose(
                    in_grads[i],
                    expectations[reqs[i]](g),
                    rtol=1e-5,
                    atol=1e-6,
                    err_msg=f"{op.where}: backward reqs={reqs} in_grad {i}",
                )


def check_backward_dependency(op, ins, aux=(), is_train=True, seed=3):
    """Backward gives the same gradients when every array it did NOT declare it reads
    (``declare_backward_dependency``) is replaced by NaNs: the declaration is truthful, so the
    memory plan may reuse those buffers."""
    ins = [np.asarray(x, np.float64) for x in ins]
    aux = [np.asarray(a, np.float64) for a in aux]
    rng = np.random.default_rng(seed)
    outs = run_forward(op, ins, [a.copy() for a in aux], is_train)
    heads = [rng.standard_normal(o.shape) for o in outs]
    expected = run_backward(op, ins, outs, heads, [a.copy() for a in aux])
    n_out, n_in = len(outs), len(ins)
    deps = set(
        op.declare_backward_dependency(
            list(range(n_out)),
            list(range(n_out, n_out + n_in)),
            list(range(n_out + n_in, 2 * n_out + n_in)),
        )
    )
    hide = lambda arrays, first: [
        a if first + i in deps else np.full_like(a, np.nan) for i, a in enumerate(arrays)
    ]
    got = run_backward(
        op, hide(ins, n_out), hide(outs, n_out + n_in), hide(heads, 0), [a.copy() for a in aux]
    )
    for i, (g, e) in enumerate(zip(got, expected)):
        np.testing.assert_allclose(
            g,
            e,
            rtol=1e-12,
            atol=1e-12,
            err_msg=(
                f"{op.where}: backward reads an array it did not declare (in_grad {i} changed when "
                f"undeclared arrays were NaN; declared ids {sorted(deps)})"
            ),
        )


def case_tests(cases, ids, inputs):
    """The four checks every operator's case table gets, as pytest test functions:
    ``test_shape_rule, test_gradients, test_req, test_backward_dependency = case_tests(CASES,
    IDS, _inputs)`` in a test module, where ``inputs(in_shapes)`` makes the input arrays and each
    case is ``(op name, params, input shapes, expected output shapes)``."""
    import pytest

    each_case = pytest.mark.parametrize("name, params, in_shapes, out_shapes", cases, ids=ids)

    @each_case
    def test_shape_rule(name, params, in_shapes, out_shapes):
        op = make_op(name, **params)
        assert output_shapes(op, in_shapes)[0] == out_shapes
        assert [o.shape for o in run_forward(op, inputs(in_shapes))] == out_shapes

    @each_case
    def test_gradients(name, params, in_shapes, out_shapes):
        check_gradients(make_op(name, **params), inputs(in_shapes))

    @each_case
    def test_req(name, params, in_shapes, out_shapes):
        check_req(make_op(name, **params), inputs(in_shapes))

    @each_case
    def test_backward_dependency(name, params, in_shapes, out_shapes):
        check_backward_dependency(make_op(name, **params), inputs(in_shapes))

    return test_shape_rule, test_gradients, test_req, test_backward_dependency
