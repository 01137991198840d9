"""Checks for the lessons' exercises: ``from minisym_widgets.exercises import lesson1``.

A check runs the learner's function and says what it verified, or what to change; it never
shows a bare assertion. Every result has the same shape: a first line with the mark (✓ passed,
✗ failed, … not done yet) and what was verified or what to change, then, for a failure, the
evidence (expected vs got) on the lines after it; in JupyterLab it is a coloured box.
``bool(result)`` is whether it passed, and ``result.assert_passed()`` raises ``ExerciseError``
with the same message (what an autograder needs). A check judges by values, never by how the
code is written: a backward is run under every ``req`` it can receive ('write' replaces what
in_grad holds, 'add' adds to it, 'null' leaves it). The solutions are not in the package: they
live in the repository's ``lessons/solutions/``.
"""
from ._check import Check, ExerciseError, check, check_function

__all__ = ["Check", "ExerciseError", "check", "check_function"]
