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
    """For each square, the sum of ``mask`` (booleans or small integers) over its up to
    8 neighbours.

    Two small matrix products: ``B(rows) @ mask @ B(cols) - mask``, where ``B(n)`` is
    the n x n matrix of ones on and beside the diagonal (sums of three along each axis);
    in float32, exact for any sum below 2**24, and about half the time of shifted adds
    on an intermediate board (the solver calls this some 20 times a move).

    >>> neighbour_sum(np.array([[1, 0, 0]], dtype=bool)).tolist()
    [[0, 1, 0]]
    >>> neighbour_sum(np.ones((3, 3), dtype=bool)).tolist()
    [[3, 5, 3], [5, 8, 5], [3, 5, 3]]
    """
    a = mask.astype(np.float32)
    out = _band(a.shape[0]) @ a @ _band(a.shape[1])
    out -= a
    return out.astype(np.int16)


def beside_any(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """For each square, is ``mask`` set on one of the up to 4 squares beside it (above,
    below, left, right; not the diagonal ones)?

    >>> beside_any(np.array([[True, False], [False, False]])).tolist()
    [[False, True], [True, False]]
    """
    out = np.zeros(mask.shape, bool)
    out[1:] |= mask[:-1]
    out[:-1] |= mask[1:]
    out[:, 1:] |= mask[:, :-1]
    out[:, :-1] |= mask[:, 1:]
    return out


_BANDS: dict[int, npt.NDArray[np.float32]] = {}


def _band(n: int) -> npt.NDArray[np.float32]:
    """The n x n float32 matrix with ones on, just above and just below the diagonal."""
    band = _BANDS.get(n)
    if band is None:
        i = np.arange(n)
        band = _BANDS[n] = (np.abs(i[:, None] - i[None, :]) <= 1).astype(np.float32)
    return band
