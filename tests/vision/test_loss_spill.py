"""A loss whose shown mines spill over the squares above them: kmines' theme
graveyard-mayhem (22.12.3) draws each shown mine as a zombie whose head reaches a few
pixels into the square above. The calibrator took every covered square above a mine
for a shown mine too (5 of 9 learned 'mine' templates at 16x16/40 were covered tiles
with the zombie's head along their bottom edge), and those templates, nearly the
covered tile, left play's reader unsure of every covered square: 'no Minesweeper board
found'. :meth:`vision.calibrate.Learner.unspill` reads such a square as the look it had.

Data: ``kmines/graveyard_before.png`` and ``graveyard_after.png``, rows 10-15 of a
16x16 board (19 px squares) before and after the losing click (on row 4, above the
cut), from a screenshot on Xvfb; the lost board in ``graveyard_after.board``, read by
eye and checked by its 1s below.
"""

from __future__ import annotations

import numpy as np
from test_kmines_shade import DATA, image  # (pytest puts this folder on sys.path)

from solver.cells import COVERED, MINE
from solver.textboard import parse_board
from vision.calibrate import (
    CellBank,
    Learner,
    adjacent_count,
    label_loss_transition,
    spill_side,
)
from vision.geometry import BoardGeometry

G = BoardGeometry("", 0.0, 0.0, 19.0, 19.0, 6, 16)


def test_the_expected_board_agrees_with_its_numbers() -> None:
    truth = parse_board((DATA / "graveyard_after.board").read_text())
    counts = adjacent_count(truth == MINE)
    for col in (8, 9, 10):  # (their row above, outside the cut, holds no mine)
        assert truth[0, col] == 1 and counts[0, col] == 1
    assert truth[3, 15] == 1 and counts[3, 15] == 1  # (at the board's right edge)
    assert int((truth == MINE).sum()) == 18


def loss() -> tuple[Learner, np.ndarray, np.ndarray, np.ndarray]:
    truth = parse_board((DATA / "graveyard_after.board").read_text())
    # live, a covered square with a zombie's head along its edge was a look of its own
    # when the covered look it joined had been cut on another shade of the background
    # (the learned mine_5: 0.46 from covered_0, whose squares differ by 0.7-0.8 among
    # themselves); a stricter bank splits them here on every shade alike
    learner = Learner((19, 19), CellBank(tol=0.3, strict=True))
    before = learner.ids(image("graveyard_before.png"), G)
    after = learner.ids(image("graveyard_after.png"), G)
    for look in np.unique(before[truth != 1]).tolist():  # every covered look named
        learner.name(int(look), COVERED)
    return learner, before, after, truth


def test_squares_under_a_neighbours_spill_are_no_mines() -> None:
    learner, before, after, truth = loss()
    spilt = (before != after) & (truth != MINE)
    assert spilt.sum() == 12  # (the squares above a mine changed)
    restored = learner.unpaint(before, after)
    names = label_loss_transition(before, restored, learner.known(), [])
    assert names is not None
    mines = {cell for cell, code in names.items() if code == MINE}
    assert mines == {(int(r), int(c)) for r, c in np.argwhere(truth == MINE)}
    assert (restored == before)[truth != MINE].all()


def test_the_spilt_looks_read_as_the_looks_they_were() -> None:
    learner, before, after, truth = loss()
    learner.unpaint(before, after)
    known = learner.known()
    for r, c in np.argwhere((before != after) & (truth == COVERED)).tolist():
        assert known.get(int(after[r, c])) == COVERED
    assert learner.unpaint(before, after)[truth == MINE].tolist() == \
        after[truth == MINE].tolist()  # (the next loss alike; the mines stay shown)


def test_the_learned_mine_that_was_a_covered_square_is_a_spill() -> None:
    """Templates of the live calibration (16x16/40): its 'mine_5' is its covered tile with
    a zombie's head along the bottom edge; a real mine differs all over."""
    covered = image("graveyard_covered.png")
    assert spill_side(covered, image("graveyard_learned_mine5.png")) == (1, 0)
    assert spill_side(covered, image("graveyard_mine.png")) is None
