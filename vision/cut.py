"""A board cut by the edge of its window or of the screen.

A game window too small for its board (a browser page wider than the window), or one
moved partly off the screen, shows only part of the board, and the part is found as a
board of its own: fewer columns or rows than the game has. Played as it is, every
number along the cut counts mines the solver cannot see. What gives the cut away is
the line of squares it cuts through: a few pixels of one more square show past the
side (or, when a locator took that line for a whole one, the board's outer line
stops short), drawn as the squares of the board draw their own first pixels.

:func:`cut_sides` compares the pixels just past each side, line by line outward,
with the same pixels of the squares of their own row (or column). A board's own frame
differs from a square's first pixels within a pixel or two.

>>> import numpy as np
>>> from vision.geometry import BoardGeometry
>>> square = np.full((10, 10, 3), 190, np.uint8)
>>> square[0, :] = square[:, 0] = 250                  # light top and left edge
>>> tiles = np.tile(square, (4, 7, 1))                 # 4 rows x 7 columns of squares
>>> image = np.zeros((60, 100, 3), np.uint8)
>>> image[10:50, 10:74] = tiles[:, :64]                # the last column cut after 4 px
>>> board = BoardGeometry("s", 10.0, 10.0, 10.0, 10.0, 4, 6)
>>> cut_sides(image, board)
('right',)
>>> image[10:50, 70:74] = 0                            # the same board, whole
>>> cut_sides(image, board)
()
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from vision.geometry import BoardGeometry

Image = npt.NDArray[np.uint8]

SIDES = ("left", "right", "top", "bottom")

MATCH_TOLERANCE = 12.0
"""Mean absolute difference (0-255, over a square's run of pixels in one pixel line) up
to which a pixel line past the board and the same line of a square agree."""

MATCH_SHARE = 0.5
"""The share of the squares along a side that must show the first lines of some square
of their own row or column (a square cut through may show any state)."""

PARTIAL = 0.85
"""A square of a board's outer line that agrees with a square of its row (or column)
for this share of a pitch is whole."""

MIN_CONTRAST = 30.0
"""The lines shown past the side must span this much (0-255, over squares, lines and
channels) to count: one plain colour is no evidence."""

SHIFTS = (-1, 0, 1)
"""Each square is also taken a pixel either way: a lattice of fractional pitch puts the
board's edge and its squares' edges at different fractions of a pixel."""


def _outward(image: Image, g: BoardGeometry, side: str) -> tuple[Image, BoardGeometry]:
    """The image and board turned so that ``side`` is the right-hand side."""
    if side in ("top", "bottom"):
        image = image.transpose(1, 0, 2)
        g = BoardGeometry(g.skin, g.y0, g.x0, g.pitch_y, g.pitch_x, g.cols, g.rows,
                          g.tops, g.lefts)
    if side in ("left", "top"):
        width = image.shape[1]
        image = image[:, ::-1]
        lefts = None if g.lefts is None else tuple(width - g.col_left(c + 1)
                                                   for c in reversed(range(g.cols)))
        g = BoardGeometry(g.skin, width - g.col_left(g.cols), g.y0, g.pitch_x, g.pitch_y,
                          g.rows, g.cols, lefts, g.tops)
    return image, g


def _row_looks(image: Image, g: BoardGeometry, r: int, run: int, depth: int) -> Image:
    """The first ``depth`` pixel columns of every square of row ``r`` of ``g`` but
    the two at its ends (which may be cut themselves), ``run`` pixels high, each also
    a pixel either way (:data:`SHIFTS`): (squares, run, depth, 3)."""
    top = round(g.row_top(r))
    inside = range(1, g.cols - 1) if g.cols > 2 else range(g.cols)
    lefts = [round(g.col_left(c)) + s for c in inside for s in SHIFTS]
    looks = [image[top:top + run, x:x + depth] for x in lefts
             if x >= 0 and x + depth <= image.shape[1]]
    return np.stack(looks) if looks else np.empty((0, run, depth, 3), np.uint8)


def _prefixes(image: Image, g: BoardGeometry) -> tuple[list[int], list[Image], int]:
    """For each row of ``g``: how many pixel columns past its right side show the
    first columns of some square of the row, and those columns' colours (mean over
    the row's run); and how many columns were compared."""
    start = round(g.col_left(g.cols))
    depth = max(0, min(math.floor(g.pitch_x), image.shape[1] - start))
    tops = [round(g.row_top(r)) for r in range(g.rows + 1)]
    run = min(b - a for a, b in zip(tops, tops[1:], strict=False)) if g.rows else 0
    if depth == 0 or g.cols < 2 or run <= 0:
        return [], [], 0
    best, colours = [], []
    for r, top in enumerate(tops[:-1]):
        looks = _row_looks(image, g, r, run, depth).astype(np.int16)
        past = image[top:top + run, start:start + depth]
        diff = np.abs(looks - past.astype(np.int16)).mean(axis=(1, 3))  # (looks, lines)
        alike = diff <= MATCH_TOLERANCE
        prefix = np.where(alike.all(axis=1), depth, np.argmin(alike, axis=1))
        best.append(int(prefix.max()) if len(prefix) else 0)
        colours.append(past.mean(axis=0))
    return best, colours, depth


def _shown(best: list[int], colours: list[Image]) -> int:
    """The depth most rows reach (:data:`MATCH_SHARE`), or 0 when the columns shown
    there are one plain colour (a character on a plain background: the background
    agrees with it as well)."""
    if not best:
        return 0
    shown = int(np.sort(best)[int(len(best) * (1 - MATCH_SHARE))])
    if shown == 0:
        return 0
    seen = np.stack([c[:shown] for c, b in zip(colours, best, strict=True) if b >= shown])
    return shown if np.ptp(seen) >= MIN_CONTRAST else 0


def shown_depth(image: Image, g: BoardGeometry, side: str) -> int:
    """How many pixel lines past ``side`` of the board show the first lines of some
    square of their own row (or column), for most squares along the side (0 for one
    plain colour)."""
    return _shown(*_prefixes(*_outward(image, g, side))[:2])


def cut_short(image: Image, g: BoardGeometry, side: str) -> int:
    """How many pixel lines of the board's outer line on ``side`` show the squares
    of their own row (or column) further in, when no more than one in ten of its
    squares shows a whole one (a line cut short: a whole line in play shows covered
    or opened squares like those beside them); else 0."""
    best, colours, depth = _prefixes(*_outward(image, inner(g, side), side))
    whole = sum(b >= PARTIAL * depth for b in best)
    return _shown(best, colours) if best and whole <= 0.1 * len(best) else 0


def inner(g: BoardGeometry, side: str) -> BoardGeometry:
    """The board ``g`` less its outer line of squares on ``side``.

    >>> inner(BoardGeometry("s", 10.0, 20.0, 16.0, 16.0, 9, 9), "left").bounds()
    PixelRect(left=26, top=20, width=128, height=144)
    """
    if side in ("left", "right"):
        lefts = g.lefts and (g.lefts[1:] if side == "left" else g.lefts[:-1])
        x0 = g.col_left(1) if side == "left" else g.x0
        return replace(g, x0=x0, cols=g.cols - 1, lefts=lefts)
    tops = g.tops and (g.tops[1:] if side == "top" else g.tops[:-1])
    y0 = g.row_top(1) if side == "top" else g.y0
    return replace(g, y0=y0, rows=g.rows - 1, tops=tops)


def cut_sides(image: Image, g: BoardGeometry, min_depth: int = 4,
              whole: npt.NDArray[np.bool_] | None = None) -> tuple[str, ...]:
    """The sides of the board ``g`` where its window's edge or the screen's cuts a
    line of squares: past the side at least ``min_depth`` pixel lines and a third of
    a pitch of one more line show (fewer may be a frame's bevel, which can look like
    the first lines of a raised square), or the board's own outer line shows only
    that much of its squares (:func:`cut_short`: a locator may take a line cut late
    for a whole one). A cut that falls between two lines of squares leaves nothing
    to see and is not found. ``whole`` (rows x cols): the squares a skin reads as a
    look it knows, so not cut; an outer line of such squares is not cut short (at a
    won board gnome-mines' dialog hides most of each row, and the numbers left at its
    ends have no like square beside them to show they are whole)."""
    found = []
    for side in SIDES:
        least = _least_depth(g, side, min_depth)
        lines = g.cols if side in ("left", "right") else g.rows
        if shown_depth(image, g, side) >= least:
            found.append(side)
        elif lines > 2 and not _outer_whole(whole, side) and \
                cut_short(image, g, side) >= least:
            found.append(side)
    return tuple(found)


def _least_depth(g: BoardGeometry, side: str, min_depth: int = 4) -> int:
    """How many pixel lines of one more line of squares must show past ``side`` of
    the board ``g`` for :func:`cut_sides` to take it for a cut line: ``min_depth`` and
    a third of a pitch.

    >>> _least_depth(BoardGeometry("s", 0.0, 0.0, 20.0, 38.0, 13, 15), "bottom")
    13
    """
    pitch = g.pitch_x if side in ("left", "right") else g.pitch_y
    return max(min_depth, math.ceil(pitch / 3))


def _outer_whole(whole: npt.NDArray[np.bool_] | None, side: str) -> bool:
    """Is every square of the board's outer line on ``side`` known whole?

    >>> whole = np.array([[True, False], [True, True]])
    >>> [_outer_whole(whole, s) for s in SIDES], _outer_whole(None, "left")
    ([True, False, False, True], False)
    """
    if whole is None:
        return False
    line = {"left": whole[:, 0], "right": whole[:, -1], "top": whole[0], "bottom": whole[-1]}
    return bool(line[side].all())


def cut_message(g: BoardGeometry, sides: tuple[str, ...]) -> str:
    """What to tell a user whose board is cut at ``sides``.

    >>> from vision.geometry import BoardGeometry
    >>> print(cut_message(BoardGeometry("s", 0, 0, 30, 30, 16, 26), ("right",)))
    the board is cut at its right side (16 rows x 26 columns show, and part of one more \
line of squares past them): make the game's window larger, or move it fully onto the \
screen, so that the whole board shows
    """
    where = " and ".join(sides)
    return (f"the board is cut at its {where} side{'s' if len(sides) > 1 else ''} "
            f"({g.rows} rows x {g.cols} columns show, and part of one more line of "
            "squares past them): make the game's window larger, or move it fully onto "
            "the screen, so that the whole board shows")


EDGE_SLACK = 1
"""A side of a board this many pixels or fewer from the edge of a screenshot of the
whole screen reaches it: a game draws some frame or margin round its board."""

EDGE_SIDES = ("right", "bottom")
"""The screen's edges :func:`edge_sides` looks at. Not the left and top: a window with
no window manager opens at (0, 0), and a game may draw its board from its window's
very corner (minesweeper-python 0.0.4, a tk window)."""


def reaching_edges(size: tuple[int, int], g: BoardGeometry,
                   sides: tuple[str, ...] = SIDES, slack: int = EDGE_SLACK) -> tuple[str, ...]:
    """The sides, among ``sides``, of the board ``g`` that lie ``slack`` pixels or fewer
    from the edge of a screen ``size`` = (width, height) pixels.

    >>> from vision.geometry import BoardGeometry
    >>> board = BoardGeometry("s", 10.0, 10.0, 10.0, 10.0, 4, 6)   # 60 x 40 px at (10, 10)
    >>> reaching_edges((71, 50), board)
    ('right', 'bottom')
    >>> reaching_edges((80, 60), board.shifted(-10, -9))   # at (0, 1)
    ('left', 'top')
    >>> reaching_edges((80, 60), board.shifted(-10, -9), EDGE_SIDES)
    ()
    """
    gaps = _gaps(size, g)
    return tuple(side for side in sides if gaps[side] <= slack)


def _gaps(size: tuple[int, int], g: BoardGeometry) -> dict[str, int]:
    """The pixels between each side of the board ``g`` and the edge of a screen
    ``size`` = (width, height)."""
    b = g.bounds()
    w, h = size
    return {"left": b.left, "right": w - b.left - b.width,
            "top": b.top, "bottom": h - b.top - b.height}


def edge_sides(screen: Image, g: BoardGeometry, slack: int = EDGE_SLACK) -> tuple[str, ...]:
    """The sides of the board ``g`` that reach the right or bottom edge of ``screen``,
    a screenshot of the whole screen (:data:`EDGE_SIDES`): a window moved partly off
    the screen may be cut between two lines of squares, which leaves nothing past the
    side to tell the cut by (:func:`cut_sides`), or just past the first pixels of a
    line, too few for :func:`cut_sides` to tell from a frame (:func:`_sliver`). Not for
    a capture cropped to the board.

    >>> import numpy as np
    >>> from vision.geometry import BoardGeometry
    >>> board = BoardGeometry("s", 10.0, 10.0, 10.0, 10.0, 4, 6)   # 60 x 40 px at (10, 10)
    >>> edge_sides(np.zeros((50, 71, 3), np.uint8), board)
    ('right', 'bottom')
    >>> edge_sides(np.zeros((60, 80, 3), np.uint8), board)
    ()
    >>> edge_sides(np.zeros((60, 80, 3), np.uint8), board.shifted(-10, -10))  # at (0, 0)
    ()
    """
    h, w = screen.shape[:2]
    gaps = _gaps((w, h), g)
    return tuple(side for side in EDGE_SIDES
                 if gaps[side] <= slack or _sliver(screen, g, side, gaps[side]))


def _sliver(screen: Image, g: BoardGeometry, side: str, gap: int) -> bool:
    """Do the ``gap`` pixel lines between ``side`` of the board and the screen's edge,
    fewer than :func:`cut_sides` needs, all show the first lines of the squares of
    their own row (or column)? Then a line of squares runs off the screen there (a
    window moved 6 px short of the screen's bottom showed 6 px of a 38-px row of
    cave-sweeper's): a frame's bevel that looks the same, run into the screen's edge,
    is a window partly off the screen all the same."""
    if not 0 < gap < _least_depth(g, side):
        return False
    return shown_depth(screen, g, side) >= gap


def off_screen_hint(size: tuple[int, int], g: BoardGeometry) -> str:
    """A hint for a board that cannot be read right and reaches the screen's left or
    top edge (a window there may be cut between two lines of squares, which neither
    :func:`cut_sides` nor :func:`edge_sides` can tell from a window at (0, 0)): numbers
    along that side count mines off the screen. Empty for any other board.

    >>> from vision.geometry import BoardGeometry
    >>> board = BoardGeometry("s", 0.0, 5.0, 10.0, 10.0, 4, 6)
    >>> off_screen_hint((800, 600), board)
    "; the board reaches the screen's left edge: if part of it lies off the screen, move \
the game's window fully onto the screen"
    >>> off_screen_hint((800, 600), board.shifted(5, 0))
    ''
    """
    sides = reaching_edges(size, g, ("left", "top"))
    if not sides:
        return ""
    return (f"; the board reaches the screen's {' and '.join(sides)} "
            f"edge{'s' if len(sides) > 1 else ''}: if part of it lies off the screen, "
            "move the game's window fully onto the screen")


def edge_message(g: BoardGeometry, sides: tuple[str, ...]) -> str:
    """What to tell a user whose board reaches the screen's edge at ``sides``.

    >>> from vision.geometry import BoardGeometry
    >>> print(edge_message(BoardGeometry("s", 0, 0, 30, 30, 16, 26), ("left",)))
    the board (16 rows x 26 columns show) reaches the screen's left edge, so more of it \
may lie off the screen: move the game's window so that its whole board, and some of the \
window round it, shows
    """
    where = " and ".join(sides)
    return (f"the board ({g.rows} rows x {g.cols} columns show) reaches the screen's "
            f"{where} edge{'s' if len(sides) > 1 else ''}, so more of it may lie off the "
            "screen: move the game's window so that its whole board, and some of the "
            "window round it, shows")


def screen_cut_message(screen: Image, g: BoardGeometry,
                       whole: npt.NDArray[np.bool_] | None = None) -> str | None:
    """Why the board ``g`` on ``screen`` (a screenshot of the whole screen) may not be
    whole, for a user to mend before any click: cut by its window's edge or the
    screen's (:func:`cut_sides`; ``whole`` as there), or reaching the screen's edge
    (:func:`edge_sides`); None if it shows whole."""
    cut = cut_sides(screen, g, whole=whole)
    if cut:
        return cut_message(g, cut)
    edges = edge_sides(screen, g)
    return edge_message(g, edges) if edges else None
