"""Is a new read of the board a possible later view of what is known? A read that is
not is captured again (a redraw caught half-way, something over the board, a misread).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from solver.cells import (
    COVERED,
    EXPLODED,
    FLAG,
    MINE,
    QUESTION,
    UNKNOWN,
    Board,
    beside_any,
    neighbour_sum,
)


def contradiction(board: Board, known: Board | None, side_flood: bool = False) -> str:
    """Why ``board`` cannot be a true later view of ``known`` ("" if it can).
    ``side_flood``: the game opens only the squares beside an opened 0, not the
    diagonal ones (:func:`zero_beside_covered`).

    >>> import numpy as np
    >>> known = np.array([[1, -1]], dtype=np.int8)
    >>> contradiction(np.array([[-1, -1]], dtype=np.int8), known)
    'revealed square (0, 0) turned covered'
    >>> contradiction(np.array([[1, -7]], dtype=np.int8), known)
    'unreadable square (0, 1)'
    >>> contradiction(np.array([[1, 2]], dtype=np.int8), known)
    ''
    >>> contradiction(np.array([[1, -1]], dtype=np.int8), np.array([[1, -2]], dtype=np.int8))
    'flagged square (0, 1) shows no flag'
    >>> contradiction(np.array([[0, -1]], dtype=np.int8), None)  # a 0 opens its neighbours
    'open square (0, 0) shows 0 next to a covered square (a redraw caught half-way?)'
    """
    unknown = board == UNKNOWN
    if unknown.any():
        return f"unreadable square {_first(unknown)}"
    zero = zero_beside_covered(board, side_flood)
    if zero.any():
        return (f"open square {_first(zero)} shows 0 next to a covered square (a redraw "
                "caught half-way?)")
    if known is None:
        return ""
    if known.shape != board.shape:
        return "the board changed size"
    lost = (known >= 0) & (board != known)
    if lost.any():
        cell = _first(lost)
        what = "turned covered" if board[cell] < 0 else "changed its number"
        return f"revealed square {cell} {what}"
    flagged = known == FLAG
    if flagged.any():
        unflagged = flagged & ((board == COVERED) | (board == QUESTION))
        if unflagged.any():
            return f"flagged square {_first(unflagged)} shows no flag"
    return ""


def zero_beside_covered(board: Board, side_flood: bool = False) -> npt.NDArray[np.bool_]:
    """The squares read 0 next to a covered or question-marked square. No game shows
    one at rest (opening a 0 opens the squares around it), so one of them is misread,
    the board was found a line off, or a redraw was caught half-way. ``side_flood``:
    the game opens only the four squares beside a 0 (react-minesweeper), so only those
    count.

    >>> zero_beside_covered(np.array([[0, -1], [0, 1]], np.int8)).tolist()
    [[True, False], [True, False]]
    >>> diagonal = np.array([[0, 0], [0, -1]], np.int8)
    >>> zero_beside_covered(diagonal).tolist(), zero_beside_covered(diagonal, True).tolist()
    ([[True, True], [True, False]], [[False, True], [True, False]])
    """
    hidden = (board == COVERED) | (board == QUESTION)
    near = beside_any(hidden) if side_flood else neighbour_sum(hidden) > 0
    return np.asarray((board == 0) & near)


def over_mined(board: Board) -> npt.NDArray[np.bool_]:
    """The open squares with more shown mines (a loss's mines and the hit one) around
    them than their number: no game shows one, so it is misread (an xdemineur 5 in a
    JPEG read as 0 beside its mines). Flags are not counted: a player's may be wrong.

    >>> over_mined(np.array([[0, -4], [1, -5]], np.int8)).tolist()
    [[True, False], [True, False]]
    """
    shown = neighbour_sum((board == MINE) | (board == EXPLODED))
    return np.asarray((board >= 0) & (shown > board))


def _first(mask: npt.NDArray[np.bool_]) -> tuple[int, int]:
    """The first True square of ``mask`` in row-major order."""
    r, c = np.unravel_index(int(np.argmax(mask)), mask.shape)
    return int(r), int(c)
