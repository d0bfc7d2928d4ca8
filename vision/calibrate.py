"""Learn a skin with no hand labelling: group cell images into looks, then name each look
by the game's own logic.

Pure functions and one small stateful class (:class:`CellBank`), on numpy BGR images.
The board itself is found by :func:`vision.lattice.find_lattice`.

* :class:`CellBank` sorts cell images into *looks* (clusters of images that are the same
  up to a one-pixel shift).
* :func:`label_loss_frame` names the looks on a board that shows a lost game: every mine
  is shown then, so each revealed number equals its count of adjacent mines. It tries
  every small hypothesis (which look is the covered square, which looks are mines, which
  single square is the exploded mine) and keeps the one under which every other look has
  one constant count, 0s never touch a covered square, and looks already known agree.
* :class:`Votes` gathers names from many frames and experiments (a right-click shows a
  flag) and settles each look by majority.

>>> import numpy as np
>>> from solver.cells import COVERED, STATE_NAMES
>>> ids = np.array([[1, 2, 0],
...                 [2, 5, 0],
...                 [0, 0, 3]])  # look 0 is known to be the covered square
>>> names = label_loss_frame(ids, {0: COVERED}, clicked=(2, 2))
>>> sorted((look, STATE_NAMES[code]) for look, code in names.items())
[(0, 'covered'), (1, 'mine'), (2, '1'), (3, 'exploded'), (5, '2')]
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from solver.cells import COVERED, EXPLODED, FLAG, MINE, QUESTION, WRONG_FLAG, Cell
from vision.geometry import BoardGeometry
from vision.lattice import cut

Image = npt.NDArray[np.uint8]
IdGrid = npt.NDArray[np.int32]

UNREVEALED_CODES = (COVERED, FLAG, QUESTION)
MINE_CODES = (MINE, EXPLODED, FLAG)


def envelope(img: Image, reach: int = 2) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]:
    """Per-pixel lowest and highest value within ``reach`` pixels (per channel)."""
    kernel = np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)
    return cv2.erode(img, kernel).astype(np.int16), cv2.dilate(img, kernel).astype(np.int16)


def _outside(img: Image, env: tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]],
             tol: int) -> float:
    lo, hi = env
    m = 3  # the cut's outer pixels show bits of the neighbours: leave them out
    v = img[m:-m, m:-m].astype(np.int16)
    bad = ((v < lo[m:-m, m:-m] - tol) | (v > hi[m:-m, m:-m] + tol)).any(axis=2)
    return float(bad.mean())


def look_distance(a: Image, b: Image, reach: int = 1, tol: int = 16) -> float:
    """How different two cell images are: the fraction of pixels of either one whose
    colour is not found (within ``tol`` per channel) among the other's pixels within
    ``reach`` pixels. A whole-look shift or size change of a pixel or two costs nothing;
    a stroke that one has and the other lacks does.

    >>> a = np.zeros((10, 10, 3), np.uint8); a[3:7, 4] = 255
    >>> look_distance(a, np.roll(a, 1, axis=1)), look_distance(a, np.zeros_like(a)) > 0
    (0.0, True)
    """
    if a.shape != b.shape:
        b = np.asarray(cv2.resize(b, (a.shape[1], a.shape[0]), interpolation=cv2.INTER_AREA),
                       dtype=np.uint8)
    return max(_outside(b, envelope(a, reach), tol), _outside(a, envelope(b, reach), tol))


@dataclass
class CellBank:
    """Sorts cell images into looks. A new image joins the first look whose first
    image is within ``tol`` (see :func:`look_distance`), else starts a new look."""

    tol: float = 0.01
    looks: list[Image] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    _cache: dict[bytes, int] = field(default_factory=dict)

    def classify(self, img: Image) -> int:
        key = img.tobytes()
        hit = self._cache.get(key)
        if hit is None:
            hit = self._match(img)
            self._cache[key] = hit
        self.counts[hit] += 1
        return hit

    def _match(self, img: Image) -> int:
        for i, look in enumerate(self.looks):
            if look.shape == img.shape and look_distance(look, img) <= self.tol:
                return i
        self.looks.append(img.copy())
        self.counts.append(0)
        return len(self.looks) - 1

    def frame_ids(self, image: Image, g: BoardGeometry) -> IdGrid:
        """The look of every cell of the board ``g`` in ``image``."""
        ids = np.empty((g.rows, g.cols), np.int32)
        for r in range(g.rows):
            for c in range(g.cols):
                ids[r, c] = self.classify(cut(image, g, (r, c)))
        return ids


def adjacent_count(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int32]:
    """For every square, how many of its 8 neighbours are set in ``mask``.

    >>> adjacent_count(np.array([[True, False, False]])).tolist()
    [[0, 1, 0]]
    """
    m = mask.astype(np.int32)
    padded = np.pad(m, 1)
    rows, cols = m.shape
    total = sum(padded[1 + dr:1 + dr + rows, 1 + dc:1 + dc + cols]
                for dr in (-1, 0, 1) for dc in (-1, 0, 1))
    return np.asarray(total - m, dtype=np.int32)


@dataclass(frozen=True)
class LossHypothesis:
    """Which look is covered, which is the exploded mine, which other looks are mines,
    and the number each remaining look gets; ``score`` counts squares explained."""

    covered: int
    exploded: int
    mines: tuple[int, ...]
    numbers: Mapping[int, int]
    score: float


def _check_numbers(ids: IdGrid, looks: Iterable[int], counts: npt.NDArray[np.int32],
                   covered_near: npt.NDArray[np.bool_], known: Mapping[int, int],
                   ) -> tuple[dict[int, int], list[int]] | None:
    """Numbers for ``looks`` under one mine layout; None if the layout is impossible.
    Returns (numbers, looks with no single count)."""
    numbers: dict[int, int] = {}
    odd: list[int] = []
    for look in looks:
        where = ids == look
        values = np.unique(counts[where])
        want = known.get(look)
        if len(values) == 1 and (want is None or want == values[0]):
            value = int(values[0])
            if value == 0 and bool(covered_near[where].any()):
                return None  # a 0 never touches a covered square
            numbers[look] = value
        elif want is not None and want >= 0:
            return None  # a known number that does not fit
        else:
            odd.append(look)
    return numbers, odd


def _score(ids: IdGrid, numbers: Mapping[int, int], odd: Sequence[int],
           known: Mapping[int, int]) -> float | None:
    values = [v for look, v in numbers.items() if look not in known]
    if len(values) != len(set(values)):
        return None  # two unknown looks showing the same number: unlikely, reject
    unknown_odd = [look for look in odd if look not in known]
    if len(unknown_odd) > 1:
        return None
    revealed = sum(int((ids == look).sum()) for look in (*numbers, *odd))
    if any(int((ids == look).sum()) > max(2, revealed // 10) for look in unknown_odd):
        return None  # only a few wrong flags or question marks may stay unexplained
    if not any(v > 0 and int((ids == look).sum()) > 1 for look, v in numbers.items()):
        return None  # no repeated number: too little evidence
    sizes = {look: int((ids == look).sum()) for look in numbers}
    return sum(min(s, 4) + (s > 1) * 2 for s in sizes.values()) - 3 * len(unknown_odd)


def loss_hypotheses(ids: IdGrid, known: Mapping[int, int], clicked: Cell | None = None,
                    max_extra: int = 2) -> list[LossHypothesis]:
    """Every consistent reading of a lost-game frame, best first.

    ``known`` maps looks already named to their codes; they constrain the search
    (a known covered look must be the covered one, known numbers must fit, known mines
    and flags are mines). ``clicked`` is the square whose click lost the game, if known.
    """
    present = [int(v) for v in np.unique(ids)]
    sizes = {look: int((ids == look).sum()) for look in present}
    known_here = {look: code for look, code in known.items() if look in sizes}
    covered_opts = [lk for lk, c in known_here.items() if c == COVERED] or \
        sorted(present, key=lambda lk: -sizes[lk])[:3]
    forced = [lk for lk, c in known_here.items() if c in (MINE, FLAG)]
    out = []
    for cov in covered_opts:
        covered_near = adjacent_count(ids == cov) > 0
        for exp in _exploded_options(ids, present, sizes, known_here, cov, clicked):
            free = [lk for lk in present if lk not in (cov, exp) and lk not in forced
                    and lk not in known_here]
            for k in range(max_extra + 1 - len(forced)):
                for extra in itertools.combinations(free, k):
                    mines = (*forced, *extra)
                    hyp = _try(ids, present, known_here, cov, exp, mines, covered_near)
                    if hyp is not None:
                        out.append(hyp)
    out.sort(key=lambda h: -h.score)
    return out


def _exploded_options(ids: IdGrid, present: list[int], sizes: Mapping[int, int],
                      known: Mapping[int, int], cov: int, clicked: Cell | None) -> list[int]:
    if clicked is not None:
        look = int(ids[clicked])
        return [] if look == cov else [look]
    named = [lk for lk, c in known.items() if c == EXPLODED]
    if named:
        return named
    return [lk for lk in present if sizes[lk] == 1 and lk != cov and lk not in known]


def _try(ids: IdGrid, present: list[int], known: Mapping[int, int], cov: int, exp: int,
         mines: tuple[int, ...], covered_near: npt.NDArray[np.bool_]) -> LossHypothesis | None:
    mine_mask = np.isin(ids, (exp, *mines))
    counts = adjacent_count(mine_mask)
    rest = [lk for lk in present if lk not in (cov, exp, *mines)
            and known.get(lk) not in (QUESTION, WRONG_FLAG, COVERED)]
    checked = _check_numbers(ids, rest, counts, covered_near, known)
    if checked is None:
        return None
    numbers, odd = checked
    if not numbers or max(numbers.values()) == 0:
        return None  # a mine layout that touches no revealed square explains nothing
    score = _score(ids, numbers, odd, known)
    if score is None:
        return None
    return LossHypothesis(cov, exp, mines, numbers, score)


def label_loss_frame(ids: IdGrid, known: Mapping[int, int], clicked: Cell | None = None,
                     ) -> dict[int, int] | None:
    """Names for the looks in a lost-game frame (look -> cell code), or None when no
    reading fits (the frame does not show a lost game).

    Extra mine looks: a known flag look stays a flag; of two unknown ones, the one with
    more squares is the shown mine and the other a flag (a player flags only some)."""
    hyps = loss_hypotheses(ids, known, clicked)
    if not hyps:
        return None
    h = hyps[0]
    names: dict[int, int] = {h.covered: COVERED, h.exploded: EXPLODED, **h.numbers}
    unnamed = [lk for lk in h.mines if known.get(lk) not in (MINE, FLAG)]
    for lk in h.mines:
        if lk in known:
            names[lk] = known[lk]
    has_mine = any(known.get(lk) == MINE for lk in h.mines)
    unnamed.sort(key=lambda lk: -int((ids == lk).sum()))
    for i, lk in enumerate(unnamed):
        names[lk] = FLAG if (has_mine or i > 0) else MINE
    return names


@dataclass
class Votes:
    """Names proposed for each look, from many frames and experiments."""

    by_look: dict[int, Counter[int]] = field(default_factory=dict)

    def add(self, look: int, code: int, weight: int = 1) -> None:
        self.by_look.setdefault(look, Counter())[code] += weight

    def add_all(self, names: Mapping[int, int], weight: int = 1) -> None:
        for look, code in names.items():
            self.add(look, code, weight)

    def settled(self) -> dict[int, int]:
        """Each look's majority name."""
        return {look: c.most_common(1)[0][0] for look, c in self.by_look.items() if c}

    def conflicts(self) -> dict[int, Counter[int]]:
        """Looks with more than one proposed name (for a warning)."""
        return {look: c for look, c in self.by_look.items() if len(c) > 1}
