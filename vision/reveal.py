"""Name the looks of a board on which the game has revealed every square.

Some games (xbomb) end a game by showing the whole board: every mine, and under every
other square the number of mines around it, so no square stays covered. Such a frame
names itself: some looks are mines, and every square of every other look shows the same
count of adjacent mine squares. :func:`label_revealed_frame` tries every set of up to
three looks as the mines and keeps the one reading under which every other look (but a
few single squares, such as a wrong flag) has one count.

Looks are integer ids per distinct square image (``vision.calibrate.CellBank``); the
reading is pure game logic on the id grid.

>>> import numpy as np
>>> from solver.cells import MINE
>>> mines = np.zeros((4, 5), bool); mines[0, 0] = mines[3, 4] = mines[1, 3] = True
>>> from vision.calibrate import adjacent_count
>>> ids = np.where(mines, 9, adjacent_count(mines))   # look id = number, 9 = mine
>>> names = label_revealed_frame(ids)
>>> names[9] == MINE and all(names[n] == n for n in (0, 1, 2))
True
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import cv2
import numpy as np
import numpy.typing as npt

from solver.cells import EXPLODED, FLAG, MINE, Cell
from vision.calibrate import adjacent_count, all_reached

IdGrid = npt.NDArray[np.integer]

MAX_MINE_SHARE = 0.4
"""No reading with more than this share of the squares as mines."""


def _fits_count(ids: IdGrid, combo: tuple[int, ...], mines: int | None,
                ignore: npt.NDArray[np.bool_] | None) -> bool:
    """Could the squares of ``combo``, with some of those in ``ignore`` (flagged before
    the end: mines or not), be the game's ``mines`` (None: any count)?

    >>> _fits_count(np.array([[1, 2, 2]]), (1,), 2, np.array([[False, True, False]]))
    True
    >>> _fits_count(np.array([[1, 2, 2]]), (1,), 3, None)
    False
    """
    if mines is None:
        return True
    shown = np.isin(ids, combo)
    extra = 0 if ignore is None else int((ignore & ~shown).sum())
    return int(shown.sum()) <= mines <= int(shown.sum()) + extra


def _readings(ids: IdGrid, max_looks: int, max_odd: int,
              ignore: npt.NDArray[np.bool_] | None = None, mines: int | None = None,
              ) -> list[tuple[float, tuple[int, ...], dict[int, int]]]:
    """Every (score, mine looks, numbers) under which each other look has one count
    on the squares not in ``ignore``, but at most ``max_odd`` single-square looks, and
    the mine looks fit the count of ``mines`` (if known)."""
    looks, sizes = np.unique(ids, return_counts=True)
    size = dict(zip(looks.tolist(), sizes.tolist(), strict=True))
    keep = np.ones(ids.shape, bool) if ignore is None else ~ignore
    masks = {lk: (ids == lk) & keep for lk in size}
    limit = MAX_MINE_SHARE * ids.size
    out = []
    for k in range(1, max_looks + 1):
        for combo in itertools.combinations(size, k):
            if sum(size[lk] for lk in combo) > limit or \
                    not _fits_count(ids, combo, mines, ignore):
                continue
            counts = adjacent_count(np.isin(ids, combo))
            numbers: dict[int, int] = {}
            odd = 0
            for lk in size:
                if lk in combo or not masks[lk].any():
                    continue
                values = np.unique(counts[masks[lk]])
                if len(values) == 1:
                    numbers[lk] = int(values[0])
                elif size[lk] <= 1:
                    odd += 1
                else:
                    break
            else:
                if odd <= max_odd and any(v > 0 and size[lk] > 1 for lk, v in numbers.items()):
                    explained = sum(size[lk] for lk in numbers if size[lk] > 1)
                    out.append((explained - 0.5 * k, combo, numbers))
    out.sort(key=lambda r: -r[0])
    return out


def label_revealed_frame(ids: IdGrid, clicked: Sequence[Cell] = (),
                         known: Mapping[int, int] | None = None,
                         ignore: npt.NDArray[np.bool_] | None = None, max_looks: int = 3,
                         max_odd: int = 2, mines: int | None = None) -> dict[int, int] | None:
    """Names (look -> cell code) for a frame showing every square, or None when no
    reading fits or two different readings fit equally well. Squares in ``ignore``
    (flagged before the end: xbomb draws a wrongly flagged square much like an empty
    one) may be mines but are not checked as numbers. ``mines``: the game's mine
    count, if known; a reading must show that many (some of them perhaps flagged).

    Mine looks are ``MINE``, except the look of a clicked square that no other square
    shares (the mine that was hit): ``EXPLODED``. Looks already in ``known`` keep their
    names and are not returned (a game that flags the mines at a win shows its flags,
    which read as mines here).
    """
    readings = _readings(ids, max_looks, max_odd, ignore, mines)
    if not readings:
        return None
    best = readings[0]
    if len(readings) > 1 and readings[1][0] == best[0] and readings[1][2] != best[2]:
        return None  # two readings explain the frame equally well
    _, mine_looks, numbers = best
    names: dict[int, int] = dict(numbers)
    hit = {int(ids[c]) for c in clicked}
    for lk in mine_looks:
        alone = int((ids == lk).sum()) == 1
        names[lk] = EXPLODED if lk in hit and alone and len(mine_looks) > 1 else MINE
    return {lk: code for lk, code in names.items() if known is None or lk not in known}


def kept_flags(names: Mapping[int, int], ids: IdGrid,
               flagged: npt.NDArray[np.bool_]) -> dict[int, int]:
    """``names`` (of a frame showing every square) with each look named a mine that
    shows only on squares flagged before the end named a flag: the game's own look of
    a flag it keeps on a mine at its end. UXBgtk greys its flags when a game ends, at a
    win too; named a mine, every win play saw was read as a loss ("lost on a square
    the solver called safe").

    >>> ids = np.array([[5, 2, 6], [1, 2, 1]])  # 5: a flag greyed, 6: a mine shown
    >>> kept_flags({5: MINE, 6: MINE, 1: 1, 2: 2}, ids, np.array([[1, 0, 0], [0, 0, 0]], bool))
    {5: -2, 6: -4, 1: 1, 2: 2}
    """
    out = dict(names)
    for look, code in names.items():
        if code == MINE and bool(flagged[ids == look].all()):
            out[look] = FLAG
    return out


def opened_apart(covered: npt.NDArray[np.bool_], ids: IdGrid, number_looks: Sequence[int],
                 clicked: Sequence[Cell]) -> bool:
    """Did squares ``covered`` before a move show a number (or 0) after it (``ids``)
    apart from the region around the clicked squares? A game won by that move opened
    only squares reached from the clicked ones; a game that shows its whole board at a
    loss shows the safe squares still covered everywhere (react-minesweeper: a loss
    whose clicked mine did not read as one was taken for a win).

    >>> covered = np.array([[True, True, False, True]])
    >>> opened_apart(covered, np.array([[1, 2, 2, 9]]), [1, 2], [(0, 0)])  # a region: won
    False
    >>> opened_apart(covered, np.array([[1, 9, 2, 2]]), [1, 2], [(0, 0)])  # (0, 3) apart
    True
    """
    return not all_reached(covered & np.isin(ids, list(number_looks)), clicked)


def changed_apart(covered: npt.NDArray[np.bool_], changed: npt.NDArray[np.bool_],
                  hidden: npt.NDArray[np.bool_], clicked: Sequence[Cell]) -> int:
    """How many squares ``covered`` before a move look otherwise after it (``changed``)
    apart from every region the move could have opened: each 8-connected part of the
    changed squares, with the squares ``hidden`` under a window (the region may run on
    under it), that holds no clicked square. A move that won opens only squares
    reached from the ones clicked, and the game may then mark each mine left, so at
    most as many squares as it has mines change apart from them; a game that shows its
    whole board at a loss changes every covered square.

    >>> covered = np.ones((3, 6), bool)
    >>> changed = np.array([[1, 1, 0, 0, 1, 1], [0, 0, 0, 0, 1, 1], [0, 0, 0, 0, 0, 0]], bool)
    >>> changed_apart(covered, changed, np.zeros((3, 6), bool), [(0, 0)])
    4
    >>> hidden = np.zeros((3, 6), bool); hidden[:, 2:4] = True   # a window between them
    >>> changed_apart(covered, changed, hidden, [(0, 0)])
    0
    """
    turned = covered & changed & ~hidden
    n, labels = cv2.connectedComponents((turned | hidden).astype(np.uint8), connectivity=8)
    reached = {int(labels[cell]) for cell in clicked if labels[cell]}
    apart = turned & ~np.isin(labels, list(reached))
    return int(apart.sum())


def opened_through_zeros(changed: npt.NDArray[np.bool_], ids: IdGrid, clicked: Sequence[Cell],
                         hidden: npt.NDArray[np.bool_]) -> bool:
    """Could clicks on ``clicked`` have opened the ``changed`` squares of ``ids`` (the
    looks after the move) by flooding? A click opens its square (a number's, its
    neighbours too) and each 0 opened opens its neighbours, so some look (the 0s) has
    every changed square beside a clicked square or beside a changed square of that
    look, or beside a square ``hidden`` under a window (a flood may run on under it).
    A loss that shows the whole board fails: no mine is beside a 0.

    >>> ids = np.zeros((4, 6), int); ids[2:, 4:] = 1; ids[3, 5] = 5  # 5: a mine
    >>> none = np.zeros(ids.shape, bool)
    >>> opened_through_zeros(ids != 5, ids, [(0, 0)], none)      # a region of 0s
    True
    >>> opened_through_zeros(np.ones(ids.shape, bool), ids, [(0, 0)], none)  # mines shown
    False
    """
    seen = changed & ~hidden
    near_click = np.zeros(ids.shape, bool)
    for r, c in clicked:
        near_click[max(0, r - 1):r + 2, max(0, c - 1):c + 2] = True
    todo = seen & ~near_click
    if not todo.any():
        return True
    for look in np.unique(ids[seen]).tolist():
        zeros = seen & (ids == look)
        if not (todo & (adjacent_count(zeros | hidden) == 0)).any():
            return True
    return False


def revealed_mine_count(ids: IdGrid, codes: Mapping[int, int],
                        marked: npt.NDArray[np.bool_]) -> int | None:
    """How many mines a frame showing every square holds: the squares of mine looks,
    and each square ``marked`` before the end (a flag a game keeps on a mine at a loss:
    DangerUXB) that its numbers count, every number beside it showing one mine more
    than the mine looks around it; None when the numbers beside a marked square do not
    agree, or none is beside it (nothing tells).

    >>> from solver.cells import FLAG
    >>> codes = {9: MINE, 1: 1, 2: 2, 7: FLAG}  # a mine, numbers, a kept flag (7)
    >>> revealed_mine_count(np.array([[9, 2, 7], [1, 2, 1]]), codes, np.eye(2, 3, 2, bool))
    2
    >>> revealed_mine_count(np.array([[9, 1, 7]]), codes, np.array([[0, 0, 1]], bool))
    1
    >>> revealed_mine_count(np.array([[9, 1, 7], [1, 1, 1]]), codes,
    ...                     np.eye(2, 3, 2, bool)) is None  # (the 1s beside it disagree)
    True
    """
    mines = np.isin(ids, [lk for lk, code in codes.items() if code in (MINE, EXPLODED)])
    number = np.full(ids.shape, -1)
    for lk, code in codes.items():
        if 0 <= code <= 8:
            number[ids == lk] = code
    short = number - adjacent_count(mines) > 0  # (a number counting a mine not drawn)
    count = int(mines.sum())
    for r, c in np.argwhere(marked & ~mines):
        around = (slice(max(r - 1, 0), r + 2), slice(max(c - 1, 0), c + 2))
        beside = short[around][number[around] >= 0]
        if beside.size == 0 or beside.any() != beside.all():
            return None
        count += int(beside.all())
    return count
