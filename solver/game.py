"""The game simulator: any size, the four first-click rules, flood fill, chording.

Seeded and reproducible: the same seed and the same moves give the same game.

>>> game = Game(BoardSize.parse("beginner"), rule="opening", seed=7)
>>> game.open((4, 4))
'playing'
>>> int(game.board[4, 4])
0
>>> game.mines_left
10
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from solver.cells import (
    COVERED,
    EXPLODED,
    FLAG,
    MINE,
    QUESTION,
    WRONG_FLAG,
    Board,
    Cell,
    neighbour_sum,
    neighbours,
    new_board,
)
from solver.strategy import FIRST_CLICK_RULES

PRESETS = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (16, 30, 99),
}


@dataclass(frozen=True)
class BoardSize:
    """Rows, cols and mines of a game.

    >>> BoardSize.parse("expert")
    BoardSize(rows=16, cols=30, mines=99)
    >>> BoardSize.parse("12x9/20")
    BoardSize(rows=9, cols=12, mines=20)
    """

    rows: int
    cols: int
    mines: int

    def __post_init__(self) -> None:
        if self.rows < 1 or self.cols < 1:
            raise ValueError(f"board must be at least 1x1, got {self.cols}x{self.rows}")
        if not 0 <= self.mines < self.rows * self.cols:
            raise ValueError(
                f"{self.mines} mines do not fit a {self.cols}x{self.rows} board "
                f"(0 to {self.rows * self.cols - 1})"
            )

    @classmethod
    def parse(cls, text: str) -> BoardSize:
        """A preset name or ``COLSxROWS/MINES``."""
        key = text.strip().lower()
        if key in PRESETS:
            return cls(*PRESETS[key])
        m = re.fullmatch(r"(\d+)x(\d+)/(\d+)", key)
        if not m:
            raise ValueError(
                f"unknown size {text!r}: use beginner, intermediate, expert or COLSxROWS/MINES"
            )
        cols, rows, mines = (int(g) for g in m.groups())
        return cls(rows, cols, mines)

    def __str__(self) -> str:
        for name, spec in PRESETS.items():
            if spec == (self.rows, self.cols, self.mines):
                return name
        return f"{self.cols}x{self.rows}/{self.mines}"


class Game:
    """One game of Minesweeper. Mines are laid on the first ``open``."""

    def __init__(self, size: BoardSize, rule: str = "safe", seed: int | None = None) -> None:
        if rule not in FIRST_CLICK_RULES:
            raise ValueError(f"unknown first-click rule {rule!r}: use one of {FIRST_CLICK_RULES}")
        self.size = size
        self.rule = rule
        self.rng = np.random.default_rng(seed)
        self.board: Board = new_board(size.rows, size.cols)
        self.mines: npt.NDArray[np.bool_] | None = None
        self.status = "playing"
        self._covered_safe = size.rows * size.cols - size.mines

    @property
    def mines_left(self) -> int:
        """Total mines minus flags placed (what the game's counter shows)."""
        return self.size.mines - int((self.board == FLAG).sum())

    def lay_mines(self, first: Cell) -> None:
        """Place the mines for a first click on ``first`` according to the rule."""
        rows, cols, n = self.size.rows, self.size.cols, self.size.mines
        forbidden = np.zeros((rows, cols), dtype=bool)
        if self.rule == "safe":
            forbidden[first] = True
        elif self.rule == "opening":
            forbidden[first] = True
            for nb in neighbours(first, rows, cols):
                forbidden[nb] = True
            if (~forbidden).sum() < n:  # too dense for an opening: fall back to safe
                forbidden[:] = False
                forbidden[first] = True
        free = np.flatnonzero(~forbidden.ravel())
        chosen = self.rng.choice(free, size=n, replace=False)
        flat = np.zeros(rows * cols, dtype=bool)
        flat[chosen] = True
        mines = flat.reshape(rows, cols)
        if self.rule == "winxp" and mines[first]:
            mines[first] = False
            free_now = ~mines.ravel()
            free_now[first[0] * cols + first[1]] = False
            mines.flat[np.flatnonzero(free_now)[0]] = True
        self.set_mines(mines)

    def set_mines(self, mines: npt.NDArray[np.bool_]) -> None:
        """Use a given layout (for tests and replays)."""
        if mines.shape != (self.size.rows, self.size.cols) or int(mines.sum()) != self.size.mines:
            raise ValueError("layout does not match the board size and mine count")
        self.mines = mines.astype(bool)
        self.counts = neighbour_sum(self.mines).astype(np.int8)

    def open(self, cell: Cell) -> str:
        """Open a square (flood-filling zeros). Returns the status afterwards."""
        self._check(cell)
        if self.status != "playing" or self.board[cell] not in (COVERED, QUESTION):
            return self.status
        if self.mines is None:
            self.lay_mines(cell)
        assert self.mines is not None
        if self.mines[cell]:
            self._lose(cell)
            return self.status
        self._flood(cell)
        if self._covered_safe == 0:
            self.status = "won"
        return self.status

    def chord(self, cell: Cell) -> str:
        """Open every unflagged neighbour of a number whose flags match it."""
        self._check(cell)
        value = int(self.board[cell])
        if self.status != "playing" or value <= 0:
            return self.status
        nbs = neighbours(cell, self.size.rows, self.size.cols)
        if sum(self.board[nb] == FLAG for nb in nbs) != value:
            return self.status
        for nb in nbs:
            if self.board[nb] in (COVERED, QUESTION):
                self.open(nb)
        return self.status

    def toggle_flag(self, cell: Cell) -> None:
        """Flag a covered square, or unflag a flagged one."""
        self._check(cell)
        if self.status != "playing":
            return
        if self.board[cell] in (COVERED, QUESTION):
            self.board[cell] = FLAG
        elif self.board[cell] == FLAG:
            self.board[cell] = COVERED

    def _flood(self, start: Cell) -> None:
        assert self.mines is not None
        queue = deque([start])
        rows, cols = self.size.rows, self.size.cols
        while queue:
            cell = queue.popleft()
            if self.board[cell] not in (COVERED, QUESTION):
                continue
            self.board[cell] = self.counts[cell]
            self._covered_safe -= 1
            if self.counts[cell] == 0:
                queue.extend(nb for nb in self._opened_by_zero(cell, rows, cols)
                             if self.board[nb] in (COVERED, QUESTION))

    def _opened_by_zero(self, cell: Cell, rows: int, cols: int) -> list[Cell]:
        """The squares an opened 0 opens: all 8 around it (a game that opens only the
        4 beside it overrides this; tests/bot/simgame.py's SideFloodGame)."""
        return neighbours(cell, rows, cols)

    def _lose(self, hit: Cell) -> None:
        assert self.mines is not None
        self.status = "lost"
        shown = self.mines & np.isin(self.board, (COVERED, QUESTION))
        self.board[shown] = MINE
        self.board[(self.board == FLAG) & ~self.mines] = WRONG_FLAG
        self.board[hit] = EXPLODED

    def _check(self, cell: Cell) -> None:
        r, c = cell
        if not (0 <= r < self.size.rows and 0 <= c < self.size.cols):
            raise ValueError(f"cell {cell} is outside the {self.size.rows}x{self.size.cols} board")
