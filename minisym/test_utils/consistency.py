"""``check_consistency``: one symbol run under several contexts / dtypes, compared with the most
precise run, as MXNet's ``mx.test_utils.check_consistency``. In minisym every context computes
on the CPU, so it compares dtypes (and the code paths a ``ctx_list`` names) only."""

import traceback

import numpy as np

from ..ndarray import array
from ..symbol import Symbol
from .compare import assert_almost_equal, get_tols

__all__ = ["check_consistency"]


def _smaller_dtype(dt1, dt2):
    """The less precise of two dtypes (``dt1`` when ``dt2`` is None)."""
    return dt1 if dt2 is None or np.dtype(dt1).itemsize < np.dtype(dt2).itemsize else dt2


def check_consistency(
    sym,
    ctx_list,
    scale=1.0,
    grad_req="write",
    arg_params=None,
    aux_params=None,
    rtol=None,
    atol=None,
    raise_on_err=True,
    ground_truth=None,
    equal_nan=False,
    use_uniform=False,
    rand_type=np.float64,
):
    """Bind ``sym`` once per entry of ``ctx_list`` (each a dict of ``simple_bind`` arguments:
    ``{'ctx': mx.cpu(0), 'conv_data': (2, 2, 10, 10), 'type_dict': {'conv_data': np.float32}}``),
    feed all the same random inputs, and assert the outputs (and with ``grad_req`` not 'null'
    the gradients) agree with the most precise run's; returns that run's
    ``{output / argument name: NDArray}``."""
    assert len(ctx_list) > 1, (
        "check_consistency compares runs: give at least two entries in "
        "ctx_list, e.g. the same shapes with type_dict float64 and float32"
    )
    syms = [sym] * len(ctx_list) if isinstance(sym, Symbol) else sym
    assert len(syms) == len(ctx_list), "give one symbol, or one symbol per ctx_list entry"
    output_names, arg_names = syms[0].list_outputs(), syms[0].list_arguments()
    exe_list = []
    for s, ctx in zip(syms, ctx_list):
        assert s.list_arguments() == arg_names, "the symbols must have the same arguments"
        assert s.list_outputs() == output_names, "the symbols must have the same outputs"
        exe_list.append(s.simple_bind(grad_req=grad_req, **ctx))
    arg_params = {} if arg_params is None else arg_params
    aux_params = {} if aux_params is None else aux_params
    _fill_inputs(exe_list, arg_params, aux_params, scale, grad_req, use_uniform, rand_type)

    dtypes = [np.dtype(exe.outputs[0].dtype) for exe in exe_list]
    gt_idx = int(np.argmax(dtypes))  # the first run of the most precise output[0]
    gt = ground_truth
    if gt is None:
        gt = exe_list[gt_idx].output_dict.copy()  # the arrays themselves: forward fills them
        if grad_req != "null":
            gt.update(exe_list[gt_idx].grad_dict)

    for exe in exe_list:
        exe.forward(is_train=False)
    for i, exe in enumerate(exe_list):
        if i != gt_idx:
            for name, arr in zip(output_names, exe.outputs):
                _compare(
                    arr,
                    gt[name],
                    rtol,
                    atol,
                    equal_nan,
                    raise_on_err,
                    f"Predict Err: ctx {i} vs ctx {gt_idx} at {name}",
                )

    if grad_req != "null":
        _train(exe_list)
        for i, exe in enumerate(exe_list):
            if i == gt_idx:
                continue
            for name, arr in zip(output_names + arg_names, exe.outputs + exe.grad_arrays):
                if gt[name] is None:
                    assert arr is None
                    continue
                gtarr = gt[name]
                rt, at = _train_tols(arr, gtarr, dtypes[i], dtypes[gt_idx], rtol, atol)
                _compare(
                    arr,
                    gtarr,
                    rt,
                    at,
                    equal_nan,
                    raise_on_err,
                    f"Train Err: {np.dtype(arr.dtype).name} {arr.ctx} ctx {i} vs "
                    f"{np.dtype(gtarr.dtype).name} {gtarr.ctx} ctx {gt_idx} at {name}",
                )
    return gt


def _fill_inputs(exe_list, arg_params, aux_params, scale, grad_req, use_uniform, rand_type):
    """The same inputs into every executor: ``arg_params`` / ``aux_params`` where given, else
    random normal(0, scale) (uniform in +-0.92*scale with ``use_uniform``) drawn from numpy's
    generator in the order of the sorted argument names, aux states 0."""
    for name, arr in sorted(exe_list[0].arg_dict.items()):
        if name not in arg_params:
            if use_uniform:
                arg_params[name] = np.random.uniform(
                    low=-0.92 * scale, high=0.92 * scale, size=arr.shape
                ).astype(rand_type)
            else:
                arg_params[name] = np.random.normal(size=arr.shape, scale=scale).astype(rand_type)
    for name in exe_list[0].aux_dict:
        aux_params.setdefault(name, 0)
    for exe in exe_list:
        for name, arr in exe.arg_dict.items():
            arr[:] = arg_params[name]
        for name, arr in exe.aux_dict.items():
            arr[:] = aux_params[name]
        if grad_req == "add":
            for arr in exe.grad_arrays:
                arr[:] = np.zeros(arr.shape, dtype=arr.dtype)


def _train(exe_list):
    """forward(is_train=True) everywhere, then backward with the first run's outputs (cast to
    the least precise dtype of all runs) as the head gradients."""
    for exe in exe_list:
        exe.forward(is_train=True)
    least = [out.dtype for out in exe_list[0].outputs]
    for exe in exe_list:
        least = [_smaller_dtype(out.dtype, dt) for out, dt in zip(exe.outputs, least)]
    golden = [out.astype(dt).asnumpy() for out, dt in zip(exe_list[0].outputs, least)]
    for exe in exe_list:
        exe.backward(
            [array(g, ctx=exe._ctx, dtype=out.dtype) for g, out in zip(golden, exe.outputs)]
        )


def _train_tols(arr, gtarr, dtype, gt_dtype, rtol, atol):
    """The tolerances for a gradient: those of the run's main dtype when it is less precise
    than the gradient's own (a float32 gamma of a float16 network uses float16's)."""
    smaller_arr = _smaller_dtype(arr.dtype, dtype)
    smaller_gt = _smaller_dtype(gtarr.dtype, gt_dtype)
    if smaller_arr != arr.dtype or smaller_gt != gtarr.dtype:
        return get_tols(arr.astype(smaller_arr), gtarr.astype(smaller_gt), rtol, atol)
    return rtol, atol


def _compare(arr, gtarr, rtol, atol, equal_nan, raise_on_err, where):
    """assert_almost_equal; on a mismatch print ``where`` and the traceback, then raise (or,
    with ``raise_on_err=False``, print the message and go on)."""
    try:
        assert_almost_equal(arr, gtarr, rtol=rtol, atol=atol, equal_nan=equal_nan)
    except AssertionError as exc:
        print(where)
        traceback.print_exc()
        if raise_on_err:
            raise
        print(str(exc))
