"""The located pitch holds over the whole board (a browser page at zoom 1.3).

The online-style page draws its canvas (the frame and the squares, 16 page pixels
each) into a box of whole screen pixels and scales it with smoothing: at zoom 1.3 the
squares' edges blend into the pixels they fall in at five phases. Play found a 30x16
board at 20.7746 px a square where the squares are 20.794 px: the blob lattice fitted
blob centres of every look together, and opened squares on the left and covered ones
on the right (each look's key off by its own share of a pixel) tilted the fit; the
right-hand squares were 0.5-0.7 px off and some read unknown.

The truth here is measured on the pixels, not taken from the locator: the canvas's
box is where the page's background ends around it, and the squares lie 12 and 55 page
pixels into it (the page's layout), 16 page pixels each, scaled by the box's size over
the canvas's. Where the located lattice puts the board's left edge depends on the skin
(its templates were cut at whole pixels, a share of a pixel off the true edges, and
the reader crops squares the same way), so the test asks that edge to be off by less
than half a pixel, and by the same amount at the right edge (the pitch right), not that
it is off by nothing.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bot.reader import SkinReader
from bot.screen import load_image
from vision.skin import Image, load_skin

HERE = Path(__file__).resolve().parent / "web_online" / "zoom1.3"
PAGE = (242, 237, 233)  # BGR of the page's background, #e9edf2
CANVAS = (2 * 12, 55 + 12)  # the canvas's size at zoom 1 beside its 16 px squares
BOARD_AT = (12, 55)  # the squares' top-left in the canvas at zoom 1


def _run(line: np.ndarray, at: int) -> tuple[int, int]:
    """The run of non-page pixels around ``at`` in one row or column: [start, end)."""
    page = (line == PAGE).all(axis=1)
    start, end = at, at
    while start > 0 and not page[start - 1]:
        start -= 1
    while end < len(line) and not page[end]:
        end += 1
    return start, end


def measured(image: Image, rows: int, cols: int) -> tuple[float, float, float, float]:
    """(left, top, pitch_x, pitch_y) of the squares from the canvas's box on the pixels."""
    h, w = image.shape[:2]
    left, right = _run(image[h // 2], w // 2)
    top, bottom = _run(image[:, w // 2], h // 2)
    sx = (right - left) / (CANVAS[0] + 16 * cols)
    sy = (bottom - top) / (CANVAS[1] + 16 * rows)
    return left + BOARD_AT[0] * sx, top + BOARD_AT[1] * sy, 16 * sx, 16 * sy


@pytest.fixture(scope="module")
def reader() -> SkinReader:
    return SkinReader([load_skin(HERE / "skin")])


def test_wide_board_pitch_holds_to_its_last_column(reader: SkinReader) -> None:
    image = load_image(HERE / "wide30x16.png")
    left, top, px, py = measured(image, 16, 30)
    assert abs(px - 16 * 655 / 504) < 1e-9 and abs(py - 16 * 420 / 323) < 1e-9  # (655x420)
    g = reader.locate(image)
    assert (g.rows, g.cols) == (16, 30)
    assert abs(g.pitch_x - 20.8) <= 0.01 and abs(g.pitch_y - 20.8) <= 0.01
    assert abs(g.pitch_x - px) <= 0.003 and abs(g.pitch_y - py) <= 0.003
    off_left, off_right = g.col_left(0) - left, g.col_left(30) - (left + 30 * px)
    off_top, off_bottom = g.row_top(0) - top, g.row_top(16) - (top + 16 * py)
    assert abs(off_left) < 0.5 and abs(off_top) < 0.5
    assert abs(off_right - off_left) <= 0.1 and abs(off_bottom - off_top) <= 0.1


@pytest.mark.parametrize("case", ["fresh", "playing", "won"])
def test_square_board_pitch(reader: SkinReader, case: str) -> None:
    """The 16x16 captures at zoom 1.3: a 364x420 box, 20.8 x 20.805 px squares."""
    image = load_image(HERE / f"{case}.png")
    left, top, px, py = measured(image, 16, 16)
    assert (round(px, 4), round(py, 4)) == (20.8, 20.805)
    g = reader.locate(image)
    assert (g.rows, g.cols) == (16, 16)
    assert abs(g.pitch_x - px) <= 0.005 and abs(g.pitch_y - py) <= 0.005
    assert abs(g.col_left(16) - left - 16 * px - (g.col_left(0) - left)) <= 0.1
    assert abs(g.row_top(16) - top - 16 * py - (g.row_top(0) - top)) <= 0.1
