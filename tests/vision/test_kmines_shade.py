"""kmines (KDE Mines), seen by the calibrator with no skin: its covered tiles have a
bevel wider on one side and no flat colour, and its open squares are drawn translucent
over the window's shaded background, so a 0 or a 1 looks a few levels lighter in the
top rows than lower down.

Data: ``kmines/fresh.png`` (a fresh 9x9 board) and ``kmines/mid.png`` (the same board
after one click; its squares in ``kmines/mid.board``, checked by eye), cut from
screenshots of kmines 22.12 on Xvfb. Cells are 32 px; the board's first column starts
at x = 30, its first row at y = 28 (the dark frame ends at 29 and 27).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from solver.cells import COVERED, UNKNOWN
from solver.textboard import parse_board
from vision.calibrate import Learner, look_distance
from vision.geometry import BoardGeometry
from vision.lattice import cut, find_lattice, locate_by_lattice, template_size
from vision.locate import BoardNotFound, locate_board
from vision.read import read_board
from vision.shade import shade_distance
from vision.skin import Skin

DATA = Path(__file__).parent / "kmines"
GEOMETRY = BoardGeometry("", 30.0, 28.0, 32.0, 32.0, 9, 9)


def image(name: str) -> np.ndarray:
    img = cv2.imread(str(DATA / name), cv2.IMREAD_COLOR)
    assert img is not None
    return img


def truth() -> np.ndarray:
    return parse_board((DATA / "mid.board").read_text())


def test_the_lattice_starts_at_the_tiles_not_two_pixels_into_the_frame() -> None:
    for name in ("fresh.png", "mid.png"):
        g = find_lattice(image(name))
        assert (g.rows, g.cols, g.pitch_x, g.pitch_y) == (9, 9, 32.0, 32.0)
        assert (g.x0, g.y0) == (GEOMETRY.x0, GEOMETRY.y0), name


def test_covered_squares_of_the_first_column_are_one_look() -> None:
    img = image("fresh.png")
    g = find_lattice(img)
    first = [cut(img, g, (r, 0)) for r in range(9)]
    second = [cut(img, g, (r, 1)) for r in range(9)]
    assert all(look_distance(a, b) <= 1.0 for a, b in zip(first, second, strict=True))


def learner_named_below(img: np.ndarray, rows: range) -> tuple[Learner, np.ndarray]:
    """A learner whose looks of the squares in ``rows`` are named by the truth (as a
    lost game would name them), every other look left to itself."""
    learner = Learner(template_size(GEOMETRY))
    ids = learner.ids(img, GEOMETRY)
    board = truth()
    for r in rows:
        for c in range(9):
            learner.name(int(ids[r, c]), int(board[r, c]), weight=2)
    return learner, ids


def test_zeros_and_ones_of_the_lighter_rows_are_named_like_those_below() -> None:
    img = image("mid.png")
    learner, ids = learner_named_below(img, range(4, 9))
    board = truth()
    known = learner.known()
    for cell in [(0, 5), (1, 6), (2, 4), (0, 4), (1, 2)]:  # 0s and 1s in rows 0-2
        assert known.get(int(ids[cell])) == board[cell], cell
    for (r, c), look in np.ndenumerate(ids):  # and nothing is named wrong
        assert known.get(int(look), board[r, c]) == board[r, c], (r, c)


def test_shades_differ_but_glyphs_do_not() -> None:
    img = image("mid.png")
    zero_top, zero_low = cut(img, GEOMETRY, (0, 6)), cut(img, GEOMETRY, (6, 0))
    one_top, one_low = cut(img, GEOMETRY, (1, 3)), cut(img, GEOMETRY, (4, 1))
    assert look_distance(zero_top, zero_low) > 1.0  # another look to the cell bank
    assert shade_distance(zero_top, zero_low) <= 1.0
    assert shade_distance(one_top, one_low) <= 1.0
    assert shade_distance(one_top, zero_low) > 1.0
    assert shade_distance(cut(img, GEOMETRY, (0, 0)), zero_top) > 1.0  # covered


def learned_skin() -> Skin:
    learner, _ = learner_named_below(image("mid.png"), range(4, 9))
    cells = learner.templates()
    return Skin("kmines-test", "", (32.0, 32.0), cells, {}, {})


def test_a_skin_named_from_the_lower_rows_reads_every_square() -> None:
    read = read_board(image("mid.png"), GEOMETRY, learned_skin())
    assert (read == truth()).all(), read


def test_the_template_free_lattice_finds_tiles_of_no_flat_colour() -> None:
    skin = learned_skin()
    fresh = image("fresh.png")
    screen = np.full((500, 600, 3), 30, np.uint8)
    screen[100:100 + fresh.shape[0], 150:150 + fresh.shape[1]] = fresh
    with pytest.raises(BoardNotFound):
        locate_board(screen, [skin])  # (no flat tile colour to find)
    g = locate_by_lattice(screen, [skin])
    assert g is not None and g.skin == "kmines-test"
    assert (g.x0, g.y0, g.rows, g.cols) == (180.0, 128.0, 9, 9)
    assert (read_board(screen, g, skin) == COVERED).all()
    assert locate_by_lattice(screen, [Skin("other", "", (40.0, 40.0), skin.cells, {}, {})]) \
        is None  # no skin of that cell size
    assert (read_board(image("mid.png"), GEOMETRY, skin) != UNKNOWN).all()
