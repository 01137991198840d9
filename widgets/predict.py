"""Predict, then run: the learner types what a cell will answer before the answer is shown,
and the widget compares the prediction with the engine's answer and explains the difference.

The answer is a callable, run on the first check (or "show me"), never when the cell runs: the
cell shows the question only. Typed helpers take their answers and explanations from the
engine: names and where they come from (the graph), shapes (inference), what an index stands
for (``minisym.contract``), ``req`` and why (the executor).
"""

import ast
import re
from contextlib import contextmanager
from dataclasses import dataclass, field

import traitlets

import minisym as mx
from minisym.contract import FAMILIES, declarer, family_of, node_contract
from minisym.graph.infer import infer_report
from minisym.symbol.symbol import Symbol

from ._base import View, css, error_text, escape, esm
from ._target import resolve_target
from .i18n import N_, Texts, lesson_text, ngettext
from .i18n import gettext as _

__all__ = ["Predict"]

# --- every user-facing string -----------------------------------------------------------------
LABELS = Texts(
    {
        "tag": N_("Predict"),
        "check": N_("check"),
        "reveal": N_("show me"),
        "answer": N_("the answer"),
        "tries": N_("tries"),
        "static": N_("Type your prediction{form}, then press “check”."),
        "static_html": N_(
            "Run this cell in Jupyter, type your prediction{form}, then press “check”."
        ),
    }
)
PLACEHOLDERS = Texts(
    {
        "names": N_("names, separated by commas"),
        "name": N_("a name"),
        "shape": N_("a shape, e.g. (2, 3)"),
        "shapes": N_("shapes, e.g. [(2, 3), ()]"),
        "int": N_("a number"),
        "req": N_("write, add or null"),
        "value": N_("your prediction"),
    }
)
MESSAGES = Texts(
    {
        "answer_failed": N_(
            "Run the cells above this one, then check again: the answer to this "
            "question could not be computed.\n{error}"
        ),
        "empty": N_("Type your prediction first, then press “check”."),
        "unreadable": N_("Write {what}; “{text}” is not one."),
        "right": N_("Right: {answer}."),
        "right_also": N_("Right: {answer} ({note})."),
        "order": N_("The right {count} names, in another order."),
        "reorder_all": N_("Move every name: none is in its place."),
        "order_note": N_(
            "list_arguments() lists the variables in the order a depth-first walk from "
            "the output meets them: each operator's inputs left to right."
        ),
        "names_count": N_("{right} of {total} names right."),
        "add": N_("Add '{name}'{about}."),
        "remove": N_("Remove '{name}'{about}."),
        "keep_part": N_("Keep '{kept}'; change '{changed}'."),
        "add_more": N_("Add {count} more names{rules}."),
        "one_is": N_("one is {rule}"),
        "twice": N_("Write '{name}' once: each name appears once."),
        "not_here": N_(
            ": the graph has no such name (its names are those given to Variable and "
            "name=, or made by MXNet; never the Python variables holding symbols)"
        ),
        "it_is": N_(": it is {about}"),
        "name_wrong": N_("Not '{given}'."),
        "other_slot": N_("'{given}' is {label}; count again from 0."),
        "rank": N_("Give {rank} dimensions: the shape has {rank}, yours has {given}."),
        "dims": N_("Change {which}: {count} of {rank} dimensions are right."),
        "dim": N_("dimension {index} (yours: {value})"),
        "shape_wrong": N_("Not {given}."),
        "count_more": N_("More than {given}."),
        "count_fewer": N_("Fewer than {given}."),
        "req_wrong": N_("Not '{given}'."),
        "entries": N_("Give {total} entries: there is one per {per}; yours has {given}."),
        "entry_wrong": N_("Change entry {index} (yours: {value})."),
        "value_wrong": N_("Not {given}."),
    }
)
FACTS = Texts(
    {
        "implicit": N_(
            "an implicit variable of {where}, which was given no {slot}= and so created "
            "it, named after the node: the node's name + '_' + '{slot}'"
        ),
        "own_variable": N_("the Variable made with mx.sym.Variable('{name}')"),
        "output": N_(
            "output '{slot}' of {where} (an output is named: the node's name + '_' + '{slot}')"
        ),
        "node": N_(
            "the name of the node {where}, not of an array: its outputs are named "
            "'{name}_' + the output's name"
        ),
        "single": N_("It is {rule}."),
        "rule_implicit": N_(
            "an implicit variable the operator made: the node's name + '_' + '{slot}'"
        ),
        "rule_output": N_("output '{slot}' of the {op} node: the node's name + '_' + '{slot}'"),
        "rule_own": N_("a Variable: its name is the one given to mx.sym.Variable(...)"),
        "rule_aux": N_("an auxiliary state of the {op} node: the node's name + '_' + '{slot}'"),
        "rule_node": N_("the name of the {op} node"),
        "slot_name": N_(
            "the input's name inside {where}; the variable made for it is named the "
            "node's name + '_' + '{slot}'"
        ),
        "implicit_many": N_(
            "{names} are implicit variables of {where}, which was given no {slots} "
            "and so created them: the node's name + '_' + the input's name"
        ),
        "output_many": N_(
            "{names} are the outputs {slots} of {where}: the node's name + '_' + each"
        ),
        "aux": N_("an auxiliary state of {where}: list_auxiliary_states(), not list_arguments()"),
        "slot": N_("{label} is {method}()[{index}] of {owner}: count from 0"),
        "slot_declared": N_(
            "{label} is '{name}', declared in {declared}; the graph's array is '{entry}'"
        ),
        "count": N_("{role} has one entry per name of {method}() of {owner}: {names}"),
        "count_hint": N_("{role} has one entry per name of {method}() of {owner}"),
        "req_slot": N_(
            "{label} goes with in_grad[{index}], the gradient of '{name}' (the array "
            "'{entry}'): look at how '{entry}' was bound"
        ),
        "req_why": N_("{label} is '{req}': {why}"),
        "shape_reader": N_("'{entry}' is '{slot}' of {where}: it {reads}makes {outputs}"),
        "reads": N_("reads {inputs} and "),
        "shape_maker": N_("'{entry}' is made by {where} from {inputs}"),
        "received_count": N_("backward's {role} has one entry per name of {method}(): {names}"),
        "received_passed": N_("{label} is '{entry}', shape {shape}"),
        "entry_also": N_("the graph calls that array '{entry}'"),
    }
)
ROLES = ("in_data", "out_data", "aux", "in_grad", "out_grad")
ERRORS = Texts(
    {
        "not_callable": N_(
            "Give the answer as a callable, such as lambda: net.list_arguments(): "
            "Predict computes it only when the learner checks (got {got})."
        ),
        "about": N_("Give about= the Symbol whose names are asked (got {got})."),
        "role": N_("Predict.{helper}: use one of {roles} (got {got!r})."),
        "no_index": N_(
            "Ask for an index below {count}: {where} has {count} entries in {role} "
            "({names}), so there is no {role}[{index}]."
        ),
        "unbound": N_(
            "Give Predict.req a bound executor, or shapes= (and grad_req=) to bind one: "
            "req is decided at bind."
        ),
        "no_req": N_("Ask for one of the req slots of {where} ({have}): there is no {label}."),
        "no_shape": N_(
            "Give shapes from which inference knows '{entry}', or ask for one of the "
            "entries {names}."
        ),
    }
)
WHATS = Texts(
    {
        "names": N_("names separated by commas"),
        "name": N_("a name"),
        "shape": N_("a shape like (2, 3)"),
        "shapes": N_("shapes like (2, 3), () for an empty one"),
        "int": N_("a whole number"),
        "req": N_("one of write, add, null"),
        "value": N_("a Python value"),
    }
)
REQS = {
    "write": "write",
    "kwriteto": "write",
    "add": "add",
    "kaddto": "add",
    "null": "null",
    "knullop": "null",
    "inplace": "inplace",
    "kwriteinplace": "inplace",
}
NUMBER_WORDS = {
    w: i for i, w in enumerate("zero one two three four five six seven eight nine ten".split())
}
EMPTY_WORDS = ("empty", "nothing")


