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

from collections.abc import Sequence

import cv2
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
    return window_box(image, g) is not None


def window_box(image: Image, g: BoardGeometry) -> tuple[int, int, int, int] | None:
    """The box ``(x0, y0, x1, y1)`` (image pixels, ends excluded) that holds every
    window side :func:`window_over` finds on board ``g`` in ``image`` and the steps
    within it, or None when there is none. A window whose sides run off the board
    reaches the board's edge with the sides that are left."""
    x0, y0 = int(round(g.x0)), int(round(g.y0))
    x1, y1 = int(round(g.col_left(g.cols))), int(round(g.row_top(g.rows)))
    board = np.asarray(image[max(0, y0):y1, max(0, x0):x1], np.int16)
    if board.shape[0] < 2 or board.shape[1] < 2:
        return None
    x0, y0 = max(0, x0), max(0, y0)
    across = worst_channel(np.abs(board[:, 1:] - board[:, :-1])) >= STEP  # x to x + 1
    down = worst_channel(np.abs(board[1:] - board[:-1])) >= STEP  # y to y + 1
    lefts = [g.col_left(c) - x0 for c in range(g.cols + 1)]
    tops = [g.row_top(r) - y0 for r in range(g.rows + 1)]
    if not _long_sides(across, lefts, g.pitch_x, g.pitch_y) and \
            not _long_sides(down.T, tops, g.pitch_y, g.pitch_x):
        return None
    # (where it lies: its sides with gaps of a few pixels closed, where a game's bevel
    # lines cross them: a browser menu's sides over Minesweeper X's raised squares)
    gap_x, gap_y = _gap(g.pitch_y), _gap(g.pitch_x)
    upright = _long_sides(_closed(across, gap_x), lefts, g.pitch_x, g.pitch_y)  # (x, y0, y1)
    lying = _long_sides(_closed(down.T, gap_y), tops, g.pitch_y, g.pitch_x)  # (y, x0, x1)
    xs = [x for x, _, _ in upright] + [a for _, a, _ in lying] + [b for _, _, b in lying]
    ys = [y for y, _, _ in lying] + [a for _, a, _ in upright] + [b for _, _, b in upright]
    return x0 + min(xs), y0 + min(ys), x0 + max(xs) + 1, y0 + max(ys) + 1


def window_squares(image: Image, g: BoardGeometry, margin: float = 0.5,
                   ) -> npt.NDArray[np.bool_]:
    """The squares of board ``g`` that the window of :func:`window_box` covers in
    whole or in part, or comes within ``margin`` of a square of; all False when there
    is no window. (Windows 7's dialog darkens the squares up to 20 px around it, 0.8
    of a square: at a margin of 0.15 its shadowed 2s made a look a loss reading took
    for mines; the numbers beside those squares are bounds only, see
    :data:`vision.calibrate.HIDDEN`.)

    >>> from vision.geometry import BoardGeometry
    >>> board = np.full((120, 120, 3), 200, np.uint8)
    >>> board[:, ::20] = 90                                  # 6x6 squares of 20 px
    >>> board[35:95, 48:115] = 255                           # a dialog from mid-square
    >>> g = BoardGeometry("", 0.0, 0.0, 20.0, 20.0, 6, 6)
    >>> window_squares(board, g).astype(int).tolist()[0:2]   # (half a square around)
    [[0, 0, 0, 0, 0, 0], [0, 1, 1, 1, 1, 1]]
    """
    box = window_box(image, g)
    return squares_under(g, [] if box is None else [box], margin)


def squares_under(g: BoardGeometry, boxes: Sequence[tuple[float, float, float, float]],
                  margin: float = 0.5) -> npt.NDArray[np.bool_]:
    """The squares of board ``g`` that any of ``boxes`` (``(x0, y0, x1, y1)`` in image
    pixels, ends excluded) covers in whole or in part, or comes within ``margin``
    squares (at least 2 px) of: a window over the board and its shadow.

    >>> from vision.geometry import BoardGeometry
    >>> g = BoardGeometry("", 0.0, 0.0, 20.0, 20.0, 3, 4)
    >>> squares_under(g, [(45.0, 25.0, 70.0, 35.0)], margin=0.0).astype(int).tolist()
    [[0, 0, 0, 0], [0, 0, 1, 1], [0, 0, 0, 0]]
    """
    out = np.zeros((g.rows, g.cols), bool)
    mx, my = max(2.0, margin * g.pitch_x), max(2.0, margin * g.pitch_y)
    for x0, y0, x1, y1 in boxes:
        bx0, by0, bx1, by1 = x0 - mx, y0 - my, x1 + mx, y1 + my
        cols = [c for c in range(g.cols) if g.col_left(c) < bx1 and g.col_left(c + 1) > bx0]
        rows = [r for r in range(g.rows) if g.row_top(r) < by1 and g.row_top(r + 1) > by0]
        out[np.ix_(rows, cols)] = True
    return out


GAP = 0.15
"""Widest gap (in squares, at least 2 px) closed along a window's side before its ends
are taken (:func:`window_box`)."""


def _gap(pitch: float) -> int:
    return int(max(2.0, GAP * pitch))


def _closed(steps: npt.NDArray[np.bool_], gap: int) -> npt.NDArray[np.bool_]:
    """``steps`` with every gap of up to ``gap`` pixels down a column filled."""
    kernel = np.ones((gap + 1, 1), np.uint8)
    shut = cv2.morphologyEx(steps.astype(np.uint8), cv2.MORPH_CLOSE, kernel)
    return np.asarray(shut, bool)


def _long_sides(steps: npt.NDArray[np.bool_], lines: list[float], pitch: float,
                along: float) -> list[tuple[int, int, int]]:
    """Each run of set pixels down a column of ``steps`` (a step between pixels ``x``
    and ``x + 1``) that lies :data:`OFF_LATTICE` squares of ``pitch`` or more from
    every lattice line of ``lines`` and is :data:`LEAST_RUN` squares of ``along``
    pixels long or longer, as ``(x, first y, last y)``."""
    at = np.arange(steps.shape[1]) + 1.0  # (where each step lies)
    off = np.min(np.abs(at[:, None] - np.asarray(lines)[None, :]), axis=1)
    far = np.flatnonzero(off >= OFF_LATTICE * pitch)
    least = LEAST_RUN * along
    out = []
    for x in far[longest_runs(steps[:, far]) >= least]:
        edges = np.flatnonzero(np.diff(np.concatenate(([0], steps[:, x].astype(np.int8), [0]))))
        out += [(int(x), int(a), int(b) - 1) for a, b in zip(edges[::2], edges[1::2],
                                                               strict=True) if b - a >= least]
    return out


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
