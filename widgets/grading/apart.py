"""Autograde's marks from each exercise graded in a process of its own.

``GradeApart`` runs before the notebook is executed: for each test cell it builds a job (the
instructor's lesson cells the check needs, the student's cells as definitions, the check call)
and runs it in ``python -I -m minisym_widgets.grading.harness``. ``ApplyVerdicts`` runs after
the notebook: it writes each verdict into its test cell, so what nbgrader scores is the verdict,
whatever the notebook did to itself while it ran."""

import ast
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Integer

from ..exercises._check import _
from .slicing import definitions, needed_cells

VERDICTS = "minisym_verdicts"
THREAD_CAPS = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS", "NUMBA_NUM_THREADS")


def grading(cell):
    return cell.get("metadata", {}).get("nbgrader", {})


def is_test(cell):
    meta = grading(cell)
    return cell.cell_type == "code" and meta.get("grade") and not meta.get("solution")


def check_call(source):
    """(function, [argument names]) of a test cell's ``check.f(a, b).assert_passed()``."""
    call = ast.parse(source).body[0].value.func.value
    return call.func.attr, [arg.id for arg in call.args]


def check_module(source_nb):
    """The module the lesson imports as ``check`` (``minisym_widgets.exercises.lessonN``)."""
    for cell in source_nb.cells:
        if cell.cell_type != "code":
            continue
        for node in ast.walk(ast.parse(cell.source)):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if alias.asname == "check":
                        return f"{node.module}.{alias.name}"
    raise LookupError("the source notebook never imports its checks as `check`")


def job_cells(source_nb, submitted_nb):
    """The cells a job may run, in order: the source's lesson cells, and the student's answer
    cells and added cells as definitions (test cells left out)."""
    known = {cell.get("id"): cell for cell in source_nb.cells}
    answers = {
        grading(cell).get("grade_id"): cell
        for cell in submitted_nb.cells
        if grading(cell).get("solution")
    }
    added, after = {}, None
    for cell in submitted_nb.cells:
        if cell.get("id") in known:
            after = cell.get("id")
        elif cell.cell_type == "code" and not grading(cell):
            added.setdefault(after, []).append(cell)
    cells = [{"kind": "answer", "source": definitions(c.source)} for c in added.get(None, [])]
    for cell in source_nb.cells:
        if cell.cell_type == "code" and not is_test(cell):
            if grading(cell).get("solution"):
                mine = answers.get(grading(cell)["grade_id"])
                cells.append({"kind": "answer", "source": definitions(mine.source) if mine else ""})
            else:
                cells.append({"kind": "lesson", "source": cell.source})
        cells += [
            {"kind": "answer", "source": definitions(c.source)}
            for c in added.get(cell.get("id"), [])
        ]
    return cells


def job(cells, module, function, args):
    """The harness's job for one check: only the cells it needs."""
    keep = needed_cells([cell["source"] for cell in cells], set(args))
    return {"cells": [cells[i] for i in keep], "module": module, "function": function, "args": args}


def harness_env():
    """The environment of a harness: the grader's, one BLAS thread (several graders share the
    cores), no display."""
    env = dict(os.environ, MPLBACKEND="Agg")
    for name in THREAD_CAPS:
        env[name] = "1"
    return env


def run_job(task, timeout):
    """(status, message) of one job run in a fresh ``python -I`` process, killed (with every
    process it started) after ``timeout`` seconds."""
    nonce = secrets.token_hex(16)
    read, write = os.pipe()
    with tempfile.TemporaryDirectory(prefix="minisym-grade-") as folder:
        process = subprocess.Popen(
            [sys.executable, "-I", "-m", "minisym_widgets.grading.harness", str(write)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            pass_fds=(write,),
            cwd=folder,
            env=harness_env(),
            start_new_session=True,
        )
        os.close(write)
        try:
            said = process.communicate(
                json.dumps({**task, "nonce": nonce}).encode(), timeout=timeout
            )[1]
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            os.close(read)
            return "failed", _(
                "Exercise {function}: still running after {seconds} s, so it "
                "was stopped: look for a loop that never ends."
            ).format(function=task["function"], seconds=timeout)
    with os.fdopen(read) as pipe:
        text = pipe.read()
    try:
        verdict = json.loads(text)
    except json.JSONDecodeError:
        verdict = {}
    if verdict.get("nonce") != nonce:
        return "failed", _(
            "Exercise {function}: the grader gave no verdict (it stopped with {said})."
        ).format(
            function=task["function"],
            said=said.decode(errors="replace")[-300:] or f"exit code {process.returncode}",
        )
    return verdict["status"], verdict["message"]


def source_notebook(config, resources):
    """The instructor's source notebook of the one being graded."""
    info = resources["nbgrader"]
    coursedir = CourseDirectory(config=config)
    folder = coursedir.format_path(coursedir.source_directory, ".", info["assignment"])
    return nbformat.read(Path(folder) / f"{info['notebook']}.ipynb", as_version=4)


class GradeApart(NbGraderPreprocessor):
    """Grade every test cell's check in a harness process; keep the verdicts in resources."""

    timeout = Integer(300, help="Seconds one exercise may run before it is stopped.").tag(
        config=True
    )

    def preprocess(self, nb, resources):
        source = source_notebook(self.config, resources)
        module, cells = check_module(source), job_cells(source, nb)
        verdicts = {}
        for cell in source.cells:
            if is_test(cell):
                function, args = check_call(cell.source)
                verdicts[grading(cell)["grade_id"]] = run_job(
                    job(cells, module, function, args), self.timeout
                )
                self.log.info(
                    "%s: %s", grading(cell)["grade_id"], verdicts[grading(cell)["grade_id"]][0]
                )
        resources[VERDICTS] = verdicts
        return nb, resources


class ApplyVerdicts(NbGraderPreprocessor):
    """Each test cell's outputs become its verdict: a printed pass, or the failure as an
    error (what nbgrader scores)."""

    def preprocess(self, nb, resources):
        verdicts = resources.get(VERDICTS, {})
        for cell in nb.cells:
            if is_test(cell) and grading(cell)["grade_id"] in verdicts:
                status, message = verdicts[grading(cell)["grade_id"]]
                cell.outputs = [verdict_output(status, message)]
        return nb, resources


def verdict_output(status, message):
    if status == "passed":
        return nbformat.v4.new_output("stream", name="stdout", text=message + "\n")
    return nbformat.v4.new_output(
        "error", ename="ExerciseError", evalue=message, traceback=[message]
    )
