"""Checks for the lessons' exercises: ``from minisym_widgets.exercises import lesson1``.

A check runs the learner's function and says what it verified, or what to change; it never
shows a bare assertion. Every result has the same shape: a first line with the mark (✓ passed,
✗ failed, … not done yet) and what was verified or what to change, then, for a failure, the
evidence (expected vs got) on the lines after it; in JupyterLab it is a coloured box.
``bool(result)`` is whether it passed, and ``result.assert_passed()`` raises ``ExerciseError``
with the same message (what an autograder needs). A check judges by values, never by how the
code is written: a backward is run under every ``req`` it can receive ('write' replaces what
in_grad holds, 'add' adds to it, 'null' leaves it). The solutions are not shipped: they live in
``lessons/solutions/`` on the main branch (the instructor's tree), and the checks hold no
solution code: what a check compares with is recorded as data (for exercise 7.1 that data is the
reference unit's nodes, which a determined student can read; a check that judges by values
needs them); the students' branch, written by ``make student``
(``minisym_widgets.student_tree``), leaves the solutions out.

A check speaks the learner's language (``minisym_widgets.i18n``, catalogue domain
``minisym_exercises``): its own words are ``str.format`` templates marked with ``_`` (or ``N_``
where they are defined before they are shown), translated first and formatted after. What the
engine or Python said (an exception's text, a warning) is quoted as it was, in English.
"""

from ._check import Check, ExerciseError, check, check_function

__all__ = ["Check", "ExerciseError", "check", "check_function"]