@dataclass
class Known:
    """An answer with what the engine says about it: a sentence per item (name) that may be
    missing or extra, hints shown after a wrong try, explanations shown once it is known."""

    value: object
    about: dict = field(default_factory=dict)  # item -> sentence
    rules: dict = field(default_factory=dict)  # item -> its naming rule, without it
    hints: list = field(default_factory=list)
    explained: list = field(default_factory=list)
    also_right: dict = field(default_factory=dict)  # another accepted answer -> note
    slot_of: dict = field(default_factory=dict)  # a wrong name -> the slot it is
    per: str = ""  # 'output of ...' for list lengths


class Predict(View):
    """``Predict(question, answer, kind=None, about=None, why='')``: ask, let the learner type
    a prediction, then compare it with ``answer()`` (run on the first check, not before).

    ``kind`` is 'names', 'name', 'shape', 'shapes', 'int', 'req' or 'value' (default: from the
    answer); ``about`` a Symbol whose graph explains the names; ``why`` the lesson's words,
    shown with every verdict. Typed questions: ``Predict.arguments``, ``.outputs``,
    ``.auxiliary_states``, ``.shape``, ``.index``, ``.count``, ``.req``, ``.received``.
    """

    _esm = esm("predict.js")
    _css = css("predict.css")

    question = traitlets.Unicode("").tag(sync=True)
    kind = traitlets.Unicode("").tag(sync=True)
    placeholder = traitlets.Unicode("").tag(sync=True)
    labels = traitlets.Dict().tag(sync=True)
    prediction = traitlets.Unicode("").tag(sync=True)
    attempts = traitlets.Int(0).tag(sync=True)
    verdict = traitlets.Unicode("").tag(sync=True)  # '', 'right', 'close', 'wrong', 'unread'
    headline = traitlets.Unicode("").tag(sync=True)
    changes = traitlets.List(traitlets.Unicode()).tag(sync=True)
    facts = traitlets.List(traitlets.Unicode()).tag(sync=True)
    why = traitlets.Unicode("").tag(sync=True)
    solved = traitlets.Bool(False).tag(sync=True)
    revealed = traitlets.Bool(False).tag(sync=True)
    answer_text = traitlets.Unicode("").tag(sync=True)  # '' until solved or revealed
    tries = traitlets.List(traitlets.List()).tag(sync=True)  # [[prediction, verdict], ...]

    def __init__(self, question, answer, kind=None, about=None, why=""):
        super().__init__()
        if not callable(answer):
            raise TypeError(ERRORS["not_callable"].format(got=type(answer).__name__))
        self._answer, self._about, self._known = answer, about, None
        # a lesson's words, the same in every edition's code cell: translated where shown
        self.question, self.why = lesson_text(str(question)), lesson_text(str(why or ""))
        self.kind = kind or ""
        self.placeholder = PLACEHOLDERS.get(self.kind, PLACEHOLDERS["value"])
        self._form = f" ({self.placeholder})" if self.kind else ""  # fixed: the repr never moves
        self.labels = LABELS.translated()
        self.on_msg(self._on_front_end_message)

    # --- what the learner does ------------------------------------------------------------------
    def check(self, prediction):
        """Compare ``prediction`` (the text typed) with the answer; count the try."""
        self.prediction = str(prediction)
        with self.reporting():
            if not self.prediction.strip():
                self._show("unread", MESSAGES["empty"], [], [])
                return
            known = self._answer_known()
            parsed = parse(self.kind, self.prediction)
            if parsed is None:
                self._show(
                    "unread",
                    MESSAGES["unreadable"].format(
                        what=WHATS[self.kind], text=self.prediction.strip()
                    ),
                    [],
                    [],
                )
                return
            verdict, headline, changes = compare(self.kind, parsed, known)
            self.attempts += 1
            self.tries = self.tries + [[self.prediction.strip(), verdict]]
            self.solved = self.solved or verdict == "right"
            facts = known.explained if verdict == "right" else known.hints + _single_hint(known)
            self._show(verdict, headline, changes, facts)

    def reveal(self):
        """Show the answer with the engine's explanation."""
        with self.reporting():
            known = self._answer_known()
            self.revealed = True
            self.answer_text = show(self.kind, known.value)
            self.facts = list(known.explained)

    def _show(self, verdict, headline, changes, facts):
        self.verdict, self.headline = verdict, headline
        self.changes, self.facts = list(changes), list(facts)
        if self._known is not None and (self.solved or self.revealed):
            self.answer_text = show(self.kind, self._known.value)

    def _on_front_end_message(self, _widget, content, _buffers):
        if content.get("do") == "check":
            self.check(content.get("prediction", ""))
        elif content.get("do") == "reveal":
            self.reveal()

    def _answer_known(self):
        """The answer as Known, computed once; automatic names made meanwhile are handed out
        again later (an answer that builds a symbol shifts no name of the lesson's cells)."""
        if self._known is None:
            with _names_untouched():
                try:
                    value = self._answer()
                except NameError as exc:  # a cell above has not run yet
                    raise RuntimeError(
                        MESSAGES["answer_failed"].format(error=error_text(exc))
                    ) from exc
            known = value if isinstance(value, Known) else Known(value)
            if self._about is not None:
                known = _with_graph_facts(known, self._about)
            self.kind = self.kind or kind_of(known.value)
            self.placeholder = PLACEHOLDERS[self.kind]
            self._known = known
        return self._known

    # --- typed questions ------------------------------------------------------------------------
    @classmethod
    def arguments(cls, symbol, question=None, why=""):
        """What does ``symbol.list_arguments()`` return? Names explained from the graph.
        ``symbol`` may be a callable that makes it (run when the learner checks)."""
        return cls(
            question or _("What does list_arguments() return?"),
            lambda: _names_known(symbol, "list_arguments", [MESSAGES["order_note"]]),
            kind="names",
            why=why,
        )

    @classmethod
    def outputs(cls, symbol, question=None, why=""):
        """What does ``symbol.list_outputs()`` return? (``symbol`` may be a callable.)"""
        return cls(
            question or _("What does list_outputs() return?"),
            lambda: _names_known(symbol, "list_outputs"),
            kind="names",
            why=why,
        )

    @classmethod
    def auxiliary_states(cls, symbol, question=None, why=""):
        """What does ``symbol.list_auxiliary_states()`` return? (``symbol`` may be a callable.)"""
        return cls(
            question or _("What does list_auxiliary_states() return?"),
            lambda: _names_known(symbol, "list_auxiliary_states"),
            kind="names",
            why=why,
        )

    @classmethod
    def shape(cls, symbol, entry, question=None, why="", **shapes):
        """What shape does inference give ``entry`` (an argument, output or internal entry)
        from ``shapes``? ``Predict.shape(net, 'fc_weight', data=(4, 1, 28, 28))``."""
        given = ", ".join(f"{k}={tuple(v)}" for k, v in shapes.items())
        return cls(
            question
            or _("What shape does infer_shape({given}) give '{entry}'?").format(
                given=given, entry=entry
            ),
            lambda: _shape_known(symbol, entry, shapes),
            kind="shape",
            why=why,
        )

    @classmethod
    def index(
        cls, target, role, index, node=None, shapes=None, question=None, why="", **prop_kwargs
    ):
        """Which name stands behind ``role[index]`` (in_data, out_data, aux, in_grad,
        out_grad) of ``node`` (default: the last)? ``target``: a Symbol, Executor, Module, or
        a Prop class (with its keyword arguments)."""
        _check_role(role, ROLES, "index")
        return cls(
            question or _("Which name is {role}[{index}]?").format(role=role, index=index),
            lambda: _index_known(resolve_target(target, shapes, prop_kwargs), role, index, node),
            kind="name",
            why=why,
        )

    @classmethod
    def count(cls, target, role, node=None, shapes=None, question=None, why="", **prop_kwargs):
        """How many entries does ``role`` (in_data, out_data, aux, ...) have for ``node``?"""
        _check_role(role, ROLES + ("backward req", "forward req"), "count")
        return cls(
            question or _("How many entries does {role} have?").format(role=role),
            lambda: _count_known(resolve_target(target, shapes, prop_kwargs), role, node),
            kind="int",
            why=why,
        )

    @classmethod
    def req(
        cls,
        target,
        index,
        phase="backward",
        node=None,
        shapes=None,
        grad_req=None,
        question=None,
        why="",
        **prop_kwargs,
    ):
        """What is ``req[index]`` in ``phase`` ('backward': for in_grad[index]; 'forward': for
        out_data[index])? ``target`` a bound Executor or Module, or a Symbol / Prop class with
        ``shapes`` (and ``grad_req``, a dict) to bind one."""
        _check_role(phase, ("backward", "forward"), "req")
        return cls(
            question or _("In {phase}, what is req[{index}]?").format(phase=phase, index=index),
            lambda: _req_known(
                resolve_target(target, shapes, prop_kwargs), index, phase, node, grad_req
            ),
            kind="req",
            why=why,
        )

    @classmethod
    def received(cls, target, role, node=None, shapes=None, question=None, why="", **prop_kwargs):
        """What does backward receive in ``role`` (out_grad, in_data, out_data)? One shape per
        entry: the array's, or () for an empty NDArray (what backward did not declare)."""
        _check_role(role, ("out_grad", "in_data", "out_data"), "received")
        return cls(
            question or _("What shapes does backward receive in {role}?").format(role=role),
            lambda: _received_known(resolve_target(target, shapes, prop_kwargs), role, node),
            kind="shapes",
            why=why,
        )

    # --- fallbacks: the question and how to answer, never the answer ----------------------------
    def text(self):
        return f"{LABELS['tag']}: {self.question}\n  {LABELS['static'].format(form=self._form)}"

    def html(self):
        question = f"<b>{escape(LABELS['tag'])}:</b> {escape(self.question)}"
        how = escape(LABELS["static_html"].format(form=self._form))
        return (
            f"<div class='msw msw-predict'><p class='msw-predict-question'>{question}</p>"
            f"<p class='msw-note'>{how}</p></div>"
        )


