"""The custom-operator lifecycle: every call the engine makes into a CustomOpProp or a CustomOp,
in order, tied to what you did that caused it, with what it received, returned and printed.

    log = mx.lifecycle.record()        # or: with mx.lifecycle.record() as log: ...
    loss = mx.sym.Custom(data, op_type='softmax', name='loss')   # __init__, list_*, ...
    ex = loss.simple_bind(mx.cpu(), data=(4, 3))                  # infer_*, create_operator
    ex.forward(is_train=True); ex.backward()                      # forward, backward
    log.stop()
    print(log.text())

When a symbol is created the Prop is built and asked its names and backward dependency once
(MXNet's attribute parser does the same); inference asks ``infer_shape`` / ``infer_type``;
bind infers again and calls ``create_operator``; only running calls the CustomOp. minisym's
inference runs every rule forward and backward until nothing changes, so ``infer_shape`` is
called several times per pass (MXNet 1.9.1 calls it once). A print inside a method still prints,
and is also kept on the call. An exception still reaches the caller unchanged. With no
recording active, each call costs one check.
"""

import functools
import sys
import weakref
from contextlib import contextmanager
from dataclasses import dataclass, field

__all__ = ["LifecycleCall", "Recording", "record", "entry", "action", "observe", "grouped"]

_RECORDINGS = []  # the active Recordings
_ACTIONS = []  # the entry points being run, outermost first: [_Action]
_COUNTER = [0]  # numbers each outermost action, so two forwards in a row stay apart

OP_METHODS = ("forward", "backward")  # the CustomOp's; every other method is the Prop's


@dataclass
class LifecycleCall:
    """One call into a Prop or Op: ``SoftmaxProp.infer_shape(in_shape=[[4, 3], []])``."""

    seq: int  # 1, 2, ... within its recording
    action: str  # what you did: "mx.sym.Custom(op_type='softmax', name='loss')", ...
    action_id: int  # one number per outermost action: the timeline's sections
    owner: str  # 'prop' (declares) or 'op' (computes)
    cls: str  # the class of the object called: 'SoftmaxProp'
    defined_in: str  # the class whose method ran: 'CustomOpProp' for an inherited default
    method: str  # '__init__', 'list_arguments', ..., 'forward', 'backward'
    node: str  # the node's name: 'loss'
    op_type: str  # 'softmax'
    args: dict  # argument name -> value as received (kwargs are the strings given)
    result: object = None  # what it returned, as shown (None for nothing to show)
    printed: str = ""  # what it printed (it was printed as usual too)
    error: str = ""  # 'ValueError: ...' if it raised
    handled: bool = False  # the engine caught that error (inference asks again later)
    done: bool = False  # False while the call is still running
    _target: object = field(default=None, repr=False, compare=False)

    @property
    def inherited(self):
        """True when the class does not override the method (the base class's default ran)."""
        return self.cls != self.defined_in

    @property
    def target(self):
        """The Symbol or Executor the action ran on, if it still exists (None at creation)."""
        return self._target() if self._target is not None else None

    def signature(self):
        """``SoftmaxProp.infer_shape(in_shape=[[4, 3], []])``."""
        shown = ", ".join(f"{k}={show(v)}" for k, v in self.args.items())
        return f"{self.cls}.{self.method}({shown})"

    def outcome(self):
        """What came back, in words: the result, the error, or ''."""
        if self.error:
            return f"raised {self.error}" + (" (caught by the engine)" if self.handled else "")
        return "" if self.result is None else show(self.result)

    def __str__(self):
        outcome = self.outcome()
        return self.signature() + (f" -> {outcome}" if outcome else "")


class Shown(str):
    """A value already written as it should be shown (no quotes added)."""


def show(value):
    """How a recorded value is written: ``Shown`` as is, anything else as its repr."""
    return str(value) if isinstance(value, Shown) else repr(value)


# --- recording ------------------------------------------------------------------------------
class Recording:
    """The calls recorded while it is active; ``calls`` in order, ``stop()`` ends it."""

    def __init__(self, op_type=None):
        self.op_types = (
            None if op_type is None else ({op_type} if isinstance(op_type, str) else set(op_type))
        )
        self.calls = []
        self._listeners = []

    @property
    def active(self):
        """Whether calls are being recorded."""
        return any(r is self for r in _RECORDINGS)

    def start(self):
        """Record (again); returns self."""
        if not self.active:
            _RECORDINGS.append(self)
        return self

    def stop(self):
        """Stop recording; the calls stay. Returns self."""
        _RECORDINGS[:] = [r for r in _RECORDINGS if r is not self]
        return self

    def clear(self):
        """Forget every recorded call (recording goes on if it was on)."""
        self.calls.clear()

    def subscribe(self, listener):
        """Call ``listener(call)`` after each recorded call ends."""
        self._listeners.append(listener)

    def unsubscribe(self, listener):
        self._listeners = [f for f in self._listeners if f is not listener]

    def wants(self, op_type):
        return self.op_types is None or op_type in self.op_types

    def find(self, method=None, owner=None, node=None):
        """The calls of ``method`` (and ``owner`` 'prop' / 'op', ``node``), in order."""
        return [
            c
            for c in self.calls
            if (method is None or c.method == method)
            and (owner is None or c.owner == owner)
            and (node is None or c.node == node)
        ]

    def text(self):
        """The numbered timeline, one section per action, repeated calls grouped ``×n``."""
        return timeline_text(self.calls)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def __repr__(self):
        state = "recording" if self.active else "stopped"
        return f"<Recording: {len(self.calls)} calls, {state}>"


