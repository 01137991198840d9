"""Checks for the lessons' exercises: ``from minisym_widgets.exercises import lesson1``.

A check runs the learner's function and says what is right, or exactly what is wrong and where
to look; it never shows a bare assertion. The result prints as one line (and a coloured box in
JupyterLab); ``bool(result)`` is whether it passed, and ``result.assert_passed()`` raises
``ExerciseError`` with the same message (what an autograder needs). The solutions are not in
the package: they live in the repository's ``lessons/solutions/``.
"""
from ._check import Check, ExerciseError, check, check_function

__all__ = ["Check", "ExerciseError", "check", "check_function"]
