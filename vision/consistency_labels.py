"""Name number looks from mid-game frames alone, by the consistency of the game's logic.

Some games never show every mine (sgt-mines shows only the mine that was hit, so the
player may undo), so no frame names its numbers by counting. Every frame of play still
constrains them: each open look stands for one number 0-8 (different looks for
different numbers), and some layout of mines must fit every number on the frame.
:func:`name_looks_by_consistency` enumerates the mappings look -> number that fit every
frame (and the mine count, if known) and names a look only when every mapping that
survives gives it the same number; when the evidence is not enough, nothing is named.

The search is pruned by bounds read from the frames: a look's number is at most its
count of unrevealed (or mine) neighbours and at least its count of shown-mine
neighbours on every square where it appears; games open the squares around a 0 by
themselves, so a look next to a covered square is no 0 (``zero_floods``; a flood opens
no flagged or question-marked square, so one may border a 0). A partial
mapping is checked with the exact engine (:func:`solver.probability.analyse`), the
looks not yet given a number standing as opened squares without a number (safe, no
constraint): if that board already has no layout, no completion has one.

Frames are look-id grids (``vision.calibrate.CellBank``). ``known`` names looks already
known (the covered look, flags, shown mines, numbers). Flags and question marks count as
unrevealed squares (a flag may be wrong), shown and exploded mines as mines.

>>> import numpy as np
>>> ids = np.array([[7, 7, 7],      # 7 = covered, 1 and 2 unnamed open looks
...                 [1, 1, 1],      # (one mine, above the middle square)
...                 [2, 2, 2]])
>>> name_looks_by_consistency([ids], {}, covered_look=7)   # 2 borders nothing covered
{1: 1, 2: 0}
>>> name_looks_by_consistency([ids[:2, :2]], {}, covered_look=7)  # 1, 2 or 3: no name
{}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from solver.cells import (
    COVERED,
    EXPLODED,
    MINE,
    UNREVEALED,
    WRONG_FLAG,
    Board,
    neighbour_sum,
)
from solver.probability import (
    InconsistentBoard,
    _components,
    _constraints,
    analyse,
    deduce,
    is_any,
    solve_component,
)

IdGrid = npt.NDArray[np.integer]
Alike = Callable[[int, int], bool]
"""May two looks be one number drawn two ways (at two sub-pixel phases)?"""

UNREVEALED_LOOK_CODES = UNREVEALED  # solver.cells owns it
"""Codes of looks that stand for a square not opened (a flag may be wrong: unrevealed)."""
MINE_LOOK_CODES = (MINE, EXPLODED)
"""Codes of looks that stand for a mine the game shows."""
FREE = WRONG_FLAG
"""Code for an open square whose number is not assigned yet: safe, no constraint."""


@dataclass(frozen=True)
class _Frame:
    """One frame as a base board (known looks filled in, variables FREE) and masks."""

    base: Board
    masks: Mapping[int, npt.NDArray[np.bool_]]  # variable look -> its squares here
    plain: npt.NDArray[np.bool_]  # squares of the covered look itself (no mark on them)


def _base_code(code: int) -> int:
    if code in UNREVEALED_LOOK_CODES:
        return COVERED
    if code in MINE_LOOK_CODES:
        return MINE
    return code


def _frame(ids: IdGrid, codes: Mapping[int, int], variables: set[int]) -> _Frame:
    base = np.full(ids.shape, FREE, np.int8)
    plain = np.zeros(ids.shape, bool)
    masks = {}
    for look in np.unique(ids).tolist():
        where = ids == look
        if look in variables:
            masks[look] = where
        else:
            base[where] = _base_code(codes[look])
            if codes[look] == COVERED:
                plain |= where
    return _Frame(base, masks, plain)


def _dominated(f: _Frame, ids_f: IdGrid, ids_g: IdGrid) -> bool:
    """Does frame ``ids_g`` show everything ``f`` shows (the same look on every square
    not covered in ``f``)? Then ``f`` adds no evidence: a later frame of one game."""
    if ids_f.shape != ids_g.shape:
        return False
    shown = f.base != COVERED
    return bool(np.array_equal(ids_f[shown], ids_g[shown]))


def _useful(ids: Sequence[IdGrid], frames: Sequence[_Frame]) -> list[_Frame]:
    """The frames no other frame shows more of (an earlier frame of a game adds
    nothing to a later one), the most open first."""
    kept: list[int] = []
    for i, f in enumerate(frames):
        if any(_dominated(f, ids[i], ids[j]) for j in kept):
            continue
        kept = [j for j in kept if not _dominated(frames[j], ids[j], ids[i])] + [i]
    return sorted((frames[i] for i in kept), key=lambda f: -int((f.base != COVERED).sum()))


def _bounds(frames: Sequence[_Frame], variables: set[int], zero_floods: bool,
            ) -> dict[int, tuple[int, int]]:
    """Each variable look's lowest and highest possible number over all frames."""
    lo = dict.fromkeys(variables, 0)
    hi = dict.fromkeys(variables, 8)
    for f in frames:
        unrevealed = neighbour_sum(f.base == COVERED)
        mines = neighbour_sum(f.base == MINE)
        plain = neighbour_sum(f.plain)  # (a flood opens no flagged or marked square)
        for look, where in f.masks.items():
            hi[look] = min(hi[look], int((unrevealed + mines)[where].min()))
            lo[look] = max(lo[look], int(mines[where].max()))
            if zero_floods and bool((plain[where] > 0).any()):
                lo[look] = max(lo[look], 1)
    return {look: (lo[look], hi[look]) for look in variables}


