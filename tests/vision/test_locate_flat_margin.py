"""A board in a plain margin of its covered tile's middle colour is found at its true size.

The reader compares only the middle of a square, and some games (sgt-mines) draw a
covered tile as a bevel around one flat colour, the very colour of the window around the
board. Growing the lattice must not take that margin for more covered tiles. Drawn here:
such tiles (2 px light and dark bevels around 230 grey, open squares 218 with a 1 px grid
line, numbers as bars), a 3 px frame round the board and a 230 grey window with a line
of "menu" text, as sgt-mines looks; and two real sgt-mines captures with the skin
``sweepbot calibrate`` learned for it (``tests/vision/sgt_mines/README.md``).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from solver.cells import COVERED, FLAG, UNKNOWN
from solver.textboard import diff_boards, parse_board
from vision.geometry import BoardGeometry
from vision.locate import Lattice, _known_share, flat_share, grow, locate_board
from vision.read import read_board
from vision.skin import Image, Skin, load_skin

PITCH = 20
MARGIN = (230, 230, 230)


def covered() -> Image:
    tile = np.full((PITCH, PITCH, 3), 230, np.uint8)
    tile[:2, :] = 255
    tile[:, :2] = 255
    tile[-2:, 2:] = 153
    tile[2:, -2:] = 153
    return tile


def opened(number: int = 0) -> Image:
    tile = np.full((PITCH, PITCH, 3), 218, np.uint8)
    tile[0, :] = 153
    tile[:, 0] = 153
    if number:  # one to `number` short bars, blue-ish, in the middle
        for k in range(number):
            tile[6 + 3 * k:8 + 3 * k, 7:14] = (200, 40, 40)
    return tile


def flagged() -> Image:
    tile = covered()
    tile[5:15, 8:10] = 0
    tile[5:10, 10:15] = (0, 0, 220)
    return tile


def skin() -> Skin:
    cells = {COVERED: (covered(),), FLAG: (flagged(),),
             **{n: (opened(n),) for n in range(4)}}
    return Skin("flatmid", "test", (float(PITCH), float(PITCH)), cells, {}, {})


def board_image(codes: np.ndarray, x0: int, y0: int, size: tuple[int, int] = (480, 400)
                ) -> Image:
    """The tiles of ``codes`` at (x0, y0) in a plain window with a frame and a menu."""
    w, h = size
    image = np.full((h, w, 3), MARGIN, np.uint8)
    cv2.putText(image, "Game  Type  Help", (6, 22), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                (40, 40, 40), 1)
    rows, cols = codes.shape
    cv2.rectangle(image, (x0 - 3, y0 - 3), (x0 + cols * PITCH + 2, y0 + rows * PITCH + 2),
                  (153, 153, 153), -1)
    tiles = {COVERED: covered(), FLAG: flagged(), **{n: opened(n) for n in range(4)}}
    for r in range(rows):
        for c in range(cols):
            y, x = y0 + r * PITCH, x0 + c * PITCH
            image[y:y + PITCH, x:x + PITCH] = tiles[int(codes[r, c])]
    return image


def all_covered(rows: int, cols: int) -> np.ndarray:
    return np.full((rows, cols), COVERED, np.int8)


def test_margin_reads_like_a_covered_square_in_the_middle() -> None:
    """The premise: without the edge check the margin is as good as a covered tile."""
    image = board_image(all_covered(9, 9), 60, 80)
    margin = BoardGeometry("flatmid", 60.0, 80.0 - 2 * PITCH, PITCH, PITCH, 1, 9)
    assert _known_share(image, margin, skin()) == 1.0
    assert flat_share(image, margin, skin()) == 1.0
    frame_row = BoardGeometry("flatmid", 60.0, 80.0 - PITCH, PITCH, PITCH, 1, 9)
    assert flat_share(image, frame_row, skin()) == 1.0
    tiles = BoardGeometry("flatmid", 60.0, 80.0, PITCH, PITCH, 1, 9)
    assert flat_share(image, tiles, skin()) == 0.0


@pytest.mark.parametrize("shape", [(9, 9), (16, 16), (8, 13)])
def test_all_covered_board_found_at_its_size(shape: tuple[int, int]) -> None:
    image = board_image(all_covered(*shape), 40, 60, (480, 440))
    g = locate_board(image, [skin()])
    assert (g.x0, g.y0, g.rows, g.cols) == (40.0, 60.0, *shape)


def test_board_with_open_edges_found_and_read() -> None:
    codes = all_covered(10, 12)
    codes[:4, 6:] = 0
    codes[4, 6:] = 1
    codes[:4, 5] = 2
    codes[6:, 0] = 3
    codes[9, 11] = FLAG
    image = board_image(codes, 100, 70)
    g = locate_board(image, [skin()])
    assert (g.x0, g.y0, g.rows, g.cols) == (100.0, 70.0, 10, 12)
    assert (read_board(image, g, skin()) == codes).all()


def test_grow_stops_at_the_frame_from_any_inner_lattice() -> None:
    """Grown from the inner 4x5 squares of an 8x9 board, on every side."""
    image = board_image(all_covered(8, 9), 80, 100)
    rows, cols = np.mgrid[0:4, 0:5]
    cx = 80 + (cols.ravel() + 2) * PITCH + PITCH / 2
    cy = 100 + (rows.ravel() + 2) * PITCH + PITCH / 2
    lat = Lattice(cx.astype(np.float64), cy.astype(np.float64), rows.ravel(), cols.ravel(),
                  float(PITCH), float(PITCH))
    g = grow(image, lat, skin())
    assert (g.x0, g.y0, g.rows, g.cols) == (80.0, 100.0, 8, 9)


SGT = Path(__file__).resolve().parent / "sgt_mines"


@pytest.mark.parametrize("shot", ["shot_start", "shot_playing"])
def test_real_sgt_mines_board_found_and_read(shot: str) -> None:
    """Located 16x16 at the tiles (x 30..349, y 55..374 of the crop, by eye), not 18x20
    over the grey around them; every square read, and as written by eye."""
    image = np.asarray(cv2.imread(str(SGT / f"{shot}.png"), cv2.IMREAD_COLOR), np.uint8)
    sgt = load_skin(SGT)
    g = locate_board(image, [sgt])
    assert (g.x0, g.y0, g.pitch_x, g.pitch_y, g.rows, g.cols) == (30, 55, 20, 20, 16, 16)
    board = read_board(image, g, sgt)
    assert not (board == UNKNOWN).any()
    expected = parse_board((SGT / "shot_playing.board").read_text()) \
        if shot == "shot_playing" else all_covered(16, 16)
    assert diff_boards(expected, board) == []
