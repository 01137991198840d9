"""The widgets' and the exercise checks' words in the learner's language, from standard gettext
message catalogues: ``widgets/locale/<language>/LC_MESSAGES/<domain>.po``, read with Babel.

    from minisym_widgets.i18n import gettext as _
    _("check")                                   # 'check', or '检查' in a Chinese kernel
    _("{count} of {total} names right").format(count=4, total=6)

The language is the one ``set_language`` chose, else the kernel's environment (``LANGUAGE``,
``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext reads them): a notebook's code cells are the
same in every edition of the course, and ``make lab-zh`` starts its kernels with
``LANG=zh_CN.UTF-8``. English is the source language: a message without a translation is shown
as written. The engine's own error messages stay English (they mirror MXNet's, and learners
search for them). Placeholders are ``str.format`` fields, formatted after translation, so a
translation may put them in another order.
"""

import os
from functools import lru_cache
from pathlib import Path

__all__ = [
    "set_language",
    "language",
    "gettext",
    "ngettext",
    "N_",
    "Texts",
    "DOMAINS",
    "LANGUAGES",
    "catalogue_path",
]

LOCALE = Path(__file__).parent / "locale"
DOMAINS = ("minisym_widgets", "minisym_exercises")
LANGUAGES = ("en", "zh_CN")  # English is the source; the others have catalogues
_ALIASES = {
    "zh": "zh_CN",
    "zh_cn": "zh_CN",
    "zh-cn": "zh_CN",
    "zh_hans": "zh_CN",
    "zh-hans": "zh_CN",
    "en": "en",
    "c": "en",
    "posix": "en",
}
_chosen = None


def set_language(name):
    """Show the widgets and checks in ``name`` ('en', 'zh_CN'; 'zh-CN' and 'zh' work too);
    ``None`` goes back to the environment's language."""
    global _chosen
    if name is None:
        _chosen = None
        return
    found = _normalise(name)
    if found is None:
        raise ValueError(
            f"set_language: {name!r} is not a language of the course; give one of "
            f"{', '.join(map(repr, LANGUAGES))} (or None for the environment's)"
        )
    _chosen = found


def language():
    """The language in use: ``set_language``'s choice, else the environment's, else 'en'."""
    if _chosen is not None:
        return _chosen
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "")
        if not value:
            continue
        for candidate in value.split(":"):  # LANGUAGE may list several, best first
            found = _normalise(candidate)
            if found is not None:
                return found
        return "en"  # the first variable set decides, as in gettext
    return "en"


def _normalise(name):
    """'zh_CN' for 'zh_CN.UTF-8', 'zh-CN', 'zh'; 'en' for 'en_US.UTF-8', 'C'; else None."""
    base = str(name).split(".")[0].split("@")[0].strip()
    if base in LANGUAGES:
        return base
    lowered = base.lower()
    if lowered in _ALIASES:
        return _ALIASES[lowered]
    if lowered.startswith("en_") or lowered.startswith("en-"):
        return "en"
    if lowered.startswith("zh"):
        return "zh_CN"  # the one Chinese edition: Simplified
    return None


def catalogue_path(language_name, domain):
    """Where the catalogue of ``domain`` in ``language_name`` lives."""
    return LOCALE / language_name / "LC_MESSAGES" / f"{domain}.po"


@lru_cache(maxsize=None)
def _catalogue(language_name, domain):
    """{msgid: msgstr or (plural forms)} of a catalogue; {} for English or a missing file."""
    path = catalogue_path(language_name, domain)
    if language_name == "en" or not path.exists():
        return {}
    from babel.messages.pofile import read_po  # only where a translation is asked for

    with open(path, "rb") as handle:
        catalog = read_po(handle, locale=language_name)
    return {
        message.id: message.string
        for message in catalog
        if message.id and message.string and not message.fuzzy
    }


def N_(message):
    """``message`` unchanged: marks a table's text for extraction; ``gettext`` translates it
    where it is shown, so a later ``set_language`` still takes effect."""
    return message


class Texts(dict):
    """A table of English texts (each marked with ``N_``) that reads in the learner's
    language: ``TABLE[key]`` and ``TABLE.get(key)`` translate when they are read."""

    def __init__(self, table, domain="minisym_widgets"):
        super().__init__(table)
        self.domain = domain

    def __getitem__(self, key):
        return gettext(super().__getitem__(key), self.domain)

    def get(self, key, default=None):
        return self[key] if key in self else default

    def translated(self):
        """A plain dict of every text in the language in use (what a page is sent)."""
        return {key: self[key] for key in self}


def gettext(message, domain="minisym_widgets"):
    """``message`` in the language in use (itself when there is no translation)."""
    translated = _catalogue(language(), domain).get(message)
    return translated if isinstance(translated, str) and translated else message


def ngettext(singular, plural, count, domain="minisym_widgets"):
    """``singular`` or ``plural`` for ``count``, in the language in use."""
    translated = _catalogue(language(), domain).get((singular, plural))
    if isinstance(translated, (tuple, list)) and translated and all(translated):
        return translated[0] if len(translated) == 1 or count == 1 else translated[1]
    return singular if count == 1 else plural


LESSONS_DOMAIN = "minisym_lessons"  # the lessons' prose inside code cells (lesson_texts.py)


def lesson_text(text):
    """A lesson's own words given in a code cell (a ``Predict`` question), in the language in
    use: the code cells are the same in both editions, their prose is translated here."""
    return gettext(text, LESSONS_DOMAIN)
