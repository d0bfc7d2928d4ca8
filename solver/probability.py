"""Exact mine probabilities for a knowledge array and a total mine count.

Every layout of the remaining mines that agrees with the revealed numbers is equally
likely; :func:`analyse` returns each unrevealed square's exact share of them.

Method: cheap deductions first (single-number rules, then pairwise subset rules);
the remaining covered squares next to numbers (the *frontier*) are put into groups
touching exactly the same numbers; groups split into independent components; each
component is enumerated by dynamic programming over its groups (a layout of ``k``
mines in a group of ``s`` squares counts ``C(s, k)`` times), tallied by the number of
mines it uses; components are combined with the global mine count, each total
weighted by ``C(squares off the frontier, mines left)``.

Flags are taken as known mines, question marks as covered squares, ``UNKNOWN`` squares
as covered squares without a number, ``WRONG_FLAG`` as a revealed square without a
number. A board no layout satisfies raises :class:`InconsistentBoard`.

>>> from solver.textboard import parse_board
>>> board = parse_board('''
... 1..
... 1..
... ''')
>>> probs = mine_probabilities(board, mines=1)
>>> [round(float(p), 3) for p in probs[:, 1]]
[0.5, 0.5]
>>> float(probs[0, 2])
0.0
>>> a = analyse(parse_board("1.\\n.."), mines=1)
>>> a.safe, a.mines
((), ())
>>> analyse(parse_board("2.\\n.."), mines=1)
Traceback (most recent call last):
...
solver.probability.InconsistentBoard: needs at least 2 mines but the game has 1 left
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, MutableMapping
from dataclasses import dataclass
from functools import cached_property

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
)

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

UNREVEALED_CODES = (COVERED, QUESTION, UNKNOWN)
"""Squares that may hold a mine and may still be opened."""
KNOWN_MINE_CODES = (FLAG, MINE, EXPLODED)
"""Squares taken as mines."""

Constraint = tuple[tuple[int, ...], int]
"""Flat indices of unknown squares around a number and the mines they must hold."""
TRACKED = -1
"""The need of a constraint whose mines are counted, not constrained (see solve_tracked)."""
ComponentKey = tuple[Constraint, ...]


class InconsistentBoard(ValueError):
    """No layout of the mines agrees with the board (a misread, or a wrong flag)."""


@dataclass(frozen=True)
class ComponentResult:
    """The solutions of one independent frontier component, tallied by mine count.

    ``groups[g]`` are flat indices of squares that touch the same numbers;
    ``table[0, m]`` is the (scaled) weight of layouts with ``m`` mines in the component,
    ``table[1 + g, m]`` the weighted mine count of group ``g`` and
    ``table[1 + G + g, m]`` its weighted count of safe squares (``G = len(groups)``).
    ``log_scale`` is the natural log of the factor removed from the table.
    """

    groups: tuple[tuple[int, ...], ...]
    table: FloatArray
    log_scale: float

    @cached_property
    def cells(self) -> npt.NDArray[np.intp]:
        """Flat indices of all squares, group by group."""
        return np.array([x for cells in self.groups for x in cells], dtype=np.intp)

    @cached_property
    def group_of(self) -> npt.NDArray[np.intp]:
        """For each square of :attr:`cells`, its group."""
        return np.repeat(np.arange(len(self.groups)), [len(c) for c in self.groups])


@dataclass(frozen=True)
class Analysis:
    """Everything :func:`analyse` knows about a board.

    ``probabilities``: mine probability per square (NaN for revealed squares, 1.0 for
    flags). ``safe`` / ``mines``: unrevealed, unflagged squares that are certainly safe /
    certainly mines, in row-major order. ``frontier``: unrevealed squares of unknown
    content next to a number. ``off_frontier``: count of the other unknown squares,
    ``off_probability`` their common probability (NaN when there are none).
    ``mines_left``: mines not yet known (total minus flags minus certain mines).
    ``log_layouts``: natural log of the number of mine layouts that agree with the
    board. ``components``: independent frontier components.
    """

    probabilities: FloatArray
    safe: tuple[Cell, ...]
    mines: tuple[Cell, ...]
    frontier: BoolArray
    off_frontier: int
    off_probability: float
    mines_left: int
    log_layouts: float
    components: int


def mine_probabilities(board: Board, mines: int) -> FloatArray:
    """Exact mine probability of every square (NaN revealed, 1.0 flags); see module doc."""
    return analyse(board, mines).probabilities


def is_any(board: Board, codes: tuple[int, ...]) -> BoolArray:
    """Mask of squares whose code is one of ``codes`` (a fast ``np.isin``)."""
    out = board == codes[0]
    for code in codes[1:]:
        out |= board == code
    return out


_NEIGHBOURS: dict[tuple[int, int], list[tuple[int, ...]]] = {}


def flat_neighbours(rows: int, cols: int) -> list[tuple[int, ...]]:
    """Flat indices of each flat square's neighbours (cached per board shape).

    >>> flat_neighbours(2, 2)[0]
    (1, 2, 3)
    """
    key = (rows, cols)
    if key not in _NEIGHBOURS:
        table = []
        for r in range(rows):
            for c in range(cols):
                table.append(tuple(
                    rr * cols + cc
                    for rr in (r - 1, r, r + 1) for cc in (c - 1, c, c + 1)
                    if (rr, cc) != (r, c) and 0 <= rr < rows and 0 <= cc < cols
                ))
        _NEIGHBOURS[key] = table
    return _NEIGHBOURS[key]


# ---------------------------------------------------------------- cheap deductions


def _single_rules(board: Board, unknown: BoolArray, mine: BoolArray) -> tuple[BoolArray, BoolArray]:
    """Repeat the one-number rules to a fixed point; returns (mine, safe) masks."""
    number = board >= 0
    values = np.where(number, board, 0).astype(np.int16)
    mine = mine.copy()
    safe = np.zeros_like(mine)
    while True:
        unk = unknown & ~mine & ~safe
        n_unk = neighbour_sum(unk)
        need = values - neighbour_sum(mine)
        bad = number & ((need < 0) | (need > n_unk))
        if bad.any():
            r, c = np.argwhere(bad)[0]
            raise InconsistentBoard(f"the number at {(int(r), int(c))} cannot be satisfied")
        new_safe = (neighbour_sum(number & (need == 0) & (n_unk > 0)) > 0) & unk
        new_mine = (neighbour_sum(number & (need == n_unk) & (n_unk > 0)) > 0) & unk
        if not new_safe.any() and not new_mine.any():
            return mine, safe
        if (new_safe & new_mine).any():
            raise InconsistentBoard("two numbers disagree about a square")
        safe |= new_safe
        mine |= new_mine


def _check_numbers(board: Board, unknown: BoolArray, mine: BoolArray) -> None:
    """Raise when a number has too many mines or too few squares around it."""
    number = board >= 0
    need = np.where(number, board, 0).astype(np.int16) - neighbour_sum(mine)
    bad = number & ((need < 0) | (need > neighbour_sum(unknown & ~mine)))
    if bad.any():
        r, c = np.argwhere(bad)[0]
        raise InconsistentBoard(f"the number at {(int(r), int(c))} cannot be satisfied")


def _constraints(board: Board, unk: BoolArray, mine: BoolArray) -> list[Constraint]:
    """One constraint per number next to an unknown square (duplicates removed)."""
    rows, cols = board.shape
    nbs = flat_neighbours(rows, cols)
    unk_flat = unk.ravel().tolist()  # Python lists: far quicker to index one by one
    mine_flat = mine.ravel().tolist()
    values = board.ravel().tolist()
    todo = np.flatnonzero(((board >= 0) & (neighbour_sum(unk) > 0)).ravel())
    seen: dict[tuple[int, ...], int] = {}
    for i in todo.tolist():
        cells = tuple(j for j in nbs[i] if unk_flat[j])
        need = values[i] - sum(1 for j in nbs[i] if mine_flat[j])
        if seen.setdefault(cells, need) != need:
            raise InconsistentBoard("two numbers disagree about the same squares")
    return list(seen.items())


def _pair_rules(constraints: list[Constraint]) -> tuple[set[int], set[int]]:
    """Subset rules on pairs of overlapping constraints; returns (mines, safes) found.

    For numbers A and B: if B needs ``|B - A|`` more mines than A, every square of
    B - A is a mine and every square of A - B is safe.
    """
    by_cell: dict[int, list[int]] = defaultdict(list)
    sets = [frozenset(cells) for cells, _ in constraints]
    for ci, (cells, _) in enumerate(constraints):
        for x in cells:
            by_cell[x].append(ci)
    mines: set[int] = set()
    safes: set[int] = set()
    for a, (cells, need_a) in enumerate(constraints):
        others = {b for x in cells for b in by_cell[x] if b != a}
        for b in others:
            b_only = sets[b] - sets[a]
            if constraints[b][1] - need_a == len(b_only):
                mines |= b_only
                safes |= sets[a] - sets[b]
    if mines & safes:
        raise InconsistentBoard("two numbers disagree about a square")
    return mines, safes


def deduce(board: Board, unknown: BoolArray, mine: BoolArray) -> tuple[BoolArray, BoolArray]:
    """Cheap deductions to a fixed point: (mine mask incl. given mines, safe mask)."""
    safe = np.zeros_like(mine)
    while True:
        mine, more_safe = _single_rules(board, unknown & ~safe, mine)
        safe |= more_safe
        unk = unknown & ~mine & ~safe
        pair_mines, pair_safes = _pair_rules(_constraints(board, unk, mine))
        if not pair_mines and not pair_safes:
            return mine, safe
        mine.ravel()[list(pair_mines)] = True
        safe.ravel()[list(pair_safes)] = True


# ------------------------------------------------------------- component solving


def _components(constraints: list[Constraint]) -> list[ComponentKey]:
    """Split constraints into independent components, each in canonical order."""
    parent = list(range(len(constraints)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[int, int] = {}
    for ci, (cells, _) in enumerate(constraints):
        for x in cells:
            if x in owner:
                parent[find(ci)] = find(owner[x])
            else:
                owner[x] = ci
    parts: dict[int, list[Constraint]] = defaultdict(list)
    for ci, con in enumerate(constraints):
        parts[find(ci)].append(con)
    return [tuple(sorted(part)) for part in parts.values()]


def _groups(key: ComponentKey) -> tuple[list[tuple[int, ...]], list[list[int]]]:
    """Squares grouped by the constraints they touch: (group cells, group constraints)."""
    touching: dict[int, list[int]] = defaultdict(list)
    for ci, (cells, _) in enumerate(key):
        for x in cells:
            touching[x].append(ci)
    by_set: dict[tuple[int, ...], list[int]] = defaultdict(list)
    for x, cons in touching.items():
        by_set[tuple(cons)].append(x)
    items = sorted(by_set.items(), key=lambda kv: min(kv[1]))
    return [tuple(sorted(cells)) for _, cells in items], [list(cons) for cons, _ in items]


def _order(gcons: list[list[int]]) -> list[int]:
    """A group order that keeps few constraints open at once (greedy)."""
    members: dict[int, list[int]] = defaultdict(list)
    for g, cons in enumerate(gcons):
        for c in cons:
            members[c].append(g)
    n_open = [0] * len(gcons)
    left = set(range(len(gcons)))
    opened: set[int] = set()
    order: list[int] = []
    while left:
        g = max(left, key=lambda g: (2 * n_open[g] - len(gcons[g]), -g))
        left.remove(g)
        order.append(g)
        for c in gcons[g]:
            if c not in opened:
                opened.add(c)
                for h in members[c]:
                    n_open[h] += 1
    return order


States = dict[tuple[int, ...], FloatArray]


def _run(key: ComponentKey) -> tuple[list[tuple[int, ...]], States]:
    """The dynamic programme shared by :func:`solve_component` and :func:`solve_tracked`.

    The state after assigning a prefix of groups is the tuple of mines every constraint
    still needs; equal states merge, so the cost grows with the frontier's width, not
    with its number of solutions. A ``TRACKED`` constraint only counts its mines.
    """
    groups, gcons = _groups(key)
    n_groups = len(groups)
    n = sum(len(g) for g in groups)
    cap = [len(cells) for cells, _ in key]
    free = {ci for ci, (_, need) in enumerate(key) if need == TRACKED}
    start = np.zeros((2 * n_groups + 1, n + 1))
    start[0, 0] = 1.0
    states: States = {tuple(0 if c in free else need for c, (_, need) in enumerate(key)): start}
    for g in _order(gcons):
        s, cs = len(groups[g]), gcons[g]
        for c in cs:
            cap[c] -= s
        states = _step(states, g, s, cs, [c for c in cs if c not in free], cap, n_groups)
        if not states:
            raise InconsistentBoard("no layout agrees with the numbers")
    return groups, states


def _result(groups: list[tuple[int, ...]], table: FloatArray) -> ComponentResult:
    top = float(table[0].max())
    return ComponentResult(tuple(groups), table / top, math.log(top))


def solve_component(key: ComponentKey) -> ComponentResult:
    """Tally the solutions of one component by mine count (dynamic programming)."""
    groups, states = _run(key)
    (table,) = states.values()
    return _result(groups, table)


def solve_tracked(key: ComponentKey) -> dict[int, ComponentResult]:
    """Solve a component with one ``TRACKED`` constraint, once per mine count it can hold:
    ``{count: result as if the constraint needed exactly count}``."""
    groups, states = _run(key)
    (t,) = [ci for ci, (_, need) in enumerate(key) if need == TRACKED]
    return {-state[t]: _result(groups, table) for state, table in states.items()}


def _step(states: States, g: int, s: int, cs: list[int], checked: list[int], cap: list[int],
          n_groups: int) -> States:
    """Assign 0..s mines to group ``g`` in every state; keep the states that can finish."""
    out: States = {}
    for key, arr in states.items():
        lo = max([0] + [key[c] - cap[c] for c in checked])
        hi = min([s] + [key[c] for c in checked])
        if lo > hi:
            continue
        width = arr.shape[1]
        padded = np.zeros((arr.shape[0], width + hi))
        padded[:, hi:] = arr
        for k in range(lo, hi + 1):
            nk = list(key)
            for c in cs:
                nk[c] -= k
            new = padded[:, hi - k: hi - k + width] * math.comb(s, k)
            new[1 + g] = k * new[0]
            new[1 + n_groups + g] = (s - k) * new[0]
            t = tuple(nk)
            if t in out:
                out[t] += new
            else:
                out[t] = new
    return out


# ------------------------------------------------------------------ combination


_LOG_FACT = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, 4097)))])


def _log_comb(n: int, k: npt.NDArray[np.int64]) -> FloatArray:
    """log C(n, k) elementwise; -inf where k is outside 0..n.

    >>> np.exp(_log_comb(5, np.array([2, 6]))).round(9).tolist()
    [10.0, 0.0]
    """
    table = _LOG_FACT if n < len(_LOG_FACT) else np.concatenate(
        [[0.0], np.cumsum(np.log(np.arange(1, n + 1)))])
    ok = (k >= 0) & (k <= n)
    out = np.full(k.shape, -np.inf)
    kk = k[ok]
    out[ok] = table[n] - table[kk] - table[n - kk]
    return out


def _prefix_products(polys: list[FloatArray]) -> list[FloatArray]:
    """``out[i]`` = product (convolution) of ``polys[:i]``, each scaled to max 1."""
    out = [np.ones(1)]
    for p in polys:
        q = np.convolve(out[-1], p)
        out.append(q / q.max())
    return out


@dataclass(frozen=True)
class _Combined:
    rest: list[FloatArray]  # per component: weight of everything else by its mine count
    rest_ok: list[BoolArray]  # per component: which of its mine counts are possible
    off_expect: float  # expected mines off the frontier
    log_total: float


def _combine(results: list[ComponentResult], off: int, left: int) -> _Combined:
    """Weigh each component's mine counts by the rest of the board (see module doc)."""
    sizes = [r.table.shape[1] - 1 for r in results]
    t = np.arange(sum(sizes) + 1)
    logb = _log_comb(off, left - t)
    ok_b = np.isfinite(logb)
    if not ok_b.any():
        raise InconsistentBoard(_count_message(results, off, left))
    shift = float(logb[ok_b].max())
    b = np.exp(logb - shift)
    weights = [r.table[0] for r in results]
    full = np.ones(1)
    log_full = 0.0
    for w in weights:
        full = np.convolve(full, w)
        top = full.max()
        full /= top
        log_full += math.log(top)
    z = float(full @ b)
    oks = [(w > 0).astype(np.float64) for w in weights]
    pre_ok, suf_ok = _prefix_products(oks), _prefix_products(oks[::-1])[::-1]
    if z <= 0 or not ((pre_ok[-1] > 0) & ok_b).any():
        raise InconsistentBoard(_count_message(results, off, left))
    pre, suf = _prefix_products(weights), _prefix_products(weights[::-1])[::-1]
    b_ok = ok_b.astype(np.float64)
    rest, rest_ok = [], []
    for i in range(len(results)):
        q = np.convolve(pre[i], suf[i + 1])
        q_ok = np.convolve(pre_ok[i], suf_ok[i + 1]) > 0
        rest.append(np.correlate(b, q, "valid")[: sizes[i] + 1])
        rest_ok.append(np.correlate(b_ok, q_ok.astype(np.float64), "valid")[: sizes[i] + 1] > 0)
    off_expect = float((full * b) @ (left - t)) / z if off else 0.0
    log_total = math.log(z) + log_full + shift + sum(r.log_scale for r in results)
    return _Combined(rest, rest_ok, off_expect, log_total)


