"""Lines of engine code: non-blank, non-comment lines of minisym/ (docstrings count), per file.

`make loc` prints the total and the largest files; run it after `ruff format` so that two
counts compare the same layout.
"""

import io
import pathlib
import sys
import tokenize

SKIP = {
    tokenize.COMMENT,
    tokenize.NL,
    tokenize.NEWLINE,
    tokenize.INDENT,
    tokenize.DEDENT,
    tokenize.ENCODING,
    tokenize.ENDMARKER,
}


def code_lines(path):
    """How many lines of ``path`` hold a token other than a comment."""
    lines = set()
    for token in tokenize.tokenize(io.BytesIO(path.read_bytes()).readline):
        if token.type not in SKIP:
            lines.update(range(token.start[0], token.end[0] + 1))
    return len(lines)


def main(root="minisym", largest=12):
    counts = {p: code_lines(p) for p in sorted(pathlib.Path(root).rglob("*.py"))}
    print(f"{sum(counts.values())} lines of code in {len(counts)} files under {root}/")
    for path, n in sorted(counts.items(), key=lambda kv: -kv[1])[:largest]:
        print(f"{n:6d}  {path}")


if __name__ == "__main__":
    main(*sys.argv[1:2])
