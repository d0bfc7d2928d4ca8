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

import math
from dataclasses import dataclass
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


@dataclass(frozen=True)
class BoardGeometry:
    """The board's lattice in an image: skin name, top-left pixel of cell (0, 0),
    the (possibly fractional) pitch in x and y, and the size in cells."""

    skin: str
    x0: float
    y0: float
    pitch_x: float
    pitch_y: float
    rows: int
    cols: int

    def cell_center(self, cell: Cell) -> PixelPoint:
        r, c = cell
        return PixelPoint(self.x0 + (c + 0.5) * self.pitch_x, self.y0 + (r + 0.5) * self.pitch_y)

    def cell_rect(self, cell: Cell) -> PixelRect:
        """The pixel box of one cell's pitch square (rounded to whole pixels)."""
        r, c = cell
        left = round(self.x0 + c * self.pitch_x)
        top = round(self.y0 + r * self.pitch_y)
        right = round(self.x0 + (c + 1) * self.pitch_x)
        bottom = round(self.y0 + (r + 1) * self.pitch_y)
        return PixelRect(left, top, right - left, bottom - top)

    def cell_at(self, point: PixelPoint) -> Cell | None:
        """The cell containing ``point``, or None outside the board."""
        c = math.floor((point.x - self.x0) / self.pitch_x)
        r = math.floor((point.y - self.y0) / self.pitch_y)
        if 0 <= r < self.rows and 0 <= c < self.cols:
            return (r, c)
        return None

    def bounds(self) -> PixelRect:
        """The rectangle covering every cell."""
        left, top = round(self.x0), round(self.y0)
        right = round(self.x0 + self.cols * self.pitch_x)
        bottom = round(self.y0 + self.rows * self.pitch_y)
        return PixelRect(left, top, right - left, bottom - top)

    def shifted(self, dx: float, dy: float) -> BoardGeometry:
        """The same lattice moved by (dx, dy) pixels (e.g. into a cropped region)."""
        return BoardGeometry(self.skin, self.x0 + dx, self.y0 + dy, self.pitch_x,
                             self.pitch_y, self.rows, self.cols)
