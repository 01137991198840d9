"""The students' tree: the committed project without the solutions, written as a git branch
that nbgitpuller and Binder serve (``python -m minisym_widgets.student_tree``, or ``make
student``).

The tree of a ref (HEAD unless ``--source``) is read with git plumbing, the withheld paths are
left out, and what remains is committed on the branch ``student`` (``--branch``) with the
previous student commit as its parent: the branch only ever grows, so nbgitpuller can always
merge it into a student's copy. Nothing is committed when the tree did not change. The work
tree, the index and the current branch are never touched (a temporary index file and
``git commit-tree``). Before anything is written, every file is searched for the body of a
solution function from ``lessons/solutions/lessonN.py``; one found is an error.
"""

import argparse
import ast
import io
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import tokenize
from pathlib import Path

# Left out of the students' tree: the solutions, and what holds them or is built from them
# (tests run every solution; benchmarks/classroom_load.py solves the lessons; .ci runs tests).
WITHHELD = ("lessons/solutions/", "tests/", "benchmarks/", ".ci/")

# Exercises whose answer a lesson shows on purpose, in cells above the exercise, as the worked
# example the exercise retraces: {solution function: where}. Their bodies may appear in the
# lessons (paths under lessons/); anywhere else they are refused like any other. (5.1's and
# 5.2's answers are in lesson 5's CenterLossProp too, written with super() and comments: the
# search does not match them, so they need no entry.)
SHOWN_IN_LESSONS = {
    "lesson4.softmax_backward": "4.2: lesson 4's SoftmaxLoss.backward, again in lesson 8",
    "lesson5.center_loss_backward": "5.3: lesson 5's CenterLoss.backward",
}

# A body shorter than this (whitespace removed) says nothing about where it came from, and a
# lesson may well print it: `return x`; 2.1's `return (size + 2 * pad - kernel) // stride + 1`
# and 8.3's `return {'learning_rate': 0.5}` are not looked for.
MIN_BODY_CHARS = 40

SOLUTIONS_DIR = "lessons/solutions/"


class StudentTreeError(Exception):
    """Why the students' tree was not written."""


# --- finding solution bodies -----------------------------------------------------------------
def _squeeze(text):
    """Text without whitespace, one kind of quote: what a copy keeps of its original."""
    return re.sub(r"\s+", "", text).replace("'", '"')