def _count_message(results: list[ComponentResult], off: int, left: int) -> str:
    low = sum(int(np.flatnonzero(r.table[0] > 0)[0]) for r in results)
    high = sum(int(np.flatnonzero(r.table[0] > 0)[-1]) for r in results) + off
    if left < low:
        return f"needs at least {low} mines but the game has {left} left"
    return f"has room for at most {high} mines but the game has {left} left"


# ----------------------------------------------------------------------- public


def analyse(board: Board, mines: int,
            cache: MutableMapping[ComponentKey, ComponentResult] | None = None,
            cheap_first: bool = True) -> Analysis:
    """Exact probabilities and certain squares of ``board`` with ``mines`` mines in all.

    ``cache`` (optional) keeps solved components between calls; a component's solution
    depends only on its key, so one cache may serve a whole game. ``cheap_first=False``
    skips the cheap deductions (same answer; faster when they are known to find
    nothing, e.g. on a board whose certain mines are flagged and has no certain safe).
    """
    board = _check_board(board)
    unknown = is_any(board, UNREVEALED_CODES)
    given = is_any(board, KNOWN_MINE_CODES)
    if cheap_first:
        mine, safe = deduce(board, unknown, given)
    else:
        mine, safe = given, np.zeros_like(given)
        _check_numbers(board, unknown, mine)
    unk = unknown & ~mine & ~safe
    results = [_solve_cached(k, cache) for k in _components(_constraints(board, unk, mine))]
    return _assemble(results, _Masks(unk, mine, safe, given), mines)


