"""Where a board sits in an image, in image pixels (never screen points).

>>> g = BoardGeometry(skin="xdemineur", x0=16.0, y0=81.0, pitch_x=21.0, pitch_y=21.0,
...                   rows=16, cols=30)
>>> g.cell_center((0, 0))
PixelPoint(x=26.5, y=91.5)
>>> g.cell_at(PixelPoint(37.0, 92.0))
(0, 1)
>>> g.bounds()
PixelRect(left=16, top=81, width=630, height=336)
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field
from typing import NamedTuple

from solver.cells import Cell


class PixelPoint(NamedTuple):
    """A point in image pixels (x right, y down). Not a screen point."""

    x: float
    y: float


class PixelRect(NamedTuple):
    """An axis-aligned rectangle in image pixels."""

    left: int
    top: int
    width: int
    height: int

    def centre(self) -> PixelPoint:
        """The middle of the rectangle.

        >>> PixelRect(10, 20, 5, 4).centre()
        PixelPoint(x=12.5, y=22.0)
        """
        return PixelPoint(self.left + self.width / 2, self.top + self.height / 2)

    def contains(self, p: PixelPoint) -> bool:
        """Is ``p`` inside (left and top edges in, right and bottom out)?

        >>> r = PixelRect(0, 0, 4, 2)
        >>> r.contains(PixelPoint(3.5, 1.0)), r.contains(PixelPoint(4.0, 0.0))
        (True, False)
        """
        return self.left <= p.x < self.left + self.width and \
            self.top <= p.y < self.top + self.height


@dataclass(frozen=True)
class BoardGeometry:
    """The board's lattice in an image: skin name, top-left pixel of cell (0, 0),
    the (possibly fractional) pitch in x and y, and the size in cells.

    Games that scale their board often spread spare pixels unevenly (gnome-mines: 41 px
    for the first columns, 40 px for the rest). Optional ``lefts``/``tops`` then hold the
    measured left/top edge of every column/row's pitch square (``cols``/``rows`` values);
    without them the lattice is uniform. ``x0``/``y0``/``pitch_*`` stay the uniform fit.

    >>> g = BoardGeometry("s", 0.0, 0.0, 40.5, 40.0, 1, 3, lefts=(0.0, 41.0, 82.0))
    >>> g.cell_center((0, 2)), g.cell_at(PixelPoint(81.5, 3.0)), g.bounds().width
    (PixelPoint(x=102.25, y=20.0), (0, 1), 122)
    """

    skin: str
    x0: float
    y0: float
    pitch_x: float
    pitch_y: float
    rows: int
    cols: int
    lefts: tuple[float, ...] | None = field(default=None, repr=False)
    tops: tuple[float, ...] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.lefts is not None and len(self.lefts) != self.cols:
            raise ValueError(f"lefts has {len(self.lefts)} edges for {self.cols} columns")
        if self.tops is not None and len(self.tops) != self.rows:
            raise ValueError(f"tops has {len(self.tops)} edges for {self.rows} rows")

    def col_left(self, c: int) -> float:
        """Left edge of column ``c``'s pitch square (``c == cols`` gives the right edge)."""
        if self.lefts is None:
            return self.x0 + c * self.pitch_x
        return self.lefts[c] if c < self.cols else self.lefts[-1] + self.pitch_x

    def row_top(self, r: int) -> float:
        """Top edge of row ``r``'s pitch square (``r == rows`` gives the bottom edge)."""
        if self.tops is None:
            return self.y0 + r * self.pitch_y
        return self.tops[r] if r < self.rows else self.tops[-1] + self.pitch_y

    def cell_center(self, cell: Cell) -> PixelPoint:
        r, c = cell
        return PixelPoint(self.col_left(c) + 0.5 * self.pitch_x,
                          self.row_top(r) + 0.5 * self.pitch_y)

    def cell_rect(self, cell: Cell) -> PixelRect:
        """The pixel box of one cell's pitch square (rounded to whole pixels)."""
        r, c = cell
        left = round(self.col_left(c))
        top = round(self.row_top(r))
        right = round(self.col_left(c) + self.pitch_x)
        bottom = round(self.row_top(r) + self.pitch_y)
        return PixelRect(left, top, right - left, bottom - top)

    def cell_at(self, point: PixelPoint) -> Cell | None:
        """The cell containing ``point``, or None outside the board."""
        if self.lefts is None:
            c = math.floor((point.x - self.x0) / self.pitch_x)
        else:
            c = bisect.bisect_right(self.lefts, point.x) - 1
            c = c if point.x < self.col_left(self.cols) else self.cols
        if self.tops is None:
            r = math.floor((point.y - self.y0) / self.pitch_y)
        else:
            r = bisect.bisect_right(self.tops, point.y) - 1
            r = r if point.y < self.row_top(self.rows) else self.rows
        if 0 <= r < self.rows and 0 <= c < self.cols:
            return (r, c)
        return None

    def bounds(self) -> PixelRect:
        """The rectangle covering every cell."""
        left, top = round(self.col_left(0)), round(self.row_top(0))
        right = round(self.col_left(self.cols))
        bottom = round(self.row_top(self.rows))
        return PixelRect(left, top, right - left, bottom - top)

    def shifted(self, dx: float, dy: float) -> BoardGeometry:
        """The same lattice moved by (dx, dy) pixels (e.g. into a cropped region)."""
        lefts = None if self.lefts is None else tuple(v + dx for v in self.lefts)
        tops = None if self.tops is None else tuple(v + dy for v in self.tops)
        return BoardGeometry(self.skin, self.x0 + dx, self.y0 + dy, self.pitch_x,
                             self.pitch_y, self.rows, self.cols, lefts, tops)
