"""``tank``: single-number rules, then the "tank solver" (Luckytoilet, "How to Write your
own Minesweeper AI", 2012).

When the simple rules are stuck, every covered square next to a number (the border) is
split into connected regions, and every mine layout of each region that agrees with the
numbers is enumerated by plain backtracking (squares in breadth-first order, each tried
mine-free then mine, dropped as soon as a number is over- or under-filled). A square
mine-free in every layout is safe, a mine in every layout is a mine. Otherwise the guess
is the square with the lowest share of layouts with a mine on it; ties go to the lowest
index (row-major first). A square away from the border counts as
``(mines left - expected border mines) / squares away from the border``.

Endgame, as in the original: when at most ``BF_LIMIT = 8`` covered squares are away from
the border, all covered squares form one region, enumerated with the total mine count.

Cap (ours): a region with more than ``MAX_CELLS`` squares, or whose search needs more
than ``_enum.NODE_BUDGET`` nodes, is cut to its first squares (breadth-first), halving
until the search fits; numbers cut by the window become ranges, so what the window
proves safe or mined is still certain.

First click: the middle of the board, as in the blog's walk-through.

>>> import numpy as np
>>> from solver.textboard import parse_board
>>> d = TankStrategy("safe").decide(parse_board("....\\n1221\\n0000"), 2, np.random.default_rng(0))
>>> d.open, d.mines
(((0, 0), (0, 3)), ((0, 1), (0, 2)))
"""

from __future__ import annotations

import numpy as np

from solver.cells import Board, Cell
from solver.strategies import _enum, _rules
from solver.strategies._rules import Constraint
from solver.strategy import Decision

BF_LIMIT = 8
MAX_CELLS = 24


class TankStrategy:
    """Single-cell rules, then full enumeration of each border region."""

    name = "tank"

    def __init__(self, rule: str) -> None:
        self.rule = rule

    def decide(self, board: Board, mines: int, rng: np.random.Generator) -> Decision:
        known = _rules.known_mines(board)
        rows, cols = board.shape
        if _rules.is_fresh(board):
            risk = _rules.density(board, mines, known)
            return _rules.guess((rows // 2, cols // 2), risk, board, known, "first click: middle")
        safe, known = _rules.single_cell(board, known)
        if safe.any():
            return _rules.certain(safe, board, known, "single-cell rules")
        probs = tank_probabilities(board, mines, known)
        sure_safe = tuple(sorted(c for c, p in probs.items() if p == 0.0))
        for cell in (c for c, p in probs.items() if p == 1.0):
            known[cell] = True
        if sure_safe:
            return _rules.certain(sure_safe, board, known, "tank solver")
        cell, risk = lowest(probs)
        return _rules.guess(cell, risk, board, known, "tank: lowest probability")


def regions(board: Board, mines: int, known: _rules.Mask) -> list[list[Constraint]]:
    """Border regions, or one region of every covered square in the endgame."""
    cons = _rules.constraints(board, known)
    unknown = _rules.cells_of(_rules.covered(board) & ~known)
    border = set().union(*(c.cells for c in cons)) if cons else set()
    if len(unknown) - len(border) > BF_LIMIT:
        return _rules.components(cons)
    left = _rules.mines_left(board, mines, known)
    return [[*cons, Constraint(frozenset(unknown), left)]]


def tank_probabilities(board: Board, mines: int, known: _rules.Mask) -> dict[Cell, float]:
    """Mine probability of every unknown covered square (border by enumeration)."""
    probs: dict[Cell, float] = {}
    for region in regions(board, mines, known):
        cells, problem = _enum.to_problem(region)
        size, counts = _enum.count_with_cap(len(cells), problem, False, MAX_CELLS)
        probs.update(_enum.probabilities(cells, size, counts))
    rest = [c for c in _rules.cells_of(_rules.covered(board) & ~known) if c not in probs]
    if rest:
        expected = sum(probs.values())
        left = _rules.mines_left(board, mines, known)
        share = _rules.leftover_share(left, expected, len(rest))
        probs.update({cell: share for cell in rest})
    return probs


def lowest(probs: dict[Cell, float]) -> tuple[Cell, float]:
    """The square with the lowest probability; the lowest index among ties.

    >>> lowest({(2, 0): 0.25, (0, 3): 0.25, (0, 1): 0.5})
    ((0, 3), 0.25)
    """
    cell = min(probs, key=lambda c: (round(probs[c], 12), c))
    return cell, probs[cell]
