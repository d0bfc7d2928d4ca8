"""A skin with a second covered look a pixel off the first (a square pressed) still
locates the board where its squares are cut (:func:`vision.locate.snap_to_skin`).

``react_pressed/`` is real: react-minesweeper 1.0.2 (npm, in Chromium on Xvfb), the
skin ``sweepbot calibrate`` learned of it live (``skin/``) and a capture of the board in
play (``board.png``: the board and 30 px round it, the board's first square at (31, 31)).
The page draws a covered square 1 px down and right while the mouse button is held on
it (its stylesheet: ``.minesweeper__field_cloud:active::before {transform: translate(1px,
1px)}``), and calibrate, grabbing a frame between a press and its release, learned that
as a second covered look (``covered_1.png``). The fitted lattice then came out at x 30.37,
y 30 (pitch 30, whole), where every covered square matches the pressed look; the numbers
did not read, and play stopped: "could not read the board", or "the board was found
elsewhere (0 px right, 0 px down ...)". Its expected board was read by eye; its numbers
agree with its covered squares (each 4 has four covered neighbours, each 0 none).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bot.screen import load_image
from solver.textboard import format_board, parse_board
from vision.locate import locate_board
from vision.read import read_board
from vision.skin import load_skin

HERE = Path(__file__).resolve().parent / "react_pressed"
AT = (200, 150)  # where the capture is put on a white page


def screen() -> np.ndarray:
    crop = load_image(HERE / "board.png")
    page = np.full((720, 900, 3), 255, np.uint8)
    x, y = AT
    page[y:y + crop.shape[0], x:x + crop.shape[1]] = crop
    return page


def test_the_board_is_found_where_its_squares_are_cut() -> None:
    skin = load_skin(HERE / "skin")
    image = screen()
    g = locate_board(image, [skin])
    assert (g.x0, g.y0, g.pitch_x, g.pitch_y) == (AT[0] + 31, AT[1] + 31, 30.0, 30.0), g
    assert (g.rows, g.cols) == (16, 16)
    expected = parse_board((HERE / "board.txt").read_text())
    assert format_board(read_board(image, g, skin)) == format_board(expected)
