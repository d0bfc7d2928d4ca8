"""A loss that shows the whole board is no win because its clicked mine did not read
as one (:func:`vision.reveal.opened_apart`).

``react_reveal/lost_before.png`` and ``lost_after.png`` are real: react-minesweeper
1.0.2 (npm, in Chromium on Xvfb), its 16x16 board of 30 px squares before and after a
move that lost (the page's title counted the loss); the page then shows every square.
Calibrate called that game won: none of the squares it had clicked read as a mine.
Here the squares still covered before the move that show numbers after it lie apart,
so no single click could have opened them: not a win.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bot.screen import load_image
from solver.cells import COVERED, FLAG
from vision.calibrate import CellBank, Learner
from vision.geometry import BoardGeometry
from vision.reveal import label_revealed_frame, opened_apart

HERE = Path(__file__).resolve().parent / "react_reveal"
BOARD = BoardGeometry("react", 0.0, 0.0, 30.0, 30.0, 16, 16)
COVERED_AT, FLAG_AT = (0, 3), (11, 2)  # (by eye: a raised grey square, a flag)


def test_a_revealed_loss_opened_squares_apart_from_any_click() -> None:
    learner = Learner((30, 30), CellBank(strict=True))
    before = learner.ids(load_image(HERE / "lost_before.png"), BOARD)
    after = learner.ids(load_image(HERE / "lost_after.png"), BOARD)
    known = {int(before[COVERED_AT]): COVERED, int(before[FLAG_AT]): FLAG}
    names = label_revealed_frame(after, (), known, before == before[FLAG_AT])
    assert names is not None
    codes = {**known, **names}
    numbers = [lk for lk, code in codes.items() if 0 <= code <= 8]
    covered = before == before[COVERED_AT]
    for r, c in np.argwhere(covered).tolist():
        assert opened_apart(covered, after, numbers, [(r, c)]), (r, c)
    # the same board one click from a win: only that square and the mines covered
    mines = ~np.isin(after, numbers)
    last = (5, 0)
    assert not mines[last]
    assert not opened_apart(mines | (np.arange(16)[:, None] == 5) & (np.arange(16) == 0),
                            after, numbers, [last])
