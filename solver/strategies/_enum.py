"""Counting the mine layouts of a set of constraints by backtracking (tank and csp).

A problem is a tuple of squares plus range constraints ``(indices, low, high)``: between
``low`` and ``high`` of those squares are mines. :func:`count_layouts` visits every
layout and returns, per number of mines ``k``, how many layouts there are and how many
of them put a mine on each square. Two search flavours:

* plain (the tank solver): assign squares in the given order, mine-free first, and
  backtrack as soon as a constraint is over- or under-filled;
* forward checking (csp): start from the most constrained square, and after each
  assignment force the free squares of any constraint that became tight.

Big problems are guarded by a node budget (:class:`TooBig`). :func:`relaxed_window`
cuts a problem down to its first ``size`` squares, turning each cut constraint into a
range; every true layout still satisfies the window, so "mine-free in every window
layout" stays a proof.

>>> counts = count_layouts(3, (((0, 1), 1, 1), ((1, 2), 1, 1)), forward=False)
>>> {k: (n, list(per)) for k, (n, per) in sorted(counts.items())}
{1: (1, [0, 1, 0]), 2: (1, [1, 0, 1])}
>>> count_layouts(3, (((0, 1), 1, 1), ((1, 2), 1, 1)), forward=True) == counts
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from solver.cells import Cell
from solver.strategies._rules import Constraint

RangeConstraint = tuple[tuple[int, ...], int, int]
Counts = dict[int, tuple[int, tuple[int, ...]]]

NODE_BUDGET = 20_000
"""Search nodes allowed for one problem before it is declared too big."""


class TooBig(Exception):
    """The search went over its node budget."""


@lru_cache(maxsize=4096)
def count_layouts(
    n: int, cons: tuple[RangeConstraint, ...], forward: bool, budget: int = NODE_BUDGET
) -> Counts:
    """Layouts of ``n`` squares under ``cons``: {mines: (layouts, mines per square)}."""
    search = _Search(n, cons, forward, budget)
    search.run(0)
    return {k: (tally[0], tuple(tally[1])) for k, tally in search.counts.items()}


class _Search:
    """One backtracking run; small mutable state kept on the instance."""

    def __init__(self, n: int, cons: Sequence[RangeConstraint], forward: bool, budget: int):
        self.n, self.cons, self.forward, self.budget = n, cons, forward, budget
        self.of: list[list[int]] = [[] for _ in range(n)]
        for ci, (cells, _, _) in enumerate(cons):
            for v in cells:
                self.of[v].append(ci)
        self.sums = [0] * len(cons)
        self.free = [len(cells) for cells, _, _ in cons]
        self.value = [-1] * n
        self.trail: list[int] = []
        self.order = most_constrained_order(n, cons) if forward else list(range(n))
        self.counts: dict[int, list] = {}

    def run(self, pos: int) -> None:
        self.budget -= 1
        if self.budget < 0:
            raise TooBig
        while pos < self.n and self.value[self.order[pos]] >= 0:
            pos += 1
        if pos == self.n:
            self.record()
            return
        var = self.order[pos]
        for val in (0, 1):
            mark = len(self.trail)
            if self.assign(var, val) and (not self.forward or self.propagate(var)):
                self.run(pos + 1)
            self.undo(mark)

    def assign(self, var: int, val: int) -> bool:
        self.value[var] = val
        self.trail.append(var)
        ok = True
        for ci in self.of[var]:
            self.sums[ci] += val
            self.free[ci] -= 1
            _, low, high = self.cons[ci]
            ok = ok and low <= self.sums[ci] + self.free[ci] and self.sums[ci] <= high
        return ok

    def propagate(self, var: int) -> bool:
        queue = list(self.of[var])
        while queue:
            ci = queue.pop()
            cells, low, high = self.cons[ci]
            if not self.free[ci]:
                continue
            if self.sums[ci] == high:
                forced = 0
            elif self.sums[ci] + self.free[ci] == low:
                forced = 1
            else:
                continue
            for v in cells:
                if self.value[v] < 0:
                    if not self.assign(v, forced):
                        return False
                    queue.extend(self.of[v])
        return True

    def undo(self, mark: int) -> None:
        while len(self.trail) > mark:
            var = self.trail.pop()
            for ci in self.of[var]:
                self.sums[ci] -= self.value[var]
                self.free[ci] += 1
            self.value[var] = -1

    def record(self) -> None:
        k = sum(self.value)
        tally = self.counts.setdefault(k, [0, [0] * self.n])
        tally[0] += 1
        per = tally[1]
        for i, v in enumerate(self.value):
            per[i] += v


def most_constrained_order(n: int, cons: Sequence[RangeConstraint]) -> list[int]:
    """Squares breadth-first from the one in most constraints, along shared constraints."""
    of: list[list[int]] = [[] for _ in range(n)]
    for ci, (cells, _, _) in enumerate(cons):
        for v in cells:
            of[v].append(ci)
    order: list[int] = []
    seen = [False] * n
    for start in sorted(range(n), key=lambda v: -len(of[v])):
        if seen[start]:
            continue
        seen[start] = True
        queue = [start]
        while queue:
            v = queue.pop(0)
            order.append(v)
            for ci in of[v]:
                for w in cons[ci][0]:
                    if not seen[w]:
                        seen[w] = True
                        queue.append(w)
    return order


def relaxed_window(
    cons: Sequence[RangeConstraint], size: int
) -> tuple[RangeConstraint, ...]:
    """Keep squares ``0..size-1``; cut constraints become ranges over what is kept.

    >>> relaxed_window([((0, 1, 2), 2, 2)], 2)
    (((0, 1), 1, 2),)
    """
    out = []
    for cells, low, high in cons:
        inside = tuple(v for v in cells if v < size)
        if inside:
            cut = len(cells) - len(inside)
            out.append((inside, max(0, low - cut), min(high, len(inside))))
    return tuple(out)


def count_with_cap(
    n: int, cons: tuple[RangeConstraint, ...], forward: bool, max_cells: int
) -> tuple[int, Counts]:
    """Count layouts of the first ``max_cells`` squares, halving the window while too big.

    Returns (how many leading squares the counts cover, counts). Callers order squares
    breadth-first so that every prefix is a connected region.
    """
    size = min(n, max_cells)
    while size > 0:
        window = cons if size == n else relaxed_window(cons, size)
        try:
            return size, count_layouts(size, window, forward)
        except TooBig:
            size //= 2
    return 0, {}


def to_problem(
    cons: Sequence[Constraint], most_constrained_first: bool = False
) -> tuple[list[Cell], tuple[RangeConstraint, ...]]:
    """Index the squares of ``cons`` breadth-first and restate them as range constraints.

    The search starts at the row-major first square, or (``most_constrained_first``) at
    the square in most constraints.

    >>> a = Constraint(frozenset({(0, 0), (0, 1)}), 1)
    >>> to_problem([a])
    ([(0, 0), (0, 1)], (((0, 1), 1, 1),))
    """
    of: dict[Cell, list[int]] = {}
    for ci, con in enumerate(cons):
        for cell in con.cells:
            of.setdefault(cell, []).append(ci)
    starts = sorted(of, key=lambda c: (-len(of[c]), c) if most_constrained_first else c)
    order: list[Cell] = []
    seen: set[Cell] = set()
    for start in starts:
        if start in seen:
            continue
        seen.add(start)
        queue = [start]
        while queue:
            cell = queue.pop(0)
            order.append(cell)
            for ci in of[cell]:
                for other in sorted(cons[ci].cells - seen):
                    seen.add(other)
                    queue.append(other)
    index = {cell: pos for pos, cell in enumerate(order)}
    problem = tuple(
        (tuple(sorted(index[c] for c in con.cells)), con.mines, con.mines) for con in cons
    )
    return order, problem


def probabilities(
    cells: list[Cell], size: int, counts: Counts, weight: dict[int, float] | None = None
) -> dict[Cell, float]:
    """Mine probability of each of the first ``size`` squares over the counted layouts.

    ``weight`` (optional) multiplies the layouts with ``k`` mines, e.g. by the number of
    ways to place the remaining mines elsewhere. Empty when no layout is possible.
    """
    total = 0.0
    per = [0.0] * size
    for k, (n, mines_at) in counts.items():
        w = 1.0 if weight is None else weight.get(k, 0.0)
        if w <= 0.0:
            continue
        total += w * n
        for i in range(size):
            per[i] += w * mines_at[i]
    if total <= 0.0:
        return {}
    return {cells[i]: per[i] / total for i in range(size)}
