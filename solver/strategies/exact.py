"""The strongest strategy: exact probabilities plus a one-step lookahead for guesses.

Certain squares come from :func:`solver.probability.analyse` (all at once). When no
square is certainly safe, the strategy looks at the few squares whose mine
probability is close to the lowest and, for each value such a square can show,
works out the position after it: how likely that value is, whether it makes any
square certainly safe (progress), and how safe the best next guess would be. It picks
the square with the best chance of surviving this click *and* the next one, never a
square whose value is already known (no information) while another is available, and
takes an isolated 50/50 (which no later information can settle) as soon as it shows.
When only a few layouts are left, an exhaustive search of the remaining game picks the
square with the best chance of winning outright (:func:`endgame`).

>>> from solver.textboard import parse_board
>>> strategy = ExactStrategy("safe")
>>> rng = np.random.default_rng(0)
>>> strategy.decide(parse_board("....\\n....\\n....\\n"), 2, rng).open
((0, 0),)
>>> d = strategy.decide(parse_board("1...\\n1...\\n1...\\n"), 2, rng)
>>> d.open, d.mines, d.is_guess
(((0, 1), (2, 1)), ((1, 1),), False)
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from solver.cells import FLAG, Board, Cell, neighbours
from solver.probability import (
    UNREVEALED_CODES,
    Analysis,
    ComponentKey,
    ComponentResult,
    InconsistentBoard,
    analyse,
    is_any,
    neighbour_sum,
    reveal_outcomes,
)
from solver.strategy import Decision

FIRST_CLICK_OPENING = (3, 3)
"""First click (row, col) under the ``opening`` rule (clamped to the board's middle);
every other rule clicks the corner (0, 0), the square most likely to be a zero."""
CANDIDATES = 8
"""How many near-safest squares get the lookahead."""
NEAR_SAFEST = 0.10
"""A square is a candidate when its mine probability is within this of the lowest."""
PROGRESS_BONUS = 0.2
"""Weight of the chance of progress next to the two-click survival chance."""
CACHE_LIMIT = 20_000
ENDGAME_LAYOUTS = 60
"""The endgame search runs when at most this many layouts are left ..."""
ENDGAME_COMBINATIONS = 5_000
"""... and listing them means trying at most this many ways to place the mines ..."""
ENDGAME_NODES = 400
"""... and gives up (falling back to the lookahead) after this many positions."""


@dataclass(frozen=True)
class Outlook:
    """What opening one square is expected to bring (see :func:`outlook`).

    ``safety``: chance the square is safe. ``progress``: chance (given safe) that its
    value makes some other square certainly safe. ``next_safety``: chance (given safe)
    of surviving the following click too. ``values``: how many values it can show.
    """

    cell: Cell
    safety: float
    progress: float
    next_safety: float
    values: int

    @property
    def score(self) -> float:
        """Chance of surviving two clicks, with a small bonus for progress."""
        return self.safety * (self.next_safety + PROGRESS_BONUS * self.progress)


class ExactStrategy:
    """Exact probabilities; guesses by two-click survival among near-safest squares."""

    name = "exact"

    def __init__(self, rule: str = "safe") -> None:
        self.rule = rule
        self._cache: dict[ComponentKey, ComponentResult] = {}

    def decide(self, board: Board, mines: int, rng: np.random.Generator) -> Decision:
        """Every certainly safe square at once, else the best guess (see module doc)."""
        board = np.asarray(board)
        unknown = np.isin(board, UNREVEALED_CODES)
        if not unknown.any():
            raise ValueError("no covered square left to open")
        if not (board >= 0).any() and not (board == FLAG).any():
            return self._first_click(board, mines)
        if len(self._cache) > CACHE_LIMIT:
            self._cache.clear()
        a = analyse(board, mines, self._cache)
        if a.safe:
            return Decision(a.safe, a.mines, 0.0, "certain")
        cell, risk, note = self._guess(board, mines, a)
        return Decision((cell,), a.mines, risk, note)

    def _first_click(self, board: Board, mines: int) -> Decision:
        rows, cols = board.shape
        if self.rule == "opening":
            r, c = FIRST_CLICK_OPENING
            cell = (min(r, (rows - 1) // 2), min(c, (cols - 1) // 2))
        else:
            cell = (0, 0)
        risk = mines / board.size if self.rule == "none" else 0.0
        return Decision((cell,), (), risk, "first click")

    def _guess(self, board: Board, mines: int, a: Analysis) -> tuple[Cell, float, str]:
        probs = a.probabilities
        known = board.copy()
        for cell in a.mines:
            known[cell] = FLAG
        pair = forced_fifty_fifty(known, a)
        if pair is not None:
            return pair, 0.5, "forced 50/50"
        end = endgame(known, a)
        if end is not None:
            cell, win = end
            return cell, float(probs[cell]), f"endgame: wins {win:.3f}"
        outlooks = [outlook(known, mines, a, cell, self._cache)
                    for cell in candidates(board, a)]
        live = [o for o in outlooks if o.values > 1] or outlooks
        best = max(live, key=lambda o: (o.score, o.safety))
        return best.cell, float(probs[best.cell]), (
            f"guess: safe {best.safety:.3f}, progress {best.progress:.2f}, "
            f"two-click {best.score:.3f}")


def candidates(board: Board, a: Analysis, limit: int | None = None) -> list[Cell]:
    """Squares near the lowest mine probability, cheapest-looking first.

    Ties are broken towards squares with fewer covered neighbours (more likely to show
    a small, informative number) and then towards the frontier.
    """
    probs = a.probabilities
    unknown = is_any(board, UNREVEALED_CODES) & (probs < 1.0)
    lowest = float(probs[unknown].min())
    near = np.argwhere(unknown & (probs <= lowest + NEAR_SAFEST))
    rows, cols = near[:, 0], near[:, 1]
    covered = neighbour_sum(unknown)[rows, cols]
    touches = neighbour_sum(a.frontier)[rows, cols]
    order = np.lexsort((-touches, covered, np.round(probs[rows, cols], 4)))
    order = order[: CANDIDATES if limit is None else limit]
    return [(int(rows[i]), int(cols[i])) for i in order]


def outlook(known: Board, mines: int, a: Analysis, cell: Cell,
            cache: dict[ComponentKey, ComponentResult]) -> Outlook:
    """Open ``cell`` in thought: for each value it can show, the position after it."""
    after = reveal_outcomes(known, mines, cell, cache)
    if not after:
        raise InconsistentBoard(f"no value fits square {cell}")
    weights = [math.exp(o.log_layouts - a.log_layouts) for o in after.values()]
    total = sum(weights)
    progress = 0.0
    next_safety = 0.0
    for w, o in zip(weights, after.values(), strict=True):
        if o.safe or math.isnan(o.lowest):
            progress += w / total
            next_safety += w / total
        else:
            next_safety += w / total * (1.0 - o.lowest)
    return Outlook(cell, 1.0 - float(a.probabilities[cell]), progress, next_safety, len(after))


def forced_fifty_fifty(board: Board, a: Analysis) -> Cell | None:
    """One square of an isolated 50/50, if any: two covered squares holding exactly one
    mine whose other neighbours are all revealed, so nothing can ever tell them apart.
    ``board`` should have the certain mines flagged.

    >>> from solver.textboard import parse_board
    >>> b = parse_board(".1\\n.1\\n")
    >>> forced_fifty_fifty(b, analyse(b, 1))
    (0, 0)
    >>> b = parse_board(".1.\\n.1.\\n")
    >>> forced_fifty_fifty(b, analyse(b, 1)) is None
    True
    """
    probs = a.probabilities
    rows, cols = board.shape
    unknown = np.isin(board, UNREVEALED_CODES) & (probs > 0.0) & (probs < 1.0)
    for r, c in np.argwhere(unknown & (np.abs(probs - 0.5) < 1e-9)):
        x = (int(r), int(c))
        open_x = [nb for nb in neighbours(x, rows, cols) if unknown[nb]]
        if len(open_x) != 1:
            continue
        y = open_x[0]
        open_y = [nb for nb in neighbours(y, rows, cols) if unknown[nb]]
        if open_y == [x] and _share_one_mine(board, x, y):
            return x
    return None


def _share_one_mine(board: Board, x: Cell, y: Cell) -> bool:
    """True when some revealed number next to both says exactly one of x, y is a mine."""
    rows, cols = board.shape
    for nb in set(neighbours(x, rows, cols)) & set(neighbours(y, rows, cols)):
        if board[nb] >= 0:
            around = neighbours(nb, rows, cols)
            flags = sum(1 for z in around if board[z] == FLAG)
            covered = [z for z in around if board[z] in UNREVEALED_CODES]
            if sorted(covered) == sorted([x, y]) and board[nb] - flags == 1:
                return True
    return False


class _OutOfBudget(Exception):
    pass


def endgame(known: Board, a: Analysis) -> tuple[Cell, float] | None:
    """Best square by exhaustive search when few layouts are left, with its win chance.

    Lists every layout of the undecided squares, then searches the tree of (square to
    open, value shown) for the highest chance of winning. Flood fill is ignored (it only
    adds information). None when the position is too big or the search too long.
    ``known`` must have the certain mines flagged.

    >>> from solver.textboard import parse_board
    >>> b = parse_board("..\\n11\\n")
    >>> endgame(b, analyse(b, 1))
    ((0, 0), 0.5)
    """
    if a.log_layouts > math.log(ENDGAME_LAYOUTS):
        return None
    cells = [(int(r), int(c)) for r, c in np.argwhere(is_any(known, UNREVEALED_CODES))]
    if not cells or math.comb(len(cells), a.mines_left) > ENDGAME_COMBINATIONS:
        return None
    layouts = _layouts(known, cells, a.mines_left)
    if len(layouts) == 0:
        return None
    rows, cols = known.shape
    index = {x: i for i, x in enumerate(cells)}
    around = [np.array([index[nb] for nb in neighbours(x, rows, cols) if nb in index],
                       dtype=np.intp) for x in cells]
    memo: dict[bytes, tuple[float, int]] = {}
    try:
        win, best = _search(layouts, around, memo, [ENDGAME_NODES])
    except _OutOfBudget:
        return None
    return cells[best], win


def _layouts(known: Board, cells: list[Cell], mines: int) -> npt.NDArray[np.bool_]:
    """Every placement of ``mines`` mines on ``cells`` that fits the numbers."""
    rows, cols = known.shape
    index = {x: i for i, x in enumerate(cells)}
    numbers = {nb for x in cells for nb in neighbours(x, rows, cols) if known[nb] >= 0}
    matrix = np.zeros((len(numbers), len(cells)), dtype=np.int8)
    need = np.zeros(len(numbers), dtype=np.int8)
    for row, num in enumerate(sorted(numbers)):
        nbs = neighbours(num, rows, cols)
        need[row] = known[num] - sum(1 for nb in nbs if known[nb] == FLAG)
        for nb in nbs:
            if nb in index:
                matrix[row, index[nb]] = 1
    combos = np.array(list(itertools.combinations(range(len(cells)), mines)), dtype=np.intp)
    all_layouts = np.zeros((max(len(combos), 1), len(cells)), dtype=bool)
    if mines:
        np.put_along_axis(all_layouts, combos, True, axis=1)
    fits = (all_layouts.astype(np.int8) @ matrix.T == need).all(axis=1)
    return all_layouts[fits]


def _search(layouts: npt.NDArray[np.bool_], around: list[npt.NDArray[np.intp]],
            memo: dict[bytes, tuple[float, int]], budget: list[int]) -> tuple[float, int]:
    """(win chance, square to open) for equally likely ``layouts`` (one per row)."""
    total = len(layouts)
    if total == 1:
        return 1.0, int(np.flatnonzero(~layouts[0])[0]) if (~layouts[0]).any() else 0
    key = np.packbits(layouts).tobytes() + total.to_bytes(4, "little")
    if key in memo:
        return memo[key]
    budget[0] -= 1
    if budget[0] < 0:
        raise _OutOfBudget
    safe_counts = total - layouts.sum(axis=0)
    best, best_cell = -1.0, 0
    for j in np.argsort(-safe_counts, kind="stable").tolist():
        safety = safe_counts[j] / total
        if safety <= best or safety == 0:
            break
        safe_rows = layouts[~layouts[:, j]]
        shown = safe_rows[:, around[j]].sum(axis=1)
        values = np.unique(shown)
        if safety == 1.0 and len(values) == 1:
            continue  # certainly safe and tells nothing: opening it changes nothing
        win = sum(_search(safe_rows[shown == v], around, memo, budget)[0] * int((shown == v).sum())
                  for v in values.tolist()) / total
        if win > best:
            best, best_cell = win, j
    memo[key] = (best, best_cell)
    return best, best_cell
