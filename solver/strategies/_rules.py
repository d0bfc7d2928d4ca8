"""Shared helpers of the classic strategies: board masks, single-cell rules, constraints.

Flags (and mines shown after a loss) are known mines; covered, question-marked and
unreadable squares are covered. Everything here is sound: a square called safe or a
mine is one in every layout consistent with the board.

>>> from solver.textboard import parse_board
>>> board = parse_board("1..\\n1..\\n...")
>>> safe, mines = single_cell(board, known_mines(board))
>>> cells_of(safe), cells_of(mines)
((), ())
>>> board = parse_board("F1.\\n11.\\n...")
>>> safe, mines = single_cell(board, known_mines(board))
>>> cells_of(safe)
((0, 2), (1, 2), (2, 0), (2, 1), (2, 2))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from solver.cells import (
    COVERED,
    EXPLODED,
    FLAG,
    MINE,
    QUESTION,
    UNKNOWN,
    Board,
    Cell,
    neighbour_sum,
    neighbours,
)
from solver.strategy import Decision

Mask = npt.NDArray[np.bool_]

COVERED_CODES = (COVERED, QUESTION, UNKNOWN)
"""Squares that may still hide a mine (an unreadable square is treated as covered)."""
MINE_CODES = (FLAG, MINE, EXPLODED)
"""Squares that are known mines."""


@dataclass(frozen=True)
class Constraint:
    """``mines`` of the squares ``cells`` are mines (cells: covered, not known mines)."""

    cells: frozenset[Cell]
    mines: int


def covered(board: Board) -> Mask:
    """Squares that are covered (including question marks and unreadable squares)."""
    return np.isin(board, COVERED_CODES)


def known_mines(board: Board) -> Mask:
    """Squares the board already shows as mines (flags)."""
    return np.isin(board, MINE_CODES)


def single_cell(board: Board, mines: Mask) -> tuple[Mask, Mask]:
    """Apply the two single-number rules until nothing changes.

    A number with as many known mines around it as its value makes its other covered
    neighbours safe; a number whose covered neighbours are exactly as many as its
    missing mines makes them all mines. Returns (safe squares, all known mines).
    """
    numbers = board >= 0
    cov = covered(board)
    mines = mines.copy()
    while True:
        unknown = cov & ~mines
        have, free = neighbour_sum(mines), neighbour_sum(unknown)
        full = numbers & (free > 0) & (have + free == board)
        new_mines = unknown & (neighbour_sum(full) > 0)
        if not new_mines.any():
            satisfied = numbers & (free > 0) & (have == board)
            return unknown & (neighbour_sum(satisfied) > 0), mines
        mines |= new_mines


def constraints(board: Board, mines: Mask) -> list[Constraint]:
    """One constraint per revealed number that still touches unknown covered squares.

    >>> from solver.textboard import parse_board
    >>> b = parse_board("F2.\\n...")
    >>> [(sorted(c.cells), c.mines) for c in constraints(b, known_mines(b))]
    [([(0, 2), (1, 0), (1, 1), (1, 2)], 1)]
    """
    rows, cols = board.shape
    unknown = covered(board) & ~mines
    touching = (board >= 0) & (neighbour_sum(unknown) > 0)
    out: dict[frozenset[Cell], int] = {}
    for r, c in zip(*np.nonzero(touching), strict=True):
        around = neighbours((int(r), int(c)), rows, cols)
        cells = frozenset(nb for nb in around if unknown[nb])
        out[cells] = int(board[r, c]) - sum(1 for nb in around if mines[nb])
    return [Constraint(cells, m) for cells, m in out.items()]


def components(cons: list[Constraint]) -> list[list[Constraint]]:
    """Group constraints that share squares (transitively), in first-seen order."""
    parent = list(range(len(cons)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[Cell, int] = {}
    for i, con in enumerate(cons):
        for cell in con.cells:
            if cell in owner:
                parent[root(i)] = root(owner[cell])
            else:
                owner[cell] = i
    groups: dict[int, list[Constraint]] = {}
    for i, con in enumerate(cons):
        groups.setdefault(root(i), []).append(con)
    return list(groups.values())


def cells_of(mask: Mask) -> tuple[Cell, ...]:
    """The True squares of a mask in row-major order."""
    return tuple((int(r), int(c)) for r, c in zip(*np.nonzero(mask), strict=True))


def is_fresh(board: Board) -> bool:
    """True before the first click: nothing revealed and nothing flagged."""
    return bool(covered(board).all())


def mines_left(board: Board, total: int, mines: Mask) -> int:
    """Mines not yet known (total minus every known mine, flagged or deduced)."""
    return total - int(mines.sum())


def density(board: Board, total: int, mines: Mask) -> float:
    """Unknown mines per unknown covered square: the risk of a blind guess (> 0)."""
    unknown = int((covered(board) & ~mines).sum())
    return max(mines_left(board, total, mines), 1) / max(unknown, 1)


def new_mines(board: Board, mines: Mask) -> tuple[Cell, ...]:
    """Known mines that the board does not show as flags yet."""
    return cells_of(mines & ~known_mines(board))


def certain(safe: Mask | tuple[Cell, ...], board: Board, mines: Mask, note: str) -> Decision:
    """A decision opening only proven-safe squares and reporting the proven mines."""
    cells = safe if isinstance(safe, tuple) else cells_of(safe)
    return Decision(open=cells, mines=new_mines(board, mines), risk=0.0, note=note)


def guess(cell: Cell, risk: float, board: Board, mines: Mask, note: str) -> Decision:
    """A decision taking one guess with a strictly positive risk estimate."""
    return Decision(open=(cell,), mines=new_mines(board, mines), risk=max(risk, 1e-9), note=note)


def corner_rank(cell: Cell, rows: int, cols: int) -> int:
    """0 for a corner, 1 for an edge square, 2 inside the board.

    >>> [corner_rank(c, 3, 3) for c in [(0, 0), (0, 1), (1, 1)]]
    [0, 1, 2]
    """
    edges = (cell[0] in (0, rows - 1)) + (cell[1] in (0, cols - 1))
    return 2 - edges


def leftover_share(left: int, expected: float, squares: int) -> float:
    """Estimated mine probability of squares touching no number: the mines not expected
    elsewhere spread over them. Only an estimate, so kept strictly between 0 and 1 (a
    0 or 1 here must never pass for a proof).

    >>> leftover_share(10, 4.0, 30), leftover_share(3, 5.0, 10)
    (0.2, 0.001)
    """
    share = max(left - expected, 0.0) / max(squares, 1)
    return min(max(share, 0.001), 0.999)
