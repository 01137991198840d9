"""The engine's structure: layers that import only downwards, no import cycle, a reason for
every import inside a function, and no code outside an operator's file asking an operator its
name (it asks the facts ``Operator`` declares)."""

import ast
import os
import shutil
import subprocess
import sys

import pytest

import architecture as arch

ROOT = arch.ROOT


def test_every_module_is_in_a_layer():
    for module in arch.module_files():
        arch.layer_of(module)  # raises for a module no layer claims


def test_top_level_imports_go_down_the_layers():
    assert [
        f"{i.source}:{i.line} imports {i.target} ({arch.layer_of(i.target)[1]} is above "
        f"{arch.layer_of(i.source)[1]})"
        for i in arch.upward()
    ] == []


def test_no_import_cycle_at_the_top_level():
    assert arch.cycles(arch.top_level_edges()) == []


def test_every_import_inside_a_function_says_why():
    missing = [
        f"{i.source}:{i.line} -> {i.target}" for i in arch.imports() if i.deferred and not i.reason
    ]
    assert missing == [], "write '# deferred: why' on the import's line or the line above"


def _planted(tmp_path, module_file, line):
    copy = tmp_path / "minisym"
    shutil.copytree(arch.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    path = copy / module_file
    path.write_text(line + "\n" + path.read_text())
    return copy


def test_a_planted_upward_import_is_caught(tmp_path):
    copy = _planted(tmp_path, "graph/nodes.py", "from ..bind import bind  # noqa")
    found = arch.upward(arch.imports(copy))
    assert [(i.source, i.target) for i in found] == [("minisym.graph.nodes", "minisym.bind")]


def test_a_planted_cycle_is_caught(tmp_path):
    copy = _planted(tmp_path, "executor.py", "from .bind import bind  # noqa")
    groups = arch.cycles(arch.top_level_edges(arch.imports(copy)))
    assert ["minisym.bind", "minisym.executor"] in groups


def test_a_deferred_import_without_a_reason_is_caught(tmp_path):
    copy = _planted(tmp_path, "graph/nodes.py", "def _late():\n    from ..bind import bind  # noqa")
    found = [i for i in arch.imports(copy) if i.deferred and not i.reason]
    assert [(i.source, i.target) for i in found] == [("minisym.graph.nodes", "minisym.bind")]


# --- operators are asked facts, not names ---------------------------------------------------------
def _name_questions(path):
    """(line, source) of each comparison or lookup keyed by an ``op_name`` attribute."""
    tree = ast.parse(path.read_text())
    found = []
    is_name = lambda n: isinstance(n, ast.Attribute) and n.attr == "op_name"
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and (
            is_name(node.left) or any(is_name(c) for c in node.comparators)
        ):
            found.append(node)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and (node.func.attr == "get" and node.args and is_name(node.args[0]))
        ):
            found.append(node)
        elif isinstance(node, ast.Subscript) and is_name(node.slice):
            found.append(node)
    return [(n.lineno, ast.unparse(n)) for n in found]


def _engine_and_widget_files():
    for folder in ("minisym", "widgets"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "ops" not in path.relative_to(ROOT).parts:
                yield path


def test_no_code_outside_an_operator_asks_its_name():
    found = [
        f"{p.relative_to(ROOT)}:{line}: {text}"
        for p in _engine_and_widget_files()
        for line, text in _name_questions(p)
    ]
    assert found == [], "declare the fact on Operator (minisym/ops/operator_base.py) and ask it"


def test_the_name_check_finds_a_comparison(tmp_path):
    path = tmp_path / "planted.py"
    path.write_text(
        "def f(node, table):\n    if node.op_name == 'BatchNorm':\n        pass\n"
        "    return table.get(node.op_name), table[node.op_name]\n"
    )
    assert len(_name_questions(path)) == 3


# --- import order: any module may be imported first -----------------------------------------------
@pytest.fixture(scope="module")
def package_copy(tmp_path_factory):
    root = tmp_path_factory.mktemp("import_order")
    shutil.copytree(arch.PACKAGE, root / "minisym", ignore=shutil.ignore_patterns("__pycache__"))
    return root


# minisym.gluon refuses to be imported (the course has no Gluon): its ImportError teaches that
FIRST = sorted(m for m in arch.module_files() if m != "minisym.gluon")


@pytest.mark.slow
@pytest.mark.parametrize("module", FIRST)
def test_importing_any_module_first_works(package_copy, module):
    """A copy of the package whose ``__init__`` imports ``module`` before anything else (as
    isort, or a learner's ``import minisym.executor``, may order things) imports cleanly."""
    init = package_copy / "minisym" / "__init__.py"
    original = (arch.PACKAGE / "__init__.py").read_text()
    first = f"import {module}  # noqa\n" if module != "minisym" else ""
    init.write_text(first + original)
    env = dict(os.environ, PYTHONPATH=str(package_copy), NUMBA_DISABLE_JIT="1")
    run = subprocess.run(
        [sys.executable, "-c", "import minisym"],
        cwd=package_copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-1500:]