# --- reading a prediction ---------------------------------------------------------------------
def kind_of(value):
    """The kind of question an answer value makes."""
    if isinstance(value, bool):
        return "value"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "req" if value in ("write", "add", "null", "inplace") else "name"
    if isinstance(value, tuple) and all(isinstance(v, int) for v in value):
        return "shape"
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) for v in value):
        return "names"
    if (
        isinstance(value, (list, tuple))
        and value
        and all(isinstance(v, tuple) and all(isinstance(d, int) for d in v) for v in value)
    ):
        return "shapes"
    return "value"


def parse(kind, text):
    """The prediction ``text`` read as ``kind``, or None when it cannot be."""
    text = text.strip()
    if kind == "names":
        return [
            n
            for n in (
                p.strip().strip("'\"` ")
                for p in re.split(r"[,\s]+", text.strip("[]() "))
                if p.strip("'\"` ")
            )
            if n
        ]
    if kind == "name":
        names = parse("names", text)
        return names[0] if len(names) == 1 else None
    if kind == "shape":
        return _shape_of(text)
    if kind == "shapes":
        return _shapes_of(text)
    if kind == "int":
        word = text.strip("'\" .").lower()
        if word in NUMBER_WORDS:
            return NUMBER_WORDS[word]
        found = re.fullmatch(r"[\[(]?\s*(-?\d+)\s*[\])]?", text.strip(" ."))
        return int(found.group(1)) if found else None
    if kind == "req":
        return REQS.get(text.strip("'\"` ").lower().replace("_", ""))
    for attempt in (text, _quoted_words(text)):
        try:
            return ast.literal_eval(attempt)
        except (ValueError, SyntaxError):
            continue
    return text.strip("'\"")


