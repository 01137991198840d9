"""pyproject.toml and environment.yml describe the same runtime environment.

pip users install from pyproject.toml, conda and Binder users from
environment.yml. These tests keep the two dependency lists in step and check
that every runtime package imports in the interpreter running the tests.
"""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the `test` extra installs tomli, the same reader under another name
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
ENVIRONMENT = ROOT / "environment.yml"

# conda-forge name -> PyPI name, where they differ.
CONDA_TO_PIP = {
    "python-graphviz": "graphviz",
}

# conda packages with no PyPI counterpart in `dependencies`:
# - python: the interpreter itself (pyproject says requires-python instead);
# - pip: only there so a conda user can pip-install extras into the env;
# - graphviz: on conda-forge this is the Graphviz *programs* (`dot`), which
#   pip cannot install (pip users get them from the system, see README);
#   the Python package is `python-graphviz`, mapped above.
CONDA_ONLY = {"python", "pip", "graphviz"}

# PyPI name -> import name (the same but for the language pack; listed explicitly
# so that adding a dependency with a different import name is a conscious act).
IMPORT_NAMES = {
    "jupyterlab": "jupyterlab",
    "jupyterlab-language-pack-zh-cn": "jupyterlab_language_pack_zh_CN",
    "ipywidgets": "ipywidgets",
    "anywidget": "anywidget",
    "numpy": "numpy",
    "scipy": "scipy",
    "matplotlib": "matplotlib",
    "numba": "numba",
    "threadpoolctl": "threadpoolctl",
    "graphviz": "graphviz",
    "nbval": "nbval",
    "scikit-learn": "sklearn",
    "nbgitpuller": "nbgitpuller",
    "babel": "babel",
}

_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(.*)$")


def normalize(name: str) -> str:
    """PEP 503 normalised project name."""
    return re.sub(r"[-_.]+", "-", name).lower()


def split_requirement(spec: str) -> tuple[str, str]:
    """'ipywidgets>=8' -> ('ipywidgets', '>=8'); extras and markers are not used here."""
    match = _NAME.match(spec)
    if not match:
        raise ValueError(f"cannot read a package name from {spec!r}")
    name, rest = match.groups()
    if rest.startswith("[") or ";" in rest:
        raise ValueError(f"extras and markers are not supported in this check: {spec!r}")
    return normalize(name), rest.replace(" ", "")


def load_environment_yml(path: Path) -> dict:
    """Read the small subset of YAML that environment.yml uses.

    Top-level ``key: value`` and ``key:`` followed by ``- item`` lines. A list
    item that is itself a mapping (``- pip:``) comes back as ``{"pip": [...]}``
    so that the tests can reject it. Anything else raises ValueError.
    """
    data: dict = {}
    current: list | None = None  # the top-level list being filled
    nested: list | None = None  # the list under a ``- key:`` item
    item_indent = nested_indent = -1
    for lineno, raw in enumerate(path.read_text().splitlines(), 1):
        line = re.sub(r"(^|\s)#.*$", "", raw).rstrip()
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        text = line.strip()
        if indent == 0:
            key, sep, value = text.partition(":")
            if not sep or not key:
                raise ValueError(f"{path.name}:{lineno}: expected 'key:' got {raw!r}")
            value = value.strip()
            if value:
                data[key] = value
                current = None
            else:
                current = data[key] = []
            nested = None
            continue
        if not text.startswith("- ") or current is None:
            raise ValueError(f"{path.name}:{lineno}: unsupported line {raw!r}")
        item = text[2:].strip()
        if nested is not None and indent > item_indent:
            if nested_indent == -1:
                nested_indent = indent
            nested.append(item)
            continue
        nested = None
        item_indent = indent
        if item.endswith(":"):
            nested = []
            nested_indent = -1
            current.append({item[:-1].strip(): nested})
        else:
            current.append(item)
    return data


def pip_runtime() -> dict[str, str]:
    with PYPROJECT.open("rb") as f:
        project = tomllib.load(f)["project"]
    return dict(split_requirement(spec) for spec in project["dependencies"])


