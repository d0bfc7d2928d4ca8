"""A board found by a skin's templates is put at the skin's own whole cell size when the
fitted pitch is a hair off it (:func:`vision.locate.snap_to_skin`).

The captures (``nicegui/``) are real: nicegui-minesweeper 0.1.1 (PyPI; its fixed 10x10
board with 10 mines) in Chromium on Xvfb with openbox, cropped. Its squares are 40 px
buttons with no gap and a shadow under each. The skin is the one
``sweepbot calibrate`` learned from that game (it lacks 4-8). Measured by eye: the
first button's top-left pixel is (20, 61), the last one's bottom-right (419, 460).
Before, the board was found at 40.06 px a square from x 20.92 (fresh) and at 40.11
from x 19.18 (in play): the last columns a pixel off the templates' cut, and the
numbers there unknown. ``in_play.board`` was written by eye; every safe square is
open in it, so each number counts its covered neighbours (checked below).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bot.screen import load_image
from solver.cells import COVERED, neighbours
from solver.textboard import parse_board, parse_comments
from vision.locate import locate_board
from vision.read import read_board
from vision.skin import load_skin

HERE = Path(__file__).resolve().parent / "nicegui"


@pytest.mark.parametrize("name", ["fresh", "in_play"])
def test_the_board_is_found_at_the_skins_own_size(name: str) -> None:
    g = locate_board(load_image(HERE / f"{name}.png"), [load_skin(HERE / "skin")])
    assert (g.x0, g.y0, g.pitch_x, g.pitch_y, g.rows, g.cols) == (20, 61, 40, 40, 10, 10)


def test_the_board_in_play_reads_as_written() -> None:
    text = (HERE / "in_play.board").read_text()
    expected, comments = parse_board(text), parse_comments(text)
    covered = expected == COVERED
    assert int(covered.sum()) == int(comments["mines"])  # a won board: only mines left
    for r, c in np.argwhere(expected >= 0).tolist():
        assert expected[r, c] == sum(bool(covered[n]) for n in neighbours((r, c), 10, 10))
    image, skin = load_image(HERE / "in_play.png"), load_skin(HERE / "skin")
    board = read_board(image, locate_board(image, [skin]), skin)
    assert board.tolist() == expected.tolist()