def _quoted_words(text):
    """ "(fc1, [fc1_output])" -> "('fc1', ['fc1_output'])": quotes are optional."""
    return re.sub(
        r"(?<!['\"\w])([A-Za-z_]\w*)(?!['\"\w])",
        lambda m: m.group(1) if m.group(1) in ("True", "False", "None") else f"'{m.group(1)}'",
        text,
    )


def _shape_of(text):
    """(2, 3) from '(2, 3)', '2,3', '[2, 3]', '2x3', '2 × 3'; () from '()' or 'empty'."""
    cleaned = text.strip().lower()
    if cleaned.strip("[]() ,") in EMPTY_WORDS or cleaned.strip("[]() ,") == "":
        return () if cleaned else None
    if re.search(r"[^\d\s,()\[\]x×*]", cleaned):
        return None
    return tuple(int(d) for d in re.findall(r"\d+", cleaned))


def _shapes_of(text):
    """[(8, 10), ()] from '[(8, 10), ()]', '(8, 10), empty'; one shape alone is a list of one."""
    cleaned = text.strip()
    if cleaned.startswith("[") and cleaned.endswith("]"):
        cleaned = cleaned[1:-1].strip()
    if not cleaned:
        return []
    groups = re.findall(r"\(([^()]*)\)|\[([^\[\]]*)\]|([A-Za-z]+)", cleaned)
    if not groups:
        one = _shape_of(cleaned)
        return None if one is None else [one]
    shapes = []
    for paren, bracket, word in groups:
        shape = _shape_of(word) if word else _shape_of(f"({paren or bracket})")
        if shape is None:
            return None
        shapes.append(shape)
    return shapes