def _without_comments(code):
    """Python code with its comments dropped, squeezed; None if it does not tokenize."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    return _squeeze("".join(t.string for t in tokens if t.type != tokenize.COMMENT))


def _body_source(lines, function):
    """The source lines of a function's body, its docstring left out."""
    body = function.body
    if (
        len(body) > 1
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        body = body[1:]
    return "\n".join(lines[body[0].lineno - 1 : function.end_lineno])


def solution_bodies(sources):
    """{'lessonN.function': forms of its body} from {'lessonN.py': its text}; the forms are the
    squeezed body with and without its comments, and trivially short bodies are left out."""
    bodies = {}
    for name, text in sorted(sources.items()):
        lines = text.splitlines()
        for node in ast.parse(text).body:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            source = _body_source(lines, node)
            forms = {_squeeze(source), _without_comments(source) or _squeeze(source)}
            if min(len(f) for f in forms) >= MIN_BODY_CHARS:
                bodies[f"{Path(name).stem}.{node.name}"] = forms
    return bodies


def _notebook_parts(text):
    """(code, other text) of a notebook: its code cells, and its prose and outputs."""
    try:
        notebook = json.loads(text)
    except json.JSONDecodeError:
        return [], [text]
    code, other = [], []
    for cell in notebook.get("cells", []):
        source = "".join(cell.get("source", []))
        (code if cell.get("cell_type") == "code" else other).append(source)
        for output in cell.get("outputs", []):
            other.append("".join(output.get("text", [])))
            for value in output.get("data", {}).values():
                other.append("".join(value) if isinstance(value, list) else str(value))
    return code, other


def _searchable(path, text):
    """The squeezed forms of a file in which a copied body would show."""
    if path.endswith(".ipynb"):
        code, other = _notebook_parts(text)
    elif path.endswith(".py"):
        code, other = [text], []
    else:
        code, other = [], [text]
    forms = [_squeeze(t) for t in code + other]
    forms += [f for f in map(_without_comments, code) if f]
    return forms


def _shown_here(path, function, shown):
    return function in shown and path.startswith("lessons/")


def read_solutions(solutions_dir):
    """{'lessonN.py': its text} of a solutions folder; a folder without them is an error, so
    that a search never passes for want of something to look for."""
    found = {
        p.name: p.read_text(encoding="utf-8")
        for p in sorted(Path(solutions_dir).glob("lesson*.py"))
    }
    if not found:
        raise FileNotFoundError(f"no lessonN.py in {solutions_dir} to search for")
    return found


def solution_text_found(files, solutions_dir=None, shown=SHOWN_IN_LESSONS):
    """[(path, 'lessonN.function')] for every solution body found in ``files`` ({path relative
    to the project: text}); the solutions are lessons/solutions/ beside this package unless
    ``solutions_dir`` (a folder, or {'lessonN.py': text}) is given. A function in ``shown`` is
    allowed in the lessons (paths under lessons/), where they show it on purpose."""
    if solutions_dir is None:
        solutions_dir = Path(__file__).resolve().parents[1] / SOLUTIONS_DIR
    sources = solutions_dir if isinstance(solutions_dir, dict) else read_solutions(solutions_dir)
    bodies = solution_bodies(sources)
    found = []
    for path, text in sorted(files.items()):
        forms = _searchable(path, text)
        for function, body in bodies.items():
            if _shown_here(path, function, shown):
                continue
            if any(b in f for b in body for f in forms):
                found.append((path, function))
    return found


# --- git plumbing ----------------------------------------------------------------------------
def _git(repo, *args, stdin=None, env=None, check=True):
    """git's stdout (bytes) for ``args`` in ``repo``; a failure raises StudentTreeError."""
    done = subprocess.run(
        ["git", "-C", str(repo), *args],
        input=stdin,
        capture_output=True,
        env={**os.environ, **(env or {})},
    )
    if check and done.returncode != 0:
        raise StudentTreeError(f"git {' '.join(args)}: {done.stderr.decode().strip()}")
    return done.stdout


def _commit_of(repo, ref):
    """The commit id ``ref`` names, or None if it names none."""
    out = _git(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", check=False)
    return out.decode().strip() or None


def _entries(repo, commit):
    """[(mode, type, object id, path)] of every file in the commit's tree."""
    out = _git(repo, "ls-tree", "-r", "-z", "--full-tree", commit)
    entries = []
    for record in out.decode("utf-8", "surrogateescape").split("\0"):
        if record:
            meta, path = record.split("\t", 1)
            mode, kind, oid = meta.split()
            entries.append((mode, kind, oid, path))
    return entries


def withheld(path):
    """Whether ``path`` stays out of the students' tree."""
    return any(path.startswith(prefix) for prefix in WITHHELD)


def _blob_texts(repo, entries):
    """{path: text} of the blobs among ``entries`` that are UTF-8 text."""
    blobs = [(oid, path) for mode, kind, oid, path in entries if kind == "blob"]
    out = _git(repo, "cat-file", "--batch", stdin="".join(f"{o}\n" for o, _ in blobs).encode())
    texts, at = {}, 0
    for _, path in blobs:
        header_end = out.index(b"\n", at)
        size = int(out[at:header_end].split()[2])
        content = out[header_end + 1 : header_end + 1 + size]
        at = header_end + 2 + size
        if b"\0" not in content:
            try:
                texts[path] = content.decode("utf-8")
            except UnicodeDecodeError:
                pass
    return texts


def _write_tree(repo, entries):
    """The id of a tree made of ``entries``, through an index file of its own."""
    with tempfile.TemporaryDirectory() as scratch:
        env = {"GIT_INDEX_FILE": str(Path(scratch) / "index")}
        records = "".join(f"{mode} {kind} {oid}\t{path}\0" for mode, kind, oid, path in entries)
        _git(
            repo,
            "update-index",
            "-z",
            "--index-info",
            stdin=records.encode("utf-8", "surrogateescape"),
            env=env,
        )
        return _git(repo, "write-tree", env=env).decode().strip()


def _tree_of(repo, commit):
    return _git(repo, "rev-parse", f"{commit}^{{tree}}").decode().strip()


def _parent(repo, branch, remote):
    """The student commit to build on: the branch's head, or with ``remote`` the remote's (the
    local branch's when it already contains the remote's); None for the first."""
    local = _commit_of(repo, f"refs/heads/{branch}")
    published = _commit_of(repo, f"refs/remotes/{remote}/{branch}") if remote else None
    if published is None:
        return local
    return local if local and _is_ancestor(repo, published, local) else published


def _is_ancestor(repo, older, newer):
    done = subprocess.run(
        ["git", "-C", str(repo), "merge-base", "--is-ancestor", older, newer], capture_output=True
    )
    return done.returncode == 0


def _refuse_checked_out(repo, branch):
    """A branch checked out in the work tree is not moved under it."""
    head = _git(repo, "symbolic-ref", "--quiet", "HEAD", check=False).decode().strip()
    if head == f"refs/heads/{branch}":
        raise StudentTreeError(
            f"{branch} is checked out in {repo}: check out the instructor's "
            f"branch (main) first, or give another --branch"
        )


def _message(repo, source, commit, entries, withheld_paths):
    named = _git(repo, "rev-parse", "--abbrev-ref", source, check=False).decode().strip()
    source = named if named and named != "HEAD" else source
    short = _git(repo, "rev-parse", "--short", commit).decode().strip()
    subject = _git(repo, "log", "-1", "--format=%s", commit).decode().strip()
    return (
        f"Students' tree of {source} at {short}: {subject}\n\n"
        f"Written by `make student` (python -m minisym_widgets.student_tree): "
        f"{len(entries)} files; withheld: {', '.join(withheld_paths)}.\n"
    )


# --- the tree --------------------------------------------------------------------------------
def student_entries(repo, source="HEAD", shown=SHOWN_IN_LESSONS):
    """(commit, entries kept, withheld prefixes that held files) of ``source``; refuses (raises
    StudentTreeError) when a kept file holds a solution body."""
    commit = _commit_of(repo, source)
    if commit is None:
        raise StudentTreeError(f"{source} names no commit in {repo}")
    entries = _entries(repo, commit)
    kept = [e for e in entries if not withheld(e[3])]
    gone = sorted({p for p in WITHHELD for e in entries if e[3].startswith(p)})
    texts = _blob_texts(repo, entries)
    solutions = {
        Path(p).name: t
        for p, t in texts.items()
        if p.startswith(SOLUTIONS_DIR) and re.fullmatch(r"lesson\w*\.py", Path(p).name)
    }
    if not solutions:
        raise StudentTreeError(f"{source} has no {SOLUTIONS_DIR}lessonN.py to search for")
    found = solution_text_found(
        {p: t for p, t in texts.items() if not withheld(p)}, solutions, shown
    )
    if found:
        lines = "\n".join(f"  {path}: the body of {function}()" for path, function in found)
        raise StudentTreeError(
            f"the students' tree would hold solutions:\n{lines}\n"
            f"take them out of these files (or out of {SOLUTIONS_DIR})"
        )
    return commit, kept, gone


def commit_student_branch(repo, source="HEAD", branch="student", remote=None):
    """Commit the students' tree of ``source`` on ``branch``; a dict of what was done."""
    _refuse_checked_out(repo, branch)
    commit, kept, gone = student_entries(repo, source)
    tree = _write_tree(repo, kept)
    parent = _parent(repo, branch, remote)
    done = {
        "source": commit,
        "files": len(kept),
        "withheld": gone,
        "branch": branch,
        "parent": parent,
    }
    if parent and _tree_of(repo, parent) == tree:
        _move_branch(repo, branch, parent, source)  # to the remote's, when the local one lags
        return {**done, "commit": parent, "changed": False}
    parents = ["-p", parent] if parent else []
    new = (
        _git(
            repo,
            "commit-tree",
            tree,
            *parents,
            stdin=_message(repo, source, commit, kept, gone).encode(),
        )
        .decode()
        .strip()
    )
    _move_branch(repo, branch, new, source)
    return {**done, "commit": new, "changed": True}


def _move_branch(repo, branch, commit, source):
    """Point the branch at ``commit``, unless another process moved it meanwhile."""
    old = _commit_of(repo, f"refs/heads/{branch}") or "0" * 40
    if old != commit:
        _git(
            repo, "update-ref", "-m", f"student_tree: {source}", f"refs/heads/{branch}", commit, old
        )


def write_student_folder(repo, folder, source="HEAD"):
    """Write the students' tree of ``source`` into ``folder`` (new or empty)."""
    folder = Path(folder)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise StudentTreeError(f"{folder} is not empty: give a new or empty folder")
    commit, kept, gone = student_entries(repo, source)
    archive = _git(repo, "archive", "--format=tar", _write_tree(repo, kept))
    folder.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(folder, filter="data")
        else:
            tar.extractall(folder)  # a git archive of our own tree
    return {"source": commit, "files": len(kept), "withheld": gone, "folder": str(folder)}


# --- command line ----------------------------------------------------------------------------
def _report(done):
    """What was done, in a few lines."""
    where = done.get("folder") or done["branch"]
    if "folder" in done:
        head = f"wrote {done['files']} files into {where}"
    elif done["changed"]:
        head = (
            f"committed {done['commit'][:12]} on {where} ({done['files']} files), parent "
            f"{done['parent'][:12] if done['parent'] else 'none (first student commit)'}"
        )
    else:
        head = f"{where} is up to date at {done['commit'][:12]} ({done['files']} files): no commit"
    return (
        f"{head}\nfrom {done['source'][:12]}; withheld: {', '.join(done['withheld'])}; "
        f"no solution body found in the files kept"
    )


def main(argv=None):
    """Command line: commit the students' branch, or write the tree into a folder."""
    parser = argparse.ArgumentParser(
        prog="python -m minisym_widgets.student_tree",
        description="Write the students' tree (the project without its solutions) as a git "
        "branch that nbgitpuller and Binder serve, or into a folder.",
    )
    parser.add_argument("--repo", default=".", help="the project's git repository (default .)")
    parser.add_argument("--source", default="HEAD", help="the instructor's ref (default HEAD)")
    parser.add_argument("--branch", default="student", help="the branch to commit on")
    parser.add_argument(
        "--remote",
        help="build on REMOTE/BRANCH (fetch it first), so the published branch only grows",
    )
    parser.add_argument("--folder", help="write the tree into this new folder instead")
    args = parser.parse_args(argv)
    try:
        if args.folder:
            done = write_student_folder(args.repo, args.folder, args.source)
        else:
            done = commit_student_branch(args.repo, args.source, args.branch, args.remote)
    except StudentTreeError as error:
        print(f"student_tree: {error}", file=sys.stderr)
        return 1
    print(_report(done))
    return 0


if __name__ == "__main__":
    sys.exit(main())
