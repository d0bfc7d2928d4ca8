"""A loss that leaves question marks as they are (ace-minesweeper draws every
question-marked square unchanged when a game is lost, mine or not): the numbers next to
such a square cannot be counted, so :func:`vision.calibrate.label_loss_transition`
names none of them, and every name it gives is true."""

from __future__ import annotations

import numpy as np

from solver.cells import COVERED, EXPLODED, MINE, QUESTION
from vision.calibrate import adjacent_count, label_loss_transition

COVERED_LOOK, QUESTION_LOOK, MINE_LOOK, EXPLODED_LOOK = 0, 2, 5, 6
NUMBER_LOOK = 10  # look of number n: 10 + n


def frames(mines: np.ndarray, question: tuple[int, int], hit: tuple[int, int],
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Look ids before and after the losing click, and the true numbers. Every safe
    square is open before; the mines are covered but for one question mark."""
    numbers = adjacent_count(mines)
    before = np.where(mines, COVERED_LOOK, NUMBER_LOOK + numbers).astype(np.int32)
    before[question] = QUESTION_LOOK
    after = np.where(mines, MINE_LOOK, before).astype(np.int32)
    after[question] = QUESTION_LOOK  # left as it was
    after[hit] = EXPLODED_LOOK
    return before, after, numbers


def test_numbers_next_to_a_question_mark_left_at_a_loss_are_not_named() -> None:
    mines = np.zeros((4, 6), bool)
    question, hit = (0, 0), (3, 5)
    mines[question] = mines[hit] = mines[0, 5] = mines[2, 2] = True
    before, after, numbers = frames(mines, question, hit)
    known = {COVERED_LOOK: COVERED, QUESTION_LOOK: QUESTION}
    names = label_loss_transition(before, after, known, [hit])
    assert names is not None
    assert names[hit] == EXPLODED and names[(0, 5)] == MINE and names[(2, 2)] == MINE
    for cell in [(0, 1), (1, 0), (1, 1)]:  # the question-marked mine's neighbours
        assert cell not in names
    for cell, code in names.items():
        if code >= 0:
            assert code == numbers[cell], cell
    named_numbers = [cell for cell, code in names.items() if code >= 0]
    assert len(named_numbers) == int((~mines).sum()) - 3


def test_a_question_mark_that_turns_into_a_mine_is_counted() -> None:
    """A game that shows a question-marked mine as a mine at a loss: every number is
    named, the ones next to it included."""
    mines = np.zeros((4, 6), bool)
    question, hit = (0, 0), (3, 5)
    mines[question] = mines[hit] = True
    before, after, numbers = frames(mines, question, hit)
    after[question] = MINE_LOOK
    known = {COVERED_LOOK: COVERED, QUESTION_LOOK: QUESTION}
    names = label_loss_transition(before, after, known, [hit])
    assert names is not None and names[question] == MINE
    for cell in zip(*np.nonzero(~mines), strict=True):
        assert names[(int(cell[0]), int(cell[1]))] == numbers[cell]