def show(kind, value):
    """The answer as the cell would print it."""
    return repr(value) if kind != "req" else f"'{value}'"


# --- comparing it with the answer -------------------------------------------------------------
def compare(kind, given, known):
    """(verdict, headline, changes): 'right', 'close' or 'wrong', and what to change."""
    answer = known.value
    if kind == "names" and isinstance(answer, str):
        answer = [answer]
    if _same(given, answer):
        return "right", MESSAGES["right"].format(answer=show(kind, known.value)), []
    note = known.also_right.get(given) if isinstance(given, str) else None
    if note:
        return "right", MESSAGES["right_also"].format(answer=show(kind, known.value), note=note), []
    return {
        "names": _compare_names,
        "shape": _compare_shape,
        "shapes": _compare_shapes,
        "int": _compare_count,
    }.get(kind, _compare_one)(given, answer, known, kind)


def _same(given, answer):
    """Equal, a list and a tuple with equal items counting as equal (the learner may type
    either brackets)."""
    if isinstance(given, (list, tuple)) and isinstance(answer, (list, tuple)):
        return len(given) == len(answer) and all(map(_same, given, answer))
    return type(given) is not bool and given == answer or given is answer


def _compare_names(given, answer, known, kind):
    if len(answer) == 1 and len(given) == 1:
        return _compare_one(given[0], answer[0], known, "name")
    changes = [MESSAGES["twice"].format(name=n) for n in sorted(set(given)) if given.count(n) > 1]
    missing = [n for n in answer if n not in given]
    extra = [n for n in dict.fromkeys(given) if n not in answer]
    if not missing and not extra and not changes:
        return "close", MESSAGES["order"].format(count=len(answer)), [_reorder(given, answer)]
    if len(missing) <= max(1, len(answer) // 2):  # most are right: name what is left out
        changes += [
            MESSAGES["add"].format(name=n, about=_it_is(known.about.get(n))) for n in missing
        ]
    else:  # naming them all would give the answer away: say how they are made
        rules = list(dict.fromkeys(known.rules[n] for n in missing if n in known.rules))
        changes.append(
            MESSAGES["add_more"].format(
                count=len(missing),
                rules="".join(f"; {MESSAGES['one_is'].format(rule=r)}" for r in rules),
            )
        )
    changes += [
        MESSAGES["remove"].format(name=n, about=_it_is(known.about.get(n)) or MESSAGES["not_here"])
        for n in extra
    ]
    right = len(answer) - len(missing)
    verdict = "close" if right and len(changes) <= 1 else "wrong"
    return verdict, MESSAGES["names_count"].format(right=right, total=len(answer)), changes


def _reorder(given, answer):
    """Which names are in their place and which must move (without saying where)."""
    kept = [f"'{g}'" for g, a in zip(given, answer) if g == a]
    moved = ", ".join(f"'{g}'" for g, a in zip(given, answer) if g != a)
    if not kept:
        return MESSAGES["reorder_all"]
    return ngettext(
        "Keep {kept} where it is; move {moved}.",
        "Keep {kept} where they are; move {moved}.",
        len(kept),
    ).format(kept=", ".join(kept), moved=moved)


def _it_is(sentence):
    return MESSAGES["it_is"].format(about=sentence) if sentence else ""


def _parts_kept(given, answer):
    """'Keep '_output'; change 'relu0'.' when a name's head or tail is right, else None."""
    for sep_at in (answer.rfind("_"), answer.find("_")):
        if sep_at <= 0:
            continue
        head, tail = answer[: sep_at + 1], answer[sep_at:]
        if given.endswith(tail) and given != tail:
            return MESSAGES["keep_part"].format(kept=tail, changed=given[: -len(tail)])
        if given.startswith(head) and given != head:
            return MESSAGES["keep_part"].format(kept=head, changed=given[len(head) :])
    return None


def _compare_shape(given, answer, known, kind):
    headline = MESSAGES["shape_wrong"].format(given=given)
    if len(given) != len(answer):
        return "wrong", headline, [MESSAGES["rank"].format(rank=len(answer), given=len(given))]
    wrong = [i for i, (g, a) in enumerate(zip(given, answer)) if g != a]
    which = ", ".join(MESSAGES["dim"].format(index=i, value=given[i]) for i in wrong)
    right = len(answer) - len(wrong)
    return (
        ("close" if right else "wrong"),
        headline,
        [MESSAGES["dims"].format(which=which, count=right, rank=len(answer))],
    )


def _compare_shapes(given, answer, known, kind):
    headline = MESSAGES["value_wrong"].format(given=given)
    if len(given) != len(answer):
        return (
            "wrong",
            headline,
            [
                MESSAGES["entries"].format(
                    total=len(answer), per=known.per or _("entry"), given=len(given)
                )
            ],
        )
    wrong = [
        MESSAGES["entry_wrong"].format(index=i, value=g)
        for i, (g, a) in enumerate(zip(given, answer))
        if g != a
    ]
    return ("close" if len(wrong) < len(answer) else "wrong"), headline, wrong


def _compare_count(given, answer, known, kind):
    more = MESSAGES["count_more" if answer > given else "count_fewer"].format(given=given)
    return "wrong", more, []


def _compare_one(given, answer, known, kind):
    template = MESSAGES[{"req": "req_wrong", "name": "name_wrong"}.get(kind, "value_wrong")]
    changes = []
    if isinstance(given, str) and given in known.slot_of:
        changes.append(MESSAGES["other_slot"].format(given=given, label=known.slot_of[given]))
    elif isinstance(given, str) and given in known.about:
        changes.append(f"'{given}' is {known.about[given]}.")
    elif kind == "name" and isinstance(given, str) and _parts_kept(given, answer):
        changes.append(_parts_kept(given, answer))
    elif (
        isinstance(given, (list, tuple))
        and isinstance(answer, (list, tuple))
        and len(given) == len(answer)
    ):
        changes = [
            MESSAGES["entry_wrong"].format(index=i, value=g)
            for i, (g, a) in enumerate(zip(given, answer))
            if g != a
        ]
    return "wrong", template.format(given=given), changes


# --- what the engine says --------------------------------------------------------------------
@contextmanager
def _names_untouched():
    """Run with a copy of the automatic-name counters, so a symbol made by an answer takes no
    name ('activation0') from the lesson's later cells."""
    with mx.name.current().copy():
        yield


def _symbol_now(symbol):
    """``symbol``, or the Symbol a callable makes."""
    return symbol if isinstance(symbol, Symbol) or not callable(symbol) else symbol()


def _names_known(symbol, method, notes=()):
    """The names ``symbol.<method>()`` returns, each explained from the graph."""
    symbol = _symbol_now(symbol)
    known = Known(getattr(symbol, method)(), hints=list(notes), explained=list(notes))
    return _with_graph_facts(known, symbol)


def _with_graph_facts(known, symbol):
    """``known`` with a sentence for every name of ``symbol``'s graph."""
    if not isinstance(symbol, Symbol):
        raise TypeError(ERRORS["about"].format(got=type(symbol).__name__))
    facts = list(_graph_facts(symbol))
    about = {}
    for name, sentence, *_rest in facts:  # a real name wins over a slot name spelled the same
        about.setdefault(name, sentence)
    about.update({name: sentence for name, sentence, rule, _ in facts if rule})
    about.update(known.about)
    rules = {name: rule for name, _, rule, _ in facts if rule}
    groups = {name: group for name, _, rule, group in facts if rule}
    return Known(
        known.value,
        about,
        rules,
        known.hints,
        known.explained + _explained(_listed(known.value), about, groups),
        known.also_right,
        known.slot_of,
        known.per,
    )


def _explained(names, about, groups):
    """One sentence per name, or one for the names a node made the same way (its implicit
    variables, its outputs), in the answer's order."""
    members = {}
    for name in names:
        if groups.get(name):
            members.setdefault(groups[name][:2], []).append(name)
    lines, done = [], set()
    for name in names:
        key = (groups.get(name) or (None, None))[:2]
        if len(members.get(key, ())) > 1:
            if key not in done:
                done.add(key)
                group = members[key]
                slots = (
                    _(" or ").join(f"{groups[n][2]}=" for n in group)
                    if key[0] == "implicit"
                    else ", ".join(f"'{groups[n][2]}'" for n in group)
                )
                lines.append(
                    FACTS[f"{key[0]}_many"].format(
                        names=", ".join(f"'{n}'" for n in group), where=key[1], slots=slots
                    )
                )
        elif name in about:
            lines.append(_("'{name}' is {about}").format(name=name, about=about[name]))
    return lines


def _single_hint(known):
    """For a one-name answer, where that name comes from (the rule, not the name itself)."""
    names = _listed(known.value)
    if len(names) == 1 and names[0] in known.rules:
        return [FACTS["single"].format(rule=known.rules[names[0]])]
    return []


def _listed(value):
    return (
        [value]
        if isinstance(value, str)
        else list(value)
        if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value)
        else []
    )


