"""Squares that moved during a game: a board whose lattice is not fixed.

A Tk game of buttons (``mfranceschi-minesweeper`` 0.2.3 on PyPI) sizes each button to
its text: a column that shows a digit grows by 4 px and every square right of it moves,
and at 8x8 the board grew from 32 px squares to 36. Calibration cut every square at its
first place from then on, took the half squares for the end of a game, and wrote a skin
of split squares with exit 0. Before a game's end is read, the board is found again
near where it was (:func:`squares_moved`); lines that are not the board's any more mean
squares that move, which sweepbot cannot follow.

>>> from vision.geometry import BoardGeometry
>>> g = BoardGeometry("", 0.0, 0.0, 32.0, 31.0, 8, 8)
>>> squares_moved(BoardGeometry("", 0.0, 0.0, 32.0, 31.0, 8, 5), g)  # (part of it)
False
>>> squares_moved(BoardGeometry("", 0.0, 17.0, 32.0, 31.0, 8, 8), g)  # (its rows moved)
True
>>> squares_moved(BoardGeometry("", 0.0, 0.0, 36.0, 31.0, 8, 8), g)
True
>>> squares_moved(BoardGeometry("", 0.0, 0.0, 10.7, 31.0, 8, 24), g)  # (another lattice)
False
>>> squares_moved(BoardGeometry("", 0.0, 17.0, 32.0, 31.0, 7, 8), g)  # (not all of it)
False
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from solver.cells import UNKNOWN
from vision.geometry import BoardGeometry

Image = npt.NDArray[np.uint8]

AROUND = 3
"""Squares around the board searched for it again (a board that grew shows there; the
Tk game's board grown to 36 px squares was not found within 2)."""


def board_again(image: Image, g: BoardGeometry) -> BoardGeometry | None:
    """The lattice found in ``image`` within :data:`AROUND` squares of board ``g``
    (in ``image``'s pixels), or None when none is found there (a dialog over it)."""
    from vision.lattice import NoBoardError, find_lattice

    b = g.bounds()
    x0 = max(0, int(b.left - AROUND * g.pitch_x))
    y0 = max(0, int(b.top - AROUND * g.pitch_y))
    x1 = int(b.left + b.width + AROUND * g.pitch_x)
    y1 = int(b.top + b.height + AROUND * g.pitch_y)
    try:
        found = find_lattice(np.ascontiguousarray(image[y0:y1, x0:x1]))
    except NoBoardError:
        return None
    return found.shifted(x0, y0)


def squares_moved(found: BoardGeometry, g: BoardGeometry) -> bool:
    """Are :data:`OFF_LINES` or more lines of lattice ``found`` (the board found again)
    off board ``g``'s: a line of ``found`` within ``g``'s extent more than
    :func:`line_slack` from every line of ``g``, or a line of ``g`` that far from every
    line of ``found`` within ``found``'s extent? (A part of the board found, as beside
    a dialog, is no move.) Only a lattice of ``g``'s rows and columns at about its
    pitch (within :data:`OTHER_PITCH`) tells: the lattice finder may take a board that
    is mostly open for another one (the thirds of squares 56 px wide, or squares 56 px
    tall at another phase, on made-up boards that did not move)."""
    if (found.rows, found.cols) != (g.rows, g.cols) or any(
            abs(a / b - 1.0) >= OTHER_PITCH for a, b in ((found.pitch_x, g.pitch_x),
                                                         (found.pitch_y, g.pitch_y))):
        return False
    off = _off(_lines(found, "x"), _lines(g, "x"), line_slack(g.pitch_x)) + \
        _off(_lines(found, "y"), _lines(g, "y"), line_slack(g.pitch_y))
    return off >= OFF_LINES


OTHER_PITCH = 0.25
"""Share a lattice found again may be off the board's pitch and still be the board
(the Tk game's squares grew from 32 px to 36: 12 %)."""

OFF_LINES = 2
"""Lines off that make a move: one may be an edge the lattice finder put by the pitch,
not measured (gnome-mines 30x16 at 29.7 px: its last lines 2.4-2.5 px apart on two
frames of one game)."""


def line_slack(pitch: float) -> float:
    """How far a square's edge found again may lie from where it was: 2 px, or a tenth
    of the pitch on bigger squares (a fractional pitch rounds its edges either way).

    >>> line_slack(16.0), line_slack(32.0)
    (2.0, 3.2)
    """
    return max(2.0, 0.1 * pitch)


def _lines(g: BoardGeometry, axis: str) -> list[float]:
    if axis == "x":
        return [g.col_left(c) for c in range(g.cols + 1)]
    return [g.row_top(r) for r in range(g.rows + 1)]


def _off(a: list[float], b: list[float], slack: float) -> int:
    """The lines of ``a`` inside ``b``'s extent far from all of ``b``'s, plus those of
    ``b`` inside ``a``'s extent far from all of ``a``'s."""
    def far(these: list[float], those: list[float]) -> int:
        lo, hi = those[0] - slack, those[-1] + slack
        return sum(1 for v in these if lo <= v <= hi and min(abs(v - w) for w in those) > slack)
    return far(a, b) + far(b, a)


Read = Callable[[BoardGeometry], npt.NDArray[np.int8]]
"""Reads the squares of a board at a geometry (UNKNOWN where a square reads as no look)."""


def refit_lines(g: BoardGeometry, read: Read) -> BoardGeometry | None:
    """``g`` with each row, then each column, whose squares do not all read moved on its
    own to where they do (:func:`_line_place`); None unless the whole board then reads.

    A game that lays out its squares by what they show moves them one line at a time:
    DangerUXB (Tk) draws a number as text in place of its button's image, so a row of
    numbers alone is 8 px shorter, and the rows share the spare height out again (16x16
    at 41 px: the rows above it up to 6 px lower, those below 2 px higher). A board
    partly covered reads nowhere there: None.

    >>> def read(h):  # a row reads only with its top on a multiple of 11 px
    ...     ok = [h.row_top(r) % 11 == 0 for r in range(h.rows)]
    ...     return np.array([[0 if k else UNKNOWN] * h.cols for k in ok], np.int8)
    >>> refit_lines(BoardGeometry("", 0.0, 0.0, 10.0, 10.0, 3, 2), read).tops
    (0.0, 11.0, 22.0)
    >>> refit_lines(BoardGeometry("", 0.0, 0.0, 10.0, 10.0, 3, 2),
    ...             lambda h: np.full((h.rows, h.cols), UNKNOWN, np.int8)) is None
    True
    """
    for axis in (0, 1):
        unread = read(g) == UNKNOWN
        lines = np.flatnonzero(unread.any(axis=1 - axis))
        if len(lines) > max(2, (g.rows, g.cols)[axis] // 2):
            continue  # most of it unread: covered, or moved whole (the locator's case)
        for k in lines:
            g = _line_place(g, read, axis, int(k))
    if (read(g) == UNKNOWN).any() or not _ordered(g):
        return None
    return g


def _line_place(g: BoardGeometry, read: Read, axis: int, k: int) -> BoardGeometry:
    """``g`` with line ``k`` (a row for ``axis`` 0) moved to the middle of the run of
    whole pixel shifts, within a third of the pitch, at which all its squares read: the
    run nearest where it was (a square reads over a few pixels' shift, a covered one
    over many). Unmoved when it reads at none."""
    pitch = g.pitch_y if axis == 0 else g.pitch_x
    reach = int(pitch / 3)
    edge = g.row_top(k) if axis == 0 else g.col_left(k)
    shifts = [d for d in range(-reach, reach + 1)
              if not (read(_one_line(g, axis, edge + d)) == UNKNOWN).any()]
    if not shifts:
        return g
    near = min(shifts, key=abs)
    lo = hi = near
    while lo - 1 in shifts:
        lo -= 1
    while hi + 1 in shifts:
        hi += 1
    edges = [g.row_top(r) for r in range(g.rows)] if axis == 0 else \
        [g.col_left(c) for c in range(g.cols)]
    edges[k] = edge + (lo + hi) / 2
    if axis == 0:
        return replace(g, tops=tuple(edges))
    return replace(g, lefts=tuple(edges))


def _one_line(g: BoardGeometry, axis: int, edge: float) -> BoardGeometry:
    """A board of one row (``axis`` 0) or column of ``g``, its edge at ``edge``."""
    if axis == 0:
        return BoardGeometry(g.skin, g.col_left(0), edge, g.pitch_x, g.pitch_y, 1, g.cols,
                             g.lefts, None)
    return BoardGeometry(g.skin, edge, g.row_top(0), g.pitch_x, g.pitch_y, g.rows, 1,
                         None, g.tops)


def _ordered(g: BoardGeometry) -> bool:
    """Do ``g``'s rows and columns follow each other at least half a pitch apart?"""
    tops = np.diff([g.row_top(r) for r in range(g.rows)])
    lefts = np.diff([g.col_left(c) for c in range(g.cols)])
    return bool((tops >= g.pitch_y / 2).all() and (lefts >= g.pitch_x / 2).all())
