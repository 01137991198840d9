"""Run MXNet 1.9.1's own unit tests against minisym (or against MXNet) and count what passes.

    python tests/mxnet_own/run.py SRC --engine minisym   # SRC: a checkout of apache/mxnet at 1.9.1
    ../shared/tools/mxnet-oracle tests/mxnet_own/run.py SRC --engine mxnet

Copies the test files into a scratch directory with a conftest that makes `import mxnet` give
minisym (engine minisym only), a nose stand-in (nose does not import on Python 3.10+) and a
per-test time limit, runs pytest there and writes one line per test to OUT (outcomes.json).
`count.py` compares the two runs.
"""

import argparse
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = pathlib.Path(__file__).resolve().parent
FILES = (
    "test_symbol",
    "test_executor",
    "test_infer_shape",
    "test_operator",
    "test_module",
    "test_optimizer",
    "test_metric",
    "test_io",
    "test_init",
    "test_viz",
    "test_attr",
)


def scratch_tree(src, engine, into):
    """Lay out the tests, their helpers and the conftest under into."""
    unit = into / "unittest"
    shutil.copytree(src / "tests/python/unittest", unit)
    shutil.copytree(src / "tests/python/common", into / "common")
    shutil.copy(src / "tests/python/train/test_bucketing.py", unit / "test_bucketing.py")
    shutil.copytree(HERE / "shim/nose", unit / "nose")
    conftest = (HERE / "shim/harness.py").read_text()
    if engine == "minisym":
        conftest = (HERE / "shim/alias_minisym.py").read_text() + "\n" + conftest
    (unit / "conftest.py").write_text(conftest)
    return unit


def outcomes(junit):
    """{file::test: 'passed' | 'skipped' | 'failed: <first line of the error>'} from pytest's
    junit xml."""
    found = {}
    for case in ET.parse(junit).iter("testcase"):
        name = f"{case.get('classname').rsplit('.', 1)[-1]}::{case.get('name')}"
        failure = next((c for c in case if c.tag in ("failure", "error")), None)
        if failure is not None:
            found[name] = "failed: " + (failure.get("message") or "").split("\n")[0][:300]
        else:
            found[name] = "skipped" if case.find("skipped") is not None else "passed"
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("src", type=pathlib.Path)
    parser.add_argument("--engine", choices=("minisym", "mxnet"), required=True)
    parser.add_argument("--out", type=pathlib.Path)
    parser.add_argument("--workers", default="2")
    parser.add_argument("-k", default=None, help="pytest -k expression")
    args = parser.parse_args()
    out = args.out or HERE / f"outcomes-{args.engine}.json"
    with tempfile.TemporaryDirectory() as tmp:
        unit = scratch_tree(args.src.resolve(), args.engine, pathlib.Path(tmp))
        junit = pathlib.Path(tmp) / "junit.xml"
        command = [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-o",
            "addopts=",
            "--rootdir",
            str(unit),
            f"--junitxml={junit}",
            "-n",
            args.workers,
            *[f"{name}.py" for name in FILES],
        ]
        if args.k:
            command += ["-k", args.k]
        subprocess.run(command, cwd=unit)
        found = outcomes(junit)
    out.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
    states = [state.split(":")[0] for state in found.values()]
    tally = {state: states.count(state) for state in sorted(set(states))}
    print(f"{args.engine}: {tally} -> {out}")


if __name__ == "__main__":
    main()
