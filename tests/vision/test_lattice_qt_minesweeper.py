"""A tile whose flat face lies off its centre by a fifth of the pitch: the lattice's
phase is moved that far (:func:`vision.lattice.align_phase`).

The captures (``qt_minesweeper/``) are real: PyPI's ``minesweeper`` 0.1.4 (PyQt5) at
16x16 with 40 mines, on Xvfb with openbox, cropped to its window. Its covered tile is
25 px square with a 1 px gap of the window's own grey after it (26 px pitch); a bright
blue stripe runs down the tile's first 5 px and the flat face is the right half, so the
fitted lattice starts 5 px into the tile. Measured by eye on the captures: the first
tile's top-left pixel is (32, 114), the last one's bottom-right (446, 528). Before,
phase was moved by 3 px at most: every square held 5 px of its neighbour, and
``calibrate`` stopped with "the board is cut at its right side".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.screen import load_image
from vision.lattice import find_lattice

CAPTURES = Path(__file__).resolve().parent / "qt_minesweeper"
FIRST_TILE = (32, 114)  # (x, y) of the first tile's top-left pixel, measured by eye
PITCH = 26
TILE = 25


@pytest.mark.parametrize("name", ["fresh", "flagging"])
def test_every_square_holds_one_whole_tile(name: str) -> None:
    """The lattice is 16x16 at 26 px, and each square cut from it holds one whole
    tile (and the gap on one side of it, which is the window's grey): its left/top
    edge is at the tile's first pixel or at the gap just before it."""
    g = find_lattice(load_image(CAPTURES / f"{name}.png"))
    assert (g.rows, g.cols, g.pitch_x, g.pitch_y) == (16, 16, PITCH, PITCH)
    for start, edge in zip(FIRST_TILE, (g.x0, g.y0), strict=True):
        assert start - (PITCH - TILE) <= edge <= start
    b = g.bounds()
    assert b.left + b.width >= FIRST_TILE[0] + 16 * PITCH - (PITCH - TILE)
    assert b.top + b.height >= FIRST_TILE[1] + 16 * PITCH - (PITCH - TILE)
