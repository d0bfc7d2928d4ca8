"""``sampling``: pick the guess from K random layouts repaired until they fit the board.

After the single-number rules, the strategy builds ``samples`` (default 30) random mine
layouts consistent with the board: each starts as the mines left spread uniformly over
the unknown squares, then, while some number sees the wrong count, one conflicting number
is chosen at random and repaired by moving one mine (out of its squares when it sees too
many, into them when too few), the other end of the move being the best of a few random
candidates (fewest new conflicts; squares touching no number never conflict), half of
them drawn from the squares of other conflicting numbers. The repair is bounded
(``max_steps`` moves); a layout still in conflict then is dropped. Squares
touching no number are interchangeable, so the repair tracks only how many mines sit
there and spreads them at random once the layout fits.

It steps on the unknown square that is a mine in the fewest layouts (ties at random) and
would flag squares that are mines in every layout. Sampling proves nothing, so the
decision only reports as certain what the single-number rules prove: its guess carries
risk ``(layouts with a mine there + 1) / (layouts + 2)`` (> 0 even when no layout had a
mine there) and ``mines`` lists proven mines only. First click: a random square (the
method does not name one). With no fitting layout it guesses at random.

>>> import numpy as np
>>> from solver.textboard import parse_board
>>> board = parse_board("....\\n1221\\n0000\\n0000")
>>> d = SamplingStrategy("safe").decide(board, 2, np.random.default_rng(1))
>>> d.open in (((0, 0),), ((0, 3),)), d.is_guess, d.mines
(True, True, ())
"""

from __future__ import annotations

import random

import numpy as np

from solver.cells import Board, Cell
from solver.strategies import _rules
from solver.strategies.single import random_guess
from solver.strategy import Decision

CANDIDATES = 4
"""Random candidates compared for the far end of each repair move."""


class SamplingStrategy:
    """Single-cell rules, then the square least often mined in K repaired layouts."""

    name = "sampling"

    def __init__(self, rule: str, samples: int = 30, max_steps: int = 1000) -> None:
        self.rule, self.samples, self.max_steps = rule, samples, max_steps

    def decide(self, board: Board, mines: int, rng: np.random.Generator) -> Decision:
        known = _rules.known_mines(board)
        if _rules.is_fresh(board):
            return random_guess(board, mines, known, rng, "first click: random")
        safe, known = _rules.single_cell(board, known)
        if safe.any():
            return _rules.certain(safe, board, known, "single-cell rules")
        sampler = Sampler(board, mines, known, random.Random(int(rng.integers(2**63))))
        tally, fitted = sampler.tally(self.samples, self.max_steps)
        if not fitted:
            return random_guess(board, mines, known, rng, "sampling: no layout fitted")
        fewest = min(tally.values())
        tied = sorted(c for c, n in tally.items() if n == fewest)
        cell = tied[int(rng.integers(len(tied)))]
        risk = (fewest + 1) / (fitted + 2)
        return _rules.guess(cell, risk, board, known, f"sampling: {fewest}/{fitted} layouts")


