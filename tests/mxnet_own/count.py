"""Which of MXNet 1.9.1's unit tests the course answers for, and how many pass under minisym.

    python tests/mxnet_own/count.py SRC outcomes-mxnet.json outcomes-minisym.json

A test counts when it passes under real MXNet on a CPU and its own body needs none of what the
course leaves out: Gluon, the NumPy interface, sparse storage, a GPU, a download, or a name
minisym does not have (`mx.sym.RNN`, `mx.rnn`, `mx.nd.linalg.gemm`, ...; listed at the end, so
that a gap in the course shows).
"""

import ast
import json
import pathlib
import re
import sys

OUT_OF_SCOPE = re.compile(
    r"gluon|\bmx\.npx?\.|use_np|\bstype|sparse|csr|row_sparse|"
    r"\bgpu\(|download|get_mnist|mnist|cifar|ImageRecordIter|ImageIter|LibSVM|mx\.image|"
    r"rand_ndarray\([^)]*'(?:csr|row_sparse)'"
)


def bodies(src):
    """{'file::test': source of the test function} for every test file in src."""
    found = {}
    for path in (src / "tests/python/unittest").glob("test_*.py"):
        text = path.read_text()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                found[f"{path.stem}::{node.name}"] = ast.get_source_segment(text, node)
    return found


NAME = re.compile(r"\bmx\.((?:\w+\.)*\w+)")


def missing_names(source, mx):
    """The mx.* names the test uses that minisym lacks (the first missing part of each)."""
    missing = set()
    for match in NAME.finditer(source):
        target, path = mx, "mx"
        for part in match.group(1).split("."):
            path += "." + part
            if not hasattr(target, part):
                missing.add(path)
                break
            target = getattr(target, part)
            if not isinstance(target, type(mx)):
                break  # a function or class: what follows is its attribute, not a module's
    return sorted(missing)


LACKED = re.compile(r"module '(minisym[\w.]*)' has no attribute '(\w+)'")


def lacked_at_run(outcome):
    """[mx.x.y] when the test failed because minisym has no such name (reached through a helper
    the test calls, so not in its own body)."""
    found = LACKED.search(outcome)
    return [f"mx{found.group(1)[len('minisym') :]}.{found.group(2)}"] if found else []


def needs_left_out(source):
    """True when the test's own code uses what the course leaves out."""
    return bool(OUT_OF_SCOPE.search(source))


def main():
    src, mxnet_file, minisym_file = map(pathlib.Path, sys.argv[1:4])
    mxnet, minisym = json.loads(mxnet_file.read_text()), json.loads(minisym_file.read_text())
    import minisym as mx

    source = bodies(src)
    in_scope = sorted(
        name
        for name, state in mxnet.items()
        if state == "passed" and not needs_left_out(source.get(name.split("[")[0], ""))
    )
    lacking = {
        name: missing_names(source.get(name.split("[")[0], ""), mx)
        + lacked_at_run(minisym.get(name, ""))
        for name in in_scope
    }
    counted = [name for name in in_scope if not lacking[name]]
    passing = [name for name in counted if minisym.get(name) == "passed"]
    for name in counted:
        state = minisym.get(name, "missing")
        print(f"{state.split(':')[0]:8} {name}" + (f"  ({state[8:]})" if ":" in state else ""))
    for name in in_scope:
        if lacking[name]:
            print(f"lacks    {name}: {', '.join(lacking[name])}")
    under_mxnet = sum(state == "passed" for state in mxnet.values())
    print(
        f"{len(passing)} of {len(counted)} pass under minisym "
        f"({len(mxnet)} collected; {under_mxnet} pass under MXNet)"
    )


if __name__ == "__main__":
    main()
