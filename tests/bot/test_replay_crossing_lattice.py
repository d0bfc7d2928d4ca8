"""A board found across the edge of the capture's template-free lattice, part of it
outside and blank (a window's margin read as 0s), is cut to the squares it shares with
the lattice and widened to the whole lattice (``bot.cmd_replay._trim_blank``): a won
gnome-mines 8x8 captured as a JPEG at quality 75 was printed as its top 6 rows plus two
columns of the window's margin. The expected board is the fixture's hand-checked .board
file."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from bot.cmd_replay import Reading, _trim_blank
from solver.textboard import parse_board
from vision.geometry import BoardGeometry
from vision.locate import locate_board
from vision.lossy import trimmed
from vision.read import read_board
from vision.skin import load_skin

WON = Path(__file__).resolve().parent.parent / "fixtures" / "gnome-mines" / "won_small.png"


def test_a_board_across_the_lattice_edge_with_a_blank_outside_is_cut_and_widened() -> None:
    image = np.asarray(cv2.imread(str(WON)), np.uint8)
    skin = load_skin("gnome-mines")
    lattice = locate_board(image, [skin])
    expected = parse_board(WON.with_suffix(".board").read_text())
    assert (lattice.rows, lattice.cols) == expected.shape == (8, 8)
    # the top 6 rows, and two more columns on the window's plain margin at the right
    top6 = trimmed(lattice, 0, 0, 6, 8)
    crossing = BoardGeometry(skin.name, top6.x0, top6.y0, top6.pitch_x, top6.pitch_y, 6, 10)
    board = read_board(image, crossing, skin)
    assert np.isin(board[:, 8:], (0, -7)).all()  # (what the margin reads as: blank)
    reading = Reading(str(WON), skin.name, "unknown", crossing, board, None, 0.0, 0.0)
    again = _trim_blank(WON, image, reading, replace(lattice, skin=""), skin)
    assert again.board.shape == (8, 8)
    assert again.board.tolist() == expected.tolist()


def test_a_board_across_the_lattice_edge_with_squares_outside_is_kept() -> None:
    """A known square outside the lattice says the lattice, not the board, is short:
    the reading is left as it is."""
    image = np.asarray(cv2.imread(str(WON)), np.uint8)
    skin = load_skin("gnome-mines")
    board_g = locate_board(image, [skin])
    short = trimmed(board_g, 0, 0, 8, 6)  # a lattice that misses the last two columns
    reading = Reading(str(WON), skin.name, "won", board_g, read_board(image, board_g, skin),
                      None, 0.0, 0.0)
    wider = replace(short, rows=6)  # (and the last two rows: it crosses the board)
    assert _trim_blank(WON, image, reading, wider, skin) is reading
