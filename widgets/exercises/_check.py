"""One exercise's outcome, and the runner that turns a learner's function into one."""

import functools
import re
from html import escape

from ..i18n import gettext

DOMAIN = "minisym_exercises"
MARKS = {"passed": "✓", "failed": "✗", "todo": "…"}
COLOURS = {
    "passed": "var(--msw-green, #009E73)",
    "failed": "var(--msw-vermillion, #D55E00)",
    "todo": "var(--msw-grey, #888)",
}


def _(message):
    """``message`` (a ``str.format`` template) in the learner's language; format it after."""
    return gettext(message, DOMAIN)


def N_(message):
    """Mark ``message`` for the catalogue where it is defined; ``_`` translates it when shown."""
    return message


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


def problem(change, *evidence):
    """A failed check's message: ``change`` (what to do, one line) first, then the evidence
    (what the check saw: expected vs got), each on lines of its own."""
    return "\n".join([change, *(e for e in evidence if e)])


def engine_warned(said, *evidence):
    """The message for a check whose run made the engine warn (``said``: its first warning):
    the warning's own fix first, then the warning. The fix is the warning's sentence that
    starts with 'Write', else what follows the operator's name when it is an instruction
    (``Custom 'c' (...): add into ...``, not ``...: backward did not ...``)."""
    write = re.search(r"\. (?=Write )", said)
    after_name = re.match(
        r"Custom '[^']*' \(op_type='[^']*'\): (?!backward |forward )(?=[a-z])", said
    )
    change = (
        _sentence(said, write.end())
        if write
        else _sentence(said, after_name.end())
        if after_name
        else None
    )
    if change:
        # TRANSLATORS: {fix} is the engine's own instruction, quoted in English from its warning
        change = _("{fix}").format(fix=change[0].lower() + change[1:])
    return problem(
        change or _("the engine warned while your code ran: do what its warning, below, says."),
        _("The engine warned: {warning}").format(warning=said),
        *evidence,
    )


def _sentence(text, start):
    """The sentence of ``text`` from ``start`` to its first full stop outside parentheses."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if text[i] == "." and depth == 0 and (i + 1 == len(text) or text[i + 1] == " "):
            return text[start : i + 1]
    return text[start:]


class Check:
    """The outcome of one exercise check: ``status`` is 'passed', 'failed' or 'todo'. Its
    first line is the mark and what to change (or what was verified); evidence follows."""

    def __init__(self, exercise, status, message):
        self.exercise, self.status, self.message = exercise, status, message

    def __bool__(self):
        return self.status == "passed"

    def __repr__(self):
        return _("{mark} Exercise {exercise}: {message}").format(
            mark=MARKS[self.status], exercise=self.exercise, message=self.message
        )

    def _repr_html_(self):
        colour = COLOURS[self.status]
        return (
            f'<div style="border-left: 4px solid {colour}; padding: 4px 10px; '
            f'white-space: pre-wrap">{escape(repr(self))}</div>'
        )

    def assert_passed(self):
        """Raise ExerciseError unless the check passed. Returns nothing: an nbgrader test cell
        whose last value is not a number would be read as partial credit."""
        if not self:
            raise ExerciseError(repr(self))


def check(exercise, what, **fields):
    """Decorate ``rule(answer, *args) -> None | str`` into a check of the learner's function.

    The check calls the learner's function with ``args``, then ``rule`` on its result: ``None``
    means right, a string says what is wrong. ``what`` (marked with N_) is the success text,
    formatted with ``fields`` after translation (a str field is a marked message too)."""

    def decorate(rule):
        def call_then_judge(fn, *args):
            return rule(fn(*args), *args)

        return check_function(exercise, what, **fields)(functools.wraps(rule)(call_then_judge))

    return decorate


def check_function(exercise, what, **fields):
    """Decorate ``rule(fn, *args) -> None | str``, a rule that calls the learner's ``fn``
    itself (several times, with inputs of its own), into a check; ``what`` and ``fields`` as
    for ``check``.

    A function still raising NotImplementedError is 'todo'; any other exception is shown with
    the engine's own message (and its notes)."""

    def decorate(rule):
        @functools.wraps(rule)
        def run(fn, *args):
            try:
                found = rule(fn, *args)
            except (NotImplementedError, NotDoneYet):
                return Check(
                    exercise,
                    "todo",
                    _("not done yet: write {function}() above, then run this cell again.").format(
                        function=fn.__name__
                    ),
                )
            except Exception as exc:  # noqa: BLE001 -- the learner's code failed: show why, in the engine's words
                notes = "".join(f"\n{note}" for note in getattr(exc, "__notes__", ()))
                return Check(
                    exercise,
                    "failed",
                    problem(
                        _(
                            "{function}() raised {error}: change what the message below names, then "  # noqa: E501 (a catalogue msgid)
                            "run this cell again."
                        ).format(function=fn.__name__, error=type(exc).__name__),
                        f"{type(exc).__name__}: {exc}{notes}",
                    ),
                )
            if found is None:
                return Check(
                    exercise,
                    "passed",
                    _(what).format(
                        **{
                            key: _(value) if isinstance(value, str) else value
                            for key, value in fields.items()
                        }
                    ),
                )
            return Check(exercise, "failed", found)

        return run

    return decorate
