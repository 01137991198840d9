"""What every minisym widget shares: state in traitlets, an offline ES module, a deterministic
text / HTML fallback, errors shown inline, and a cap on the size of each message it sends."""

import html
import json
import pathlib
import traceback
import warnings
from contextlib import contextmanager

import anywidget
import ipywidgets
import traitlets

__all__ = ["View", "MAX_MESSAGE_BYTES", "esm", "css", "escape", "error_text", "open_index_map"]

HERE = pathlib.Path(__file__).parent
MAX_MESSAGE_BYTES = 1_000_000  # a widget message larger than this makes a notebook sluggish


def esm(name):
    """The ES module ``name`` with ``_common.js`` (DOM and colour helpers) in front: anywidget
    loads one module per widget, and nothing is fetched from the network."""
    return (HERE / "_common.js").read_text() + "\n" + (HERE / name).read_text()


def css(name=None):
    """``_common.css`` (palette, light and dark themes) plus the widget's own stylesheet."""
    text = (HERE / "_common.css").read_text()
    if name and (HERE / name).exists():
        text += "\n" + (HERE / name).read_text()
    return text


def escape(value):
    """HTML-escaped text of ``value``."""
    return html.escape(str(value), quote=True)


def error_text(exc):
    """A teaching error as the learner reads it: type, message and the notes the engine added."""
    lines = traceback.format_exception_only(type(exc), exc)
    return "".join(lines).strip()


def open_index_map(target, node, shapes=None):
    """The IndexMap of operator ``node`` over ``target`` (the one way a widget opens one)."""
    from .index_map import IndexMap  # deferred: index_map imports this module

    if shapes:
        return IndexMap(target, node=node, shapes=shapes)
    return IndexMap(target, node=node)


def message_size(payload, buffers=()):
    """Bytes of a comm message: its JSON plus its binary buffers."""
    size = len(json.dumps(payload, default=str, separators=(",", ":")))
    return size + sum(memoryview(b).nbytes for b in buffers or ())


class View(anywidget.AnyWidget):
    """Base of every minisym widget.

    Subclasses set ``_esm`` / ``_css`` with :func:`esm` / :func:`css`, keep every piece of state
    in synced traitlets (so tests need no browser), and implement ``text()`` (the ``repr``) and
    ``html()`` (the static fallback GitHub and nbval see).
    """

    error = traitlets.Unicode("").tag(sync=True)  # shown inline; the widget stays usable

    def __init__(self, **kwargs):
        self.largest_message = 0  # bytes; the tests assert it stays under MAX_MESSAGE_BYTES
        super().__init__(**kwargs)

    # --- what a notebook shows without a live kernel -------------------------------------------
    def text(self):
        """The deterministic one-screen text of this widget."""
        return type(self).__name__

    def html(self):
        """The deterministic static HTML of this widget (no ids, addresses or paths)."""
        return f"<pre>{escape(self.text())}</pre>"

    def __repr__(self):
        return self.text()

    # --- a panel below, where an IndexMap opens ----------------------------------------------
    def with_panel(self):
        """Give this view a panel under it (``panel``, an ipywidgets VBox) for an IndexMap or a
        note; the notebook then shows ``composed``: the view above its panel."""
        self.panel = ipywidgets.VBox([])
        self.composed = ipywidgets.VBox([self, self.panel])
        return self.panel

    def show_below(self, *widgets):
        """Show ``widgets`` (an IndexMap, a note) in the panel; nothing: empty it."""
        self.panel.children = tuple(widgets)

    def _repr_mimebundle_(self, **kwargs):
        composed = getattr(self, "composed", None)
        bundle = (composed if composed is not None else super())._repr_mimebundle_(**kwargs)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        data["text/plain"] = self.text()
        data["text/html"] = self.html()
        return bundle

    # --- errors ----------------------------------------------------------------------------------
    @contextmanager
    def reporting(self):
        """Run a step of the widget; an exception becomes ``error`` instead of escaping."""
        try:
            yield
        except Exception as exc:  # noqa: BLE001 -- any learner mistake is shown, never raised
            self.error = error_text(exc)
        else:
            self.error = ""

    # --- message size -----------------------------------------------------------------------
    def open(self):
        self._measure(self.get_state())
        super().open()

    def _send(self, msg, buffers=None):
        self._measure(msg, buffers)
        super()._send(msg, buffers)

    def _measure(self, payload, buffers=()):
        size = message_size(payload, buffers)
        self.largest_message = max(getattr(self, "largest_message", 0), size)
        if size > MAX_MESSAGE_BYTES:
            warnings.warn(
                f"{type(self).__name__} sent a {size:,}-byte message (the cap is "
                f"{MAX_MESSAGE_BYTES:,}); the page may become slow",
                stacklevel=3,
            )