def _graph_facts(symbol):
    """(name, where it comes from, its naming rule, (kind, node, slot) or None) for every
    variable, node, output, and the input names of an operator that made implicit variables."""
    arguments = set(symbol.list_arguments())
    for node in symbol.topo_order():
        if node.is_variable:
            continue
        where, op = node.op.where, node.op_name
        given = node.given or (None,) * len(node.inputs)
        slots = node.op.list_arguments() + node.op.list_auxiliary_states()
        for (src, _index), how, slot in zip(node.inputs, given, slots):
            implicit = src.is_variable and how and how[0] == "implicit"
            if implicit:
                yield slot, FACTS["slot_name"].format(where=where, slot=slot), "", None
            if src.is_variable and src.name not in arguments:
                yield (
                    src.name,
                    FACTS["aux"].format(where=where),
                    FACTS["rule_aux"].format(op=op, slot=slot),
                    None,
                )
            elif implicit:
                yield (
                    src.name,
                    FACTS["implicit"].format(where=where, slot=slot),
                    FACTS["rule_implicit"].format(slot=slot),
                    ("implicit", where, slot),
                )
            elif src.is_variable:
                yield (
                    src.name,
                    FACTS["own_variable"].format(name=src.name),
                    FACTS["rule_own"],
                    None,
                )
        yield (
            node.name,
            FACTS["node"].format(where=where, name=node.name),
            FACTS["rule_node"].format(op=op),
            None,
        )
        for j, slot in enumerate(node.op.list_outputs()):
            yield (
                node.entry_name(j),
                FACTS["output"].format(slot=slot, where=where),
                FACTS["rule_output"].format(slot=slot, op=op),
                ("output", where, slot),
            )


