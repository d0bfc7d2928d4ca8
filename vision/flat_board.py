"""A board drawn flat: squares of one colour with no edge between them.

Some clones fill every covered square with one colour and draw nothing between them
(a pygame game fills each 28 px square with grey over the border it drew first), so a
fresh board is one plain rectangle and :func:`vision.lattice.find_lattice` finds no
squares in it. Given the board's size in squares (``sweepbot calibrate --grid``),
:func:`flat_board` takes the one rectangle of a single colour that splits into that
many squares, and :func:`split_share` tells, once a click opened some, whether they
are the board's squares. In screenshots of any point of a game (``calibrate --from``),
:func:`plain_board` finds the board as a region of one or two plain colours. Once a
skin of such a game is learned, :func:`locate_flat` finds its board in play: the
squares in the skin's plain looks (covered, open) make one region whose bounding box
is the board, at the skin's pitch.

>>> img = np.full((120, 160, 3), 200, np.uint8)
>>> img[20:100, 30:130] = 120  # a fresh 4 x 5 board of 20 px squares
>>> flat_board(img, 4, 5)
BoardGeometry(skin='', x0=30.0, y0=20.0, pitch_x=20.0, pitch_y=20.0, rows=4, cols=5)
>>> flat_board(img, 4, 10)  # (squares of 10 x 20 px: not square)
Traceback (most recent call last):
...
vision.lattice.NoBoardError: no rectangle of one colour on the screen splits into 4 x 10 \
squares (plain rectangles seen: 100 x 80 px at (30, 20))
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from solver.cells import COVERED, UNKNOWN
from vision.geometry import BoardGeometry, PixelRect
from vision.lattice import NoBoardError
from vision.read import read_board
from vision.skin import Skin

Image = npt.NDArray[np.uint8]

MIN_PITCH = 8.0
"""Smallest square side, in pixels, a flat board is split into."""
SQUARE_ASPECT = 1.25
"""A flat board's squares are at most this much wider than tall, or taller than wide."""
TOP_COLOURS = 12
"""The most common colours of an image looked at for plain rectangles."""
PITCH_SLACK = 0.05
"""Share of a pitch a region's side may be off a whole number of squares in play."""
READ_SHARE = 0.9
"""Share of a flat board's squares the skin must read as known in play."""


def packed_colours(image: Image) -> npt.NDArray[np.int32]:
    """Each pixel's BGR packed into one int (blue in the low byte).

    >>> int(packed_colours(np.array([[[1, 2, 3]]], np.uint8))[0, 0]) == 1 + (2 << 8) + (3 << 16)
    True
    """
    img = image.astype(np.int32)
    return img[..., 0] | (img[..., 1] << 8) | (img[..., 2] << 16)


def flat_rectangles(image: Image, min_side: int = round(2 * MIN_PITCH)) -> list[PixelRect]:
    """Rectangles, each at least ``min_side`` px a side, filled wholly with one colour
    and bounded by other colours on every side (none reaches the image's edge: an
    empty screen is no board), among the image's :data:`TOP_COLOURS` most common
    colours; biggest first. (The background round a plain board has a hole in it, so
    it is no rectangle.)

    >>> img = np.zeros((60, 60, 3), np.uint8); img[10:40, 5:25] = 50
    >>> flat_rectangles(img)
    [PixelRect(left=5, top=10, width=20, height=30)]
    >>> flat_rectangles(np.zeros((60, 60, 3), np.uint8))
    []
    """
    height, width = image.shape[:2]
    packed = packed_colours(image)
    colours, counts = np.unique(packed[::2, ::2], return_counts=True)
    found: list[PixelRect] = []
    for colour in colours[np.argsort(-counts)][:TOP_COLOURS].tolist():
        mask = (packed == colour).astype(np.uint8)
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
        for x, y, w, h, area in stats[1:].tolist():
            inside = x > 0 and y > 0 and x + w < width and y + h < height
            if w >= min_side and h >= min_side and area == w * h and inside:
                found.append(PixelRect(x, y, w, h))
    return sorted(found, key=lambda r: -r.width * r.height)


def split_rect(rect: PixelRect, rows: int, cols: int, skin: str = "") -> BoardGeometry | None:
    """``rect`` as a board of ``rows`` x ``cols`` squares, or None when its squares
    would be smaller than :data:`MIN_PITCH` or further from square than
    :data:`SQUARE_ASPECT`.

    >>> split_rect(PixelRect(0, 0, 90, 60), 2, 3)
    BoardGeometry(skin='', x0=0.0, y0=0.0, pitch_x=30.0, pitch_y=30.0, rows=2, cols=3)
    >>> split_rect(PixelRect(0, 0, 90, 60), 2, 9) is None
    True
    """
    px, py = rect.width / cols, rect.height / rows
    if min(px, py) < MIN_PITCH or max(px, py) > SQUARE_ASPECT * min(px, py):
        return None
    return BoardGeometry(skin, float(rect.left), float(rect.top), px, py, rows, cols)