def _fits(board: Board, mines: int | None) -> bool:
    """Does some layout of mines fit ``board`` (with ``mines`` in all, if given)?"""
    try:
        if mines is not None:
            analyse(board, mines)
            return True
        unknown = is_any(board, (COVERED,))
        mine, safe = deduce(board, unknown, board == MINE)
        for key in _components(_constraints(board, unknown & ~mine & ~safe, mine)):
            solve_component(key)
    except InconsistentBoard:
        return False
    return True


def _board(f: _Frame, mapping: Mapping[int, int]) -> Board:
    board = f.base.copy()
    for look, where in f.masks.items():
        if look in mapping:
            board[where] = mapping[look]
    return board


def _may_share(look: int, n: int, fixed: Mapping[int, int], alike: Alike | None) -> bool:
    """May ``look`` be number ``n`` beside the looks ``fixed`` names (only if each
    that is ``n`` may be one glyph with it)?"""
    others = [lk for lk, m in fixed.items() if m == n]
    return not others or (alike is not None and all(alike(look, lk) for lk in others))


class TooManyMappings(RuntimeError):
    """The search met its node budget before it had seen every fitting mapping."""


@dataclass
class _Search:
    """Depth-first search over look -> number mappings, pruned by the exact engine."""

    frames: Sequence[_Frame]
    order: Sequence[int]
    candidates: Mapping[int, Sequence[int]]
    mines: int | None
    max_nodes: int
    seen: dict[int, set[int]]
    alike: Alike | None = None
    nodes: int = 0

    def open_looks(self) -> list[int]:
        """Looks that may still be named (fewer than two numbers seen in fits)."""
        return [look for look in self.order if len(self.seen[look]) < 2]

    def run(self, depth: int, mapping: dict[int, int]) -> None:
        if not self.open_looks():
            return  # every look already has two fitting numbers: nothing to name
        if depth == len(self.order):
            for look, n in mapping.items():
                self.seen[look].add(n)
            return
        look = self.order[depth]
        for n in self.candidates[look]:
            if not _may_share(look, n, mapping, self.alike):
                continue
            self.nodes += 1
            if self.nodes > self.max_nodes:
                raise TooManyMappings(f"more than {self.max_nodes} partial mappings")
            mapping[look] = n
            if all(_fits(_board(f, mapping), self.mines) for f in self.frames
                   if look in f.masks):
                self.run(depth + 1, mapping)
            del mapping[look]


