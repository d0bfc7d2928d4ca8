"""Mine probabilities for a game of no fixed mine count.

Some games lay each square a mine with a fixed chance (react-minesweeper from npm), so
the count varies from game to game; and a game whose count is not known yet is best
played the same way. Under that model the squares are independent until the numbers
say otherwise: a layout of ``k`` mines in ``n`` unknown squares weighs
``density**k * (1 - density)**(n - k)``. Each frontier component is weighed on its own
(no total to share between them) and a square off the frontier keeps the chance
``density``. Nothing off the frontier is ever certain, so the only certain squares are
those the numbers alone prove, whatever the count.

>>> from solver.textboard import parse_board
>>> a = analyse_density(parse_board("1.\\n.."), density=0.2)
>>> [round(float(p), 3) for p in a.probabilities.ravel()[1:]]
[0.333, 0.333, 0.333]
>>> analyse_density(parse_board("1.\\n11"), density=0.2).mines
((0, 1),)
>>> analyse_density(parse_board("1..\\n1.."), density=0.2).off_probability
0.2
>>> decide_by_density(parse_board("1.\\n11"), density=0.2).note
'only mines are left'
"""

from __future__ import annotations

import math
from collections.abc import MutableMapping

import numpy as np

from solver.cells import COVERED, QUESTION, UNKNOWN, Board
from solver.probability import (
    KNOWN_MINE_CODES,
    UNREVEALED_CODES,
    Analysis,
    ComponentKey,
    ComponentResult,
    _cells,
    _check_board,
    _components,
    _constraints,
    _fill_component,
    _solve_cached,
    deduce,
    is_any,
)
from solver.strategy import Decision


def analyse_density(board: Board, density: float,
                    cache: MutableMapping[ComponentKey, ComponentResult] | None = None,
                    ) -> Analysis:
    """Probabilities and certain squares of ``board`` when each square is a mine with
    chance ``density`` (0 < density < 1), independently of the others.

    ``mines_left`` is the expected count of mines not yet known, rounded; ``log_layouts``
    the log-likelihood of the numbers shown: the natural log of the chance that
    independent squares lay mines that agree with them (0.0 when every layout does).
    Raises :class:`solver.probability.InconsistentBoard` when no layout fits the numbers.

    >>> from solver.textboard import parse_board
    >>> round(math.exp(analyse_density(parse_board("1.\\n.."), 0.5).log_layouts), 4)
    0.375
    """
    if not 0.0 < density < 1.0:
        raise ValueError(f"density must lie strictly between 0 and 1, got {density}")
    board = _check_board(board)
    unknown = is_any(board, UNREVEALED_CODES)
    given = is_any(board, KNOWN_MINE_CODES)
    mine, safe = deduce(board, unknown, given)
    unk = unknown & ~mine & ~safe
    results = [_solve_cached(k, cache) for k in _components(_constraints(board, unk, mine))]
    probs = np.full(board.shape, np.nan)
    probs[mine] = 1.0
    probs[safe] = 0.0
    sure_safe, sure_mine = safe.copy(), mine & ~given
    odds = math.log(density / (1.0 - density))
    deduced = int((mine & ~given).sum())  # each weighs density, each safe 1 - density
    log_like = deduced * math.log(density) + int((safe & unknown).sum()) * math.log1p(-density)
    for r in results:
        rest = odds * np.arange(r.table.shape[1])
        top = float(rest.max())
        weights = np.exp(rest - top)
        _fill_component(r, weights, np.ones(weights.shape, bool), probs.ravel(),
                        sure_safe.ravel(), sure_mine.ravel())
        size = sum(len(g) for g in r.groups)  # its layouts weigh (1 - density)**size odds**k
        log_like += math.log(float(r.table[0] @ weights)) + top + r.log_scale \
            + size * math.log1p(-density)
    off = unk & np.isnan(probs)
    probs[off] = density
    expected = float(probs[unk & ~sure_mine].sum())
    frontier = unk & ~off
    return Analysis(probs, _cells(sure_safe), _cells(sure_mine), frontier, int(off.sum()),
                    density if off.any() else float("nan"), round(expected),
                    log_like, len(results))


def decide_by_density(board: Board, density: float) -> Decision:
    """The move for a game of no fixed count (see :func:`analyse_density`): every square
    the numbers prove safe; else, when they prove every covered square a mine, none
    (the game is won, whatever its count: ``mines`` lists them); else the covered
    square least likely a mine (the first in row-major order among equals).

    >>> from solver.textboard import parse_board
    >>> decide_by_density(parse_board("1.\\n..\\n11"), density=0.2).open  # 1 mine below
    ((0, 1),)
    >>> d = decide_by_density(parse_board("1.\\n.."), density=0.2)
    >>> d.open, round(d.risk, 3)
    (((0, 1),), 0.333)
    """
    a = analyse_density(board, density)
    if a.safe:
        return Decision(open=a.safe, mines=a.mines, note="proved safe (no fixed count)")
    hidden = np.isin(board, (COVERED, QUESTION, UNKNOWN))
    if not (hidden & (a.probabilities < 1.0)).any():
        return Decision(open=(), mines=a.mines, note="only mines are left")
    probs = np.where(hidden, a.probabilities, np.inf)
    r, c = np.unravel_index(int(np.argmin(probs)), board.shape)
    return Decision(open=((int(r), int(c)),), mines=a.mines, risk=float(probs[r, c]),
                    note="least likely mine (no fixed count)")