def analyse_reveal(board: Board, mines: int, cell: Cell,
                   cache: MutableMapping[ComponentKey, ComponentResult] | None = None,
                   ) -> dict[int, Analysis]:
    """Open ``cell`` in thought: for each value it can show, the analysis afterwards.

    Equals ``analyse`` of the board with ``cell`` showing that value (no cheap
    deductions), for every value some layout allows, found in one pass.

    >>> from solver.textboard import parse_board
    >>> after = analyse_reveal(parse_board("1...\\n...."), 2, (0, 1))
    >>> {v: round(float(a.probabilities[0, 3]), 3) for v, a in after.items()}
    {1: 0.5, 2: 0.0}
    """
    parts = _reveal_parts(board, cell, cache)
    if parts is None:
        return {}
    masks, others, per_count, base = parts
    out = {}
    for count, result in per_count.items():
        try:
            out[base + count] = _assemble([*others, *result], masks, mines)
        except InconsistentBoard:
            pass
    return out


@dataclass(frozen=True)
class Outcome:
    """A short summary of the position after a square shows one value.

    ``log_layouts`` as in :class:`Analysis`; ``safe``: how many squares are then
    certainly safe; ``lowest``: the lowest mine probability among the squares that are
    not certain mines (NaN when none is left).
    """

    log_layouts: float
    safe: int
    lowest: float


