"""A number the skin lacks, drawn small on a big square, is unknown, not the known
number nearest it.

Real capture of ItzAleksG's Tk game (``tests/vision/itz_tk/README.md``) read with the
skin calibrate learned on it (no 5 yet). Its dark red 5 is a few pixels of the sample
the template reader compares, 2.5 from the bright red 3 whose reach is 2.8: it read as
the 3, and play stopped on a board no layout satisfies. Now a number read that far
into its reach is read by its glyph too (``vision.read.DOUBT_SHARE``), which tells
the colours apart: the square is unknown, for play to learn the 5.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
from checked_image import read_checked

from solver.cells import UNKNOWN
from solver.textboard import parse_board
from vision.lattice import find_lattice
from vision.read import read_board
from vision.skin import load_skin

HERE = Path(__file__).parent / "itz_tk"
SHA256 = "5ca50fac88364cc163756968c9ec1ffe8a2e5591bd176e7a78296c1563d8b153"


def test_an_unseen_small_five_is_unknown_and_the_rest_reads() -> None:
    image = read_checked(HERE / "unseen_5.png", SHA256)
    g = find_lattice(image)
    assert (g.rows, g.cols, g.pitch_x, g.pitch_y) == (8, 10, 60.0, 44.0)
    skin = load_skin(HERE / "skin")
    assert 5 not in skin.cells
    truth = parse_board((HERE / "unseen_5.board").read_text())
    board = read_board(image, g, skin)
    assert board[6, 7] == UNKNOWN  # (the 5; before: 3)
    rest = np.ones(truth.shape, bool)
    rest[6, 7] = False
    assert np.array_equal(board[rest], truth[rest])


def test_with_a_five_in_the_skin_it_reads_as_five() -> None:
    """The same square cut into a skin as its 5: read as the 5, every other square as
    before (the glyph check leaves agreed numbers alone)."""
    image = read_checked(HERE / "unseen_5.png", SHA256)
    g = find_lattice(image)
    skin = load_skin(HERE / "skin")
    five = image[round(g.row_top(6)):round(g.row_top(6)) + 44,
                 round(g.col_left(7)):round(g.col_left(7)) + 60]
    skin = replace(skin, name="itz-with-5", cells={**skin.cells, 5: (five.copy(),)})
    truth = parse_board((HERE / "unseen_5.board").read_text())
    assert np.array_equal(read_board(image, g, skin), truth)