def name_looks_by_consistency(frames: Sequence[IdGrid], known: Mapping[int, int],
                              covered_look: int, mines: int | None = None,
                              zero_floods: bool = True, max_nodes: int = 20000,
                              set_aside: int = 8, *, alike: Alike | None = None,
                              ) -> dict[int, int]:
    """Numbers for the unnamed looks of mid-game ``frames`` that every fitting mapping
    agrees on (see the module doc); {} when no mapping fits, when the search needs more
    than ``max_nodes`` steps, or when the evidence names nothing.

    Every look in the frames that is neither ``covered_look`` nor in ``known`` is taken
    for an opened number, each a different one, none a number ``known`` names already.
    A look that is no number (a highlight on covered squares) makes every mapping fail:
    then the frames that show one of the ``set_aside`` rarest unnamed looks are left out
    and the rest tried again. ``mines``: the game's mine count, if known.
    ``zero_floods``: the game opens the squares around a 0 by itself, so a 0 never
    borders an unrevealed square. ``alike(a, b)``: may looks ``a`` and ``b`` be one
    number drawn two ways (default: no two looks are one number).
    """
    return names_if_any_fit(frames, known, covered_look, mines, zero_floods, max_nodes,
                            set_aside, alike=alike) or {}


def names_if_any_fit(frames: Sequence[IdGrid], known: Mapping[int, int], covered_look: int,
                     mines: int | None = None, zero_floods: bool = True,
                     max_nodes: int = 20000, set_aside: int = 8, *,
                     alike: Alike | None = None) -> dict[int, int] | None:
    """What :func:`name_looks_by_consistency` names, but None when no mapping fits the
    frames, not even with those showing a rare look set aside: then ``covered_look``
    is not the covered square, or some look of the frames is neither a number nor in
    ``known``. A search that meets ``max_nodes`` counts as a fit that names nothing.

    >>> ids = np.array([[7, 4, 7, 7],     # 4: a number the player opened (2 or 3)
    ...                 [7, 7, 7, 7],
    ...                 [1, 1, 1, 1],
    ...                 [2, 2, 2, 2]])
    >>> names_if_any_fit([ids], {}, covered_look=7)
    {1: 1, 2: 0}
    >>> names_if_any_fit([ids], {}, covered_look=2) is None  # 4 and 7 would both be 0
    True
    """
    names = _names(frames, known, covered_look, mines, zero_floods, max_nodes, alike)
    if names is not None:
        return names
    codes = {**known, covered_look: COVERED}
    shows = Counter(v for ids in frames for v in np.unique(ids).tolist() if v not in codes)
    for look, _ in sorted(shows.items(), key=lambda kv: (kv[1], kv[0]))[:set_aside]:
        rest = [ids for ids in frames if not bool((ids == look).any())]
        names = _names(rest, known, covered_look, mines, zero_floods, max_nodes,
                       alike) if rest else None
        if names is not None:
            return names
    return None


def _names(frames: Sequence[IdGrid], known: Mapping[int, int], covered_look: int,
           mines: int | None, zero_floods: bool, max_nodes: int,
           alike: Alike | None) -> dict[int, int] | None:
    """The agreed names of :func:`name_looks_by_consistency`; None when no mapping fits."""
    codes = {**known, covered_look: COVERED}
    variables = {int(v) for ids in frames for v in np.unique(ids).tolist()} - set(codes)
    if not variables:
        return {}
    all_frames = [_frame(ids, codes, variables) for ids in frames]
    useful = _useful(frames, all_frames)
    bounds = _bounds(useful, variables, zero_floods)
    fixed = {look: code for look, code in codes.items() if 0 <= code <= 8}
    candidates = {look: [n for n in range(lo, hi + 1)
                         if _may_share(look, n, fixed, alike)]
                  for look, (lo, hi) in bounds.items()}
    order = sorted(variables, key=lambda lk: (len(candidates[lk]), lk))
    search = _Search(useful, order, candidates, mines, max_nodes, {lk: set() for lk in order},
                     alike)
    try:
        search.run(0, {})
    except TooManyMappings:
        return {}
    if any(not values for values in search.seen.values()):
        return None  # no mapping fits at all
    return {look: next(iter(values)) for look, values in sorted(search.seen.items())
            if len(values) == 1}
