"""The gradient tests can catch a wrong gradient: flip the sign of one operator's backward and
both its finite-difference check and its differential test against MXNet must fail."""

import os
import sys

import numpy as np
import pytest

import minisym as mx
from minisym.ops import get_op
from opcheck import check_gradients, make_op

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "differential"))
import harness


@pytest.fixture
def sign_flipped_activation(monkeypatch):
    """Activation's backward, but every input gradient negated."""
    cls = get_op("Activation")
    original = cls.backward

    def flipped(self, req, out_grad, in_data, out_data, in_grad, aux):
        original(self, req, out_grad, in_data, out_data, in_grad, aux)
        for grad in in_grad:
            grad *= -1

    monkeypatch.setattr(cls, "backward", flipped)


def test_the_unsabotaged_operator_passes_both_checks():
    op = make_op("Activation", act_type="tanh")
    check_gradients(op, [np.random.default_rng(0).standard_normal((3, 4))])
    assert harness.replay(mx, "p104_num_activation")[0] == "ok"


def test_finite_differences_catch_the_flipped_sign(sign_flipped_activation):
    op = make_op("Activation", act_type="tanh")
    with pytest.raises(AssertionError, match="gradient of input 0 'data'"):
        check_gradients(op, [np.random.default_rng(0).standard_normal((3, 4))])


def test_the_differential_test_catches_the_flipped_sign(sign_flipped_activation):
    status, message = harness.replay(mx, "p104_num_activation")
    assert status != "ok" and "grad" in message
