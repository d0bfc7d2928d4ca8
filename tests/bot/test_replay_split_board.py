"""A window over the middle of a board splits its lattice in two: ``replay`` of a JPEG
must not print one side as the board. gnome-mines' won 24x10 under its dialog (columns
0-8 and 19-23 in view): the skin learned from its JPEG captures read the left 9
columns as the board. The expected board is the fixture's hand-checked .board file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from jpegfixtures import as_jpegs

from bot.cmd_replay import BadInput, Reading, _refuse_split, load_image, load_skins, read_file
from solver.cells import UNKNOWN
from solver.textboard import parse_board
from vision.lossy import lattice_board, split_board, trimmed

DIALOG = Path(__file__).resolve().parent.parent / "fixtures" / "gnome-mines" / \
    "screen_won_dialog.png"


def test_one_side_of_a_board_under_a_window_is_refused(tmp_path: Path) -> None:
    (jpeg,) = as_jpegs(tmp_path, 90, [DIALOG])
    image = load_image(jpeg)
    lattice = lattice_board(image)
    assert lattice is not None and (lattice.rows, lattice.cols) == (10, 9)  # the left side
    whole = split_board(image, lattice)
    assert whole is not None and (whole.rows, whole.cols) == (10, 24)
    # (the .board's lattice: x from 175, pitch 49.61; within a quarter of a pitch)
    assert abs(whole.col_left(0) - 175) <= 12 and abs(whole.col_left(24) - 1365.6) <= 12
    board = np.full((10, 9), UNKNOWN, np.int8)
    side = Reading(str(jpeg), "learned", "unknown", lattice, board, None, 0.0, 0.0)
    with pytest.raises(BadInput, match="one side of a board of 24x10 squares"):
        _refuse_split(jpeg, image, side, lattice)
    part = Reading(str(jpeg), "learned", "unknown", trimmed(lattice, 0, 0, 10, 6), board[:, :6],
                   None, 0.0, 0.0)
    with pytest.raises(BadInput):
        _refuse_split(jpeg, image, part, lattice)


def test_the_whole_board_under_a_window_still_reads(tmp_path: Path) -> None:
    """The shipped skin finds the board whole (the window's squares unknown)."""
    (jpeg,) = as_jpegs(tmp_path, 90, [DIALOG])
    reading = read_file(jpeg, load_image(jpeg), load_skins("gnome-mines"), True)
    expected = parse_board(DIALOG.with_suffix(".board").read_text())
    assert reading.board.tolist() == expected.tolist()
