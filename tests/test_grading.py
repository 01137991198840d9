"""The grader's parts, each alone: what of a student's cell it runs, which lesson cells a check
needs, how it tells that a check was switched off, and one exercise graded in a process of its
own (passed, failed, voided, stopped by the time limit, or silent)."""

import sys
import types

import numpy
import pytest

from minisym_widgets.grading import integrity, slicing

pytest.importorskip("nbgrader", reason="nbgrader is in the test extra: pip install -e '.[test]'")
from minisym_widgets.grading import apart  # needs nbgrader

LESSON1 = "minisym_widgets.exercises.lesson1"
BUILD_MLP = """\
import minisym as mx


def build_mlp():
    data = mx.sym.Variable('data')
    hidden = mx.sym.FullyConnected(data, num_hidden=64, name='hidden')
    relu = mx.sym.Activation(hidden, act_type='relu', name='relu1')
    out = mx.sym.FullyConnected(relu, num_hidden=10, name='out')
    return mx.sym.SoftmaxOutput(out, name='softmax')
"""


def grade(*answers, function="build_mlp", args=("build_mlp",), timeout=60):
    cells = [{"kind": "answer", "source": slicing.definitions(a)} for a in answers]
    return apart.run_job(
        {"cells": cells, "module": LESSON1, "function": function, "args": list(args)}, timeout
    )


def test_definitions_keep_imports_functions_classes_and_constants_only():
    kept = slicing.definitions(
        "import numpy as np\nSIZE = (2, 3)\nx = np.zeros(SIZE)\n"
        "np.allclose = None\nprint(1)\n%time 1\n"
        "def f():\n    return SIZE\nclass C:\n    pass\n"
    )
    assert kept.splitlines() == [
        "import numpy as np",
        "",
        "SIZE = (2, 3)",
        "",
        "def f():",
        "    return SIZE",
        "",
        "class C:",
        "    pass",
    ]
    assert slicing.definitions("def broken(:\n") == ""


def test_the_slice_follows_names_backwards_and_leaves_the_rest():
    cells = [
        "import minisym as mx",
        "unused = mx.nd.zeros((1,))",
        "data = mx.sym.Variable('d')",
        "net = mx.sym.FullyConnected(data, num_hidden=2)",
        "print(net)",
    ]
    assert slicing.needed_cells(cells, {"net"}) == [0, 2, 3]
    assert slicing.needed_cells(cells, {"nothing"}) == []


def test_integrity_sees_rebinding_but_not_new_attributes(monkeypatch):
    import minisym_widgets.exercises.lesson1  # noqa: F401 (in sys.modules before the snapshot)
    from minisym_widgets.exercises._check import Check

    held = integrity.snapshot()
    monkeypatch.setattr(numpy, "brand_new_attribute", 1, raising=False)
    assert integrity.changed(held) == []
    monkeypatch.setattr(numpy, "allclose", lambda *a, **k: True)
    monkeypatch.setattr(Check.assert_passed, "__code__", (lambda self: None).__code__)
    monkeypatch.setitem(sys.modules, "minisym_widgets.exercises.lesson1", types.ModuleType("x"))
    assert {
        "numpy.allclose",
        "minisym_widgets.exercises._check.Check.assert_passed",
        "sys.modules.minisym_widgets.exercises.lesson1",
    } <= set(integrity.changed(held))


def test_a_right_answer_passes_and_a_wrong_one_fails_with_the_checks_words():
    assert grade(BUILD_MLP)[0] == "passed"
    status, message = grade(BUILD_MLP.replace("'relu'", "'tanh'"))
    assert status == "failed" and "Exercise 1.1 (build_mlp)" in message and "relu" in message


@pytest.mark.parametrize(
    "cheat",
    [
        "from minisym_widgets.exercises._check import Check\n"
        "def helper(_=setattr(Check, 'assert_passed', lambda self: None)): pass\n",
        "import numpy\ndef helper(_=setattr(numpy, 'allclose', lambda *a, **k: True)): pass\n",
        "import sys, types\n"
        "def helper(_=sys.modules.__setitem__('minisym.test_utils', types.ModuleType('t'))): pass\n",  # noqa: E501
        "import minisym as mx\n"
        "def helper(_=setattr(mx.test_utils, 'assert_almost_equal', lambda *a, **k: None)): pass\n",
    ],
)
def test_a_definition_that_patches_what_the_check_relies_on_voids_the_verdict(cheat):
    status, message = grade(cheat, BUILD_MLP)
    assert status == "void" and "changed what the check relies on" in message


def test_statements_that_would_switch_the_check_off_never_run():
    patch = (
        "from minisym_widgets.exercises._check import Check\n"
        "Check.assert_passed = lambda self: None\nCheck.__bool__ = lambda self: True\n"
    )
    assert grade(patch, "def build_mlp():\n    raise NotImplementedError()\n")[0] == "todo"


def test_a_loop_is_stopped_by_the_time_limit():
    status, message = grade("def build_mlp():\n    while True:\n        pass\n", timeout=3)
    assert status == "failed" and "still running after 3 s" in message


def test_a_process_that_leaves_early_or_prints_a_verdict_gives_none():
    leaves = "import os\ndef build_mlp(_=os._exit(0)): pass\n"
    status, message = grade(leaves)
    assert status == "failed" and "gave no verdict" in message
    forged = 'import sys\ndef build_mlp(_=sys.__stdout__.write(\'{"status": "passed"}\')): pass\n'
    assert grade(forged)[0] != "passed"


def test_a_missing_argument_is_named():
    status, message = grade(
        BUILD_MLP, function="hidden_and_output", args=("hidden_and_output", "net")
    )
    assert status == "failed" and "hidden_and_output, net is not defined" in message