def reveal_outcomes(board: Board, mines: int, cell: Cell,
                    cache: MutableMapping[ComponentKey, ComponentResult] | None = None,
                    ) -> dict[int, Outcome]:
    """:func:`analyse_reveal`, summarised, several times faster (for lookahead).

    >>> from solver.textboard import parse_board
    >>> out = reveal_outcomes(parse_board("1...\\n...."), 2, (0, 1))
    >>> {v: (o.safe, round(o.lowest, 3)) for v, o in out.items()}
    {1: (2, 0.0), 2: (2, 0.0)}
    """
    parts = _reveal_parts(board, cell, cache)
    if parts is None:
        return {}
    masks, others, per_count, base = parts
    if per_count == {0: []}:  # nothing covered around the square: one possible value
        try:
            return {base: _outcome(_assemble(others, masks, mines))}
        except InconsistentBoard:
            return {}
    left = mines - int(masks.mine.sum())
    any_tracked = next(iter(per_count.values()))[0]
    n_front = sum(r.table.shape[1] - 1 for r in [*others, any_tracked])
    off = int(masks.unk.sum()) - n_front
    return _summaries(others, {base + c: r[0] for c, r in per_count.items()}, off, left)


def _outcome(a: Analysis) -> Outcome:
    probs = a.probabilities
    live = probs[probs < 1.0]
    return Outcome(a.log_layouts, len(a.safe), float(live.min()) if live.size else float("nan"))


