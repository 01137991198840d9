"""Grade one exercise in a process of its own: ``python -I -m minisym_widgets.grading.harness FD``.

The job comes as JSON on stdin: ``cells`` (in notebook order, each ``{"kind": "lesson" |
"answer", "source"}``: the lesson's cells as the instructor wrote them, the student's as
definitions only), ``module`` and ``function`` (the check), ``args`` (names of the check's
arguments) and ``nonce``. The verdict goes to file descriptor FD as one JSON object
``{"nonce", "status", "message"}``; ``status`` is 'passed', 'failed' or 'void' (the check's
machinery was changed while it ran, so its word cannot be trusted).
"""

import contextlib
import importlib
import io
import json
import os
import sys

from IPython.core.interactiveshell import InteractiveShell

from ..exercises._check import Check, _
from . import integrity


def _grade(job):
    """(status, message) of one exercise."""
    check_module = importlib.import_module(job["module"])
    check = getattr(check_module, job["function"])
    shell = InteractiveShell.instance()
    integrity.import_watched()
    held = integrity.snapshot()
    for number, cell in enumerate(job["cells"]):
        if cell["kind"] == "lesson":
            shell.run_cell(cell["source"], store_history=False, silent=True)
        else:
            _define(cell["source"], number, shell.user_ns)
    missing = [name for name in job["args"] if name not in shell.user_ns]
    if missing:
        return "failed", _("{names} is not defined: define it in your notebook.").format(
            names=", ".join(missing)
        )
    try:
        result = check(*(shell.user_ns[name] for name in job["args"]))
    except BaseException as error:  # noqa: BLE001 (a student's code may raise anything)
        return "failed", stopped(error)
    rebound = integrity.changed(held)
    if rebound:
        return "void", _(
            "Your code changed what the check relies on ({names}), so the check "
            "cannot be trusted and gives no mark. Leave minisym, numpy and the "
            "checks as they are."
        ).format(names=", ".join(rebound))
    if type(result) is not Check:
        return "void", _("The check returned a {kind}, not its verdict: no mark.").format(
            kind=type(result).__name__
        )
    fields = object.__getattribute__(result, "__dict__")
    return fields["status"], Check.__repr__(result)


def stopped(error):
    return _("The check stopped with {kind}: {error}").format(
        kind=type(error).__name__, error=error
    )


def _define(source, number, namespace):
    """Run a student's cell's definitions in ``namespace``; a broken one is skipped, as the
    notebook would have skipped it."""
    try:
        exec(compile(source, f"<answer cell {number}>", "exec"), namespace)
    except BaseException:  # noqa: BLE001 (the check then reports what is missing)
        pass


def main():
    fd = int(sys.argv[1])
    job = json.loads(sys.stdin.read())
    nonce = job.pop("nonce")
    quiet = io.StringIO()
    with contextlib.redirect_stdout(quiet), contextlib.redirect_stderr(quiet):
        try:
            status, message = _grade(job)
        except BaseException as error:  # noqa: BLE001
            status, message = "failed", stopped(error)
    with os.fdopen(fd, "w") as verdict:
        json.dump({"nonce": nonce, "status": status, "message": message}, verdict)
    os._exit(0)  # no atexit hook a student registered runs after the verdict


if __name__ == "__main__":
    main()
