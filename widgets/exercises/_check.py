"""One exercise's outcome, and the runner that turns a learner's function into one."""
import functools
from html import escape

MARKS = {"passed": "✓", "failed": "✗", "todo": "…"}
COLOURS = {"passed": "var(--msw-green, #009E73)", "failed": "var(--msw-vermillion, #D55E00)",
           "todo": "var(--msw-grey, #888)"}


class ExerciseError(AssertionError):
    """A failed exercise check; the message says what is wrong and how to look at it."""


class NotDoneYet(Exception):
    """The learner's function still raises NotImplementedError, seen through an engine that
    gives NotImplementedError a meaning of its own (a CustomOp without backward)."""


def unfinished(fn):
    """``fn``, raising NotDoneYet where it raises NotImplementedError (for methods the engine
    calls, such as a CustomOp's backward)."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except NotImplementedError:
            raise NotDoneYet(fn.__name__) from None
    return run


class Check:
    """The outcome of one exercise check: ``status`` is 'passed', 'failed' or 'todo'."""

    def __init__(self, exercise, status, message):
        self.exercise, self.status, self.message = exercise, status, message

    def __bool__(self):
        return self.status == "passed"

    def __repr__(self):
        return f"{MARKS[self.status]} Exercise {self.exercise}: {self.message}"

    def _repr_html_(self):
        colour = COLOURS[self.status]
        return (f'<div style="border-left: 4px solid {colour}; padding: 4px 10px; '
                f'white-space: pre-wrap">{escape(repr(self))}</div>')

    def assert_passed(self):
        """Raise ExerciseError unless the check passed. Returns nothing: an nbgrader test cell
        whose last value is not a number would be read as partial credit."""
        if not self:
            raise ExerciseError(repr(self))


def check(exercise, what):
    """Decorate ``rule(answer, *args) -> None | str`` into a check of the learner's function.

    The check calls the learner's function with ``args``, then ``rule`` on its result: ``None``
    means right, a string says what is wrong."""
    def decorate(rule):
        def call_then_judge(fn, *args):
            return rule(fn(*args), *args)
        return check_function(exercise, what)(functools.wraps(rule)(call_then_judge))
    return decorate


def check_function(exercise, what):
    """Decorate ``rule(fn, *args) -> None | str``, a rule that calls the learner's ``fn``
    itself (several times, with inputs of its own), into a check.

    A function still raising NotImplementedError is 'todo'; any other exception is shown with
    the engine's own message (and its notes)."""
    def decorate(rule):
        @functools.wraps(rule)
        def run(fn, *args):
            try:
                problem = rule(fn, *args)
            except (NotImplementedError, NotDoneYet):
                return Check(exercise, "todo", f"not done yet: write {fn.__name__}() above, "
                                               "then run this cell again.")
            except Exception as exc:  # the learner's code failed: show why, in the engine's words
                notes = "".join(f"\n{note}" for note in getattr(exc, "__notes__", ()))
                return Check(exercise, "failed", f"{fn.__name__}() raised "
                                                 f"{type(exc).__name__}: {exc}{notes}")
            if problem is None:
                return Check(exercise, "passed", what)
            return Check(exercise, "failed", problem)
        return run
    return decorate