def _check_role(role, roles, helper):
    if role not in roles:
        raise KeyError(ERRORS["role"].format(helper=helper, roles=", ".join(roles), got=role))


def _node_of(resolved, node):
    """(the target, its operator node ``node``, by default the last one)."""
    return resolved, resolved.node(node if node is not None else resolved.operator_names()[-1])


def _contract_of(node, role):
    return [d for d in node_contract(node) if d.role == role]


def _index_known(target, role, index, node):
    _, found = _node_of(target, node)
    docs = _contract_of(found, role)
    if not 0 <= index < len(docs):
        raise IndexError(
            ERRORS["no_index"].format(
                where=found.op.where,
                count=len(docs),
                role=role,
                names=[d.name for d in docs],
                index=index,
            )
        )
    doc, family = docs[index], family_of(role)
    owner = type(declarer(found.op)).__name__
    others = {d.name: d.label for d in docs if d.name != doc.name}
    also = {} if doc.entry == doc.name else {doc.entry: FACTS["entry_also"].format(entry=doc.entry)}
    fact = FACTS["slot"].format(
        label=doc.label, method=FAMILIES[family][0], index=index, owner=owner
    )
    return Known(
        doc.name,
        hints=[fact],
        explained=[
            FACTS["slot_declared"].format(
                label=doc.label,
                name=doc.name,
                declared=" ".join(str(doc.declared).split()),
                entry=doc.entry,
            )
        ],
        also_right=also,
        slot_of=others,
    )


