"""minisym's import graph, read from the source: which module imports which, at the top of the
file or inside a function, and the layers it must respect (lowest first).

``python tests/architecture.py`` prints the layers, the imports inside functions with their
reasons, and any import that goes up a layer or closes a cycle.
"""

import ast
import pathlib
import sys
from collections import namedtuple

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "minisym"

# A module belongs to the layer of its longest matching prefix; a module imports only from its
# own layer or those below, at the top of the file, and no two modules import each other.
LAYERS = (
    (
        "base",
        (
            "minisym.base",
            "minisym.attribute",
            "minisym.name",
            "minisym.context",
            "minisym.lifecycle",
            "minisym.tracebacks",
            "minisym.operand_errors",
            "minisym.util",
            "minisym.shape_check",
            "minisym.fileio",
            "minisym.memory_plan",
            "minisym.memory_budget",
            "minisym.registry",
            "minisym.assign",
            "minisym.trace",
            "minisym.random",
        ),
    ),
    ("kernels", ("minisym.kernels",)),
    ("arrays", ("minisym.arrays",)),
    ("operators", ("minisym.ops", "minisym.contract")),
    ("graph", ("minisym.graph",)),
    (
        "execution",
        (
            "minisym.executor",
            "minisym.bind",
            "minisym.monitor",
            "minisym.executor_memory",
            "minisym.autograd",
        ),
    ),
    ("front ends", ("minisym.symbol", "minisym.ndarray", "minisym.fluent", "minisym.operator")),
    ("API", ("minisym",)),
)

Import = namedtuple("Import", "source target line deferred reason")


def module_files(package=PACKAGE):
    """{module name: path} of every module of the package."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def layer_of(module):
    """(index, name) of the layer ``module`` belongs to."""
    best = max(
        (
            (len(prefix), index)
            for index, (_, prefixes) in enumerate(LAYERS)
            for prefix in prefixes
            if module == prefix or module.startswith(prefix + ".")
        ),
        default=None,
    )
    if best is None:
        raise KeyError(f"{module} is in no layer of tests/architecture.py's LAYERS")
    return best[1], LAYERS[best[1]][0]


def _targets(node, module, is_package, modules):
    """The first-party modules one import statement reads: a name imported from a package is
    its submodule when there is one, else the package's ``__init__``."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = module.split(".") if is_package else module.split(".")[:-1]
        if node.level:
            base = base[: len(base) - node.level + 1]
            stem = ".".join(base + ([node.module] if node.module else []))
        else:
            stem = node.module
        names = [f"{stem}.{a.name}" if f"{stem}.{a.name}" in modules else stem for a in node.names]
    found = []
    for name in names:
        while name not in modules and "." in name:
            name = name.rsplit(".", 1)[0]
        # importing a.b.c first runs the __init__ of a.b (unless the importer is inside it)
        parts = name.split(".")
        for package in [".".join(parts[:k]) for k in range(2, len(parts))] + [name]:
            inside = module == package or module.startswith(package + ".")
            if package in modules and not inside and package not in found:
                found.append(package)
    return found


def _reason(lines, lineno):
    """The ``# deferred: why`` comment on an import's line or the line above it, or ''."""
    for text in (lines[lineno - 1], lines[lineno - 2] if lineno > 1 else ""):
        if "# deferred:" in text:
            return text.split("# deferred:", 1)[1].strip()
    return ""


def imports(package=PACKAGE):
    """Every first-party import of the package, as ``Import`` records."""
    modules = module_files(package)
    found = []
    for module, path in modules.items():
        text = path.read_text()
        lines = text.splitlines()
        tree = ast.parse(text)
        inside = {
            id(n)
            for f in ast.walk(tree)
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
            for n in ast.walk(f)
        }
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _targets(node, module, path.name == "__init__.py", modules):
                    if target.split(".")[0] == "minisym":
                        deferred = id(node) in inside
                        found.append(
                            Import(
                                module,
                                target,
                                node.lineno,
                                deferred,
                                _reason(lines, node.lineno) if deferred else "",
                            )
                        )
    return found


def cycles(edges):
    """Strongly connected groups of more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []
    sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return groups


def top_level_edges(found=None):
    """{module: {modules it imports at the top of the file}}."""
    edges = {}
    for imp in found if found is not None else imports():
        if not imp.deferred:
            edges.setdefault(imp.source, set()).add(imp.target)
    return edges


def upward(found=None):
    """Top-level imports that read a higher layer."""
    return [
        imp
        for imp in (found if found is not None else imports())
        if not imp.deferred and layer_of(imp.target)[0] > layer_of(imp.source)[0]
    ]


def main():
    found = imports()
    for index, (name, _) in enumerate(LAYERS):
        members = sorted(m for m in module_files() if layer_of(m)[0] == index)
        print(
            f"{index} {name} ({len(members)}): "
            + " ".join(m.removeprefix("minisym.") or "minisym" for m in members)
        )
    deferred = [imp for imp in found if imp.deferred]
    print(f"\n{len(deferred)} imports inside functions:")
    for imp in deferred:
        print(f"  {imp.source}:{imp.line} -> {imp.target}: {imp.reason or 'NO REASON'}")
    print(
        "\nupward top-level imports:", [f"{i.source}:{i.line} -> {i.target}" for i in upward(found)]
    )
    print("cycles at the top level:", cycles(top_level_edges(found)))


if __name__ == "__main__":
    main()
