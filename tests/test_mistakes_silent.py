"""Correct code never meets a MistakeWarning: every lesson's code cells, every exercise's
solution (through its check), every differential program (MXNet's example networks among them:
p740-p759 load tests/fixtures/mxnet_json/examples/) runs without one. The warnings teach
learners' mistakes; one that fired here would tell a learner that right code is wrong.

Each run records every MistakeWarning (``simplefilter("always", ...)``) rather than turning it
into an error: an error could be swallowed by the code under test (a raises-exception cell, a
program's ``err(...)``), a recorded warning cannot; none recorded means that
``simplefilter("error", mx.MistakeWarning)`` raises nothing either.
"""

import contextlib
import importlib
import importlib.util
import inspect
import sys
import warnings
from pathlib import Path

import nbformat
import pytest

import minisym as mx

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "lessons").glob("[0-9][0-9]_*.ipynb"))
SOLUTIONS = sorted((ROOT / "lessons" / "solutions").glob("lesson*.py"))
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "differential"))
sys.path.insert(0, str(HERE))

import harness  # noqa: E402
from lesson_cells_runner import run_cell  # noqa: E402

pytestmark = pytest.mark.slow


@contextlib.contextmanager
def own_registry():
    """Custom operators registered inside are unregistered afterwards (a lesson's 'softmax'
    must not meet another test); runs in a fresh name scope."""
    saved = dict(mx.operator._PROPS)
    try:
        with mx.name.NameManager():
            yield
    finally:
        mx.operator._PROPS.clear()
        mx.operator._PROPS.update(saved)


@contextlib.contextmanager
def no_mistake_warning(what):
    """Fail, naming ``what`` and each warning, if the block issues a MistakeWarning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", mx.MistakeWarning)
        yield
    mistakes = [
        f"{w.filename}:{w.lineno}: {w.message}"
        for w in caught
        if issubclass(w.category, mx.MistakeWarning)
    ]
    assert not mistakes, f"{what} issued a MistakeWarning:\n" + "\n".join(mistakes)


def lesson1_net():
    """The network lesson 1's exercise 1.2 is checked on (as the lesson builds it)."""
    data = mx.sym.Variable("data")
    fc1 = mx.sym.FullyConnected(data, num_hidden=64, name="fc1")
    relu1 = mx.sym.Activation(fc1, act_type="relu", name="relu1")
    fc2 = mx.sym.FullyConnected(relu1, num_hidden=10, name="fc2")
    return mx.sym.SoftmaxOutput(fc2, name="softmax")


EXTRA_ARGUMENTS = {"hidden_and_output": lambda: (lesson1_net(),)}  # checks taking more than fn


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_every_lesson_cell_runs_without_a_mistake_warning(lesson, monkeypatch):
    monkeypatch.chdir(lesson.parent)
    notebook = nbformat.read(lesson, as_version=4)
    namespace = {"__name__": "__main__"}
    with own_registry():
        for index, cell in enumerate(notebook.cells):
            if cell.cell_type != "code":
                continue
            with no_mistake_warning(f"{lesson.name} cell {index}:\n{cell.source}\n"):
                outcome = run_cell(cell.source, namespace)
            if "raises-exception" not in cell.metadata.get("tags", []):
                assert outcome["raised"] is None, (
                    f"{lesson.name} cell {index} raised {outcome['raised']}:\n{cell.source}"
                )


def _solution_module(path):
    spec = importlib.util.spec_from_file_location(f"solution_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_every_solution_passes_its_check_without_a_mistake_warning(path):
    checks = importlib.import_module(f"minisym_widgets.exercises.{path.stem}")
    with own_registry(), no_mistake_warning(f"lessons/solutions/{path.name}"):
        module = _solution_module(path)
        solved = [
            (name, value)
            for name, value in vars(module).items()
            if (inspect.isfunction(value) or inspect.isclass(value))
            and value.__module__ == module.__name__
        ]
        assert solved, f"{path.name} defines no solution"
        for name, solution in solved:
            extra = EXTRA_ARGUMENTS.get(name, tuple)()
            result = getattr(checks, name)(solution, *extra)
            assert result.status == "passed", f"{path.stem}.{name}: {result!r}"


# Programs that record what MXNet does with one of the very mistakes the warnings are for:
# each must issue exactly the warnings listed (so that no other one hides behind the entry).
MISTAKES_ON_PURPOSE = {
    # "args_grad=None leaves grad_arrays None and backward still runs": that backward
    "p119_exec_bind_errors": ["Executor.backward: bind with gradient arrays to get gradients"],
}


@pytest.mark.parametrize("name", harness.list_programs())
def test_every_differential_program_runs_without_a_mistake_warning(name):
    program = harness.load_program(name)
    if name not in MISTAKES_ON_PURPOSE:
        with own_registry(), no_mistake_warning(f"tests/differential/programs/{name}.py"):
            program.run(mx)
        return
    with own_registry(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", mx.MistakeWarning)
        program.run(mx)
    issued = [str(w.message) for w in caught if issubclass(w.category, mx.MistakeWarning)]
    expected = MISTAKES_ON_PURPOSE[name]
    assert len(issued) == len(expected) and all(
        message.startswith(start) for message, start in zip(issued, expected)
    ), issued


def test_every_mxnet_example_network_is_run_by_a_program():
    """The example networks are run through the programs above (p740-p759); none may be left
    out of that, so each file must be the one some program runs."""
    folder = ROOT / "tests" / "fixtures" / "mxnet_json" / "examples"
    sources = "".join(Path(harness.program_path(n)).read_text() for n in harness.list_programs())
    missing = [
        path.stem
        for path in sorted(folder.glob("*.json"))
        if f'run_example(mx, "{path.stem}"' not in sources
    ]
    assert not missing and len(list(folder.glob("*.json"))) >= 20, missing
