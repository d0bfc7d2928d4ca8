"""A covered square told from an opened 0 by a faint line alone (issue #5).

Real gamelibgames captures (``tests/vision/gamelib/README.md``): the covered square is
its opened 0 with a 2 px lighter line along its top and left. Before, calibrate took
both for one look (:func:`vision.calibrate.look_distance` 0.61, within its 1.0), and
wrote a skin with no 0 and a 2 named mine; with them told apart, play read no square of
the top row (the board's frame over it made it as near one as the other).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from checked_image import read_checked

from solver.cells import COVERED, UNKNOWN
from solver.textboard import diff_boards, parse_board
from vision.calibrate import CellBank, look_distance
from vision.lattice import cut, find_lattice
from vision.locate import locate_board
from vision.read import read_board
from vision.skin import load_skin

HERE = Path(__file__).parent / "gamelib"
SHA256 = {"fresh.png": "fa3bea51d2c50b72f70c4f0987945d8e491758fc5b8e1b91d27c2838a71c9554",
          "playing.png": "91e4b478e98930fc233e5f51cf7742f6fa47e02485ad3e1c38c3af9f7e9a7755"}


def capture(name: str) -> np.ndarray:
    return read_checked(HERE / name, SHA256[name])


def test_the_bank_tells_a_covered_square_from_an_opened_0() -> None:
    image = capture("playing.png")
    g = find_lattice(image)
    assert (g.rows, g.cols, g.pitch_x) == (16, 16, 30.0)
    covered = [cut(image, g, cell) for cell in ((1, 1), (2, 2), (15, 12))]  # by eye
    zeros = [cut(image, g, cell) for cell in ((7, 10), (7, 11), (12, 9))]
    assert look_distance(covered[0], zeros[0]) <= 1.0  # (the rule that merged them)
    bank = CellBank(strict=True)  # (a board at whole pixels: live calibration's)
    looks = [bank.classify(img) for img in (*covered, *zeros)]
    assert looks[:3] == [looks[0]] * 3 and looks[3:] == [looks[3]] * 3
    assert looks[0] != looks[3]


@pytest.mark.parametrize("name", ["fresh.png", "playing.png"])
def test_every_square_reads_the_top_row_too(name: str) -> None:
    skin = load_skin(HERE / "skin")
    image = capture(name)
    g = locate_board(image, [skin])
    board = read_board(image, g, skin)
    assert not (board == UNKNOWN).any()
    if name == "fresh.png":
        assert (board == COVERED).all()
    else:
        assert diff_boards(parse_board((HERE / "playing.board").read_text()), board) == []
