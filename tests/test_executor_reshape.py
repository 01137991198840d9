"""Executor.reshape shares memory with the executor it reshapes, as MXNet's does (arguments,
gradients, auxiliary states and outputs; not what grows), and debug_str ends with the memory
plan's total in MXNet's form. Recorded against MXNet: p558 and p559."""

import numpy as np
import pytest

import minisym as mx
from minisym.base import MXNetError

data = mx.sym.Variable("data")


def mlp():
    fc = mx.sym.FullyConnected(data, num_hidden=3, name="fc")
    return mx.sym.SoftmaxOutput(mx.sym.Activation(fc, act_type="tanh", name="act"), name="sm")


def two_heads():
    fc = mx.sym.FullyConnected(data, num_hidden=3, name="fc")
    return mx.sym.Group(
        [mx.sym.FullyConnected(fc, num_hidden=2, name="fc2"), mx.sym.BlockGrad(fc, name="bg")]
    )


def bound(sym, shape=(4, 5), **kwargs):
    ex = sym.simple_bind(mx.cpu(), data=shape, **kwargs)
    rs = np.random.RandomState(0)
    for arr in ex.arg_arrays:
        arr[:] = rs.randn(*arr.shape)
    return ex


def memory(array):
    """The numpy memory behind an NDArray."""
    return array._data


# --- what shares ---------------------------------------------------------------------------------
def test_a_smaller_executor_views_the_start_of_every_old_array():
    ex = bound(mlp())
    small = ex.reshape(data=(2, 5), sm_label=(2,))
    assert small.arg_dict["data"].shape == (2, 5) and small.outputs[0].shape == (2, 3)
    for new, old in [
        (small.arg_dict["data"], ex.arg_dict["data"]),
        (small.grad_dict["data"], ex.grad_dict["data"]),
        (small.grad_dict["fc_weight"], ex.grad_dict["fc_weight"]),
        (small.outputs[0], ex.outputs[0]),
    ]:
        assert np.shares_memory(memory(new), memory(old))
    assert small.arg_dict["fc_weight"] is ex.arg_dict["fc_weight"]  # same shape: same array


def test_running_either_executor_overwrites_the_others_outputs():
    ex = bound(two_heads(), grad_req="null")
    small = ex.reshape(data=(3, 5))
    small.arg_dict["data"][:] = 1.0
    small.forward()
    for new, old in zip(small.outputs, ex.outputs):
        flat = old.asnumpy().reshape(-1)[: new.size]
        np.testing.assert_array_equal(flat, new.asnumpy().reshape(-1))
    # two outputs of the new executor never land in one old buffer
    assert not np.shares_memory(memory(small.outputs[0]), memory(small.outputs[1]))


def test_growing_gets_new_memory_for_what_grows_only():
    ex = bound(two_heads(), grad_req="null")
    big = ex.reshape(allow_up_sizing=True, data=(8, 5))
    assert [o.shape for o in big.outputs] == [(8, 2), (8, 3)]
    assert not np.shares_memory(memory(big.arg_dict["data"]), memory(ex.arg_dict["data"]))
    for new, old in zip(big.outputs, ex.outputs):
        assert not np.shares_memory(memory(new), memory(old))
    assert big.arg_dict["fc_weight"] is ex.arg_dict["fc_weight"]


def test_auxiliary_states_and_grad_req_carry_over():
    bn = mx.sym.BatchNorm(data, name="bn")
    ex = bn.simple_bind(
        mx.cpu(), data=(4, 3), grad_req={"data": "write", "bn_gamma": "add", "bn_beta": "null"}
    )
    small = ex.reshape(data=(2, 3))
    assert small.aux_dict["bn_moving_mean"] is ex.aux_dict["bn_moving_mean"]
    assert small.grad_dict["bn_beta"] is None
    assert small.grad_dict["bn_gamma"] is ex.grad_dict["bn_gamma"]
    assert small._grad_req == ex._grad_req


def test_a_reshape_of_a_reshape_still_shares_the_first_memory():
    ex = bound(mlp(), grad_req="null")
    twice = ex.reshape(data=(3, 5), sm_label=(3,)).reshape(data=(2, 5), sm_label=(2,))
    assert np.shares_memory(memory(twice.outputs[0]), memory(ex.outputs[0]))


# --- its errors ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kwargs, words",
    [
        (
            dict(data=(8, 5), sm_label=(8,)),
            ["Executor.reshape", "(8, 5)", "'data'", "(4, 5)", "allow_up_sizing=True"],
        ),
        (
            dict(data=(2, 5)),
            [
                "Executor.reshape",
                "'sm_label'",
                "(4,) to (2,)",
                "sm_label=(2,)",
                "partial_shaping=True",
            ],
        ),
        (
            dict(data=(2, 6), sm_label=(2,)),
            [
                "'fc_weight'",
                "(3, 5) to (3, 6)",
                "a weight changes when the data's feature size does",
            ],
        ),
        (
            {},
            [
                "Executor.reshape",
                "cannot infer the new shape of 'data'",
                "nothing",
                "reshape(data=(...))",
            ],
        ),
    ],
)
def test_reshape_errors_say_what_changed_and_how_to_allow_it(kwargs, words):
    ex = bound(mlp())
    with pytest.raises(MXNetError) as caught:
        ex.reshape(**kwargs)
    assert isinstance(caught.value, ValueError)
    for word in words:
        assert word in str(caught.value), (word, str(caught.value))


def test_partial_shaping_lets_an_unspecified_argument_change():
    ex = bound(mlp())
    assert ex.reshape(partial_shaping=True, data=(2, 5)).arg_dict["sm_label"].shape == (2,)


# --- debug_str -----------------------------------------------------------------------------------
def test_debug_str_ends_with_the_memory_plans_total_in_mxnets_form():
    ex = mx.sym.relu(mx.sym.FullyConnected(data, num_hidden=1024, name="fc")).simple_bind(
        mx.cpu(), data=(2048, 4), grad_req="null"
    )
    text = ex.debug_str()
    lines = text.split("\n")
    assert text.startswith(ex._symbol.debug_str())  # the node listing first
    assert lines[-3] == f"Total {ex.memory_stats.planned_bytes >> 20} MB allocated"
    assert lines[-2] == "Total 11 TempSpace resource requested" and lines[-1] == ""
    assert int(lines[-3].split()[1]) == 16  # two 8 MiB outputs: fc's and the relu head


def test_debug_str_counts_what_the_plan_shares_once(monkeypatch):
    chain = data
    for i in range(4):
        chain = mx.sym.relu(chain, name=f"r{i}")
    shared = chain.simple_bind(mx.cpu(), data=(1024, 1024), grad_req="null")
    monkeypatch.setenv("MINISYM_MEMORY_PLAN", "0")
    unshared = chain.simple_bind(mx.cpu(), data=(1024, 1024), grad_req="null")
    total = lambda ex: int(ex.debug_str().split("\n")[-3].split()[1])
    # four 4 MiB outputs; with the plan r2 reuses r0's buffer (r0 is dead once r1 has run)
    assert total(unshared) == 16 and total(shared) == 12