class Sampler:
    """Random layouts of the unknown squares, repaired against the numbers."""

    def __init__(self, board: Board, mines: int, known: _rules.Mask, rnd: random.Random):
        cons = _rules.constraints(board, known)
        self.front: list[Cell] = sorted(set().union(*(c.cells for c in cons)) if cons else ())
        index = {cell: i for i, cell in enumerate(self.front)}
        self.members = [[index[c] for c in con.cells] for con in cons]
        self.need = [con.mines for con in cons]
        self.of: list[list[int]] = [[] for _ in self.front]
        for j, cells in enumerate(self.members):
            for v in cells:
                self.of[v].append(j)
        unknown = _rules.cells_of(_rules.covered(board) & ~known)
        self.inner = [c for c in unknown if c not in index]
        self.left = _rules.mines_left(board, mines, known)
        self.rnd = rnd

    def tally(self, samples: int, max_steps: int) -> tuple[dict[Cell, int], int]:
        """How often each unknown square is a mine over the fitting layouts, and how many."""
        counts = dict.fromkeys([*self.front, *self.inner], 0)
        fitted = 0
        for _ in range(samples):
            layout = self.repaired(max_steps)
            if layout is None:
                continue
            fitted += 1
            mine_at, inner_mines = layout
            for v, m in enumerate(mine_at):
                counts[self.front[v]] += m
            for cell in self.rnd.sample(self.inner, inner_mines):
                counts[cell] += 1
        return counts, fitted

    def repaired(self, max_steps: int) -> tuple[list[int], int] | None:
        """One layout: a random start, then at most ``max_steps`` repair moves."""
        if not 0 <= self.left <= len(self.front) + len(self.inner):
            return None
        self.start()
        for _ in range(max_steps):
            if not self.bad:
                break
            self.repair(self.bad[int(self.rnd.random() * len(self.bad))])
        return None if self.bad else (self.mine, self.inner_mines)

    def start(self) -> None:
        """A fresh uniformly random layout of the mines left, with its conflicts."""
        n_front = len(self.front)
        chosen = self.rnd.sample(range(n_front + len(self.inner)), self.left)
        self.mine = [0] * n_front
        for v in chosen:
            if v < n_front:
                self.mine[v] = 1
        self.inner_mines = sum(1 for v in chosen if v >= n_front)
        self.seen = [sum(self.mine[v] for v in cells) for cells in self.members]
        self.bad: list[int] = []
        self.slot: dict[int, int] = {}
        for j in range(len(self.need)):
            if self.seen[j] != self.need[j]:
                self.mark(j, True)

    def mark(self, j: int, bad: bool) -> None:
        """Add number j to, or drop it from, the list of conflicting numbers."""
        if bad and j not in self.slot:
            self.slot[j] = len(self.bad)
            self.bad.append(j)
        elif not bad and j in self.slot:
            pos, last = self.slot.pop(j), self.bad.pop()
            if last != j:
                self.bad[pos] = last
                self.slot[last] = pos

    def repair(self, j: int) -> None:
        """Move one mine out of (too many) or into (too few) number ``j``'s squares."""
        cells = self.members[j]
        if self.seen[j] > self.need[j]:
            src = self.rnd.choice([v for v in cells if self.mine[v]])
            dest = self.best(want_mine=False, avoid=src)
        else:
            dest = self.rnd.choice([v for v in cells if not self.mine[v]])
            src = self.best(want_mine=True, avoid=dest)
        if src != -2 and dest != -2:
            self.place(src, 0)
            self.place(dest, 1)

    def best(self, want_mine: bool, avoid: int) -> int:
        """The far end of a move: among a few random unknown squares that hold
        (``want_mine``) or lack a mine, the one whose change adds fewest conflicts.
        -1 stands for a square touching no number, -2 for no square found."""
        n_front, n_inner = len(self.front), len(self.inner)
        rand = self.rnd.random
        best, best_cost = -2, 10**9
        for i in range(CANDIDATES):
            if i % 2:  # odd draws: a square of another conflicting number
                cells = self.members[self.bad[int(rand() * len(self.bad))]]
                v = cells[int(rand() * len(cells))]
            else:  # even draws: any unknown square
                v = int(rand() * (n_front + n_inner))
            if v >= n_front:  # an unconstrained square: a mine with the pool's density
                if (rand() * n_inner < self.inner_mines) == want_mine:
                    return -1
                continue
            if v == avoid or self.mine[v] != want_mine:
                continue
            cost = 0
            for j in self.of[v]:
                cost += self.delta(j, -1 if want_mine else 1)
            if cost < best_cost:
                best, best_cost = v, cost
        if best == -2:  # every candidate missed: take any valid square
            inner_ok = self.inner_mines > 0 if want_mine else self.inner_mines < n_inner
            pool = [v for v in range(n_front) if self.mine[v] == want_mine and v != avoid]
            best = -1 if inner_ok else self.rnd.choice(pool) if pool else -2
        return best

    def delta(self, j: int, change: int) -> int:
        """Change in |seen - need| of number j if its count changes by ``change``."""
        return abs(self.seen[j] + change - self.need[j]) - abs(self.seen[j] - self.need[j])

    def place(self, v: int, value: int) -> None:
        """Give square v (or the unconstrained pool, v = -1) a mine (1) or take it (0)."""
        if v == -1:
            self.inner_mines += 1 if value else -1
        elif self.mine[v] != value:
            self.toggle(v)

    def toggle(self, v: int) -> None:
        """Flip square v and keep the per-number counts and the conflict set current."""
        change = -1 if self.mine[v] else 1
        self.mine[v] += change
        for j in self.of[v]:
            self.seen[j] += change
            self.mark(j, self.seen[j] != self.need[j])
