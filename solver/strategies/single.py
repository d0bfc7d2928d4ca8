"""``single``: the single-number rules only, a random guess when they are stuck.

The common baseline: a number that already touches as many known mines as its value
makes its other covered neighbours safe; a number with exactly as many covered
neighbours as missing mines makes them all mines. When neither rule applies it
steps on a uniformly random unknown square (risk = unknown mines / unknown squares).
First click: a random square (the baseline has no preference).

>>> import numpy as np
>>> from solver.textboard import parse_board
>>> rng = np.random.default_rng(0)
>>> SingleStrategy("safe").decide(parse_board("F1.\\n11.\\n..."), 1, rng).open
((0, 2), (1, 2), (2, 0), (2, 1), (2, 2))
>>> SingleStrategy("safe").decide(parse_board("1.\\n.."), 1, rng).is_guess
True
"""

from __future__ import annotations

import numpy as np

from solver.cells import Board
from solver.strategies import _rules
from solver.strategy import Decision


class SingleStrategy:
    """Single-cell rules plus a uniformly random guess."""

    name = "single"

    def __init__(self, rule: str) -> None:
        self.rule = rule

    def decide(self, board: Board, mines: int, rng: np.random.Generator) -> Decision:
        known = _rules.known_mines(board)
        safe, known = _rules.single_cell(board, known)
        if safe.any():
            return _rules.certain(safe, board, known, "single-cell rules")
        return random_guess(board, mines, known, rng, "random guess")


def random_guess(
    board: Board, mines: int, known: _rules.Mask, rng: np.random.Generator, note: str
) -> Decision:
    """Step on a uniformly random covered square that is not a known mine."""
    candidates = _rules.cells_of(_rules.covered(board) & ~known)
    if not candidates:
        raise ValueError("no covered square left to open")
    cell = candidates[int(rng.integers(len(candidates)))]
    return _rules.guess(cell, _rules.density(board, mines, known), board, known, note)
