"""A lattice found a pixel off each way at once is still named: PyMines' lost board.

The captures (``pymines/``) are real: PyMines 1.2.3 (PyPI, pygame) at 8x8 with 10
mines on Xvfb with openbox, cropped to its window; ``pymines/skin`` is the skin
``sweepbot calibrate`` learned from the game (4, 5 and 6 added in play). Its tiles are
16 px squares 6 px apart (22 px pitch) on a white window; a loss turns the window red,
gaps included. ``lost.png`` is a first click that hit a mine: by eye, the mine on the
top-left square and every other square covered (the game shows only the mine hit).

On the red window the template-free lattice lands one pixel up and left of the one
found on the white window, and no single-axis offset reads: ``sweepbot play`` said "no
Minesweeper board on the screen" for a lost game left on the screen, so it could not
start a new one.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bot.reader import SkinReader
from bot.screen import load_image
from solver.cells import COVERED, EXPLODED
from vision.read import read_board
from vision.skin import load_skin

HERE = Path(__file__).resolve().parent / "pymines"


def reader() -> SkinReader:
    return SkinReader([load_skin(HERE / "skin")])


def test_the_lost_board_is_found_where_the_fresh_one_is() -> None:
    fresh, lost = (load_image(HERE / f"{name}.png") for name in ("fresh", "lost"))
    at_fresh, at_lost = reader().locate(fresh), reader().locate(lost)
    assert (at_fresh.rows, at_fresh.cols, at_fresh.pitch_x) == (8, 8, 22.0)
    assert at_lost == at_fresh


def test_the_lost_board_reads_as_the_game_shows_it() -> None:
    lost = load_image(HERE / "lost.png")
    g = reader().locate(lost)
    expected = np.full((8, 8), COVERED, np.int8)
    expected[0, 0] = EXPLODED
    assert read_board(lost, g, load_skin(HERE / "skin")).tolist() == expected.tolist()
