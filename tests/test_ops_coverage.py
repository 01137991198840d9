"""Every registered operator is checked in the tests/test_ops_*.py files: its shape rule, its
gradient against float64 finite differences (unless it has no gradient) and req null / write /
add. Each of those files says what it covers (SHAPE_TESTED, GRADIENT_TESTED, REQ_TESTED), built
from the very case tables its parametrized tests run, so that a new operator cannot go unchecked.
"""

import pytest

import test_ops_argmax as argmax_tests
import test_ops_custom as custom_tests
import test_ops_elemwise as elemwise_tests
import test_ops_image as image_tests
import test_ops_indexing as indexing_tests
import test_ops_layout as layout_tests
import test_ops_loss as loss_tests
import test_ops_matmul as matmul_tests
import test_ops_nn as nn_tests
import test_ops_proposal as proposal_tests
import test_ops_roi as roi_tests
import test_ops_tensor as tensor_tests
import test_ops_values as values_tests
from minisym.ops import all_ops

FILES = [
    argmax_tests,
    custom_tests,
    elemwise_tests,
    image_tests,
    indexing_tests,
    layout_tests,
    loss_tests,
    matmul_tests,
    nn_tests,
    proposal_tests,
    roi_tests,
    tensor_tests,
    values_tests,
]
# operator -> why it has no gradient to check, from each file's NO_GRADIENT (if it has one)
NO_GRADIENT = {
    op: why for module in FILES for op, why in getattr(module, "NO_GRADIENT", {}).items()
}


def covered(kind):
    return set().union(*(getattr(module, f"{kind}_TESTED") for module in FILES))


@pytest.mark.parametrize("kind", ["SHAPE", "GRADIENT", "REQ"])
def test_every_registered_operator_is_checked(kind):
    expected = set(all_ops()) - (set(NO_GRADIENT) if kind == "GRADIENT" else set())
    missing = sorted(expected - covered(kind))
    assert not missing, f"operators without a {kind.lower()} test in tests/test_ops_*.py: {missing}"


def test_only_registered_operators_are_claimed():
    """A misspelt or removed operator in a case table would otherwise count for nothing."""
    claimed = covered("SHAPE") | covered("GRADIENT") | covered("REQ") | set(NO_GRADIENT)
    assert sorted(claimed - set(all_ops())) == []


def test_operators_without_gradient_are_really_exempt():
    assert sorted(set(NO_GRADIENT) & covered("GRADIENT")) == []
    assert all(reason for reason in NO_GRADIENT.values())