def _summaries(others: list[ComponentResult], tracked: dict[int, ComponentResult], off: int,
               left: int) -> dict[int, Outcome]:
    """Outcomes per value: the other components are combined once and reused."""
    sizes = [r.table.shape[1] - 1 for r in others]
    n_t = next(iter(tracked.values())).table.shape[1] - 1
    t = np.arange(sum(sizes) + n_t + 1)
    logb = _log_comb(off, left - t)
    ok_b = np.isfinite(logb)
    if not ok_b.any():
        return {}
    shift = float(logb[ok_b].max())
    b, b_ok = np.exp(logb - shift), ok_b.astype(np.float64)
    weights = [r.table[0] for r in others]
    oks = [(w > 0).astype(np.float64) for w in weights]
    pre, suf = _prefix_products(weights), _prefix_products(weights[::-1])[::-1]
    pre_ok, suf_ok = _prefix_products(oks), _prefix_products(oks[::-1])[::-1]
    log_o = sum(math.log(np.convolve(p, w).max()) for p, w in zip(pre[:-1], weights, strict=True))
    log_o += sum(r.log_scale for r in others)
    whole, whole_ok = pre[-1], pre_ok[-1]
    rest_t = np.correlate(b, whole, "valid")[: n_t + 1]
    rest_t_ok = np.correlate(b_ok, whole_ok, "valid")[: n_t + 1] > 0
    qs = [np.convolve(pre[i], suf[i + 1]) for i in range(len(others))]
    qs_ok = [np.convolve(pre_ok[i], suf_ok[i + 1]) for i in range(len(others))]
    out: dict[int, Outcome] = {}
    for value, res in sorted(tracked.items()):
        w_t = res.table[0]
        full = np.convolve(whole, w_t)
        z = float(full @ b)
        if z <= 0 or not ((np.convolve(whole_ok, (w_t > 0).astype(float)) > 0) & ok_b).any():
            continue
        safe, lows = _tally(res, rest_t, rest_t_ok)
        w_t_ok = (w_t > 0).astype(np.float64)
        for r, q, q_ok, n in zip(others, qs, qs_ok, sizes, strict=True):
            rest = np.correlate(b, np.convolve(q, w_t), "valid")[: n + 1]
            rest_ok = np.correlate(b_ok, np.convolve(q_ok, w_t_ok), "valid")[: n + 1] > 0
            more_safe, more_lows = _tally(r, rest, rest_ok)
            safe += more_safe
            lows.append(more_lows[0] if more_lows else 2.0)
        if off:
            off_p = float((full * b) @ (left - t)) / (z * off)
            safe += off if off_p == 0.0 else 0
            lows.append(off_p if off_p < 1.0 else 2.0)
        lowest = min(lows, default=2.0)
        log_total = math.log(z) + log_o + shift + res.log_scale
        out[value] = Outcome(log_total, safe, lowest if lowest <= 1.0 else float("nan"))
    return out