def _count_known(target, role, node):
    _, found = _node_of(target, node)
    docs = _contract_of(found, role)
    method = FAMILIES[family_of(role)][0]
    owner = type(declarer(found.op)).__name__
    names = [d.name for d in docs]
    return Known(
        len(docs),
        hints=[FACTS["count_hint"].format(role=role, method=method, owner=owner)],
        explained=[FACTS["count"].format(role=role, method=method, owner=owner, names=names)],
    )


def _req_known(target, index, phase, node, grad_req):
    resolved, found = _node_of(target, node)
    if grad_req:
        resolved = resolved.with_grad_req(grad_req)
    reqs = resolved.reqs(found)
    if not reqs:
        raise ValueError(ERRORS["unbound"])
    label = f"{phase} req[{index}]"
    if label not in reqs:
        raise IndexError(
            ERRORS["no_req"].format(
                where=found.op.where,
                label=label,
                have=", ".join(k for k in reqs if k.startswith(phase)),
            )
        )
    req, why = reqs[label]
    hints = []
    if phase == "backward":
        doc = _contract_of(found, "in_grad")[index]
        hints.append(
            FACTS["req_slot"].format(label=label, index=index, name=doc.name, entry=doc.entry)
        )
    return Known(
        req, hints=hints, explained=[FACTS["req_why"].format(label=label, req=req, why=why)]
    )


def _received_known(target, role, node):
    resolved, found = _node_of(target, node)
    docs = _contract_of(found, role)
    method = FAMILIES[family_of(role)][0]
    shapes_of, lines, empty = [], [], {}
    for doc in docs:
        shape = _parsed_shape(resolved.entry_info(doc.entry)[0]) if doc.in_backward else ()
        shapes_of.append(shape)
        if doc.in_backward:
            lines.append(
                FACTS["received_passed"].format(label=doc.label, entry=doc.entry, shape=shape)
            )
        else:  # one sentence for the entries left out for the same reason
            empty.setdefault(doc.why_not, []).append(doc.label)
    lines += [
        ngettext(
            "{labels} is an empty NDArray, shape (): {why}",
            "{labels} are each an empty NDArray, shape (): {why}",
            len(labels),
        ).format(labels=", ".join(labels), why=why)
        for why, labels in empty.items()
    ]
    count = FACTS["received_count"].format(role=role, method=method, names=[d.name for d in docs])
    return Known(
        shapes_of,
        hints=[count],
        explained=[count] + lines,
        per=_("name of {method}()").format(method=method),
    )


def _parsed_shape(text):
    """(8, 10) from the '(8, 10)' inference shows; None when not known."""
    return None if "?" in text else ast.literal_eval(text)


def _shape_known(symbol, entry, shapes):
    symbol = _symbol_now(symbol)
    report = infer_report(symbol, shapes)
    if report.error:
        raise ValueError(report.error)
    for node in report.nodes:
        found = next((s for s in node.slots() if s[1] == entry), None)
        if found is not None and found[2] is not None:
            return Known(
                tuple(found[2]),
                hints=_shape_facts(symbol, report, entry),
                explained=_shape_facts(symbol, report, entry),
            )
    names = sorted({s[1] for n in report.nodes for s in n.slots()})
    raise KeyError(ERRORS["no_shape"].format(entry=entry, names=names[:16]))


def _shape_facts(symbol, report, entry):
    """Where ``entry``'s shape comes from: the node that makes it, or the first that reads it
    (with the inputs it was given and the outputs it makes, as inference found them)."""
    nodes = {n.name: n for n in symbol.topo_order() if not n.is_variable}
    for shapes in report.nodes:
        node = nodes.get(shapes.name)
        if node is None:
            continue
        attrs = ", ".join(f"{k}={v}" for k, v in node.attrs.items() if not k.startswith("__"))
        where = f"{node.op.where} ({attrs})" if attrs else node.op.where
        if any(s[1] == entry for s in shapes.outputs):
            return [
                FACTS["shape_maker"].format(
                    entry=entry, where=where, inputs=_shapes_text(shapes.inputs)
                )
            ]
        reader = next((s for s in shapes.inputs + shapes.aux if s[1] == entry), None)
        if reader is not None:
            given = node.given or (None,) * len(node.inputs)
            others = [
                s
                for s, how in zip(shapes.inputs, given)
                if s[1] != entry and s[2] is not None and how and how[0] != "implicit"
            ]
            reads = FACTS["reads"].format(inputs=_shapes_text(others)) if others else ""
            return [
                FACTS["shape_reader"].format(
                    entry=entry,
                    slot=reader[0],
                    where=where,
                    reads=reads,
                    outputs=_shapes_text(shapes.outputs),
                )
            ]
    return []


def _shapes_text(triples):
    """'data = flat_output (4, 1568), ...' from (slot, entry, shape) triples."""
    return ", ".join(
        f"{slot} = {entry} {shape if shape is not None else '?'}" for slot, entry, shape in triples
    )
