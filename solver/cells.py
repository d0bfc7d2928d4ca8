"""The knowledge array and its cell codes: the one module that owns them.

A board is a numpy ``int8`` array of shape ``(rows, cols)``. Revealed numbers are
stored as themselves (0-8), so ``board >= 0`` selects revealed squares. Every other
state has a negative code.

>>> import numpy as np
>>> board = new_board(2, 3)
>>> board.dtype, board.shape, bool((board == COVERED).all())
(dtype('int8'), (2, 3), True)
>>> STATE_NAMES[FLAG], CODE_BY_NAME["wrong_flag"] == WRONG_FLAG
('flag', True)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Board = npt.NDArray[np.int8]
"""A knowledge array: int8, rows x cols, one cell code per square."""

Cell = tuple[int, int]
"""A square as (row, col). Never a screen point."""

COVERED = -1
FLAG = -2
QUESTION = -3
MINE = -4  # a mine shown by the game (after a loss)
EXPLODED = -5  # the mine that was hit
WRONG_FLAG = -6  # a flag on a square with no mine, shown after a loss
UNKNOWN = -7  # the reader could not identify this square

NUMBERS = tuple(range(9))

ALL_CODES: tuple[int, ...] = (
    *NUMBERS, COVERED, FLAG, QUESTION, MINE, EXPLODED, WRONG_FLAG, UNKNOWN
)

STATE_NAMES: dict[int, str] = {
    **{n: str(n) for n in NUMBERS},
    COVERED: "covered",
    FLAG: "flag",
    QUESTION: "question",
    MINE: "mine",
    EXPLODED: "exploded",
    WRONG_FLAG: "wrong_flag",
    UNKNOWN: "unknown",
}
"""Stable names for the codes; used for template file names and manifests."""

CODE_BY_NAME: dict[str, int] = {name: code for code, name in STATE_NAMES.items()}

UNREVEALED = (COVERED, FLAG, QUESTION)
"""States of a square the player has not opened during play."""


def new_board(rows: int, cols: int) -> Board:
    """A fully covered board."""
    if rows <= 0 or cols <= 0:
        raise ValueError(f"board size must be positive, got {rows}x{cols}")
    return np.full((rows, cols), COVERED, dtype=np.int8)


def neighbours(cell: Cell, rows: int, cols: int) -> list[Cell]:
    """The up to 8 squares around ``cell``, in row-major order.

    >>> neighbours((0, 0), 3, 3)
    [(0, 1), (1, 0), (1, 1)]
    """
    r, c = cell
    return [
        (r + dr, c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols
    ]


def neighbour_sum(mask: npt.NDArray[np.generic]) -> npt.NDArray[np.int16]:
    """For each square, the sum of ``mask`` over its up to 8 neighbours.

    >>> neighbour_sum(np.array([[1, 0, 0]], dtype=bool)).tolist()
    [[0, 1, 0]]
    """
    a = mask.astype(np.int16)
    rows = a.copy()  # vertical sums of three: a[r-1] + a[r] + a[r+1]
    rows[1:] += a[:-1]
    rows[:-1] += a[1:]
    out = rows.copy()  # then horizontal sums of three
    out[:, 1:] += rows[:, :-1]
    out[:, :-1] += rows[:, 1:]
    out -= a
    return out
