"""A window over part of the board: Windows 7's "Game Lost" and "Game Won" dialogs,
gnome-mines' scores. The squares under it are the window's face, not the game's, and
the numbers beside it count mines that do not show, so no loss or win reading of such a
board is sound (as of a board cut by its window's edge: :mod:`vision.cut`).

A window's side is a straight colour step running on across several squares at one
place inside them. A game draws nothing like that: its lines run along the lattice
(the squares' own edges and bevels), and its glyphs stay within one square.

>>> from vision.geometry import BoardGeometry
>>> board = np.full((120, 120, 3), 200, np.uint8)
>>> board[:, ::20] = 90                                  # 6x6 squares of 20 px
>>> g = BoardGeometry("", 0.0, 0.0, 20.0, 20.0, 6, 6)
>>> window_over(board, g)
False
>>> board[30:95, 48:115] = 255                           # a dialog from mid-square
>>> window_over(board, g)
True
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from vision.channels import worst_channel
from vision.geometry import BoardGeometry

Image = npt.NDArray[np.uint8]

STEP = 40
"""Least colour step (worst channel) of a window's side against what it covers."""

LEAST_RUN = 2.5
"""Least length of a window's side inside the board, in squares (a game's glyph stays
within one)."""

OFF_LATTICE = 0.2
"""Least distance of a window's side from the squares' edges, in squares (a game's
bevels and strips lie along them: Google's edge strips take up a fifteenth, a WineMine
bevel an eighth; gnome-mines' scores dialog began 0.23 of a square from the board's
side that the lattice found)."""


def window_over(image: Image, g: BoardGeometry) -> bool:
    """Does a window's side run across board ``g`` in ``image``: a colour step of
    :data:`STEP` or more, :data:`LEAST_RUN` squares long or longer, across the squares
    at :data:`OFF_LATTICE` or more from their edges?"""
    x0, y0 = int(round(g.x0)), int(round(g.y0))
    x1, y1 = int(round(g.col_left(g.cols))), int(round(g.row_top(g.rows)))
    board = np.asarray(image[max(0, y0):y1, max(0, x0):x1], np.int16)
    if board.shape[0] < 2 or board.shape[1] < 2:
        return False
    across = worst_channel(np.abs(board[:, 1:] - board[:, :-1])) >= STEP  # x to x + 1
    down = worst_channel(np.abs(board[1:] - board[:-1])) >= STEP  # y to y + 1
    lefts = [g.col_left(c) - x0 for c in range(g.cols + 1)]
    tops = [g.row_top(r) - y0 for r in range(g.rows + 1)]
    return _long_side(across, lefts, g.pitch_x, g.pitch_y) or \
        _long_side(down.T, tops, g.pitch_y, g.pitch_x)


def _long_side(steps: npt.NDArray[np.bool_], lines: list[float], pitch: float,
               along: float) -> bool:
    """Is some column of ``steps`` (a step between pixels ``x`` and ``x + 1``) away
    from every lattice line of ``lines`` by :data:`OFF_LATTICE` squares of ``pitch``
    set on :data:`LEAST_RUN` squares of ``along`` pixels in a row?"""
    at = np.arange(steps.shape[1]) + 1.0  # (where each step lies)
    off = np.min(np.abs(at[:, None] - np.asarray(lines)[None, :]), axis=1)
    columns = steps[:, off >= OFF_LATTICE * pitch]
    return bool(longest_runs(columns).max(initial=0) >= LEAST_RUN * along)


def longest_runs(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """The longest run of set pixels down each column of ``mask``.

    >>> longest_runs(np.array([[1, 0], [1, 1], [0, 1], [1, 1]], bool)).tolist()
    [2, 3]
    """
    best = np.zeros(mask.shape[1], np.int64)
    run = np.zeros(mask.shape[1], np.int64)
    for row in mask:
        run = np.where(row, run + 1, 0)
        best = np.maximum(best, run)
    return best
