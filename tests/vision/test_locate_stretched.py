"""A board drawn at a size the skin has no templates of grows by strips its glyphs read.

WineMine's beginner win stretched 1.5x (nearest neighbour, a 150 % HiDPI scale) with the
shipped 16 px skin: the lattice the key colours give covers a corner of the board, and
each strip around it holds numbers and flags the template reader cannot read at 24 px
(only the flat tiles): the board was found 5x5. ``vision.locate.off_size`` lattices now
grow with ``glyph_share``.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from solver.textboard import parse_board
from vision.locate import locate_board
from vision.read import read_board
from vision.skin import load_skin

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def test_stretched_board_grows_to_its_size() -> None:
    image = np.asarray(cv2.imread(str(FIXTURES / "winmine" / "beginner_won.png")), np.uint8)
    h, w = image.shape[:2]
    big = np.ascontiguousarray(cv2.resize(image, (round(w * 1.5), round(h * 1.5)),
                                          interpolation=cv2.INTER_NEAREST), np.uint8)
    truth = parse_board((FIXTURES / "winmine" / "beginner_won.board").read_text())
    skin = load_skin("winmine")
    g = locate_board(big, [skin])
    assert (g.rows, g.cols) == truth.shape
    assert abs(g.col_left(0) - 1.5 * 4) < 2 and abs(g.row_top(0) - 1.5 * 51) < 2
    assert (read_board(big, g, skin) == truth).all()