def conda_runtime() -> dict[str, str]:
    """The conda dependencies, under their PyPI names, without CONDA_ONLY ones."""
    deps = load_environment_yml(ENVIRONMENT)["dependencies"]
    result = {}
    for spec in deps:
        if not isinstance(spec, str):
            continue  # rejected by test_environment_has_no_pip_section
        name, constraint = split_requirement(spec)
        if name in CONDA_ONLY:
            continue
        result[CONDA_TO_PIP.get(name, name)] = constraint
    return result


def test_tiny_yaml_reader_reads_lists_and_nested_items(tmp_path):
    sample = tmp_path / "environment.yml"
    sample.write_text(
        "# comment\nname: demo\nchannels:\n  - conda-forge\n"
        "dependencies:\n  - numpy>=1.20  # trailing comment\n  - pip\n"
        "  - pip:\n      - -e .\n"
    )
    assert load_environment_yml(sample) == {
        "name": "demo",
        "channels": ["conda-forge"],
        "dependencies": ["numpy>=1.20", "pip", {"pip": ["-e ."]}],
    }


def test_runtime_dependency_names_match():
    pip_names, conda_names = set(pip_runtime()), set(conda_runtime())
    assert pip_names == conda_names, (
        f"only in pyproject.toml: {sorted(pip_names - conda_names)}; "
        f"only in environment.yml: {sorted(conda_names - pip_names)}"
    )


def test_runtime_version_constraints_match():
    pip_deps, conda_deps = pip_runtime(), conda_runtime()
    differ = {
        name: (pip_deps[name], conda_deps[name])
        for name in pip_deps.keys() & conda_deps.keys()
        if pip_deps[name] != conda_deps[name]
    }
    assert not differ, f"(pyproject.toml, environment.yml) constraints differ: {differ}"


def test_environment_basics():
    env = load_environment_yml(ENVIRONMENT)
    assert env.get("name") == "minisym"
    assert env.get("channels") == ["conda-forge"]
    names = [split_requirement(d)[0] for d in env["dependencies"] if isinstance(d, str)]
    assert "python" in names and "pip" in names
    assert "graphviz" in names, "the Graphviz programs (conda's `graphviz`) are needed for `dot`"
    assert len(names) == len(set(names)), "a package is listed twice in environment.yml"


def test_environment_has_no_pip_section():
    # Binder builds the environment from this file alone: packages only,
    # no `pip:` sub-list (and so no `-e .`).
    deps = load_environment_yml(ENVIRONMENT)["dependencies"]
    nested = [d for d in deps if not isinstance(d, str)]
    assert not nested, f"environment.yml should list conda packages only, found {nested}"


def test_every_runtime_dependency_has_an_import_name():
    missing = sorted(set(pip_runtime()) - set(IMPORT_NAMES))
    assert not missing, f"add these to IMPORT_NAMES in {Path(__file__).name}: {missing}"


@pytest.mark.parametrize("package", sorted(pip_runtime()))
def test_runtime_dependency_imports(package):
    module = IMPORT_NAMES.get(package, package.replace("-", "_"))
    importlib.import_module(module)


def _python_in(tmp_path, code: str) -> subprocess.CompletedProcess:
    """Run code in a fresh interpreter outside the repository."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_widgets_installed_as_minisym_widgets(tmp_path):
    done = _python_in(tmp_path, "import minisym_widgets; print(minisym_widgets.__file__)")
    assert done.returncode == 0, (
        "minisym_widgets does not import from outside the repository; "
        f"is the project installed (`make venv`)?\n{done.stderr}"
    )
    location = Path(done.stdout.strip()).resolve()
    # An editable install points at the source folder; a regular one at site-packages.
    assert location in (
        ROOT / "widgets" / "__init__.py",
        location.parent.parent / "minisym_widgets" / "__init__.py",
    ), f"minisym_widgets imported from an unexpected place: {location}"


def test_no_bare_widgets_package_installed(tmp_path):
    done = _python_in(tmp_path, "import widgets")
    assert done.returncode != 0 and "ModuleNotFoundError" in done.stderr, (
        "a top-level `widgets` package is importable from outside the repository"
    )
