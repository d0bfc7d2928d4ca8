"""Is a new read of the board a possible later view of what is known? A read that is
not is captured again (a redraw caught half-way, something over the board, a misread).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from solver.cells import COVERED, FLAG, QUESTION, UNKNOWN, Board


def contradiction(board: Board, known: Board | None) -> str:
    """Why ``board`` cannot be a true later view of ``known`` ("" if it can).

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
    unknown = np.argwhere(board == UNKNOWN)
    if len(unknown):
        return f"unreadable square {tuple(int(v) for v in unknown[0])}"
    zero = np.argwhere((board == 0) & _next_to(np.isin(board, (COVERED, QUESTION))))
    if len(zero):
        cell = tuple(int(v) for v in zero[0])
        return f"open square {cell} shows 0 next to a covered square (a redraw caught half-way?)"
    if known is None:
        return ""
    if known.shape != board.shape:
        return "the board changed size"
    lost = np.argwhere((known >= 0) & (board != known))
    if len(lost):
        cell = tuple(int(v) for v in lost[0])
        what = "turned covered" if board[cell] < 0 else "changed its number"
        return f"revealed square {cell} {what}"
    unflagged = np.argwhere((known == FLAG) & np.isin(board, (COVERED, QUESTION)))
    if len(unflagged):
        return f"flagged square {tuple(int(v) for v in unflagged[0])} shows no flag"
    return ""


def _next_to(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Squares with at least one of their 8 neighbours in ``mask``."""
    rows, cols = mask.shape
    padded = np.pad(mask, 1)
    out = np.zeros_like(mask)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr or dc:
                out |= padded[1 + dr:1 + dr + rows, 1 + dc:1 + dc + cols]
    return out