def _group_probs(r: ComponentResult, rest: FloatArray, ok: BoolArray,
                 ) -> tuple[FloatArray, BoolArray, BoolArray]:
    """Per group: mine probability, whether it can hold a mine, whether it can be safe."""
    n_groups = len(r.groups)
    sizes = np.array([len(c) for c in r.groups], dtype=np.float64)
    mines_e = r.table[1: 1 + n_groups]
    p = np.minimum(1.0, (mines_e @ rest) / (float(r.table[0] @ rest) * sizes))
    can_mine: BoolArray = np.asarray((mines_e[:, ok] > 0).any(axis=1), dtype=bool)
    can_safe: BoolArray = np.asarray((r.table[1 + n_groups:, ok] > 0).any(axis=1), dtype=bool)
    p[~can_mine] = 0.0
    p[~can_safe] = 1.0
    return p, can_mine, can_safe


def _tally(r: ComponentResult, rest: FloatArray, ok: BoolArray) -> tuple[int, list[float]]:
    """(certainly safe squares, [lowest probability of a square that may be safe])."""
    p, can_mine, can_safe = _group_probs(r, rest, ok)
    sizes = np.array([len(c) for c in r.groups])
    live = p[can_safe]
    return int(sizes[~can_mine].sum()), ([float(live.min())] if live.size else [])


