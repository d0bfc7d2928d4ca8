"""Squares drawn over at a game's start are covered (:func:`vision.calibrate.drawn_covered`).

``mvc_bank/get_ready.png`` is real: minesweeper-mvc 1.1.0 (PyPI, pygame, on Xvfb) at the
start of a game, its "GET READY!" written over row 8 until the first click;
``get_ready_opened.png`` is the next frame calibrate read, after its click on square
(0, 0): an opened region at the top left, row 8 covered again. Both are cropped to the
16x16 board of 40 px squares. Calibrate took that move for a loss showing 44 mines (the
numbers had no names yet: mvc shows no mine at a loss) and went on clicking "the
new-game control", which by then lay over the board of the game in play.
"""

from __future__ import annotations

from pathlib import Path

from bot.screen import load_image
from solver.cells import COVERED, MINE
from vision.calibrate import (
    CellBank,
    IdGrid,
    Learner,
    drawn_covered,
    is_flood,
    label_loss_transition,
)
from vision.geometry import BoardGeometry

HERE = Path(__file__).resolve().parent / "mvc_bank"
BOARD = BoardGeometry("mvc", 0.0, 0.0, 40.0, 40.0, 16, 16)
CLICKED = [(0, 0)]


def frames() -> tuple[IdGrid, IdGrid, dict[int, int]]:
    learner = Learner((40, 40), CellBank(strict=True))
    before = learner.ids(load_image(HERE / "get_ready.png"), BOARD)
    after = learner.ids(load_image(HERE / "get_ready_opened.png"), BOARD)
    known = {int(before[15, 15]): COVERED}  # (a square far from both, covered in both)
    return before, after, known


def test_the_written_row_made_the_opening_look_like_a_loss() -> None:
    before, after, known = frames()
    assert len(set(before[8].tolist())) > 3  # (the text: squares of looks of their own)
    assert not is_flood(before, after, CLICKED)
    names = label_loss_transition(before, after, known, CLICKED)
    assert names is not None and sum(code == MINE for code in names.values()) >= 40


def test_the_written_row_was_covered_and_the_move_opened_a_region() -> None:
    before, after, known = frames()
    fixed = drawn_covered(before, after, known, first=True)
    assert (fixed[8] == before[15, 15]).all()
    assert is_flood(fixed, after, CLICKED)
    assert (fixed[before == after] == before[before == after]).all()  # (the rest as it was)