def record(op_type=None):
    """Start recording every engine call into custom operators (of ``op_type``, a str or a
    list of them; None for all); returns the Recording, also usable as a context manager."""
    return Recording(op_type).start()


# --- which action of yours caused a call ----------------------------------------------------
@dataclass
class _Action:
    label: str
    number: int
    target: object  # weakref to the Symbol / Executor, or None


@contextmanager
def action(label, target=None):
    """Tie the calls made inside to ``label`` (a str, or a function giving it, called only
    while recording). The outermost action is the one you did."""
    if not _RECORDINGS:
        yield
        return
    if not _ACTIONS:
        _COUNTER[0] += 1
    _ACTIONS.append(_Action(label() if callable(label) else label, _COUNTER[0], _ref(target)))
    try:
        yield
    finally:
        _ACTIONS.pop()


def entry(label):
    """Decorator for an engine entry point (``infer_shape``, ``bind``, ``forward`` ...):
    ``label`` is a str or a function of the call's arguments; the first argument is the
    Symbol or Executor the action runs on."""

    def decorate(func):
        @functools.wraps(func)
        def run(*args, **kwargs):
            if not _RECORDINGS:
                return func(*args, **kwargs)
            text = label(*args, **kwargs) if callable(label) else label
            with action(text, args[0] if args else None):
                return func(*args, **kwargs)

        return run

    return decorate


def _ref(target):
    if target is None:
        return None
    try:
        return weakref.ref(target)
    except TypeError:
        return None


def _current_action():
    """(label, number, target weakref) of the action running now."""
    if not _ACTIONS:  # consecutive direct calls share one section, apart from any action's
        return "(called directly, not from an entry point)", -_COUNTER[0], None
    target = next((a.target for a in reversed(_ACTIONS) if a.target is not None), None)
    return _ACTIONS[0].label, _ACTIONS[0].number, target


# --- the one funnel every Prop / Op call goes through ------------------------------------------
def observe(target, method, args=(), kwargs=None, *, site, engine_catches=False):
    """``target.method(*args, **kwargs)`` (``target(**kwargs)`` for ``__init__``, with the Prop
    class as target), recorded while a recording of ``site.op_type`` is active. ``site`` is the
    Custom operator (node name, op_type); ``engine_catches``: the caller catches an error."""
    kwargs = kwargs or {}
    func = target if method == "__init__" else getattr(target, method)
    if not _RECORDINGS:
        return func(*args, **kwargs)
    recordings = [r for r in _RECORDINGS if r.wants(site.op_type)]
    if not recordings:
        return func(*args, **kwargs)
    calls = [_start(r, target, method, args, kwargs, site) for r in recordings]
    tee = _Tee(sys.stdout)
    sys.stdout = tee
    try:
        result = func(*args, **kwargs)
    except Exception as exc:
        _finish(
            recordings, calls, tee, error=f"{type(exc).__name__}: {exc}", handled=engine_catches
        )
        raise
    finally:
        sys.stdout = tee.stream
    _finish(recordings, calls, tee, result=_shown_result(method, result))
    return result


def _start(recording, target, method, args, kwargs, site):
    """The LifecycleCall for a call about to run, appended to ``recording``."""
    cls = target if isinstance(target, type) else type(target)
    label, number, target_ref = _current_action()
    call = LifecycleCall(
        seq=len(recording.calls) + 1,
        action=label,
        action_id=number,
        owner="op" if method in OP_METHODS else "prop",
        cls=cls.__name__,
        defined_in=_defining_class(cls, method),
        method=method,
        node=site.node_name or "",
        op_type=site.op_type,
        args=_shown_args(method, args, kwargs),
        _target=target_ref,
    )
    recording.calls.append(call)
    return call


def _finish(recordings, calls, tee, result=None, error="", handled=False):
    printed = "".join(tee.parts)
    for recording, call in zip(recordings, calls):
        call.result, call.printed, call.error, call.handled = result, printed, error, handled
        call.done = True
        for listener in list(recording._listeners):
            listener(call)


def _defining_class(cls, method):
    return next((c.__name__ for c in cls.__mro__ if method in c.__dict__), cls.__name__)


class _Tee:
    """sys.stdout while a method runs: writes go to the real stdout and are kept."""

    def __init__(self, stream):
        self.stream = stream
        self.parts = []

    def write(self, text):
        self.parts.append(text)
        return self.stream.write(text)

    def flush(self):
        self.stream.flush()

    def __getattr__(self, name):
        return getattr(self.stream, name)


