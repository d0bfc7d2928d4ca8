"""``csp``: Minesweeper as a constraint satisfaction problem (C. Studholme, "Minesweeper as
a Constraint Satisfaction Problem", University of Toronto, 2000).

Every revealed number is a constraint "exactly n of these covered squares are mines".
Trivial constraints are solved first (the single-number rules). The rest are split into
coupled sets (constraints sharing squares); each set is solved by backtracking with
forward checking, starting from the most constrained square (the one in most
constraints): after each assignment a constraint that became tight forces its free
squares. A square that is mine-free (a mine) in every solution is safe (a mine).

Once fewer than ``ENDGAME_COVERED = 20`` covered squares remain, the whole board is one
problem: all constraints together plus the total mine count, the squares touching no
number being counted in closed form (each solution with k mines weighted by
C(unconstrained squares, mines left - k)), which equals enumerating them one by one.

Guesses: each coupled set gives its squares the share of its solutions with a mine
there; unconstrained squares get ``(mines left - expected mines in the sets) /
unconstrained squares``. Unconstrained squares are preferred when they are no riskier,
and among equally safe squares corners come first, then edges (then the row-major
first). Cap (ours): as for ``tank``, a set above ``MAX_CELLS`` squares or the node budget
is searched on a breadth-first window with relaxed constraints (still sound).

First click: the top-left corner (corners are the strategy's preferred guesses).

>>> import numpy as np
>>> from solver.textboard import parse_board
>>> board = parse_board("....\\n1221\\n0000\\n0000\\n0000\\n0000")
>>> d = CspStrategy("safe").decide(board, 2, np.random.default_rng(0))
>>> d.open, d.mines
(((0, 0), (0, 3)), ((0, 1), (0, 2)))
"""

from __future__ import annotations

from math import comb

import numpy as np

from solver.cells import Board, Cell
from solver.strategies import _enum, _rules
from solver.strategies._rules import Constraint
from solver.strategy import Decision

ENDGAME_COVERED = 20
MAX_CELLS = 24


class CspStrategy:
    """Single-cell rules, then backtracking with forward checking per coupled set."""

    name = "csp"

    def __init__(self, rule: str) -> None:
        self.rule = rule

    def decide(self, board: Board, mines: int, rng: np.random.Generator) -> Decision:
        known = _rules.known_mines(board)
        if _rules.is_fresh(board):
            risk = _rules.density(board, mines, known)
            return _rules.guess((0, 0), risk, board, known, "first click: corner")
        safe, known = _rules.single_cell(board, known)
        if safe.any():
            return _rules.certain(safe, board, known, "trivial constraints")
        probs, free = csp_probabilities(board, mines, known)
        sure_safe = tuple(sorted(c for c, p in probs.items() if p == 0.0))
        for cell in (c for c, p in probs.items() if p == 1.0):
            known[cell] = True
        if sure_safe:
            return _rules.certain(sure_safe, board, known, "csp solutions")
        cell, risk = preferred_guess(probs, free, board.shape)
        return _rules.guess(cell, risk, board, known, "csp: safest guess")


def csp_probabilities(
    board: Board, mines: int, known: _rules.Mask
) -> tuple[dict[Cell, float], set[Cell]]:
    """Mine probability of every unknown square, and the set of unconstrained squares."""
    cons = _rules.constraints(board, known)
    unknown = _rules.cells_of(_rules.covered(board) & ~known)
    left = _rules.mines_left(board, mines, known)
    probs: dict[Cell, float] = {}
    share: float | None = None
    if len(unknown) < ENDGAME_COVERED and cons:
        probs, share = whole_board(cons, len(unknown), left)
    else:
        for group in _rules.components(cons):
            cells, problem = _enum.to_problem(group, most_constrained_first=True)
            size, counts = _enum.count_with_cap(len(cells), problem, True, MAX_CELLS)
            probs.update(_enum.probabilities(cells, size, counts))
    free = {c for c in unknown if c not in probs}
    if free:
        if share is None:
            share = _rules.leftover_share(left, sum(probs.values()), len(free))
        probs.update({cell: share for cell in free})
    return probs, free


def whole_board(
    cons: list[Constraint], unknown: int, left: int
) -> tuple[dict[Cell, float], float | None]:
    """All constraints plus the mine count, unconstrained squares in closed form.

    Returns the constrained squares' probabilities and the unconstrained squares'
    shared probability (None when it cannot be computed exactly).
    """
    cells, problem = _enum.to_problem(cons, most_constrained_first=True)
    outside = unknown - len(cells)
    total = (tuple(range(len(cells))), max(0, left - outside), min(left, len(cells)))
    size, counts = _enum.count_with_cap(len(cells), (*problem, total), True, MAX_CELLS)
    if size < len(cells):  # cut window: the weights would be wrong, stay unweighted
        return _enum.probabilities(cells, size, counts), None
    weight = {k: float(comb(outside, left - k)) for k in counts if 0 <= left - k <= outside}
    probs = _enum.probabilities(cells, size, counts, weight)
    if not outside or not probs:
        return probs, None
    norm = sum(weight[k] * n for k, (n, _) in counts.items() if k in weight)
    spare = sum(weight[k] * n * (left - k) for k, (n, _) in counts.items() if k in weight)
    return probs, spare / norm / outside


def preferred_guess(
    probs: dict[Cell, float], free: set[Cell], shape: tuple[int, ...]
) -> tuple[Cell, float]:
    """Lowest probability; then unconstrained squares, corners, edges, row-major order.

    >>> preferred_guess({(1, 1): 0.2, (0, 1): 0.2, (2, 2): 0.2}, {(1, 1), (2, 2)}, (3, 3))
    ((2, 2), 0.2)
    """
    rows, cols = shape[0], shape[1]

    def key(cell: Cell) -> tuple[float, bool, int, Cell]:
        rank = _rules.corner_rank(cell, rows, cols)
        return (round(probs[cell], 12), cell not in free, rank, cell)

    cell = min(probs, key=key)
    return cell, probs[cell]