def flat_board(image: Image, rows: int, cols: int) -> BoardGeometry:
    """The board of ``rows`` x ``cols`` squares drawn as one plain rectangle (a fresh
    game of a flat skin); :class:`NoBoardError` when no plain rectangle splits into
    such squares, or when two do (which one is meant cannot be told)."""
    if rows < 2 or cols < 2:
        raise NoBoardError(f"a board of {rows} x {cols} squares is too small to find")
    rects = flat_rectangles(image)
    fits = [g for r in rects if (g := split_rect(r, rows, cols)) is not None]
    if len(fits) == 1:
        return fits[0]
    seen = ", ".join(f"{r.width} x {r.height} px at ({r.left}, {r.top})" for r in rects[:4])
    if not fits:
        raise NoBoardError(f"no rectangle of one colour on the screen splits into {rows} "
                           f"x {cols} squares (plain rectangles seen: {seen or 'none'})")
    raise NoBoardError(f"{len(fits)} rectangles of one colour on the screen split into "
                       f"{rows} x {cols} squares ({seen}): cannot tell which is the board")


RING_SHARE = 0.9
"""Share of a square's edge pixels that must be in the board's plain colours, and share
of the squares that must have such an edge, for a plain board found mid-game."""


def plain_board(image: Image, rows: int, cols: int) -> BoardGeometry | None:
    """The board of ``rows`` x ``cols`` plain squares in ``image`` at any point of a
    game: the biggest region in one or two of the image's commonest colours (covered,
    open) whose box splits into that many square squares, each of whose edges is one
    of those colours (:func:`_ringed`), whatever is drawn inside (numbers, mines,
    flags). None when there is none, or two of one size.

    >>> img = np.full((120, 160, 3), 200, np.uint8)
    >>> img[20:100, 30:130] = 120; img[20:60, 30:70] = 230  # 4 x 5, four squares open
    >>> img[45:55, 55:65] = 0  # (a number)
    >>> plain_board(img, 4, 5)
    BoardGeometry(skin='', x0=30.0, y0=20.0, pitch_x=20.0, pitch_y=20.0, rows=4, cols=5)
    >>> plain_board(img, 2, 5) is None  # (squares 20 x 40 px)
    True
    """
    packed = packed_colours(image)
    colours, counts = np.unique(packed[::2, ::2], return_counts=True)
    top = colours[np.argsort(-counts)][:TOP_COLOURS // 2].tolist()
    found: dict[tuple[int, int], list[BoardGeometry]] = {}
    for pick in [(a,) for a in top] + [(a, b) for i, a in enumerate(top) for b in top[i + 1:]]:
        mask = np.isin(packed, pick).astype(np.uint8)
        _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        for x, y, w, h, _ in stats[1:].tolist():
            g = split_rect(PixelRect(x, y, w, h), rows, cols) \
                if w >= 2 * MIN_PITCH and h >= 2 * MIN_PITCH else None
            if g is not None and g not in found.get((w, h), []) and _ringed(packed, g, pick):
                found.setdefault((w, h), []).append(g)
    if not found:
        return None
    biggest = found[max(found, key=lambda wh: wh[0] * wh[1])]
    return biggest[0] if len(biggest) == 1 else None


def _ringed(packed: npt.NDArray[np.int32], g: BoardGeometry, colours: tuple[int, ...]) -> bool:
    """Is the edge of :data:`RING_SHARE` of ``g``'s squares, to that share of its
    pixels, one of ``colours`` (a plain square's; a lattice across the board's squares
    has squares edged in two)?"""
    ringed = 0
    for r in range(g.rows):
        for c in range(g.cols):
            x, y, w, h = g.cell_rect((r, c))
            square = packed[y:y + h, x:x + w]
            edge = np.concatenate([square[0], square[-1], square[:, 0], square[:, -1]])
            ringed += any(float((edge == colour).mean()) >= RING_SHARE for colour in colours)
    return ringed >= RING_SHARE * g.rows * g.cols


def plain_colours(skin: Skin) -> list[int]:
    """The packed colours (:func:`packed_colours`) of the skin's covered and open (0)
    templates that are one plain colour; empty unless a covered one is (a skin of drawn
    squares: WinMine's black 0 of a dark screen is no plain board).

    >>> plain = np.full((20, 20, 3), 9, np.uint8); drawn = plain.copy(); drawn[0] = 255
    >>> plain_colours(Skin("s", "", (20.0, 20.0), {COVERED: (plain,)}, {}, {})) == \\
    ...     [9 + (9 << 8) + (9 << 16)]
    True
    >>> plain_colours(Skin("s", "", (20.0, 20.0), {COVERED: (drawn,), 0: (plain,)}, {}, {}))
    []
    """
    def plain(code: int) -> list[int]:
        return [int(packed_colours(img[:1, :1])[0, 0]) for img in skin.cells.get(code, ())
                if img.size and (img.reshape(-1, 3) == img.reshape(-1, 3)[0]).all()]

    covered = plain(COVERED)
    return [*covered, *plain(0)] if covered else []


def locate_flat(image: Image, skin: Skin) -> BoardGeometry | None:
    """The board of a flat skin (:func:`plain_colours`) in ``image``: the biggest
    region of squares in the skin's plain colours whose bounding box is a whole number
    of squares at the skin's pitch (within :data:`PITCH_SLACK`) and reads as known
    (:data:`READ_SHARE` of its squares); None when there is none.

    >>> cover = np.full((20, 20, 3), 120, np.uint8); opened = np.full((20, 20, 3), 230, np.uint8)
    >>> skin = Skin("flat", "", (20.0, 20.0), {COVERED: (cover,), 0: (opened,)}, {}, {})
    >>> img = np.full((120, 160, 3), 200, np.uint8)
    >>> img[20:100, 30:130] = 120; img[20:60, 30:70] = 230  # 4 x 5, four squares open
    >>> locate_flat(img, skin)
    BoardGeometry(skin='flat', x0=30.0, y0=20.0, pitch_x=20.0, pitch_y=20.0, rows=4, cols=5)
    """
    colours = plain_colours(skin)
    if not colours:
        return None
    mask = np.isin(packed_colours(image), colours).astype(np.uint8)
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    px, py = skin.cell_size
    for x, y, w, h, _ in sorted(stats[1:].tolist(), key=lambda s: -s[4]):
        cols, rows = round(w / px), round(h / py)
        if rows < 2 or cols < 2 or abs(w - cols * px) > PITCH_SLACK * px or \
                abs(h - rows * py) > PITCH_SLACK * py:
            continue
        g = BoardGeometry(skin.name, float(x), float(y), w / cols, h / rows, rows, cols)
        if float((read_board(image, g, skin) != UNKNOWN).mean()) >= READ_SHARE:
            return g
    return None


def part_of(part: BoardGeometry, whole: BoardGeometry) -> bool:
    """Is lattice ``part`` a block of ``whole``'s squares: the same pitch, its corner
    on one of ``whole``'s (within a quarter square), and inside it?

    >>> whole = BoardGeometry("s", 30.0, 20.0, 20.0, 20.0, 4, 5)
    >>> part_of(BoardGeometry("s", 50.0, 61.0, 20.0, 20.0, 2, 4), whole)
    True
    >>> part_of(BoardGeometry("s", 40.0, 60.0, 20.0, 20.0, 2, 4), whole)  # (half a square off)
    False
    """
    if abs(part.pitch_x - whole.pitch_x) > 0.02 * whole.pitch_x or \
            abs(part.pitch_y - whole.pitch_y) > 0.02 * whole.pitch_y:
        return False
    c = (part.x0 - whole.x0) / whole.pitch_x
    r = (part.y0 - whole.y0) / whole.pitch_y
    return abs(c - round(c)) < 0.25 and abs(r - round(r)) < 0.25 and \
        round(c) >= 0 and round(r) >= 0 and \
        round(c) + part.cols <= whole.cols and round(r) + part.rows <= whole.rows



PART = (0.05, 0.95)
"""A square changed on more than the first and less than the second share of its
pixels is changed in part."""
SPLIT_SHARE = 0.2
"""Share of the changed squares changed in part that says the squares are not the
ones given."""


def split_share(before: Image, after: Image, g: BoardGeometry) -> float:
    """The share of the squares of board ``g`` that changed between two frames (the
    squares a click opened) which changed in part only (:data:`PART`): near 0 where
    ``g`` is the board's lattice (a plain square opens whole), high for a board split
    into squares of another size (a plain board given the wrong size); 0 when nothing
    changed.

    >>> g = BoardGeometry("", 0.0, 0.0, 10.0, 10.0, 4, 4)
    >>> before = np.zeros((40, 40, 3), np.uint8); after = before.copy()
    >>> after[10:30, 0:20] = 200  # two squares by two opened
    >>> split_share(before, after, g)
    0.0
    >>> split_share(before, after, BoardGeometry("", 0.0, 0.0, 40 / 3, 40 / 3, 3, 3))
    0.8333333333333334
    """
    shares = changed_shares(before, after, g)
    touched = shares > PART[0]
    if not touched.any():
        return 0.0
    return float((touched & (shares < PART[1])).sum() / touched.sum())


def changed_shares(before: Image, after: Image, g: BoardGeometry) -> npt.NDArray[np.float64]:
    """The share of each square's pixels of board ``g`` that changed between two frames
    (rows x cols)."""
    changed = (before != after).any(axis=2)
    return np.array([[changed[rect.top:rect.top + rect.height,
                              rect.left:rect.left + rect.width].mean()
                      for c in range(g.cols) if (rect := g.cell_rect((r, c)))]
                     for r in range(g.rows)])


BLOCK_EDGES = 36
"""Fewest edges between squares of two kinds (opened and not) that must all lie on the
lines of k x k blocks for :func:`block_side` to say the squares given are a k-th of
the board's. Of 600 000 simulated first clicks on true boards (16x16 with 40 and 10
mines, 8x8 with 10, 16x30 with 99, 24x24 with 99, 30x30 with 60; the square clicked
and its neighbours free; ``python benchmarks/block_edges.py --games 100000 --seed 3``),
1.7 % opened squares on the lines of 2 x 2 blocks (near a corner, whose board edges lie
on every block's lines), with up to 28 such edges; 3 x 3 blocks up to 27, 4 x 4 up to
24 (an earlier sketch of it, another seed: 2 x 2 up to 35). The pygame game's first
opening, given 32x32 for its 16x16 board, has 60 such edges; its screenshots 60-272."""


def block_side(kinds: npt.NDArray[np.integer] | npt.NDArray[np.bool_]) -> int | None:
    """The largest k (2 or more, dividing both the rows and the columns) such that every
    edge between two squares of different ``kinds`` (rows x cols; a kind below 0 is
    none, and its edges do not count) lies on the lines of
    k x k blocks, when there are :data:`BLOCK_EDGES` such edges or more: each square of
    the lattice is then a k-th of the board's (a plain board given 32x32 for its 16x16
    squares opens, flags and shows mines in whole blocks of 2 x 2). None otherwise.

    >>> opened = np.zeros((16, 16), bool); opened[4:12, 2:10] = True; opened[6:8, 10:14] = True
    >>> block_side(opened)
    2
    >>> opened[9, 9] = False  # (a square of the board left covered)
    >>> block_side(opened) is None
    True
    """
    k = kinds.astype(np.int64)
    across = np.nonzero((k[:, 1:] != k[:, :-1]) & (k[:, 1:] >= 0) & (k[:, :-1] >= 0))[1] + 1
    down = np.nonzero((k[1:] != k[:-1]) & (k[1:] >= 0) & (k[:-1] >= 0))[0] + 1
    if len(across) + len(down) < BLOCK_EDGES:
        return None
    rows, cols = kinds.shape
    sides = [k for k in range(2, min(rows, cols) + 1)
             if rows % k == 0 and cols % k == 0
             and not (across % k).any() and not (down % k).any()]
    return max(sides) if sides else None


def plain_kinds(image: Image, g: BoardGeometry) -> npt.NDArray[np.int64]:
    """Which of the two commonest colours of board ``g``'s box (a plain board's covered
    and open squares) each square shows more of: 0 or 1, -1 where it shows neither (a
    part of a square a glyph fills). For :func:`block_side` on a screenshot.

    >>> img = np.full((40, 60, 3), 120, np.uint8); img[:, :20] = 230; img[1:19, 41:59] = 0
    >>> plain_kinds(img, BoardGeometry("", 0.0, 0.0, 20.0, 20.0, 2, 3)).tolist()
    [[1, 0, -1], [1, 0, 0]]
    """
    x, y, w, h = g.bounds()
    packed = packed_colours(image)
    colours, counts = np.unique(packed[y:y + h, x:x + w], return_counts=True)
    top = colours[np.argsort(-counts)][:2]
    out = np.full((g.rows, g.cols), -1, np.int64)
    for r in range(g.rows):
        for c in range(g.cols):
            cx, cy, cw, ch = g.cell_rect((r, c))
            square = packed[cy:cy + ch, cx:cx + cw]
            shown = [int((square == colour).sum()) for colour in top]
            if max(shown) * 4 >= square.size:
                out[r, c] = int(np.argmax(shown))
    return out