_Parts = tuple["_Masks", list[ComponentResult], dict[int, list[ComponentResult]], int]


def _reveal_parts(board: Board, cell: Cell,
                  cache: MutableMapping[ComponentKey, ComponentResult] | None) -> _Parts | None:
    """Solved pieces of the board with ``cell`` open: (masks, other components,
    {mines around cell: [its component] or []}, known mines around cell)."""
    board = _check_board(board)
    unknown = is_any(board, UNREVEALED_CODES)
    if not unknown[cell]:
        raise ValueError(f"square {cell} is not covered")
    unknown[cell] = False
    given = is_any(board, KNOWN_MINE_CODES)
    masks = _Masks(unknown & ~given, given, np.zeros_like(given), given)
    try:
        _check_numbers(board, unknown, given)
        constraints = _constraints(board, masks.unk, given)
        nbs = flat_neighbours(*board.shape)[cell[0] * board.shape[1] + cell[1]]
        base = sum(1 for j in nbs if given.ravel()[j])
        around = tuple(j for j in nbs if masks.unk.ravel()[j])
        if not around:
            results = [_solve_cached(k, cache) for k in _components(constraints)]
            return masks, results, {0: []}, base
        keys = _components([*constraints, (around, TRACKED)])
        (tracked,) = [k for k in keys if any(need == TRACKED for _, need in k)]
        others = [_solve_cached(k, cache) for k in keys if k is not tracked]
        per_count = {c: [r] for c, r in sorted(solve_tracked(tracked).items())}
    except InconsistentBoard:
        return None
    return masks, others, per_count, base


