"""Autograding the course's exercises so that a notebook cannot switch its own checks off.

nbgrader grades a test cell by what it printed when the student's notebook ran, and that
notebook can rebind anything before its test cells run (``Check.assert_passed = lambda self:
None`` is enough). Here the marks come from each exercise graded apart (``GradeApart``): a fresh
``python -I`` process per exercise runs the instructor's lesson cells the check needs, the
student's cells as definitions only, then the check, and refuses a verdict if the check's
machinery changed meanwhile. ``ApplyVerdicts`` writes the verdicts into the test cells after the
notebook ran, for the feedback. A submitted lesson notebook is graded too, with a warning
(``AdoptLessonNotebook``); a stuck cell leaves the rest of the notebook unrun instead of dropping
the submission (``ExecuteUntilStuck``).

In a course's ``nbgrader_config.py``::

    from minisym_widgets.grading import configure
    configure(c)
"""

__all__ = ["configure"]


def configure(c):
    """Make nbgrader's autograde grade each exercise apart (``c``: nbgrader's config)."""
    # Imported here, not above: every harness process imports this package, and should not
    # pay for nbgrader (a second of SQLAlchemy and nbconvert) it never uses.
    from nbconvert.preprocessors import ClearMetadataPreprocessor
    from nbgrader import preprocessors as nbg

    from .adopt import AdoptLessonNotebook
    from .apart import ApplyVerdicts, GradeApart
    from .execute import ExecuteUntilStuck

    c.Autograde.sanitize_preprocessors = [
        AdoptLessonNotebook,
        nbg.ClearOutput,
        nbg.DeduplicateIds,
        nbg.OverwriteKernelspec,
        nbg.OverwriteCells,
        nbg.CheckCellMetadata,
    ]
    c.Autograde.autograde_preprocessors = [
        GradeApart,
        ExecuteUntilStuck,
        ApplyVerdicts,
        nbg.IgnorePattern,
        ClearMetadataPreprocessor,
        nbg.LimitOutput,
        nbg.SaveAutoGrades,
        nbg.AssignLatePenalties,
        nbg.CheckCellMetadata,
    ]
