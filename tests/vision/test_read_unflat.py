"""A square read as a flat state (a blank 0) must be flat itself.

xbomb draws its 7 as thin violet strokes on the white tile of a 0. A skin calibrated
from scratch had never seen a 7 (regression sweep of 22 Nov, game 9 of the xbomb run):
the square lay 19.5 RMS from the 0 template, within MAX_RMS and clear of every other
state, so it was read as a 0 and play stopped ("open square (9, 2) shows 0 next to a
covered square"). Now it is unknown: the glyph reader and play's learning get their
chance at it, and nothing is misread.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from solver.cells import UNKNOWN
from solver.textboard import parse_board
from vision.locate import locate_board
from vision.read import read_board
from vision.skin import load_skin

DATA = Path(__file__).resolve().parent / "xbomb_seven"


def test_expected_board_agrees_with_its_seven() -> None:
    board = parse_board((DATA / "seven.board").read_text())
    assert board[9, 2] == 7
    around = board[8:11, 1:4]
    assert int((around == -1).sum()) == 7  # its 7 covered neighbours are its 7 mines


def test_an_unseen_seven_on_a_blank_tile_is_unknown_not_zero() -> None:
    skin = load_skin(DATA / "skin")
    assert 7 not in skin.cells
    image = np.asarray(cv2.imread(str(DATA / "seven.png")), np.uint8)
    expected = parse_board((DATA / "seven.board").read_text())
    board = read_board(image, locate_board(image, [skin]), skin)
    assert board[9, 2] == UNKNOWN
    board[9, 2] = 7
    assert np.argwhere(board != expected).tolist() == []
