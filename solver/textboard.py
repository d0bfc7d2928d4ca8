"""The text board format used by every golden file and every CLI print.

One line per row, one character per cell: ``.`` covered, ``0``-``8`` revealed,
``F`` flag, ``?`` question mark, ``*`` mine shown, ``X`` exploded mine, ``W`` wrong
flag, ``U`` unknown. Lines starting with ``#`` are comments (``# mines 99``).

>>> board = parse_board("# mines 1\\n.1\\nF1\\n")
>>> print(format_board(board), end="")
.1
F1
>>> parse_board("..\\n.Z\\n")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
solver.textboard.BoardFormatError: line 2, column 2: unexpected character 'Z' ...
"""

from __future__ import annotations

import numpy as np

from solver.cells import (
    COVERED,
    EXPLODED,
    FLAG,
    MINE,
    QUESTION,
    UNKNOWN,
    WRONG_FLAG,
    Board,
)

CHAR_BY_CODE: dict[int, str] = {
    **{n: str(n) for n in range(9)},
    COVERED: ".",
    FLAG: "F",
    QUESTION: "?",
    MINE: "*",
    EXPLODED: "X",
    WRONG_FLAG: "W",
    UNKNOWN: "U",
}
CODE_BY_CHAR: dict[str, int] = {ch: code for code, ch in CHAR_BY_CODE.items()}


class BoardFormatError(ValueError):
    """A text board that does not follow the format; names the line and column."""


def parse_board(text: str) -> Board:
    """Parse a text board into a knowledge array (comments and blank lines skipped)."""
    rows: list[list[int]] = []
    width = None
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r")
        if line.startswith("#") or not line.strip():
            continue
        row = []
        for col, ch in enumerate(line, start=1):
            if ch not in CODE_BY_CHAR:
                raise BoardFormatError(
                    f"line {lineno}, column {col}: unexpected character {ch!r} "
                    "(allowed: . 0-8 F ? * X W U)"
                )
            row.append(CODE_BY_CHAR[ch])
        if width is not None and len(row) != width:
            raise BoardFormatError(
                f"line {lineno}, column {min(len(row), width) + 1}: row has {len(row)} "
                f"cells, earlier rows have {width}"
            )
        width = len(row)
        rows.append(row)
    if not rows:
        raise BoardFormatError("line 1, column 1: no board rows found")
    return np.array(rows, dtype=np.int8)


def parse_comments(text: str) -> dict[str, str]:
    """``# key value`` comment lines as a dict (``# mines 99`` -> {"mines": "99"}).

    >>> parse_comments("# mines 99\\n# skin xdemineur\\n..\\n")
    {'mines': '99', 'skin': 'xdemineur'}
    """
    out: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("#"):
            key, _, value = line[1:].strip().partition(" ")
            if key:
                out[key] = value.strip()
    return out


def format_board(board: Board, comments: dict[str, object] | None = None) -> str:
    """Format a knowledge array as text, one line per row, ending with a newline."""
    lines = [f"# {k} {v}" for k, v in (comments or {}).items()]
    for row in np.asarray(board):
        try:
            lines.append("".join(CHAR_BY_CODE[int(v)] for v in row))
        except KeyError as exc:
            raise ValueError(f"no text character for cell code {exc.args[0]}") from None
    return "\n".join(lines) + "\n"


def diff_boards(expected: Board, actual: Board) -> list[str]:
    """Human-readable differences, one line per mismatching cell; empty when equal.

    >>> diff_boards(parse_board("12"), parse_board("13"))
    ['(0, 1): expected 2, read 3']
    """
    if expected.shape != actual.shape:
        return [f"shape: expected {expected.shape}, read {actual.shape}"]
    rows, cols = np.nonzero(expected != actual)
    return [
        f"({r}, {c}): expected {CHAR_BY_CODE[int(expected[r, c])]}, "
        f"read {CHAR_BY_CODE[int(actual[r, c])]}"
        for r, c in zip(rows.tolist(), cols.tolist(), strict=True)
    ]
