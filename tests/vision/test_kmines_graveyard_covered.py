"""kmines' graveyard-mayhem draws its covered tiles translucent over the window's
background, where a ghost and the frame's shadow show: some covered squares (here the
two at (1, 0) and (2, 0) over the ghost, and the bottom row) are looks of their own.
At the first loss of a calibration those looks were not named yet, and the loss
labelling (:func:`vision.calibrate.label_loss_transition`) read them as opened squares
with no mine around: 0s. Play then read a fresh board's squares as 0s and stopped
("unreadable square"), and calibrate could not tell a fresh game ("cannot find how to
start a new game"). No game leaves a 0's neighbour covered, so such a look is a covered
square (:func:`vision.calibrate.unopened_looks`). And the covered squares above the
mines at (11, 0), (11, 2), (11, 4), the zombie's head along their bottom edge, fell in
the same look as the two over the ghost: they were counted shown mines, so that look,
which every fresh board shows, was named mine (:func:`vision.calibrate._old_looks`: a
look the board showed before the loss is no mine shown).

Data: ``kmines_graveyard/loss16_before.png`` and ``loss16_after.png``, the 16x16/40
board (19 px squares) before and after the losing click at (2, 14) in a live
calibration (22 Nov, kmines 22.12.3 on Xvfb); the "Reset the Game?" dialog lies over
rows 3-10 after it. ``OPEN`` is the board before, read by eye (``o`` opened, ``F`` the
calibrator's flag, ``.`` covered).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from bot.calibrate_live import window_over
from solver.cells import COVERED, MINE
from vision.calibrate import CellBank, Learner, label_loss_transition
from vision.geometry import BoardGeometry

DATA = Path(__file__).parent / "kmines_graveyard"
G = BoardGeometry("", 0.0, 0.0, 19.0, 19.0, 16, 16)
OPEN = """
................
................
................
................
................
ooooo...........
ooooo...oooo....
ooooo.oooooooo..
oooFo.oooooooo..
......oooooooo..
........oooo....
........ooooooo.
........ooooooo.
........ooooooo.
................
................
"""


def shot(name: str) -> np.ndarray:
    img = cv2.imread(str(DATA / f"loss16_{name}.png"), cv2.IMREAD_COLOR)
    assert img is not None
    return img


def test_no_covered_square_is_named_a_number() -> None:
    grid = np.array([list(line) for line in OPEN.split()])
    learner = Learner((19, 19), CellBank(strict=True))
    before, after = (learner.ids(shot(n), G) for n in ("before", "after"))
    assert not np.isin(before[grid == "."], before[grid == "o"]).any()  # by eye = as read
    assert len(np.unique(before[grid == "."])) == 3  # the covered tile and two variants
    learner.name(int(before[0, 0]), COVERED)
    known = learner.known()
    raw, after = after, learner.unpaint(before, after)
    over = window_over(after, known, before)  # (the dialog, as calibrate reads it)
    seen = np.where(over, before, after)
    names = label_loss_transition(before, seen, known, [(2, 14)], hidden=over)
    assert names is not None
    covered = {cell: code for cell, code in names.items() if grid[cell] == "."}
    assert all(code in (COVERED, MINE) or cell == (2, 14) for cell, code in covered.items())
    assert covered[(1, 0)] == covered[(2, 0)] == covered[(15, 5)] == COVERED
    for cell in ((10, 0), (10, 2), (10, 4)):  # covered, by eye: the head of the mine below
        assert raw[cell] == before[1, 0] and covered.get(cell) != MINE
    assert covered[(11, 0)] == covered[(11, 2)] == covered[(11, 4)] == MINE