def _check_board(board: Board) -> Board:
    board = np.asarray(board)
    if board.ndim != 2:
        raise ValueError(f"board must be 2-D, got shape {board.shape}")
    return board


@dataclass(frozen=True)
class _Masks:
    unk: BoolArray  # squares of unknown content
    mine: BoolArray  # known mines (given + deduced)
    safe: BoolArray  # deduced safe, not yet opened
    given: BoolArray  # mines shown on the board (flags)


def _assemble(results: list[ComponentResult], m: _Masks, mines: int) -> Analysis:
    """Combine solved components with the mine count into an :class:`Analysis`."""
    left = mines - int(m.mine.sum())
    if left < 0:
        raise InconsistentBoard(
            f"needs at least {int(m.mine.sum())} mines but the game has {mines}")
    frontier = np.zeros(m.unk.shape, dtype=bool)
    for r in results:
        for cells in r.groups:
            frontier.ravel()[list(cells)] = True
    off_mask = m.unk & ~frontier
    off = int(off_mask.sum())
    comb = _combine(results, off, left)
    probs = np.full(m.unk.shape, np.nan)
    probs[m.mine] = 1.0
    probs[m.safe] = 0.0
    sure_safe, sure_mine = m.safe.copy(), m.mine & ~m.given
    for r, rest, ok in zip(results, comb.rest, comb.rest_ok, strict=True):
        _fill_component(r, rest, ok, probs.ravel(), sure_safe.ravel(), sure_mine.ravel())
    off_p = comb.off_expect / off if off else float("nan")
    probs[off_mask] = off_p
    if off and off_p == 0.0:
        sure_safe |= off_mask
    if off and off_p == 1.0:
        sure_mine |= off_mask
    known = int((sure_mine | m.given).sum())
    return Analysis(probs, _cells(sure_safe), _cells(sure_mine), frontier, off, off_p,
                    mines - known, comb.log_total, len(results))


def _fill_component(r: ComponentResult, rest: FloatArray, ok: BoolArray, flat: FloatArray,
                    sure_safe: BoolArray, sure_mine: BoolArray) -> None:
    """Write a component's probabilities and certain squares into flat arrays."""
    p, can_mine, can_safe = _group_probs(r, rest, ok)
    cells, group_of = r.cells, r.group_of
    flat[cells] = p[group_of]
    sure_safe[cells] = ~can_mine[group_of]
    sure_mine[cells] = ~can_safe[group_of]


def _solve_cached(key: ComponentKey,
                  cache: MutableMapping[ComponentKey, ComponentResult] | None) -> ComponentResult:
    if cache is None:
        return solve_component(key)
    hit = cache.get(key)
    if hit is None:
        hit = cache[key] = solve_component(key)
    return hit


def _cells(mask: BoolArray) -> tuple[Cell, ...]:
    return tuple((r, c) for r, c in np.argwhere(mask).tolist())


def unknown_cells(board: Board) -> Iterable[Cell]:
    """Unrevealed, unflagged squares in row-major order."""
    return _cells(is_any(board, UNREVEALED_CODES))
