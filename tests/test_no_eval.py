"""No eval / exec / pickle of untrusted data in the engine or the widgets: loading is parsing.

The code of every file under ``minisym/`` and ``widgets/`` (comments, docstrings and message
texts left out, so that prose about pickles is not code) is searched for ``eval(``, ``exec(``,
``compile(``, ``__import__``, ``pickle``, ``marshal``, ``shelve``, ``dill``, ``yaml.load``,
and the names ``eval`` / ``exec`` / ``__import__`` given as strings (``getattr(builtins,
'eval')``); JavaScript files for ``eval(``, ``new Function(`` and ``setTimeout('...')``. Every
hit must be on the allow-list below, each with the reason it is not evaluation.

``ast.literal_eval`` is parsing (it reads Python literals and nothing else): the parameter
strings of operators (``'(3, 3)'``), ``__shape__`` hints and a custom operator's string keyword
arguments are read with it, never with ``eval``.
"""

import functools
import io
import pathlib
import re
import tokenize

ROOT = pathlib.Path(__file__).resolve().parents[1]
FOLDERS = ("minisym", "widgets")

# (file, the code on the line, why it is not evaluation)
ALLOWED = [
    (
        "minisym/symbol/symbol.py",
        "def eval(self, ctx=None, **kwargs):",
        "Symbol.eval is MXNet's method name: it binds and runs forward; no text is evaluated",
    ),
    (
        "widgets/grading/harness.py",
        'exec(compile(source, f"<answer cell {number}>", "exec"), namespace)',
        "the grader's own process runs a student's definitions, as nbgrader's kernel runs the "
        "whole notebook: that is its job, in a process of its own with a time limit",
    ),
]

_CALLS = {"eval", "exec", "compile", "__import__"}
_MODULES = {"pickle", "cPickle", "_pickle", "marshal", "shelve", "dill", "cloudpickle", "yaml"}
_JS = re.compile(r"\beval\s*\(|\bnew\s+Function\s*\(|\bset(?:Timeout|Interval)\s*\(\s*['\"`]")


def python_hits(source):
    """[(line number, code line, what)] of the forbidden uses in Python ``source``."""
    hits = []
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    lines = source.splitlines()
    for i, tok in enumerate(tokens):
        previous = tokens[i - 1].string if i else ""
        following = tokens[i + 1].string if i + 1 < len(tokens) else ""
        what = None
        if tok.type == tokenize.NAME:
            if tok.string in _CALLS and previous != "." and following == "(":
                what = f"{tok.string}("
            elif tok.string == "__import__":
                what = "__import__"  # referenced without a call: still the import machinery
            elif tok.string in _MODULES and previous != ".":
                what = tok.string
        elif tok.type == tokenize.STRING:
            body = re.sub(r"^[a-zA-Z]*(['\"]{1,3})(.*)\1$", r"\2", tok.string, flags=re.S)
            if body in _CALLS:
                what = f"the string {tok.string}"
        if what:
            hits.append((tok.start[0], lines[tok.start[0] - 1].strip(), what))
    return hits


def js_hits(source):
    hits = []
    code = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group().count("\n"), source, flags=re.S)
    for number, line in enumerate(code.splitlines(), 1):
        line = re.sub(r"(^|\s)//.*$", "", line)
        if _JS.search(line):
            hits.append((number, line.strip(), _JS.search(line).group()))
    return hits


@functools.lru_cache(maxsize=1)
def all_hits():
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            rel = path.relative_to(ROOT).as_posix()
            if path.suffix == ".py":
                found += [(rel, *hit) for hit in python_hits(path.read_text(encoding="utf-8"))]
            elif path.suffix in (".js", ".mjs"):
                found += [(rel, *hit) for hit in js_hits(path.read_text(encoding="utf-8"))]
    return tuple(found)


def test_no_evaluation_outside_the_allow_list():
    allowed = {(path, line) for path, line, _ in ALLOWED}
    unexpected = [
        f"{path}:{number}: {what} in: {line}"
        for path, number, line, what in all_hits()
        if (path, line) not in allowed
    ]
    assert not unexpected, (
        "evaluation or unpickling in the engine (parse instead, or add it "
        "to ALLOWED with the reason):\n" + "\n".join(unexpected)
    )


def test_every_allow_list_entry_is_still_needed():
    present = {(path, line) for path, _, line, _ in all_hits()}
    stale = [f"{path}: {line}" for path, line, _ in ALLOWED if (path, line) not in present]
    assert not stale, "allow-list entries that match nothing any more:\n" + "\n".join(stale)


def test_the_search_finds_what_it_must_and_ignores_prose():
    planted = (
        "import pickle\n"
        "from marshal import loads\n"
        "x = eval(text)\n"
        "exec(code)\n"
        "m = __import__('os')\n"
        "f = getattr(builtins, 'eval')\n"
        "import yaml; yaml.load(s)\n"
        "c = compile(src, 'f', 'exec')\n"
    )
    kinds = [what for _, _, what in python_hits(planted)]
    assert kinds == [
        "pickle",
        "marshal",
        "eval(",
        "exec(",
        "__import__(",
        "the string 'eval'",
        "yaml",
        "yaml",
        "compile(",
        "the string 'exec'",
    ]
    harmless = (
        "import ast, re\n"
        "value = ast.literal_eval(text)  # eval( in a comment\n"
        "pattern = re.compile('x')\n"
        "msg = 'never unpickles: pickle, eval(, exec('\n"
        "def feval(label, pred):\n    return self._feval(label)\n"
    )
    assert python_hits(harmless) == []
    assert [w for _, _, w in js_hits("// eval(x)\nconst f = new Function('a', b);\n")] == [
        "new Function("
    ]
