"""A covered square that turns into a look known to be a number was opened: a loss
reading must not name it a shown mine.

minesweeper-mvc shows no mine when a game is lost. In one calibration, a frame of a new
game's first move was read as a loss: covered squares had turned into the looks of 0
to 3, learned in earlier games. ``label_loss_transition`` named those looks mine, and
the skin read every 1 as a mine.
"""

import numpy as np

from solver.cells import COVERED, EXPLODED, MINE
from vision.calibrate import label_loss_transition

COVERED_LOOK, ZERO, ONE, TWO, MINE_LOOK, HIT_LOOK = 0, 4, 5, 6, 7, 8
KNOWN = {COVERED_LOOK: COVERED, ZERO: 0, ONE: 1, TWO: 2}


def fresh_board() -> np.ndarray:
    return np.full((6, 6), COVERED_LOOK, np.int32)


def test_squares_opened_into_known_numbers_are_no_loss() -> None:
    before = fresh_board()
    after = before.copy()
    after[0:3, 3:6] = [[ZERO, ZERO, ONE], [ZERO, ONE, TWO], [ONE, TWO, COVERED_LOOK]]
    after[5, 0] = ONE  # (part of the region, drawn before the rest: not next to it)
    assert label_loss_transition(before, after, KNOWN, [(0, 5)]) is None


def test_a_real_loss_still_names_its_mines() -> None:
    before = fresh_board()
    before[0, 0:3] = [ZERO, ONE, COVERED_LOOK]
    after = before.copy()
    after[0, 2] = HIT_LOOK
    after[3, 3] = MINE_LOOK
    after[5, 5] = MINE_LOOK
    names = label_loss_transition(before, after, KNOWN, [(0, 2)])
    assert names is not None
    assert names[(0, 2)] == EXPLODED
    assert names[(3, 3)] == MINE and names[(5, 5)] == MINE
    assert names[(0, 1)] == 1 and names[(0, 0)] == 0