# --- what each method received and returned, as shown -----------------------------------------
def _shown_args(method, args, kwargs):
    """{argument name: value}: kwargs as the strings received, shapes as lists, arrays as
    ``name (shape)``."""
    if method == "__init__":
        return dict(kwargs)
    if method == "infer_shape":
        return {"in_shape": _plain(args[0])}
    if method == "infer_type":
        return {"in_type": [_type_name(t) for t in args[0]]}
    if method == "declare_backward_dependency":
        return dict(zip(("out_grad", "in_data", "out_data"), (list(a) for a in args)))
    if method == "create_operator":
        ctx, shapes, dtypes = args
        return {"ctx": Shown(ctx), "in_shapes": _plain(shapes), "in_dtypes": _plain(dtypes)}
    if method == "forward":
        is_train, req, in_data, out_data, aux = args
        return {
            "is_train": is_train,
            "req": list(req),
            "in_data": _arrays(in_data),
            "out_data": _arrays(out_data),
            "aux": _arrays(aux),
        }
    if method == "backward":
        req, out_grad, in_data, out_data, in_grad, aux = args
        return {
            "req": list(req),
            "out_grad": _arrays(out_grad),
            "in_data": _arrays(in_data),
            "out_data": _arrays(out_data),
            "in_grad": _arrays(in_grad),
            "aux": _arrays(aux),
        }
    return {}


def _shown_result(method, result):
    if method == "__init__":
        return Shown(f"need_top_grad_={getattr(result, 'need_top_grad_', True)!r}")
    if method == "infer_type":
        return (
            [[_type_name(t) for t in part] for part in result]
            if isinstance(result, (list, tuple))
            else _plain(result)
        )
    if method == "create_operator":
        return None if result is None else Shown(f"a {type(result).__name__}")
    if method in OP_METHODS:  # results go into out_data / in_grad; a returned one is lost
        return (
            None
            if result is None
            else Shown(f"returned a value ({type(result).__name__}), which the engine ignores")
        )
    return _plain(result)


def _arrays(slot_list):
    """``[data (4, 3), label: empty]``: each NDArray by the name the Prop gave it."""
    names = getattr(slot_list, "names", None) or [f"[{i}]" for i in range(len(slot_list))]
    shown = [
        f"{n}: empty" if hasattr(a, "_message") else f"{n} {tuple(a.shape)}"
        for n, a in zip(names, list.__iter__(slot_list))
    ]
    return Shown("[" + ", ".join(shown) + "]")


def _plain(value):
    """Lists of Python ints and strs for what rules return (tuples, numpy ints ...)."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, type):
        return _type_name(value)
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        return value.tolist()
    return value


def _type_name(t):
    if t is None:
        return None
    import numpy as np

    return np.dtype(t).name


# --- the timeline ------------------------------------------------------------------------------
def grouped(calls):
    """[(action label, [[call, ...], ...])]: one section per action, and inside it runs of
    consecutive calls of the same method on the same node as one group."""
    sections = []
    for call in calls:
        if not sections or sections[-1][0] != call.action_id:
            sections.append((call.action_id, call.action, []))
        groups = sections[-1][2]
        last = groups[-1][-1] if groups else None
        if last is not None and (last.node, last.owner, last.method) == (
            call.node,
            call.owner,
            call.method,
        ):
            groups[-1].append(call)
        else:
            groups.append([call])
    return [(label, groups) for _, label, groups in sections]


def timeline_text(calls):
    """The numbered timeline of ``calls`` as text."""
    if not calls:
        return "(no calls into a custom operator recorded yet)"
    lines = []
    for label, groups in grouped(calls):
        lines.append(f"{label}:")
        for group in groups:
            lines.extend(_group_lines(group))
    return "\n".join(lines)


def _group_lines(group):
    """One line for a call or for identical repeats; for repeats that differ, a heading and
    one line per run of identical calls. What each call printed follows it."""
    first = group[0]
    who = f"[{first.owner}] '{first.node}'"
    default = f"  ({first.defined_in}'s default)" if first.inherited else ""
    runs = _runs(group)
    if len(runs) == 1:
        times = f"  ×{len(group)}" if len(group) > 1 else ""
        lines = [f"  {_seqs(group):>7}. {who} {first}{times}{default}"]
        lines.extend(_printed_lines(group, "           | "))
        return lines
    lines = [f"  {_seqs(group):>7}. {who} {first.cls}.{first.method}  ×{len(group)}{default}"]
    for run in runs:
        times = f"  ×{len(run)}" if len(run) > 1 else ""
        lines.append(f"  {_seqs(run):>15}. {run[0]}{times}")
        lines.extend(_printed_lines(run, "                   | "))
    return lines


def _printed_lines(calls, prefix):
    return [prefix + text for call in calls for text in call.printed.splitlines()]


def _runs(group):
    """Runs of consecutive calls that read the same."""
    runs = []
    for call in group:
        if runs and str(runs[-1][-1]) == str(call):
            runs[-1].append(call)
        else:
            runs.append([call])
    return runs


def _seqs(calls):
    return f"{calls[0].seq}" if len(calls) == 1 else f"{calls[0].seq}-{calls[-1].seq}"
