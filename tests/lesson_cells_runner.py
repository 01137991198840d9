"""Run notebook cells one after another in one namespace, the way IPython shows them.

    python lesson_cells_runner.py cells.json

``cells.json`` is a list of cell sources. The last line printed is a JSON list with, per cell,
``{"text": printed text, "value": repr of the last expression or None, "raised": exception
class name or None}``. Kept free of any engine import: it runs under MXNet (the lessons' MXNet
check) as well as under minisym.
"""

import ast
import contextlib
import io
import json
import sys


def run_cell(source, namespace):
    """Execute one cell; return what IPython would show for it."""
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    out, value, raised = io.StringIO(), None, None
    with contextlib.redirect_stdout(out):
        try:
            exec(compile(tree, "<cell>", "exec"), namespace)
            if last is not None:
                result = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
                value = None if result is None else repr(result)
        except Exception as exc:  # noqa: BLE001 (a raises-exception cell: its class is what is compared)
            raised = type(exc).__name__
    return {"text": out.getvalue(), "value": value, "raised": raised}


def main(path):
    namespace = {"__name__": "__main__"}
    results = [run_cell(source, namespace) for source in json.load(open(path))]
    sys.stdout.write("\n" + json.dumps(results) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
