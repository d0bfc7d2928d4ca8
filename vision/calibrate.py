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
import math
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import numpy.typing as npt

from solver.cells import (
    COVERED,
    EXPLODED,
    FLAG,
    MINE,
    QUESTION,
    STATE_NAMES,
    UNKNOWN,
    UNREVEALED,
    WRONG_FLAG,
    Cell,
    beside_any,
)
from vision.channels import any_channel, worst_channel
from vision.cut import cut_sides
from vision.edges import (
    BandEvidence,
    EdgeBand,
    band_width,
    erase_strips,
    find_band,
    strip_colours,
)
from vision.geometry import BoardGeometry
from vision.ink import inkless
from vision.lattice import cut
from vision.look_bounds import LookBounds

Image = npt.NDArray[np.uint8]
IdGrid = npt.NDArray[np.int32]

HIDDEN = -1
"""The look of a square a window covers (:func:`vision.occluder.window_squares`): it is
no look, and a number beside it counts mines that may lie under it (:class:`_Frame`)."""

UNREVEALED_CODES = UNREVEALED  # solver.cells owns it
MINE_CODES = (MINE, EXPLODED, FLAG)


@dataclass
class Budget:
    """Wall time allowed for learning from saved screenshots, and what was left out.

    Once ``seconds`` have passed since ``start``, the costly steps give up
    (:meth:`spent`): no more boards are searched for, no more lost-game readings
    are tried, and boards of a cell size other than the main one are not learned
    from; each board or screenshot so left is noted in ``left_out`` under what was
    not done (:meth:`note`). Boards no reading can come out of (see
    :func:`most_unknown_looks`) are noted too. ``seconds`` None: no limit.

    The last ``reserve`` seconds of the limit are kept for the last step (inside
    :meth:`last_step`; :func:`unsettle_seeded`, which leaves unnamed what it has no
    time to check): every step before it gives up ``reserve`` seconds early.
    ``clock``: where the time is read (seconds).

    >>> b = Budget(0.0)
    >>> b.spent(LEFT_NOT_READ, 7), b.spent(LEFT_NOT_READ, 7), b.counts()
    (True, True, (('boards whose reading the time limit cut short', 1),))
    >>> Budget(None).spent(LEFT_NOT_READ, 7)
    False
    >>> now = [0.0]
    >>> b = Budget(80.0, reserve=10.0, clock=lambda: now[0])
    >>> now[0] = 71.0
    >>> b.over()
    True
    >>> with b.last_step():
    ...     b.over()
    False
    """

    seconds: float | None
    reserve: float = 0.0
    clock: Callable[[], float] = time.perf_counter
    left_out: dict[str, set[int]] = field(default_factory=dict)
    start: float = field(init=False)
    _last: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        self.start = self.clock()

    def over(self) -> bool:
        """Whether the time is up (for the steps before the last, ``reserve``
        seconds early)."""
        if self.seconds is None:
            return False
        left = self.seconds - (0.0 if self._last else self.reserve)
        return self.clock() - self.start > left

    @contextmanager
    def last_step(self) -> Iterator[None]:
        """Run the last step: :meth:`over` allows it the ``reserve`` too."""
        was, self._last = self._last, True
        try:
            yield
        finally:
            self._last = was

    def note(self, what: str, key: int) -> None:
        """Board or screenshot ``key`` was left out of ``what``."""
        self.left_out.setdefault(what, set()).add(key)

    def spent(self, what: str, key: int) -> bool:
        """Whether the time is up; if so, ``key`` is noted as left out of ``what``."""
        if not self.over():
            return False
        self.note(what, key)
        return True

    def counts(self) -> tuple[tuple[str, int], ...]:
        """How many boards or screenshots each thing left out, by name."""
        return tuple(sorted((what, len(keys)) for what, keys in self.left_out.items()))


_BUDGET: ContextVar[Budget | None] = ContextVar("calibrate_budget", default=None)


def _budget() -> Budget:
    """The budget of the learning under way (:func:`time_limit`), else no limit."""
    return _BUDGET.get() or Budget(None)


@contextmanager
def time_limit(budget: Budget) -> Iterator[Budget]:
    """Run the enclosed learning steps under ``budget`` (see :class:`Budget`)."""
    token = _BUDGET.set(budget)
    try:
        yield budget
    finally:
        _BUDGET.reset(token)


OFFLINE_SECONDS = 80.0
"""Time :func:`learn_from_images` is given by ``calibrate --from`` (a user waits; with
reading the captures and writing the skin, under 2 minutes). The 29 gnome-mines
fixture PNGs take 60 s on a shared machine."""

CHECK_SHARE = 0.125
"""Share of :func:`learn_from_images`' time limit kept for its last step,
:func:`unsettle_seeded` (:attr:`Budget.reserve`: 10 s of the 80): the learning before
it took the whole limit on gnome-mines JPEGs at quality 90 (the seeding of a last
cell size with every template of the others alone took 27 s), so the check found the
time up and left every look it was to check unnamed (1016 squares unknown, 813 when it
ran). It took 4 s there, about 7 s on gnome-mines scaled by 0.8."""

LEFT_TOO_MANY_LOOKS = "boards showing more different looks than a loss reading can explain"
LEFT_NOT_READ = "boards whose reading the time limit cut short"
LEFT_NO_BOARD = "screenshots not searched for a board (time limit)"
LEFT_OTHER_SIZE = "screenshots of another cell size not learned from (time limit)"
LEFT_IN_PLAY = "boards of games in play not read for names by the game's logic (time limit)"
LEFT_CUT = "screenshots whose board is cut by a window's edge or the screen's"
"""Noted by :func:`drop_cut` for a board :func:`vision.cut.cut_sides` finds cut: the
numbers along the cut count mines no square shows, so no loss reading of it is sound;
:attr:`Learned.cut_images` lists them (not :attr:`Learned.left_out`)."""
LEFT_WINDOW = "screenshots whose board a window (a dialog) covers in part"
"""Noted by :func:`drop_window_over` for a board with a window over part of it
(:func:`vision.occluder.window_over`): the squares under the window are the window's
face, and the numbers beside it count mines that do not show, so such a board is read
for a loss beside the window only (:data:`HIDDEN`); :attr:`Learned.window_images` lists
them (not :attr:`Learned.left_out`)."""
LEFT_UNCHECKED = ("screenshots of another cell size whose looks only other sizes' templates "
                  "named, left unnamed unchecked (time limit)")


Envelope = tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]
"""Per pixel, the lowest and highest value near it (per channel): :func:`envelope`."""


def envelope(img: Image, reach: int = 2) -> Envelope:
    """Per-pixel lowest and highest value within ``reach`` pixels (per channel)."""
    kernel = np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)
    return cv2.erode(img, kernel).astype(np.int16), cv2.dilate(img, kernel).astype(np.int16)


def _blobs(around: Envelope, b: Image, tol: int, margin: int) -> int:
    """Pixels of ``b`` whose colour is not within ``tol`` of the range ``around`` them
    (an :func:`envelope` of the other image), counting only 2x2 clumps of them (a
    one-pixel line along an edge that moved is not a difference; a stroke or a small
    glyph is)."""
    lo, hi = around
    v = b.astype(np.int16)
    off = any_channel((v < lo - tol) | (v > hi + tol))
    bad = off[margin:off.shape[0] - margin, margin:off.shape[1] - margin].astype(np.uint8)
    # (nothing beyond the edge is a difference: by default erode takes it for one, and
    # a line along the edge, a bevel a sub-pixel phase brighter, made clumps)
    return int(cv2.erode(bad, np.ones((2, 2), np.uint8), borderType=cv2.BORDER_CONSTANT,
                         borderValue=0).sum())


def _mean_gap(img: Image, mean: Image) -> float:
    """Mean absolute difference of two images of one size."""
    return float(np.abs(img.astype(np.int16) - mean).mean())


def _outside_mean(around: Envelope, b: Image, margin: int) -> float:
    """Mean of how far (0-255, worst channel) each pixel of ``b`` lies outside the range
    ``around`` it (the other image's pixels within one pixel: its :func:`envelope` of
    reach 1): a whole area of another colour counts in full, an edge that moved by a
    pixel does not."""
    lo, hi = around
    v = b.astype(np.int16)
    out = worst_channel(np.maximum(np.maximum(lo - v, v - hi), 0))
    return float(out[margin:out.shape[0] - margin, margin:out.shape[1] - margin].mean())


def look_distance(a: Image, b: Image) -> float:
    """How different two cell images are; 1.0 or less means the same look.

    The mean colour difference where a pixel matches nothing within a pixel of it in
    the other image (3 levels count 1.0, see :func:`_outside_mean`), plus one for every
    pixel of a clump that one image has and the other lacks (see :func:`_blobs`).
    Games that scale their board draw the same look at slightly different sub-pixel
    positions; that costs little, while a small glyph (gnome-mines
    draws its question mark as a flag with a tiny "?") costs a lot. The outermost pixel,
    where bits of the neighbouring squares may show, is left out.

    >>> a = np.full((12, 12, 3), 90, np.uint8); a[4:8, 5] = 255
    >>> look_distance(a, np.roll(a, 1, axis=1))
    0.0
    >>> b = a.copy(); b[4:6, 7:9] = 0
    >>> look_distance(a, b) > 1.0
    True
    """
    if a.shape != b.shape:
        b = np.asarray(cv2.resize(b, (a.shape[1], a.shape[0]), interpolation=cv2.INTER_AREA),
                       dtype=np.uint8)
    m = 1
    around_a, around_b = envelope(a, 1), envelope(b, 1)
    blobs = max(_blobs(around_a, b, 16, m), _blobs(around_b, a, 16, m))
    return max(_outside_mean(around_a, b, m), _outside_mean(around_b, a, m)) / 3.0 + blobs


def shifted_mismatch(a: Image, b: Image, tol: int = 64) -> int:
    """The fewest pixels (the outermost ring left out) that differ by more than ``tol``
    in some channel between ``a`` and ``b`` moved by at most one pixel each way. A game
    drawn on a whole-pixel lattice draws a look the same way every time, give or take
    a one-pixel wobble of the cut, so a few such pixels mean another look, however thin
    its strokes: :func:`look_distance` forgives every pixel a match within one pixel,
    which at 12 px squares takes a 2 for a 3 (ace-minesweeper's one-pixel digits).

    >>> two = np.zeros((8, 8, 3), np.uint8); two[2, 2:6] = two[5, 2:6] = 255
    >>> three = two.copy(); three[3:5, 5] = 255
    >>> shifted_mismatch(two, np.roll(two, 1, axis=1)), shifted_mismatch(two, three)
    (0, 2)
    """
    if a.shape != b.shape:
        return 0
    h, w = a.shape[:2]
    inner = a[1:h - 1, 1:w - 1].astype(np.int16)
    best = inner.shape[0] * inner.shape[1]
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            moved = b[1 + dy:h - 1 + dy, 1 + dx:w - 1 + dx].astype(np.int16)
            best = min(best, int((worst_channel(np.abs(inner - moved)) > tol).sum()))
    return best


def whole_pixel(g: BoardGeometry) -> bool:
    """Is every square of ``g`` at whole pixels with a whole-pixel pitch (so a game
    draws each look the same way on every square)?

    >>> whole_pixel(BoardGeometry("", 8.0, 4.0, 24.0, 24.0, 2, 2))
    True
    >>> whole_pixel(BoardGeometry("", 8.0, 4.0, 43.3, 43.3, 2, 2))
    False
    """
    values = (g.x0, g.y0, g.pitch_x, g.pitch_y, *(g.lefts or ()), *(g.tops or ()))
    return all(abs(v - round(v)) < 0.01 for v in values)


FAINT = 16
"""A colour step a game may draw a look by alone: gamelibgames' covered square is its
opened 0 with a 1 px line 26 levels lighter along its top and left."""


def faint_line_apart(a: Image, b: Image) -> bool:
    """Do ``a`` and ``b`` differ, however they are moved by a pixel, by :data:`FAINT`
    or more on as many pixels as a side of the square has (less its outermost ring):
    a line one draws and the other does not, however faint? (:func:`look_distance`
    forgives a faint line: a mean over the square.)

    >>> zero = np.full((12, 12, 3), 204, np.uint8); zero[0] = zero[:, 0] = 180  # (edges)
    >>> covered = zero.copy(); covered[1, 1:] = covered[1:, 1] = 230
    >>> faint_line_apart(zero, covered), faint_line_apart(covered, np.roll(covered, 1, axis=0))
    (True, False)
    """
    side = a.shape[0] - 2
    return shifted_mismatch(a, b, FAINT) >= side or shifted_mismatch(b, a, FAINT) >= side


@dataclass
class CellBank:
    """Sorts cell images into looks. A new image joins the first look whose first
    image is within ``tol`` (see :func:`look_distance`), else starts a new look.
    ``strict`` (a whole-pixel board) also wants fewer than 3 pixels apart in
    :func:`shifted_mismatch`, and no faint line apart (:func:`faint_line_apart`)."""

    tol: float = 1.0
    strict: bool = False
    looks: list[Image] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    _cache: dict[bytes, int] = field(default_factory=dict)
    _sums: list[npt.NDArray[np.float64]] = field(default_factory=list)
    _distinct: list[int] = field(default_factory=list)
    _samples: list[list[Image]] = field(default_factory=list)
    edge: EdgeBand | None = None
    """Strips along a cell's sides that do not make another look (Google's edge on an
    opened square beside a covered one; see :mod:`vision.edges`), once two looks
    were found to differ by them alone."""
    merged: dict[int, int] = field(default_factory=dict)
    """Looks made before :attr:`edge` was found -> the look they are without strips."""
    _bands: BandEvidence = field(default_factory=BandEvidence)
    _plain: dict[bytes, bytes] = field(default_factory=dict)
    """An image's bytes -> the bytes of it as looked at (strips erased)."""
    _tally: Counter[bytes] = field(default_factory=Counter)
    _image: dict[bytes, Image] = field(default_factory=dict)
    _common: dict[int, bytes] = field(default_factory=dict)
    """Each look's image seen most often (as looked at): see :meth:`mean_image`."""
    _strips: list[list[tuple[int, int, int]]] = field(default_factory=list)
    """Per look, the colours it may show edge strips in (:func:`vision.edges.strip_colours`;
    looked for only until :attr:`edge` is found)."""
    _bounds: LookBounds = field(default_factory=LookBounds)
    """The looks' colour ranges: new images far from a look are not compared with it
    (:mod:`vision.look_bounds`)."""

    def classify(self, img: Image) -> int:
        key = img.tobytes()
        hit = self._cache.get(key)
        if hit is None or key not in self._plain:
            shown = img if self.edge is None else erase_strips(img, self.edge)
            if hit is None:
                hit = self._match(shown)
                if self.edge is not None:
                    shown = erase_strips(img, self.edge)  # (found by this very image)
                self._cache[key] = hit
                self._sums[hit] += shown
                self._distinct[hit] += 1
                if len(self._samples[hit]) < 40:
                    self._samples[hit].append(shown)
            self._plain[key] = shown.tobytes()
            self._image.setdefault(self._plain[key], shown)
        self._count(hit, self._plain[key])
        self.counts[hit] += 1
        return hit

    def _count(self, look: int, shown: bytes) -> None:
        self._tally[shown] += 1
        common = self._common.get(look)
        if common is None or self._tally[shown] > self._tally[common]:
            self._common[look] = shown

    def _match(self, img: Image) -> int:
        # (looks that cannot be within tol by their colours alone are not compared)
        far = self.tol + 1e-9
        whole, inner = self._bounds.lower(img, band_width(img.shape))
        for i, look in enumerate(self.looks):
            if i not in self.merged and look.shape == img.shape and whole[i] <= far and \
                    look_distance(look, img) <= self.tol and \
                    not (self.strict and (shifted_mismatch(look, img) >= 3
                                          or faint_line_apart(look, img))):
                return i
        strips = strip_colours(img) if self.edge is None else []
        if self.edge is None:
            for i, look in enumerate(self.looks):
                colours = self._strips[i] + strips
                if inner[i] > far or not colours:
                    continue
                band = self._bands.add(find_band(look, img, self.tol, colours), look)
                if band is not None:
                    self._take_band(band)
                    return self.merged.get(i, i)
        self.looks.append(img.copy())
        self._bounds.add(img)
        self._strips.append(strips)
        self.counts.append(0)
        self._sums.append(np.zeros(img.shape, np.float64))
        self._distinct.append(0)
        self._samples.append([])
        return len(self.looks) - 1

    def _take_band(self, band: EdgeBand) -> None:
        """From now on, cells are looked at without the band's strips: every look
        is drawn again without them, and a look that is then an earlier one is merged
        into it (:attr:`merged`; the cache answers with the earlier look)."""
        self.edge = band
        for i, look in enumerate(self.looks):
            self.looks[i] = erase_strips(look, band)
            self._samples[i] = [erase_strips(s, band) for s in self._samples[i]]
            self._sums[i] = np.sum(self._samples[i], axis=0, dtype=np.float64) \
                if self._samples[i] else np.zeros(look.shape, np.float64)
            self._distinct[i] = len(self._samples[i])
            same = [j for j in range(i) if j not in self.merged
                    and self.looks[j].shape == look.shape
                    and look_distance(self.looks[j], self.looks[i]) <= self.tol]
            if same:
                self.merged[i] = same[0]
        self._bounds.replace(self.looks)
        self._cache = {k: self.merged.get(v, v) for k, v in self._cache.items()}
        self._plain, self._image, self._common = {}, {}, {}
        self._tally.clear()

    def mean_image(self, look: int) -> Image:
        """The mean of every different image seen of ``look``: a template that sits
        in the middle of the sub-pixel variations of a scaled game's drawing.

        On a whole-pixel board (``strict``) a look is drawn one way, so its image seen
        most often instead: a faint shadow a panel casts over the squares around it at
        a game's end (each square its own image) is no part of it.

        >>> bank = CellBank()
        >>> a = np.full((8, 8, 3), 100, np.uint8); b = a.copy(); b[0, 0] = 120
        >>> bank.classify(a) == bank.classify(b), int(bank.mean_image(0)[0, 0, 0])
        (True, 110)
        >>> bank = CellBank(strict=True)
        >>> _ = [bank.classify(img) for img in (a, b, a)]
        >>> int(bank.mean_image(0)[0, 0, 0])
        100
        """
        if self.strict and look in self._common:
            return self._image[self._common[look]].copy()
        n = max(1, self._distinct[look])
        return np.asarray(np.clip(np.round(self._sums[look] / n), 0, 255), dtype=np.uint8)

    def variants(self, look: int, extra: int = 2, cover: float = 0.5) -> list[Image]:
        """The mean image and up to ``extra`` seen images, each the one furthest (see
        :func:`look_distance`) from the images taken so far, while that is more than
        ``cover``: a scaled game draws a look in a few slightly different ways (a
        stretched capture at every sub-pixel phase), and a template of each keeps the
        reader from leaving the ways furthest from the mean unknown; then up to
        ``extra`` more of the rest, those most unlike the mean by plain difference.

        >>> bank = CellBank()
        >>> a = np.full((12, 12, 3), 90, np.uint8); a[3:9, 5] = 255
        >>> for dx in (0, 1, -1, 2):
        ...     _ = bank.classify(np.roll(a, dx, axis=1))
        >>> len(bank.variants(0, extra=1))
        3
        """
        mean = self.mean_image(look)
        out = [mean]
        samples = list(self._samples[look])
        while samples and len(out) <= extra:
            far = [min(look_distance(t, img) for t in out) for img in samples]
            k = int(np.argmax(far))
            if far[k] <= cover:
                break
            out.append(samples.pop(k))
        # and the images most unlike the mean by plain difference, as before the
        # furthest-first choice: without them a gnome-mines question mark learned
        # at one size went unread at another (tests/bot/test_calibrate_live.py)
        for img in sorted(samples, key=lambda i: -_mean_gap(i, mean))[:extra]:
            if _mean_gap(img, mean) > 2.0:
                out.append(img)
        return out

    def frame_ids(self, image: Image, g: BoardGeometry) -> IdGrid:
        """The look of every cell of the board ``g`` in ``image``."""
        ids = np.empty((g.rows, g.cols), np.int32)
        for r in range(g.rows):
            for c in range(g.cols):
                ids[r, c] = self.classify(cut(image, g, (r, c)))
        return self.unmerged(ids)

    def unmerged(self, ids: IdGrid) -> IdGrid:
        """``ids`` with every merged look as the look it was merged into (the squares
        classified before :attr:`edge` was found in the same frame)."""
        if not self.merged:
            return ids
        table = np.arange(len(self.looks), dtype=np.int32)
        for was, now in self.merged.items():
            table[was] = now
        return table[ids]


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
    odd: tuple[int, ...] = ()
    dupes: tuple[tuple[int, int], ...] = ()
    """(look, number look): looks of :attr:`odd` on two or more squares that count on
    every one the number another look is (:func:`_split_duplicates`)."""


@dataclass(frozen=True)
class _Frame:
    """One frame's looks, precomputed for the hypothesis search."""

    ids: IdGrid
    present: tuple[int, ...]
    """The looks shown (not :data:`HIDDEN`)."""
    sizes: Mapping[int, int]
    masks: Mapping[int, npt.NDArray[np.bool_]]
    adj: Mapping[int, npt.NDArray[np.int32]]
    order: npt.NDArray[np.intp]
    """The squares (flat indices) sorted by look: each look's squares in one run
    (the :data:`HIDDEN` squares first, in no look's run)."""
    starts: npt.NDArray[np.intp]
    """Where each look of :attr:`present` starts in :attr:`order`."""
    pos: Mapping[int, int]
    """Each look's index in :attr:`present`."""
    hid: npt.NDArray[np.int32] | None
    """How many :data:`HIDDEN` squares each square touches (mines they may hide);
    None when no square is hidden."""

    @classmethod
    def of(cls, ids: IdGrid) -> _Frame:
        present = tuple(int(v) for v in np.unique(ids) if v != HIDDEN)
        masks = {lk: ids == lk for lk in present}
        flat = ids.ravel()
        order = np.argsort(flat, kind="stable")
        starts = np.searchsorted(flat[order], np.array(present, flat.dtype))
        return cls(ids, present, {lk: int(m.sum()) for lk, m in masks.items()}, masks,
                   {lk: adjacent_count(m) for lk, m in masks.items()}, order,
                   np.asarray(starts, np.intp), {lk: k for k, lk in enumerate(present)},
                   adjacent_count(ids == HIDDEN) if (ids == HIDDEN).any() else None)

    def ranges(self, values: npt.NDArray[np.int32]) -> tuple[list[int], list[int]]:
        """The numbers each look can be, one per look in the order of :attr:`present`,
        when ``values`` counts the shown mines beside every square: from the highest
        of ``values`` on its squares to the lowest of ``values`` plus :attr:`hid`
        (one pass for every look: the hypothesis search asks this of hundreds of
        thousands of mine layouts). With nothing hidden the two meet only when every
        square of the look has one count.

        >>> f = _Frame.of(np.array([[HIDDEN, 0, 1], [0, 0, 1]], np.int32))
        >>> f.ranges(np.array([[0, 0, 1], [1, 1, 1]], np.int32))
        ([1, 1], [1, 1])
        """
        v = values.ravel()[self.order]
        top = v if self.hid is None else (values + self.hid).ravel()[self.order]
        return (np.maximum.reduceat(v, self.starts).tolist(),
                np.minimum.reduceat(top, self.starts).tolist())

    def touching(self, mask: npt.NDArray[np.bool_]) -> list[bool]:
        """Whether ``mask`` is set on some square of each look (order of :attr:`present`)."""
        m = mask.ravel()[self.order].astype(np.int8)
        return [bool(x) for x in np.maximum.reduceat(m, self.starts)]


def _check_numbers(f: _Frame, looks: Iterable[int], counts: npt.NDArray[np.int32],
                   covered_near: Sequence[bool], known: Mapping[int, int],
                   ) -> tuple[dict[int, int], list[int]] | None:
    """Numbers for ``looks`` under one mine layout; None if the layout is impossible.
    ``covered_near``: whether each look (order of ``f.present``) has a square beside
    a covered one. Returns (numbers, looks with no single count)."""
    numbers: dict[int, int] = {}
    odd: list[int] = []
    lows, highs = f.ranges(counts)
    for look in looks:
        p = f.pos[look]
        lo, hi = lows[p], highs[p]
        want = known.get(look)
        if lo < hi and (want is None or lo <= want <= hi):
            if want is not None:  # (only beside a window: mines under it may make up
                numbers[look] = want  # the count; a number named already keeps its
            continue  # count, and a look of one square that fits it is no second one)
        if lo == hi and (want is None or want == lo):
            if lo == 0 and covered_near[p]:
                if want == 0:
                    return None  # a 0 never touches a covered square
                odd.append(look)  # so this is no 0: an unrevealed look
                continue
            numbers[look] = lo
        elif want is not None and want >= 0:
            return None  # a known number that does not fit
        else:
            odd.append(look)
    return numbers, odd


def _split_duplicates(f: _Frame, numbers: Mapping[int, int], odd: Sequence[int],
                      known: Mapping[int, int],
                      ) -> tuple[dict[int, int], list[int], list[tuple[int, int]]]:
    """Two looks with the same count: a known one, else the bigger one, is that
    number; the other joins the unexplained looks (a few wrong flags fit by chance).
    Also returns each such pair (look left out, look that is the number)."""
    out, rest, pairs = dict(numbers), list(odd), []
    by_value: dict[int, list[int]] = {}
    for look, v in numbers.items():
        by_value.setdefault(v, []).append(look)
    for looks in by_value.values():
        looks.sort(key=lambda lk: (lk not in known, -f.sizes[lk]))
        for look in looks[1:]:
            if look not in known:
                del out[look]
                rest.append(look)
                pairs.append((look, looks[0]))
    return out, rest, pairs


def _score(f: _Frame, numbers: Mapping[int, int], odd: Sequence[int],
           known: Mapping[int, int], anchored: bool = False) -> float | None:
    """Squares explained by a reading, or None when the reading is implausible."""
    unknown_odd = [look for look in odd if look not in known]
    if len(unknown_odd) > MAX_ODD:
        return None
    revealed = sum(f.sizes[look] for look in (*numbers, *odd))
    if any(f.sizes[look] > max(2, revealed // 10) for look in unknown_odd):
        return None  # only a few wrong flags or question marks may stay unexplained
    if not anchored and not any(v > 0 and f.sizes[look] > 1 for look, v in numbers.items()):
        return None  # no repeated number: too little evidence (unless the covered and
        # exploded looks are known already: then a single 7 is worth naming)
    score = sum(min(f.sizes[lk], 4) + (f.sizes[lk] > 1) * 2 for lk in numbers) \
        - 3 * len(unknown_odd)
    return score if score > 0 else None  # (more left unexplained than explained: a
    # WineMine 9x9 in play at JPEG quality 75, its noisy looks read as a loss with a
    # 2 and a 1 named, three looks unexplained, named covered squares mines)


def loss_hypotheses(ids: IdGrid, known: Mapping[int, int], clicked: Cell | None = None,
                    max_extra: int = 3, not_exploded: Collection[int] = (),
                    ) -> list[LossHypothesis]:
    """Every consistent reading of a lost-game frame, best first.

    ``known`` maps looks already named to their codes; they constrain the search
    (a known covered look must be the covered one, known numbers must fit, known mines
    and flags are mines). ``clicked`` is the square whose click lost the game, if known.
    Up to ``max_extra`` looks besides the exploded one may be mines (shown mines,
    flags, and games that show flagged mines their own way). Looks in ``not_exploded``
    (seen on two squares of one frame of the same skin) are never the exploded mine.
    A frame with more than :data:`MAX_READINGS` readings to try gets none (a look per
    square edge variant, as Google's board draws them, made 3.9 million: calibrate
    --from ran for over 15 minutes); the largest of the fixtures is 56 000. So does
    a frame with more unnamed looks than any reading can explain
    (:func:`most_unknown_looks`), and one whose search the time limit cuts short
    (:class:`Budget`).
    """
    f = _Frame.of(ids)
    known_here = {look: code for look, code in known.items() if look in f.sizes}
    covered_opts = [lk for lk, c in known_here.items() if c == COVERED] or \
        sorted((lk for lk in f.present if lk not in known_here), key=lambda lk: -f.sizes[lk])
    forced = [lk for lk, c in known_here.items() if c in (MINE, FLAG)]
    budget = _budget()
    if len(f.present) - len(known_here) > most_unknown_looks(max_extra - len(forced)):
        budget.note(LEFT_TOO_MANY_LOOKS, _frame_key(ids))
        return []
    if _readings_to_try(f, known_here, covered_opts, clicked, max_extra - len(forced),
                        not_exploded) > MAX_READINGS:
        return []
    out = []
    for cov in covered_opts:
        covered_near = f.touching(f.adj[cov] > 0)
        for exp in _exploded_options(f, known_here, cov, clicked, not_exploded):
            free = [lk for lk in f.present if lk not in (cov, exp) and lk not in known_here]
            for k in range(max_extra + 1 - len(forced)):
                for extra in itertools.combinations(free, k):
                    hyp = _try(f, known_here, cov, exp, (*forced, *extra), covered_near)
                    if hyp is not None:
                        out.append(hyp)
            if budget.spent(LEFT_NOT_READ, _frame_key(ids)):
                return []  # (a partial search could miss the best reading)
    out.sort(key=lambda h: -h.score)
    return out


MAX_READINGS = 500_000
"""Most readings :func:`loss_hypotheses` tries on one frame."""

MAX_ODD = 3
"""Most looks a loss reading may leave unexplained (see :func:`_score`)."""


def _frame_key(ids: IdGrid) -> int:
    """A key telling frames apart (for :meth:`Budget.note`)."""
    return hash((ids.shape, ids.tobytes()))


def most_unknown_looks(extra: int) -> int:
    """The most looks not yet named that a lost frame can show and still have a
    reading: each is the covered look, the exploded one, one of ``extra`` more mine
    looks, one number of 0 to 8 (two new looks with one count: one of them is left
    unexplained), or one of :data:`MAX_ODD` unexplained looks. A JPEG makes a look
    of its own of many noisy copies of a square (WineMine at quality 75: 28 looks on
    one lost board); no reading fits those, and trying each took a minute.

    >>> most_unknown_looks(3)
    17
    """
    return 2 + extra + 9 + MAX_ODD


def _readings_to_try(f: _Frame, known: Mapping[int, int], covered_opts: Sequence[int],
                     clicked: Cell | None, extra: int, not_exploded: Collection[int]) -> int:
    """How many readings :func:`loss_hypotheses` would try (a covered look, an
    exploded one, up to ``extra`` more mine looks among the looks left)."""
    total = 0
    for cov in covered_opts:
        free = sum(1 for lk in f.present if lk != cov and lk not in known) - 1
        ways = sum(math.comb(max(free, 0), k) for k in range(extra + 1))
        total += ways * len(_exploded_options(f, known, cov, clicked, not_exploded))
    return total


def _exploded_options(f: _Frame, known: Mapping[int, int], cov: int,
                      clicked: Cell | None, not_exploded: Collection[int] = ()) -> list[int]:
    if clicked is not None:
        look = int(f.ids[clicked])
        return [] if look == cov else [look]
    named = [lk for lk, c in known.items() if c == EXPLODED]
    if named:
        return named
    return [lk for lk in f.present if f.sizes[lk] == 1 and lk != cov and lk not in known
            and lk not in not_exploded]


_NOT_NUMBERS = frozenset((QUESTION, WRONG_FLAG, COVERED))


def _try(f: _Frame, known: Mapping[int, int], cov: int, exp: int, mines: tuple[int, ...],
         covered_near: Sequence[bool]) -> LossHypothesis | None:
    counts = f.adj[exp] + sum((f.adj[m] for m in mines), np.zeros_like(f.ids))
    taken = {cov, exp, *mines}
    rest = [lk for lk in f.present if lk not in taken and known.get(lk) not in _NOT_NUMBERS]
    checked = _check_numbers(f, rest, counts, covered_near, known)
    if checked is None:
        return None
    numbers, odd = checked
    if not numbers or max(numbers.values()) == 0:
        return None  # a mine layout that touches no revealed square explains nothing
    numbers, odd, pairs = _split_duplicates(f, numbers, odd, known)
    anchored = known.get(cov) == COVERED and known.get(exp) == EXPLODED
    score = _score(f, numbers, odd, known, anchored)
    if score is None:
        return None
    # a look is called a mine only when some number counts it; the others stay unnamed
    shown = np.isin(f.ids, [lk for lk, v in numbers.items() if v > 0])
    counted = tuple(m for m in mines if m in known or bool(shown[f.adj[m] > 0].any()))
    dupes = tuple((lk, to) for lk, to in pairs if f.sizes[lk] > 1)
    return LossHypothesis(cov, exp, counted, numbers, score, tuple(odd), dupes)


def best_loss_readings(ids: IdGrid, known: Mapping[int, int], clicked: Cell | None = None,
                       not_exploded: Collection[int] = (), others: Sequence[IdGrid] = (),
                       not_mines: Collection[int] = ()) -> list[LossHypothesis]:
    """Every reading of :func:`loss_hypotheses` with the best score ([] if none); of
    those, the ones whose covered look has the most squares (a look on a few squares
    that fits as well is a mark: a lone wrong flag whose neighbours count no mine).
    Each reading is first checked against ``others``, frames of the same skin and
    cell size (:func:`_against_others`). Looks in ``not_mines`` (plain squares, with
    no glyph: see :func:`vision.ink.inkless`) are never a mine: a game in play fits
    as a loss with its covered squares for mines."""
    hyps = [h for h in loss_hypotheses(ids, known, clicked, not_exploded=not_exploded)
            if not set(not_mines) & {h.exploded, *h.mines}]
    if others:
        support: Counter[int] = Counter()  # squares of each look, over all the frames
        for frame in (ids, *others):
            looks, sizes = np.unique(frame, return_counts=True)
            support.update(dict(zip(looks.tolist(), sizes.tolist(), strict=True)))
        hyps = [r for h in hyps
                if (r := _against_others(h, ids, known, others, support)) is not None]
        hyps.sort(key=lambda h: -h.score)
    best = [h for h in hyps if h.score == hyps[0].score] if hyps else []
    # and every reading that names the same numbers on the same covered look: it
    # differs only in which looks it takes for mines and which for marks, and leaving
    # a mark unexplained is no evidence against it (the score counts it so)
    same = {(h.covered, tuple(sorted(h.numbers.items()))) for h in best}
    best += [h for h in hyps if h.score != hyps[0].score
             and (h.covered, tuple(sorted(h.numbers.items()))) in same]
    size = {h.covered: int((ids == h.covered).sum()) for h in best}
    return [h for h in best if size[h.covered] == max(size.values())]


def _against_others(h: LossHypothesis, ids: IdGrid, known: Mapping[int, int],
                    others: Sequence[IdGrid], support: Mapping[int, int],
                    ) -> LossHypothesis | None:
    """``h`` with the number names the ``others`` frames contradict taken back (those
    looks left unexplained) and scored again; None when what is left explains nothing.

    A dense loss (WineMine 9x9 with 30 mines) also fits with the covered and the mine
    looks swapped, naming more numbers than the right reading; a frame of the same game
    in play refutes every one of those numbers (each would touch more shown mines than
    it says). The least seen names go first (:func:`impossible_numbers`): a question
    mark that happens to count 3 is no 3, and the 1 beside it stays a 1."""
    names = {**known, **_reading_names(h, ids, known)}
    bad = set(impossible_numbers(others, names, support)) & set(h.numbers)
    if not bad:
        return h
    numbers = {lk: v for lk, v in h.numbers.items() if lk not in bad}
    odd = (*h.odd, *sorted(bad))
    if not numbers or max(numbers.values()) == 0:
        return None
    anchored = known.get(h.covered) == COVERED and known.get(h.exploded) == EXPLODED
    score = _score(_Frame.of(ids), numbers, odd, known, anchored)
    return None if score is None else replace(h, numbers=numbers, odd=odd, score=score)


def anchored_beside(readings: Sequence[LossHypothesis],
                    known: Mapping[int, int]) -> list[LossHypothesis]:
    """Of the loss readings of a board with a window over part of it (:data:`HIDDEN`),
    those whose covered look is named covered already and that count some number
    named already; [] if any reading does not (then no reading is taken). Beside a
    window, where the squares next to it only bound their numbers, a reading from
    nothing named fits wrongly as well as rightly: Windows 7's lost board with one
    row left above the dialog took its wrong flag for a 2 (it touched two mines), and
    Google's took its 1s for 3s and 2s.

    >>> h = LossHypothesis(0, 3, (1,), {2: 1}, 5.0)
    >>> len(anchored_beside([h], {0: COVERED, 2: 1})), len(anchored_beside([h], {0: COVERED}))
    (1, 0)
    """
    ok = [h for h in readings if known.get(h.covered) == COVERED
          and any(known.get(lk) == v for lk, v in h.numbers.items())]
    return ok if len(ok) == len(readings) else []


def no_hit_mine(readings: Sequence[LossHypothesis]) -> bool:
    """Do equally good loss readings of a frame disagree on the hit mine? A won board
    fits as a loss too when it shows no covered square (its opened 0s taken for the
    covered look, its flags for the mines), but nothing marks a hit mine there: a
    look on one square (a square a dialog cuts) is as good as another.

    >>> a, b = LossHypothesis(0, 1, (4,), {2: 1}, 3.0), LossHypothesis(0, 7, (4,), {2: 1}, 3.0)
    >>> no_hit_mine([a, b]), no_hit_mine([a, a])
    (True, False)
    """
    return len({h.exploded for h in readings}) > 1


def label_loss_frame(ids: IdGrid, known: Mapping[int, int], clicked: Cell | None = None,
                     not_exploded: Collection[int] = ()) -> dict[int, int] | None:
    """Names for the looks in a lost-game frame (look -> cell code), or None when no
    reading fits (the frame does not show a lost game). When several readings fit
    equally well, only the names they all give (see :func:`agreed_names`).

    Extra mine looks: a known flag look stays a flag; of two unknown ones, the one with
    more squares is the shown mine and the other a flag (a player flags only some)."""
    readings = best_loss_readings(ids, known, clicked, not_exploded)
    return agreed_names(readings, ids, known) if readings else None


def agreed_names(readings: Sequence[LossHypothesis], ids: IdGrid,
                 known: Mapping[int, int]) -> dict[int, int]:
    """The names every one of ``readings`` gives (a look two equally good readings name
    differently, say the hit mine and a lone wrong flag that touches no number, stays
    unnamed: neither name is evidence).

    >>> h = LossHypothesis(0, 3, (1,), {2: 1}, 1.0)
    >>> ids = np.array([[1, 2, 0], [2, 2, 3]])
    >>> agreed_names([h], ids, {}) == {0: COVERED, 3: EXPLODED, 2: 1, 1: MINE}
    True
    >>> agreed_names([h, LossHypothesis(0, 1, (3,), {2: 1}, 1.0)], ids, {})
    {0: -1, 2: 1}
    """
    first, *rest = [_reading_names(h, ids, known) for h in readings]
    return {lk: code for lk, code in first.items() if all(n.get(lk) == code for n in rest)}


def _reading_names(h: LossHypothesis, ids: IdGrid, known: Mapping[int, int]) -> dict[int, int]:
    names: dict[int, int] = {h.covered: COVERED, h.exploded: EXPLODED, **h.numbers}
    unnamed = [lk for lk in h.mines if known.get(lk) not in (MINE, FLAG)]
    for lk in h.mines:
        if lk in known:
            names[lk] = known[lk]
    has_mine = any(known.get(lk) == MINE for lk in h.mines)
    unnamed.sort(key=lambda lk: -int((ids == lk).sum()))
    if unnamed and not has_mine:
        names[unnamed[0]] = MINE  # (the most squares)
    flags = unnamed if has_mine else unnamed[1:]
    if len(flags) == 1:
        names[flags[0]] = FLAG
    # (with two or more, the frame cannot tell a flag from a mine the game draws its own
    # way: gnome-mines' question-marked mine at a loss; see :func:`name_mine_looks`)
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

    def settled(self, share: float = 0.75) -> dict[int, int]:
        """Each look's name, if at least ``share`` of its votes agree (a look whose
        votes disagree, e.g. a covered square's variant counted like a number, stays
        unnamed)."""
        out = {}
        for look, c in self.by_look.items():
            if c:
                code, n = c.most_common(1)[0]
                if n >= share * sum(c.values()):
                    out[look] = code
        return out

    def conflicts(self) -> dict[int, Counter[int]]:
        """Looks with more than one proposed name (for a warning)."""
        return {look: c for look, c in self.by_look.items() if len(c) > 1}


# --------------------------------------------------------------------------- learning

STATE_ORDER: tuple[int, ...] = (COVERED, *range(9), FLAG, QUESTION, MINE, EXPLODED, WRONG_FLAG)
"""Every state a skin can hold, in contact-sheet order."""


def fit_size(img: Image, size: tuple[int, int]) -> Image:
    """``img`` resized to ``size`` (width, height) if it is not that size already."""
    if (img.shape[1], img.shape[0]) == size:
        return img
    return np.asarray(cv2.resize(img, size, interpolation=cv2.INTER_AREA), dtype=np.uint8)


@dataclass
class Learner:
    """Looks and their names, gathered over many frames of one game's skin.

    ``size`` is the template size (width, height); cells of boards at another pitch are
    resized to it. Names come from :meth:`add_loss` (game logic) and :meth:`name`
    (experiments); a base skin's templates can be given names up front with
    :meth:`seed`. ``not_exploded``: looks seen on two or more squares of one frame
    (a game shows the mine that was hit on one square only), never read as it.
    """

    size: tuple[int, int]
    bank: CellBank = field(default_factory=CellBank)
    votes: Votes = field(default_factory=Votes)
    odd: set[int] = field(default_factory=set)
    not_exploded: set[int] = field(default_factory=set)
    alias: dict[int, int] = field(default_factory=dict)
    """Looks a game's end drew anew -> the look their squares had before (see
    :meth:`unpaint`); each has the latter's name."""
    repaints: set[tuple[int, int]] = field(default_factory=set)
    """(look before, look after) of the squares a game's end drew anew."""
    _shade_memo: dict[tuple[int, int], bool] = field(default_factory=dict)
    _ink_memo: dict[tuple[int, int], bool] = field(default_factory=dict)
    _spill_memo: dict[tuple[int, int], tuple[int, int] | None] = field(default_factory=dict)
    _gap_memo: dict[tuple[int, int], tuple[int, int, int] | None] = field(
        default_factory=dict)
    context: tuple[IdGrid, ...] = ()
    """Other frames of the skin at this cell size (``calibrate --from``): a lost frame's
    reading must not contradict them (:func:`best_loss_readings`)."""
    dupes: dict[int, set[int]] = field(default_factory=dict)
    """Looks a loss reading left unexplained though they count on each of their
    squares the number of another look -> those looks (:attr:`LossHypothesis.dupes`;
    see :func:`no_mark`)."""
    mine_looks: set[int] = field(default_factory=set)
    """Looks a loss reading counts as shown mines without telling a flag from a mine
    (:func:`_reading_names`); :func:`name_mine_looks` names them."""
    seeded: dict[int, Counter[int]] = field(default_factory=dict)
    """The votes of each look that came from :meth:`seed` (templates of a skin or of
    another cell size), not from this learner's frames; see :meth:`seed_named`."""
    seeded_hits: Counter[int] = field(default_factory=Counter)
    """How many of each look's sightings were seeded templates, not squares."""
    unsettled: set[int] = field(default_factory=set)
    """Named looks :meth:`known` leaves unnamed after all (see
    :func:`unsettle_seeded`)."""

    def seed(self, cells: Mapping[int, Sequence[Image]], weight: int = 50) -> None:
        """Start from an existing skin's templates (each counts ``weight`` votes)."""
        for code, images in cells.items():
            for img in images:
                look = self.bank.classify(fit_size(img, self.size))
                self.votes.add(look, code, weight)
                self.seeded.setdefault(look, Counter())[code] += weight
                self.seeded_hits[look] += 1

    def seed_named(self, seen: bool = True) -> dict[int, int]:
        """The named looks whose name only seeded templates gave (no vote for it from
        the frames' game logic) that were seen on this learner's boards (``seen``) or
        only among the seeded templates (not ``seen``)."""
        votes = self.votes.by_look
        return {look: code for look, code in self.known().items()
                if look in votes and votes[look][code] <= self.seeded.get(look, Counter())[code]
                and (self.bank.counts[look] > self.seeded_hits[look]) == seen}

    def ids(self, image: Image, g: BoardGeometry,
            hidden: npt.NDArray[np.bool_] | None = None) -> IdGrid:
        """The look of every cell of board ``g`` in ``image``; :data:`HIDDEN` on the
        squares set in ``hidden`` (a window's: see :func:`drop_window_over`)."""
        out = np.full((g.rows, g.cols), HIDDEN, np.int32)
        for r in range(g.rows):
            for c in range(g.cols):
                if hidden is None or not hidden[r, c]:
                    out[r, c] = self.bank.classify(fit_size(cut(image, g, (r, c)), self.size))
        shown = out != HIDDEN
        out[shown] = self.bank.unmerged(out[shown])
        return out

    def unpaint(self, before: IdGrid, after: IdGrid, share: float = 0.9,
                tol: float = 1.0) -> IdGrid:
        """``after`` with the squares a game's end drew anew as they were in ``before``.

        When at least ``share`` of the squares open in ``before`` (every look not named
        covered, flag or question) show in ``after`` their glyph on another background
        (:func:`repaint_distance` within ``tol``; gnome-mines' default and
        classic themes tint every open square and darken every covered one at a loss),
        or, where that explains more squares, show them dimmed, glyph and all
        (:func:`dimmed_pairs`: kivy-mines-package disables every button), every such
        pair of looks (before, after) is noted in :attr:`repaints` and restored (see
        :func:`restore`): the loss then shows changed only the squares it reveals.
        Each look new to the board (named nothing) has from now on the name of
        the look most of its squares had before (:attr:`alias`), so a lost board reads
        whole; a look already named keeps its name (the tinted 0 looks like
        gnome-mines' highlighted covered tile). The pairs noted at earlier ends are
        restored in every frame (a square turns from one look of a pair into the other
        only at an end).

        >>> learner = Learner((12, 12))
        >>> grey, dark = np.full((12, 12, 3), 180, np.uint8), np.full((12, 12, 3), 130, np.uint8)
        >>> one, one_dark = grey.copy(), dark.copy()
        >>> one[3:9, 5:7] = one_dark[3:9, 5:7] = 20
        >>> covered, opened, covered_dark, opened_dark = (
        ...     learner.bank.classify(img) for img in (grey, one, dark, one_dark))
        >>> learner.name(covered, COVERED)
        >>> before = np.array([[covered, opened]], np.int32)
        >>> learner.unpaint(before, np.array([[covered_dark, opened_dark]], np.int32)).tolist()
        [[0, 1]]
        >>> learner.alias == {covered_dark: covered, opened_dark: opened}
        True
        >>> learner.known()[covered_dark] == COVERED
        True
        """
        after = self.unspill(before, after)
        after = self.ungap(before, after)
        known = self.known()
        shown = ~np.isin(before, [lk for lk, c in known.items() if c in UNREVEALED])
        changed = before != after
        if not shown.any() or ((changed & shown).sum() < share * shown.sum() and
                               not self._glyphs_repainted(before, changed, shown, share)):
            # (open squares never change in play: the usual move ends here)
            return restore(before, after, self.repaints) if self.repaints else after
        pairs = Counter(zip(before[changed].tolist(), after[changed].tolist(), strict=True))
        same = {pair: n for pair, n in pairs.items() if self._same_ink(*pair, tol)}
        dim = dimmed_pairs(self.bank.looks, pairs, self.bank.tol)  # (Kivy's: glyphs too)
        if not dim:  # (the open squares' alone: the Java game's grey numbers at a loss,
            opened = changed & shown  # its covered squares shown, not dimmed)
            dim = dimmed_pairs(self.bank.looks, Counter(zip(
                before[opened].tolist(), after[opened].tolist(), strict=True)), self.bank.tol)
        if sum(dim.values()) > sum(same.values()):
            same = dim
        if (restore(before, after, same) == before)[shown].sum() < share * shown.sum():
            return restore(before, after, self.repaints)
        self.repaints.update(same)
        for was, now in sorted(same, key=lambda p: -same[p]):
            if now not in self.alias and now not in known:
                self.alias[now] = was  # (the most squares' earlier look first)
        return restore(before, after, same)

    def _glyphs_repainted(self, before: IdGrid, changed: npt.NDArray[np.bool_],
                          shown: npt.NDArray[np.bool_], share: float) -> bool:
        """Did ``share`` of the open squares with a glyph (four at least) change, and no
        plain open square? A Java game (ikokkari's ``Minesweeper.java``) draws its
        numbers black in play and dark grey once a loss shows the whole board, its 0s
        as they were: its skin knew only the grey numbers, and play met the black ones
        as looks it could not name."""
        if int((changed & shown).sum()) < 4:
            return False  # (the usual move: open squares never change in play)
        inked = shown & np.isin(before, [lk for lk in np.unique(before[shown]).tolist()
                                         if not inkless(self.bank.mean_image(int(lk)))])
        return int(inked.sum()) >= 4 and int((changed & inked).sum()) >= share * inked.sum() \
            and not (changed & shown & ~inked).any()

    def ungap(self, before: IdGrid, after: IdGrid) -> IdGrid:
        """``after`` with the squares whose look changed only in the band round them,
        to one new colour on at least :data:`GAP_SHARE` of the board
        (:func:`ring_recolour`: PyMines turns the gap between its tiles from white to
        red at a loss, on every square, covered or open, even when nothing was open
        yet), back at their look in ``before``. Such pairs are noted in
        :attr:`repaints` and the new look gets the earlier look's name
        (:attr:`alias`), unless it has another name already: the loss then shows
        changed only the squares it reveals.

        >>> learner = Learner((22, 22))
        >>> white = np.full((22, 22, 3), 250, np.uint8); white[3:19, 3:19] = 160
        >>> red = white.copy(); red[:3] = red[19:] = red[:, :3] = red[:, 19:] = (0, 0, 250)
        >>> mine = red.copy(); mine[8:14, 8:14] = 0
        >>> c, r, m = (learner.bank.classify(img) for img in (white, red, mine))
        >>> learner.name(c, COVERED)
        >>> learner.ungap(np.array([[c, c, c]]), np.array([[r, m, r]])).tolist()
        [[0, 2, 0]]
        >>> learner.known()[r] == COVERED
        True
        """
        changed = before != after
        if int(changed.sum()) < GAP_SHARE * before.size:
            return after
        pairs = Counter(zip(before[changed].tolist(), after[changed].tolist(), strict=True))
        by_colour: dict[tuple[int, ...], list[tuple[int, int]]] = {}
        for pair in pairs:
            if pair not in self._gap_memo:
                looks = self.bank.looks
                self._gap_memo[pair] = ring_recolour(looks[pair[0]], looks[pair[1]])
            colour = self._gap_memo[pair]
            if colour is not None:
                by_colour.setdefault(tuple(v // 32 for v in colour), []).append(pair)
        gap = max(by_colour.values(), key=lambda ps: sum(pairs[p] for p in ps), default=[])
        if sum(pairs[p] for p in gap) < GAP_SHARE * before.size:
            return after
        known = self.known()
        for was, now in sorted(gap, key=lambda p: -pairs[p]):
            self.repaints.add((was, now))
            if now not in self.alias and now not in known:
                self.alias[now] = was
        return restore(before, after, gap)

    def unspill(self, before: IdGrid, after: IdGrid) -> IdGrid:
        """``after`` with the squares that changed only where a neighbour's new look
        spills over their edge back at their look in ``before``: the pair of looks
        (before, after) differs only in a band along one edge (:func:`spill_side`) and
        the square across that edge changed too (kmines' graveyard-mayhem draws a shown
        mine's zombie a few pixels into the square above: those covered squares were
        named mine). Such pairs are noted in :attr:`repaints` (restored in later frames)
        and the new look gets the earlier look's name (:attr:`alias`), unless it has
        another name already.

        >>> learner = Learner((12, 12))
        >>> covered = np.full((12, 12, 3), 120, np.uint8)
        >>> mine = covered.copy(); mine[2:12, 3:9] = 20
        >>> spilt = covered.copy(); spilt[10:, 4:8] = 20     # the mine's head, above it
        >>> c, m, s = (learner.bank.classify(img) for img in (covered, mine, spilt))
        >>> learner.name(c, COVERED)
        >>> learner.unspill(np.array([[c], [c]]), np.array([[s], [m]])).tolist()
        [[0], [1]]
        >>> learner.known()[s] == COVERED
        True
        """
        changed = before != after
        if not changed.any():
            return after
        known = self.known()
        found = set()
        for was, now in set(zip(before[changed].tolist(), after[changed].tolist(), strict=True)):
            if now in known and known[now] != known.get(was):
                continue
            if (was, now) not in self._spill_memo:
                self._spill_memo[(was, now)] = self._spill_of(was, now)
            side = self._spill_memo[(was, now)]
            if side is not None and _spilt_on(before, after, was, now, side):
                found.add((was, now))
        for was, now in found:
            self.repaints.add((was, now))
            if now not in self.alias and now not in known:
                self.alias[now] = was
        return restore(before, after, found) if found else after

    def _spill_of(self, was: int, now: int) -> tuple[int, int] | None:
        """The side along which look ``now`` is look ``was`` with a neighbour spilt
        over its edge (:func:`spill_side`), judged on its first image and on the other
        images seen of it: one look may gather the spill alone and the spill beside
        the edge of a window over the board (kmines' graveyard-mayhem at a loss: the
        zombie's head in the covered square above it, first seen next to the dialog's
        edge; that look was named mine)."""
        images = [self.bank.looks[now], *self.bank._samples[now]]
        sides = (spill_side(self.bank.looks[was], img) for img in images)
        return next((side for side in sides if side is not None), None)

    def name_flagged(self, before: IdGrid, after: IdGrid, near: float = 20.0) -> list[int]:
        """Name the flags a game placed itself at a win (gnome-mines flags every mine
        left): squares covered in ``before`` that show in ``after`` a look of no name,
        while others turned into a named flag, hold the flag drawn another way (at a
        sub-pixel phase not seen yet), when a flag is the named look nearest to it and
        within ``near`` (gnome-mines classic's flag at two phases: 4.4; a piece of a
        dialog over the board is no flag). Returns the looks named.

        >>> learner = Learner((12, 12))
        >>> covered = np.full((12, 12, 3), 180, np.uint8)
        >>> flag = covered.copy(); flag[3:7, 4:9] = (0, 0, 230)
        >>> other = covered.copy(); other[3:7, 4:9] = (0, 40, 180)   # another phase
        >>> c, f, o = (learner.bank.classify(img) for img in (covered, flag, other))
        >>> learner.name(c, COVERED); learner.name(f, FLAG)
        >>> learner.name_flagged(np.array([[c, c, c]]), np.array([[f, o, c]])) == [o]
        True
        """
        known = self.known()
        turned = np.isin(before, [lk for lk, code in known.items() if code == COVERED])
        turned &= before != after
        flags = [lk for lk, code in known.items() if code == FLAG]
        if not flags or not np.isin(after[turned], flags).any():
            return []
        looks = self.bank.looks
        named = []
        for look in sorted({int(lk) for lk in after[turned]} - set(known)):
            dist = {lk: look_distance(looks[lk], looks[look]) for lk in known
                    if looks[lk].shape == looks[look].shape}
            nearest = min(dist, key=dist.__getitem__, default=None)
            if nearest is not None and known[nearest] == FLAG and dist[nearest] <= near:
                self.name(look, FLAG, weight=2)
                named.append(look)
        return named

    def _same_ink(self, a: int, b: int, tol: float) -> bool:
        """Are looks ``a`` and ``b`` one glyph on two backgrounds?"""
        if (a, b) not in self._ink_memo:
            looks = self.bank.looks
            self._ink_memo[(a, b)] = repaint_distance(looks[a], looks[b]) <= tol
        return self._ink_memo[(a, b)]

    def known(self, by_shade: bool = True) -> dict[int, int]:
        """Each look's name, once it has at least two votes' worth of evidence (a
        look seen once, on one square, in a frame read without anchors stays unnamed:
        the reader then leaves it unknown rather than misread it). A look with no
        votes at all that differs from named looks of one state only by its
        background's shade has their name (see :func:`vision.shade.spread_names`;
        not with ``by_shade`` False), and a look a game's end drew anew the name of
        the look it was (:meth:`unpaint`)."""
        from vision.shade import spread_names

        names = {look: code for look, code in self.votes.settled().items()
                 if sum(self.votes.by_look[look].values()) >= 2}
        shaded = spread_names(self.bank.looks, names, set(self.votes.by_look),
                              self._shade_memo) if by_shade else {}
        if self.bank.strict:  # (not a 4 for a 3 of one-pixel strokes on 12 px squares)
            looks = self.bank.looks
            shaded = {lk: code for lk, code in shaded.items()
                      if any(shifted_mismatch(looks[lk], looks[other]) < 3
                             and not faint_line_apart(looks[lk], looks[other])
                             for other, named in names.items() if named == code)}
        out = {**shaded, **names}
        out.update({lk: out[to] for lk, to in self.bank.merged.items() if to in out})
        out = {**{lk: out[was] for lk, was in self.alias.items() if was in out}, **out}
        return {lk: code for lk, code in out.items() if lk not in self.unsettled}

    def name(self, look: int, code: int, weight: int = 10) -> None:
        self.votes.add(look, code, weight)

    def add_loss(self, ids: IdGrid, clicked: Cell | None = None) -> dict[int, int] | None:
        """Name looks from a frame that may show a lost game; the names, or None.
        Looks the reading leaves unexplained (wrong flags, question marks) are noted
        in ``odd``."""
        known = self.known()
        others = [frame for frame in self.context if frame is not ids]
        plain = [int(lk) for lk in np.unique(ids)
                 if lk != HIDDEN and inkless(self.bank.mean_image(int(lk)))]
        readings = best_loss_readings(ids, known, clicked, self.not_exploded, others,
                                      not_mines=plain)
        beside = bool((ids == HIDDEN).any())  # (a window over part of the board)
        if beside:
            readings = anchored_beside(readings, known)
        if not readings:
            return self._solve_loss(ids, known) if clicked is None and not beside else None
        if clicked is None and no_hit_mine(readings) and \
                (beside or win_numbers(ids, known, others, alike=self.one_glyph)):
            return None  # a won board (behind a dialog that cuts some squares)
        names = agreed_names(readings, ids, known)
        # a look every equally good reading leaves unexplained is a mark
        self.odd.update(set.intersection(*(set(h.odd) for h in readings)))
        for h in readings:
            for look, to in h.dupes:
                self.dupes.setdefault(look, set()).add(to)
        # one every reading counts as a mine but none names (see :func:`name_mine_looks`)
        self.mine_looks.update(set.intersection(*(set(h.mines) for h in readings)) - set(names))
        anchored = all(known.get(h.covered) == COVERED and known.get(h.exploded) == EXPLODED
                       for h in readings)
        for look, code in names.items():
            # one square of a look read by a guessed reading is weak evidence
            strong = anchored or int((ids == look).sum()) > 1
            self.votes.add(look, code, 2 if strong else 1)
        return names

    def twins(self, a: int, b: int) -> bool:
        """Are looks ``a`` and ``b`` one look that a JPEG's noise drew apart (their mean
        images within :data:`TWIN_TOL`)?"""
        img_a, img_b = self.bank.mean_image(a), self.bank.mean_image(b)
        return img_a.shape == img_b.shape and look_distance(img_a, img_b) <= TWIN_TOL

    def one_glyph(self, a: int, b: int) -> bool:
        """Could looks ``a`` and ``b`` be one glyph: their mean images, or their glyphs
        alone on any two backgrounds (:func:`vision.shade.ink_distance`: a checkered
        board's numbers on both shades), within :data:`GLYPH_TOL`?"""
        from vision.shade import ink_distance

        img_a, img_b = self.bank.mean_image(a), self.bank.mean_image(b)
        return img_a.shape == img_b.shape and min(
            look_distance(img_a, img_b), ink_distance(img_a, img_b)) <= GLYPH_TOL

    def shows_any(self, frame: IdGrid, looks: Collection[int]) -> bool:
        """Does ``frame`` show one of ``looks`` or a twin of one (:meth:`twins`)? A
        JPEG's other lost game shows its hit mine (one square) as a look of its own,
        a twin of this one's (gnome-mines at quality 90: mine looks then taken for
        flags)."""
        return any(lk in looks or any(self.twins(lk, m) for m in looks)
                   for lk in np.unique(frame).tolist())

    def _solve_loss(self, ids: IdGrid, known: Mapping[int, int]) -> dict[int, int] | None:
        """Names from :func:`solve_loss_mines` (no reading of :func:`loss_hypotheses`
        fits: more covered or mine looks than it tries). A mine look some other frame
        shows without the other mine looks is a flag (placed in play), the others mines. The
        looks no choice makes mines stay unnamed (a number not named yet is one), and so
        does a mine look (no flag) on one square that may be the hit mine (no look named
        exploded shows, and it is not in :attr:`not_exploded`)."""
        mines = solve_loss_mines(ids, known)
        if mines is None:
            return None
        names: dict[int, int] = {}
        hit_seen = any(known.get(int(lk)) == EXPLODED for lk in np.unique(ids))
        shown_mine = [int(lk) for lk in np.unique(ids) if known.get(int(lk)) == MINE]
        for look in mines:
            # (a JPEG draws one look as a few, its twins: a frame shows a mine look
            # alone when it shows no other mine look, nor a twin of one)
            rest = [m for m in mines if m != look and not self.twins(m, look)]
            hit = [m for m in rest if int((ids == m).sum()) == 1]
            alone = any(bool((frame == look).any()) and not np.isin(frame, rest).any()
                        and not self.shows_any(frame, hit)
                        for frame in self.context if frame is not ids)
            # (not the lost frame itself: with one mine look, it shows that alone;
            # gnome-mines' custom 9x9 loss at JPEG quality 90 named its mines flags)
            if not alone and not hit_seen and look not in self.not_exploded \
                    and int((ids == look).sum()) == 1:
                continue  # (the hit mine or a mine: one square cannot tell; gnome-mines
                # scaled by 0.8, a hit mine named a mine, then read every hit mine so)
            if not alone and shown_mine and not any(self.twins(look, m) for m in shown_mine):
                self.mine_looks.add(look)  # (beside the named mine look, a flag or a
                continue  # mine drawn its own way: see name_mine_looks; gnome-mines'
                # flags at JPEG quality 75, shown only in a loss, were named mines)
            names[look] = FLAG if alone else MINE
        if any(contradicted_numbers(frame, {**known, **names}) for frame in self.context):
            return None  # (a game that leaves mines covered at a loss, or no loss)
        self.votes.add_all(names, 2)
        return names

    def add_win(self, ids: IdGrid) -> dict[int, int] | None:
        """Name looks from a frame that may show a won game (:func:`win_numbers`); the
        names, or None. Its unrevealed looks are named covered only when some frame
        shows nothing else (a new game)."""
        others = [frame for frame in self.context if frame is not ids]
        fit = win_numbers(ids, self.known(), others, alike=self.one_glyph)
        if fit is None:
            return None
        hidden, names = fit
        if fresh_looks(self.context, hidden):
            names.update({look: COVERED for look in hidden})
        for look, code in names.items():
            self.votes.add(look, code, 2)
        return names

    def codes(self, ids: IdGrid, unknown: int) -> npt.NDArray[np.int8]:
        """A knowledge array: each look's name, ``unknown`` for unnamed looks."""
        known = self.known()
        table = np.full(len(self.bank.looks), unknown, np.int8)
        for look, code in known.items():
            table[look] = code
        return table[ids]

    def templates(self) -> dict[int, tuple[Image, ...]]:
        """Every named look's images (see :meth:`CellBank.variants`), by state, the
        most seen look first. When open squares show in several grey shades (drawn
        over a shaded window), every number, the 0 and the mine also on each shade
        seen on an open square (see :func:`vision.shade.shaded_variants`)."""
        from vision.shade import background, shaded_variants

        out: dict[int, list[tuple[int, list[Image]]]] = {}
        known = self.known()
        for look, code in known.items():
            out.setdefault(code, []).append((self.bank.counts[look], self.bank.variants(look)))
        cells = {code: tuple(img for _, imgs in sorted(pairs, key=lambda p: -p[0])
                             for img in imgs) for code, pairs in out.items()}
        shown = (*range(9), MINE)  # drawn on an open square
        shades = [background(self.bank.mean_image(look)) for look, code in known.items()
                  if code in shown]
        for code, imgs in shaded_variants(cells, shades, shown).items():
            cells[code] = (*cells[code], *imgs)
        return cells

    def unnamed(self) -> list[int]:
        """Looks seen on a board but never named."""
        known = self.known()
        return [i for i in range(len(self.bank.looks)) if i not in known]


def missing_states(cells: Mapping[int, Sequence[Image]]) -> list[str]:
    """Names of the states with no template yet (7 and 8 are rare in real games).

    >>> missing_states({c: () for c in STATE_ORDER if c not in (7, 8)})
    ['7', '8']
    """
    return [STATE_NAMES[c] for c in STATE_ORDER if c not in cells]


def read_cells(image: Image, g: BoardGeometry, cells: Mapping[int, Sequence[Image]],
               tol: float = 1.0) -> npt.NDArray[np.int8]:
    """Read a board with templates, nearest look wins (UNKNOWN when none is within
    ``tol``, see :func:`look_distance`). Used to check a freshly learned skin; with no
    template every square is UNKNOWN.

    >>> read_cells(np.zeros((20, 20, 3), np.uint8), BoardGeometry("", 0, 0, 10, 10, 2, 2), {})
    array([[-7, -7],
           [-7, -7]], dtype=int8)
    """
    flat = [(code, img) for code, imgs in cells.items() for img in imgs]
    board = np.full((g.rows, g.cols), UNKNOWN, np.int8)
    if not flat:
        return board
    wh = (flat[0][1].shape[1], flat[0][1].shape[0])
    memo: dict[bytes, int] = {}
    for r in range(g.rows):
        for c in range(g.cols):
            crop = fit_size(cut(image, g, (r, c)), wh)
            key = crop.tobytes()
            if key not in memo:
                dists = [(look_distance(fit_size(img, wh), crop), code) for code, img in flat]
                best, code = min(dists)
                memo[key] = code if best <= tol else UNKNOWN
            board[r, c] = memo[key]
    return board


def contact_sheet(cells: Mapping[int, Sequence[Image]], title: str = "") -> Image:
    """One picture of every template with its state name under it (missing states as
    an empty, red-labelled box), for a person to check at a glance; looks left unnamed
    (``UNKNOWN``, if any) last, as "unknown"."""
    box, pad, label_h = 64, 10, 20
    rows = []
    for code in (*STATE_ORDER, *([UNKNOWN] if cells.get(UNKNOWN) else [])):
        imgs: list[Image | None] = [img for img in list(cells.get(code, ()))[:6]]
        if not imgs:
            imgs = [None]
        row = np.full((box + label_h + pad, 120 + len(imgs) * (box + pad), 3), 255, np.uint8)
        colour = (0, 0, 0) if code in cells else (0, 0, 200)
        cv2.putText(row, STATE_NAMES[code], (6, box // 2 + 8), cv2.FONT_HERSHEY_SIMPLEX,
                    0.6, colour, 1, cv2.LINE_AA)
        for i, img in enumerate(imgs):
            x = 120 + i * (box + pad)
            if img is None:
                cv2.rectangle(row, (x, 2), (x + box - 1, box + 1), (0, 0, 200), 1)
                cv2.putText(row, "not seen", (x + 2, box // 2 + 6), cv2.FONT_HERSHEY_SIMPLEX,
                            0.4, (0, 0, 200), 1, cv2.LINE_AA)
                continue
            scale = box / max(img.shape[:2])
            big = cv2.resize(img, (max(1, round(img.shape[1] * scale)),
                                   max(1, round(img.shape[0] * scale))),
                             interpolation=cv2.INTER_NEAREST)
            row[2:2 + big.shape[0], x:x + big.shape[1]] = big
        rows.append(row)
    width = max(480, *(r.shape[1] for r in rows))
    header = np.full((30, width, 3), 255, np.uint8)
    cv2.putText(header, title, (6, 21), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 1, cv2.LINE_AA)
    padded = [np.pad(r, ((0, 0), (0, width - r.shape[1]), (0, 0)), constant_values=255)
              for r in rows]
    return np.vstack([header, *padded])


@dataclass(frozen=True)
class Learned:
    """What :func:`learn_from_images` found: templates by state (all at ``size``),
    how many looks stayed unnamed, and each image's board (None: no board)."""

    cells: Mapping[int, tuple[Image, ...]]
    size: tuple[int, int]
    pitch: tuple[float, float]
    unnamed: int
    boards: tuple[BoardGeometry | None, ...]
    mine_counts: tuple[tuple[tuple[int, int], int], ...] = ()
    """``((rows, cols), mines)`` of each screenshot whose board proves its mine count
    (:func:`seen_mine_count`)."""
    left_out: tuple[tuple[str, int], ...] = ()
    """What the learning left out, and how many times (see :class:`Budget`)."""
    unnamed_looks: tuple[Image, ...] = ()
    """An image of each look seen on a board but left unnamed, at ``size``, but for those
    that are one look with a template (:func:`unnamed_images`)."""
    cut_images: tuple[int, ...] = ()
    """The images (by index) whose board shows cut by a window's edge or the screen's,
    not learned from (:data:`LEFT_CUT`); their ``boards`` are None."""
    window_images: tuple[int, ...] = ()
    """The images (by index) whose board has a window over part of it, not learned
    from (:data:`LEFT_WINDOW`); their ``boards`` are kept."""


def _learn_group(frames: Sequence[IdGrid], learner: Learner,
                 base: Mapping[int, Sequence[Image]], beside: Sequence[IdGrid] = ()) -> None:
    """Two passes over one cell size's frames: the biggest boards first, then every
    frame again knowing what the first pass learned; the exploded mine's look is
    narrowed over all frames first (see :func:`never_exploded`). ``beside``: frames
    with a window over part of the board (:data:`HIDDEN` squares), read last for a
    loss beside the window alone, knowing what the others named
    (:func:`anchored_beside`)."""
    learner.not_exploded |= never_exploded(frames)
    learner.context = tuple(frames)
    order = sorted(range(len(frames)), key=lambda k: -frames[k].size)
    for k in order:
        if learner.add_loss(frames[k]) is None:
            learner.add_win(frames[k])
    first, first_seeded = learner.votes, learner.seeded
    learner.votes, learner.seeded = Votes(), {}
    for look, code in first.settled().items():
        if sum(first.by_look[look].values()) >= 2:
            learner.votes.add(look, code, 2)
            if first.by_look[look][code] <= first_seeded.get(look, Counter())[code]:
                learner.seeded.setdefault(look, Counter())[code] += 2  # (a seeded name)
    learner.seed(base)
    lost = [learner.add_loss(frames[k]) is not None for k in order]
    won = [not was_lost and learner.add_win(frames[k]) is not None for k, was_lost
           in zip(order, lost, strict=True)]
    support = dict(enumerate(learner.bank.counts))
    for look, code in impossible_numbers(frames, learner.known(), support).items():
        learner.votes.by_look.get(look, Counter()).pop(code, None)  # for name_odd_looks
        learner.odd.add(look)
    in_play = [frames[k] for k, was_lost in zip(order, lost, strict=True) if not was_lost]
    for look in mines_named_flags([frames[k] for k in order], lost, learner.known()):
        if _twin_in(learner, look, in_play, FLAG):
            continue  # (a JPEG twin of a flag placed in play is a flag)
        learner.votes.by_look.get(look, Counter()).pop(FLAG, None)
        learner.name(look, MINE, weight=2)
    name_mine_looks(learner, [frames[k] for k in order], lost)
    name_odd_looks(learner, [frames[k] for k in order], lost)
    unread = [frames[k] for k, was_lost, was_won in zip(order, lost, won, strict=True)
              if not was_lost and not was_won]
    named, left = name_from_play(learner, unread)
    if named:
        read_again(learner, left, [ids for ids in unread if not any(ids is f for f in left)],
                   [frames[k] for k, was_won in zip(order, won, strict=True) if was_won])
    for ids in beside:
        learner.add_loss(ids)


def read_again(learner: Learner, frames: Sequence[IdGrid], in_play: Sequence[IdGrid],
               won: Sequence[IdGrid] = ()) -> None:
    """Read ``frames`` (no loss, no win read on them, and no game in play either: see
    :func:`name_from_play`) again as a loss, else as a win, now that the covered look
    and numbers are named: a loss that shows no hit mine of its own fits no reading
    before (:func:`Learner._solve_loss` then names its mine look). A look a win (of
    these or of ``won``) leaves unrevealed, not the covered look, that a frame still
    in play (``in_play``, or one of ``frames`` read as neither) shows too is a flag
    (:func:`flags_at_win`)."""
    won, in_play = list(won), list(in_play)
    for ids in frames:
        if learner.add_loss(ids) is None:
            (won if learner.add_win(ids) is not None else in_play).append(ids)
    for look in flags_at_win(won, in_play, learner.known(), learner.one_glyph):
        learner.name(look, FLAG, weight=2)


def flags_at_win(won: Sequence[IdGrid], in_play: Sequence[IdGrid], known: Mapping[int, int],
                 alike: Callable[[int, int], bool] | None = None) -> set[int]:
    """The looks not named that a won frame of ``won`` leaves unrevealed
    (:func:`win_numbers`) beside a look named covered, or with none shown (every mine
    flagged), and that a frame of ``in_play`` shows on fewer squares than the covered
    look: flags (a game in play shows no mine; a game that flags every mine at a win,
    as the pygame game of plain squares does, shows the flag the player places).

    >>> won = np.array([[9, 3, 9, 2, 1],      # 9: the flag on every mine, 1: a 0,
    ...                 [2, 3, 2, 2, 1],      # 2: a 1, 3: a 2
    ...                 [1, 1, 1, 2, 2],
    ...                 [1, 1, 1, 2, 9]])
    >>> playing = np.array([[9, 0, 0, 0, 0], [0, 0, 0, 0, 0], [1, 1, 1, 2, 0]])
    >>> flags_at_win([won], [playing], {0: COVERED})
    {9}
    >>> flags_at_win([won], [], {0: COVERED})
    set()
    """
    covered = {lk for lk, code in known.items() if code == COVERED}
    out: set[int] = set()
    for ids in won:
        fit = win_numbers(ids, known, [f for f in won if f is not ids], alike=alike)
        for look in fit[0] if fit is not None else ():
            if look in known:
                continue
            out |= {look for frame in in_play
                    if (frame == look).any() and covered & set(np.unique(frame).tolist())
                    and (frame == look).sum() < np.isin(frame, list(covered)).sum()}
    return out


def name_from_play(learner: Learner, frames: Sequence[IdGrid]) -> tuple[bool, list[IdGrid]]:
    """Name what the frames of games in play (no loss, no win read on them) settle by
    the game's logic alone (:func:`vision.in_play_labels.name_in_play`): the covered
    look, if none is named, and numbers; whether it named any, and the frames left out
    (below). A capture of a game in play named nothing before (no look named: "no look
    of a square could be named").

    When the frames together settle nothing, the names come from those that settle
    something each on its own, and the others are left out: a loss read as
    no loss (it shows no hit mine of its own, and no reading fits it before its
    numbers are named) fits no game in play. The pygame game of plain squares draws
    every mine, the one hit too, as one black disc: with its loss among them, its
    captures named nothing."""
    from vision.in_play_labels import name_in_play

    known = learner.known()
    if not any(lk not in known for ids in frames for lk in np.unique(ids).tolist()):
        return False, []
    if _budget().over():
        for ids in frames:
            _budget().note(LEFT_IN_PLAY, _frame_key(ids))
        return False, []
    names = name_in_play(frames, known, learner.bank.mean_image, alike=learner.one_glyph)
    left: list[IdGrid] = []
    if not names and len(frames) > 1:
        alone = [ids for ids in frames
                 if name_in_play([ids], known, learner.bank.mean_image, alike=learner.one_glyph)]
        if 0 < len(alone) < len(frames):
            names = name_in_play(alone, known, learner.bank.mean_image,
                                 alike=learner.one_glyph)
            left = [ids for ids in frames if not any(ids is a for a in alone)] if names else []
    for look, code in names.items():
        learner.name(look, code, weight=2)
    return bool(names), left


def name_mine_looks(learner: Learner, frames: Sequence[IdGrid], lost: Sequence[bool]) -> None:
    """Name the looks loss readings counted as shown mines but could not name
    (:attr:`Learner.mine_looks`: two or more besides the mine look in one reading):
    one that a frame of a game in play shows is a flag (a player places flags while
    playing; so is a JPEG twin of one, :func:`_twin_in`), and, once one is, one that
    only lost frames show is a mine the game draws its own way (as
    :func:`mines_named_flags`). With lost frames alone they stay unnamed: gnome-mines
    ``custom20x12_1000x650_lost`` shows the mine, a flag and a question-marked mine
    (a flag with a "?" on a mine's ground), and the last was named a flag."""
    known = learner.known()
    left = sorted(learner.mine_looks - set(known))
    if not left:
        return
    in_play = [ids for ids, was_lost in zip(frames, lost, strict=True) if not was_lost]
    shown = {int(v) for ids in in_play for v in np.unique(ids)}
    flags = [lk for lk in left if lk in shown]
    for look in flags:
        learner.name(look, FLAG, weight=2)
    if not flags and not any(code == FLAG and lk in shown for lk, code in known.items()):
        return
    for look in left:
        if look not in flags:
            learner.name(look, FLAG if _twin_in(learner, look, in_play, FLAG) else MINE,
                         weight=2)


def _twin_in(learner: Learner, look: int, frames: Sequence[IdGrid], code: int) -> bool:
    """Does one of ``frames`` show a look named ``code`` that is a JPEG twin of
    ``look`` (:meth:`Learner.twins`)? gnome-mines at quality 75: a flag seen only in
    lost games, a twin of one placed in play, was named a mine (47 wrong squares)."""
    known = learner.known()
    shown = {int(v) for ids in frames for v in np.unique(ids)}
    return any(known.get(lk) == code and lk != look and learner.twins(lk, look)
               for lk in shown)


def win_numbers(ids: IdGrid, known: Mapping[int, int], others: Sequence[IdGrid] = (),
                most: int = 2, alike: Callable[[int, int], bool] | None = None,
                ) -> tuple[tuple[int, ...], dict[int, int]] | None:
    """A won-game reading of frame ``ids``: the looks left unrevealed (one, or two: the
    two shades of a checkered board) hide exactly the mines, so every other look counts
    the same number of them on each of its squares. Returns (the unrevealed looks, each
    other look's number), or None when no choice of up to ``most`` looks fits, none
    shows two numbers above 0 each on two or more squares, or the fits disagree.
    A reading the ``others`` frames contradict (:func:`contradicted_numbers`) is no fit,
    nor one that gives two looks one number unless ``alike`` says they are one glyph
    (a JPEG's twins, a number on two shades; None: no two are): a game draws each
    number one way, and a lost 10x10 board with 80 mines (gnome-mines ``dense_lost_1``,
    its covered squares and mines taken for the hidden looks) fit as a win naming its
    7 and its hit mine 8, its 4 a 5.

    >>> ids = np.array([[1, 2, 0, 3, 2], [1, 2, 2, 3, 0], [1, 1, 1, 2, 2]])
    >>> win_numbers(ids, {})  # 0 hides the mines; 1 is a 0, 2 a 1, 3 a 2
    ((0,), {1: 0, 2: 1, 3: 2})
    >>> ids = np.array([[1, 2, 0, 3, 2], [1, 2, 4, 3, 0], [1, 1, 1, 2, 2]])
    >>> win_numbers(ids, {}), win_numbers(ids, {}, alike=lambda a, b: {a, b} == {2, 4})
    (None, ((0,), {1: 0, 2: 1, 3: 2, 4: 1}))
    """
    f = _Frame.of(ids)
    if any(known.get(lk) in (MINE, EXPLODED, WRONG_FLAG, QUESTION) for lk in f.present):
        return None
    hideable = [lk for lk in f.present if known.get(lk) in (None, COVERED, FLAG)]
    fits = [fit for k in range(1, most + 1) for hidden in itertools.combinations(hideable, k)
            if (fit := _win_fit(f, hidden, known, others, alike)) is not None]
    return fits[0] if len(fits) == 1 else None


def _win_fit(f: _Frame, hidden: tuple[int, ...], known: Mapping[int, int],
             others: Sequence[IdGrid], alike: Callable[[int, int], bool] | None = None,
             ) -> tuple[tuple[int, ...], dict[int, int]] | None:
    counts = sum((f.adj[h] for h in hidden), np.zeros_like(f.ids))
    numbers: dict[int, int] = {}
    for look in f.present:
        if look in hidden:
            continue
        values = counts[f.masks[look]]
        lo = int(values.min())
        if lo != int(values.max()) or known.get(look, lo) != lo:
            return None
        numbers[look] = lo
    if len({v for lk, v in numbers.items() if v > 0 and f.sizes[lk] > 1}) < 2:
        return None  # too little evidence
    if any(a < b and numbers[a] == numbers[b] and (alike is None or not alike(a, b))
           for a in numbers for b in numbers):
        return None  # two glyphs, one number
    names = {**known, **numbers, **{h: known.get(h, COVERED) for h in hidden}}
    if any(contradicted_numbers(frame, names) for frame in others):
        return None
    return hidden, numbers


def fresh_looks(frames: Iterable[IdGrid], looks: Collection[int]) -> bool:
    """Does one of ``frames`` show only ``looks`` (a new game: every square covered)?

    >>> fresh_looks([np.array([[0, 1], [1, 0]])], (0, 1))
    True
    """
    return any(set(np.unique(ids).tolist()) <= set(looks) for ids in frames)


def solve_loss_mines(ids: IdGrid, known: Mapping[int, int], most: int = 12,
                     ) -> set[int] | None:
    """With the covered looks and numbers named, which of the other looks of a
    lost-game frame are shown mines: those in every choice of them that makes each
    named number count exactly its mines (a lost game shows them all; flags count).
    None when no choice, or only the empty one, fits, or more than ``most`` looks are
    unnamed. Any number of mine looks (a page that draws each mine in its own colour).

    >>> solve_loss_mines(np.array([[5, 2, 6], [2, 2, 0]]), {0: COVERED, 2: 1})
    {5}
    """
    f = _Frame.of(ids)
    numbered = [lk for lk in f.present if 0 <= known.get(lk, -1) <= 8]
    free = [lk for lk in f.present if lk not in known]
    if not numbered or not free or len(free) > most \
            or not any(known.get(lk) == COVERED for lk in f.present):
        return None
    where = np.isin(f.ids, numbered)
    want = np.vectorize(lambda lk: known.get(int(lk), 0))(f.ids[where])
    shown = [lk for lk in f.present if known.get(lk) in (MINE, FLAG, EXPLODED)]
    base = sum((f.adj[lk][where] for lk in shown), np.zeros(int(where.sum()), np.int32))
    adj = np.stack([f.adj[lk][where] for lk in free])
    bits = (np.arange(2 ** len(free))[:, None] >> np.arange(len(free))) & 1
    fits = bits[((bits @ adj + base) == want).all(axis=1)]
    if not len(fits) or not fits.any(axis=1).all():
        return None
    return {lk for i, lk in enumerate(free) if fits[:, i].all()}


def mines_named_flags(frames: Sequence[IdGrid], lost: Sequence[bool],
                      names: Mapping[int, int]) -> set[int]:
    """Looks named flag that only lost frames show, when another flag look shows in a
    frame of a game in play: a mine the game draws its own way at a loss (gnome-mines:
    a question-marked mine), which :func:`label_loss_frame` took for a flag (a player
    places flags while playing).

    >>> play, loss = np.array([[0, 2]]), np.array([[0, 3], [2, 1]])
    >>> sorted(mines_named_flags([play, loss], [False, True], {2: FLAG, 3: FLAG}))
    [3]
    >>> sorted(mines_named_flags([loss], [True], {2: FLAG, 3: FLAG}))
    []
    """
    def shown(when: bool) -> set[int]:
        return {int(v) for ids, was_lost in zip(frames, lost, strict=True)
                if was_lost == when for v in np.unique(ids)}

    flags = {look for look, code in names.items() if code == FLAG}
    in_play = shown(False)
    return (flags & shown(True)) - in_play if flags & in_play else set()


def impossible_numbers(frames: Sequence[IdGrid], names: Mapping[int, int],
                       support: Mapping[int, int]) -> dict[int, int]:
    """Looks ``names`` calls a number that the frames contradict: a number n on a square
    with fewer than n neighbours that may hide a mine (unrevealed, shown mines, and
    unnamed looks). While some do, the one with the least ``support`` (squares seen)
    loses its name and the rest are checked again. A lone question mark in a lost frame
    may fit a count no other look has; among opened numbers in another frame it is no
    number (and the numbers around it are no longer contradicted).

    >>> ids = np.array([[0, 1, 5], [1, 1, 1]])   # 0 covered, 1 a 0, 5 named 3
    >>> impossible_numbers([ids], {0: COVERED, 1: 0, 5: 3}, {0: 1, 1: 4, 5: 1})
    {5: 3}
    >>> ids = np.array([[0, 5, 1], [0, 0, 1]])
    >>> impossible_numbers([ids], {0: COVERED, 5: 3, 1: 1}, {0: 3, 1: 2, 5: 1})
    {}
    """
    left, out = dict(names), {}
    while bad := _contradicted(frames, left):
        look = min(bad, key=lambda lk: (support.get(lk, 0), lk))
        out[look] = left.pop(look)
    return out


def _contradicted(frames: Sequence[IdGrid], names: Mapping[int, int]) -> set[int]:
    return set().union(*(contradicted_numbers(ids, names) for ids in frames))


def contradicted_numbers(ids: IdGrid, names: Mapping[int, int]) -> set[int]:
    """Looks ``names`` calls a number that frame ``ids`` contradicts: on some square the
    number n has fewer than n neighbours that may hide a mine (unrevealed, shown mines,
    unnamed looks), or more than n shown mines (the mine and exploded looks).

    >>> ids = np.array([[0, 1, 0], [0, 2, 0]])
    >>> sorted(contradicted_numbers(ids, {0: MINE, 1: 3, 2: 4}))  # a 3 among 4 mines
    [1]
    """
    table = np.full(int(ids.max(initial=0)) + 1, UNKNOWN, np.int8)
    for look, code in names.items():
        if 0 <= look < len(table):
            table[look] = code
    codes = table[ids]
    room = adjacent_count(np.isin(codes, (*UNREVEALED, MINE, EXPLODED, UNKNOWN)))
    shown = adjacent_count(np.isin(codes, (MINE, EXPLODED)))
    bad = (codes >= 0) & ((room < codes) | (shown > codes))
    return {int(look) for look in np.unique(ids[bad])}


def repeated_looks(frames: Iterable[IdGrid]) -> set[int]:
    """Looks shown on two or more squares of one of ``frames``.

    >>> sorted(repeated_looks([np.array([[1, 2], [2, 3]]), np.array([[3, 4]])]))
    [2]
    """
    out: set[int] = set()
    for ids in frames:
        looks, sizes = np.unique(ids, return_counts=True)
        out.update(int(lk) for lk, n in zip(looks, sizes, strict=True) if n > 1)
    return out


def never_exploded(frames: Sequence[IdGrid]) -> set[int]:
    """Looks that are not the exploded mine in any of ``frames`` (of one skin): those
    a frame shows on two or more squares (a game shows the hit mine on one), and, when
    the best readings of every lost frame share some exploded look, the other looks
    those readings take for it. A lone wrong flag or flag that touches no number fits
    as the hit mine as well as the real one (WineMine); a second lost game tells them
    apart.
    """
    out = repeated_looks(frames)
    options = [{h.exploded for h in best_loss_readings(ids, {}, not_exploded=out)}
               for ids in frames]
    lost = [o for o in options if o]
    common = set.intersection(*lost) if lost else set()
    if common:
        out |= set().union(*lost) - common
    return out


def learn_from_images(images: Sequence[Image], base: Mapping[int, Sequence[Image]] | None = None,
                      seconds: float | None = None, find_in: Sequence[Image] | None = None,
                      lossy: Sequence[bool] | None = None,
                      grid: tuple[int, int] | None = None) -> Learned:
    """Name looks from saved screenshots (lost games teach the most), optionally
    starting from a skin's templates ``base``. Boards of each cell size are learned
    on their own (what one size learned seeds the next); the templates of every size
    end up at the size of the one with the most cells. After ``seconds`` (None: no
    limit) the costly steps give up (the last :data:`CHECK_SHARE` of it is kept for
    :func:`unsettle_seeded`); :attr:`Learned.left_out` says what they left.
    ``find_in``: the images to find the boards in, one per image at the same place
    (default ``images``; a JPEG's board is found in it denoised, see
    :func:`vision.lossy.board_views`). ``lossy``: which images are JPEG captures
    (default none; see :func:`find_boards`). ``grid``: the board's rows and columns,
    for a board of plain squares (see :func:`find_boards`)."""
    reserve = 0.0 if seconds is None else CHECK_SHARE * seconds
    with time_limit(Budget(seconds, reserve)) as budget:
        learned = _learn_from_images(images, base, images if find_in is None else find_in,
                                     lossy, grid)
    return replace(learned,
                   left_out=tuple(c for c in budget.counts()
                                  if c[0] not in (LEFT_CUT, LEFT_WINDOW)),
                   cut_images=tuple(sorted(budget.left_out.get(LEFT_CUT, ()))),
                   window_images=tuple(sorted(budget.left_out.get(LEFT_WINDOW, ()))))


def _learn_from_images(images: Sequence[Image], base: Mapping[int, Sequence[Image]] | None,
                       find_in: Sequence[Image], lossy: Sequence[bool] | None,
                       grid: tuple[int, int] | None = None) -> Learned:
    from vision.lattice import NoBoardError

    boards, groups = find_boards(find_in, lossy, grid)
    groups = drop_cut(images, boards, groups)
    learn_in, windows = drop_window_over(images, boards, groups)
    if not groups:
        left = _budget().left_out
        if len(left.get(LEFT_CUT, ())) == len(images):
            raise NoBoardError("the board is cut by its window's edge or the screen's in "
                               "every image: capture the whole board")
        late = " in the time allowed" if LEFT_NO_BOARD in left else ""
        raise NoBoardError(f"no Minesweeper board found in any of the images{late}")
    cells_of = {i: g.rows * g.cols for i, g in enumerate(boards) if g is not None}
    ranked = sorted(groups, key=lambda sz: -sum(cells_of[i] for i in groups[sz]))
    main = ranked[0]
    known: dict[int, list[Image]] = {c: list(v) for c, v in (base or {}).items()}
    counts: list[tuple[tuple[int, int], int]] = []
    learners: list[Learner] = []
    shots: list[list[int]] = []  # (each learner's screenshots)
    budget = _budget()
    for size in ranked:
        behind = [i for i in groups[size] if i in windows]
        learner = Learner(size)
        if size == main:
            learner.seed(known)
        elif not _seed_in_time(learner, known, budget):
            for i in learn_in[size] + behind:
                budget.note(LEFT_OTHER_SIZE, i)
            continue
        frames = [learner.ids(images[i], boards[i]) for i in learn_in[size]]  # type: ignore[arg-type]
        beside = [learner.ids(images[i], boards[i], windows[i])  # type: ignore[arg-type]
                  for i in behind]
        _learn_group(frames, learner, known, beside)
        learners.append(learner)
        shots.append(learn_in[size] + behind)
        for i, ids in zip(learn_in[size], frames, strict=True):
            g = boards[i]
            n = seen_mine_count(learner.codes(ids, UNKNOWN))
            if g is not None and n is not None:
                counts.append(((g.rows, g.cols), n))
        _add_templates(known, learner)
    if unsettle_seeded(learners, known, shots):
        known = {c: list(v) for c, v in (base or {}).items()}
        for learner in learners:
            _add_templates(known, learner)
    unnamed = sum(len(learner.unnamed()) for learner in learners)
    first = next(i for i in groups[main])
    g0 = boards[first]
    assert g0 is not None
    cells = {code: tuple(_dedupe([fit_size(img, main) for img in imgs]))
             for code, imgs in known.items()}
    return Learned(cells, main, (g0.pitch_x, g0.pitch_y), unnamed, tuple(boards), tuple(counts),
                   unnamed_looks=unnamed_images(learners, cells, main))


def unnamed_images(learners: Sequence[Learner], cells: Mapping[int, Sequence[Image]],
                   size: tuple[int, int]) -> tuple[Image, ...]:
    """Each learner's unnamed looks seen on its boards (not only among seeded
    templates), as their mean images at ``size``, but for those near a template of
    ``cells`` or one kept before (:func:`other_looks`): what a reader should take for
    unknown rather than for the named look it is nearest.

    >>> learner = Learner((8, 8))
    >>> flag = np.full((8, 8, 3), 90, np.uint8); flag[2:6, 3] = 0
    >>> mark = flag.copy(); mark[4:7, 5:7] = 255               # a flag with a tiny mark
    >>> looks = [learner.bank.classify(img) for img in (flag, mark, flag)]
    >>> learner.name(looks[0], FLAG)
    >>> [img.tolist() == mark.tolist() for img in unnamed_images([learner], {FLAG: [flag]}, (8, 8))]
    [True]
    """
    seen = [learner.bank.mean_image(look) for learner in learners
            for look in learner.unnamed()
            if learner.bank.counts[look] > learner.seeded_hits[look]]  # (not seeded only)
    return other_looks(seen, cells, size)


UNNAMED_APART = 4.0
"""An unnamed look is kept in a skin (read as unknown) only when further than this
(:func:`look_distance`) from every named template: nearer, it is most likely that look
drawn with noise (WineMine's fixtures as JPEGs at quality 60 left a covered square,
a mine and two question marks unnamed 1.8-2.9 from their templates, and reading them as
unknown lost three boards), while gnome-mines' question mark, a flag with a tiny "?",
lay 10.8-14.8 from the flag (quality 90)."""


def other_looks(images: Iterable[Image], cells: Mapping[int, Sequence[Image]],
                size: tuple[int, int]) -> tuple[Image, ...]:
    """``images`` at ``size``, but for each within :data:`UNNAMED_APART` of a template
    of ``cells`` or within one look (1.0) of an image kept before it."""
    out: list[Image] = []
    named = [fit_size(img, size) for imgs in cells.values() for img in imgs]
    for image in images:
        img = fit_size(image, size)
        if all(look_distance(img, other) > UNNAMED_APART for other in named) \
                and all(look_distance(img, other) > 1.0 for other in out):
            out.append(img)
    return tuple(out)


def _add_templates(known: dict[int, list[Image]], learner: Learner) -> None:
    for code, imgs in learner.templates().items():
        have = known.setdefault(code, [])
        have.extend(img for img in imgs if not any(img is h for h in have))


AMBIGUOUS_NEAR = 2.0
"""A look named by seeded templates alone is unsettled (:func:`unsettle_seeded`) when a
template of another name lies within this :func:`look_distance` of it: 1.33 apart
(over the 1.0 of one look) were gnome-mines' flag and question mark (a flag with a
tiny "?") at 18 px, where the question marks learned at other sizes named both; the
nearest templates of two numbers were 3.0 apart (a 1 and a 2 at 17 px)."""


def unsettle_seeded(learners: Sequence[Learner], known: Mapping[int, Sequence[Image]],
                    shots: Sequence[Sequence[int]] = ()) -> bool:
    """Leave unnamed (:attr:`Learner.unsettled`) each look seen on a board that only
    seeded templates named (:meth:`Learner.seed_named`: its frames' game logic gave it
    no vote) when a template of another name in ``known`` (every size's, fit to the
    learner's) lies within :data:`AMBIGUOUS_NEAR` of it, or an image of a look some
    size's game logic voted another name for, too weakly to name it
    (:func:`voted_unnamed`): at that size the two names may make one look, and nothing
    in its frames tells which. Such a look's images
    seeded the sizes learned after it too: there a look seen only among the seeded
    templates, within one look of an unsettled one's images
    (:meth:`CellBank.variants`), is unsettled as well (``learners``
    in the order learned). True if any look was.

    Once the time is up (:class:`Budget`; the check took about 7 s on gnome-mines scaled
    by 0.8) the looks not checked yet are unsettled unchecked, and so is every such
    seeded copy of the sizes after a look that was: an unknown square, not one named
    on evidence nothing weighed. The screenshots of each learner that leaves a look so
    (``shots``: each learner's screenshots; default its index) are noted under
    :data:`LEFT_UNCHECKED`. The check runs in the time the steps before it leave and
    in :attr:`Budget.reserve`, kept for it (:meth:`Budget.last_step`)."""
    budget = _budget()
    with budget.last_step():
        return _unsettle_seeded(learners, known, shots, budget)


def _unsettle_seeded(learners: Sequence[Learner], known: Mapping[int, Sequence[Image]],
                     shots: Sequence[Sequence[int]], budget: Budget) -> bool:
    rivals = [({c}, list(others)) for c, others in known.items()]
    if not budget.over():  # (else every look is left unnamed unchecked)
        rivals += [(voted, learner.bank.variants(look)) for learner in learners
                   for look, voted in voted_unnamed(learner).items()]
    gone: list[Image] = []
    unsettled = False
    for k, learner in enumerate(learners):
        keys = shots[k] if k < len(shots) else (k,)
        fitted = [] if budget.over() else [
            (codes, [fit_size(img, learner.size) for img in imgs]) for codes, imgs in rivals]
        for look, code in learner.seed_named().items():
            near = [img for codes, imgs in fitted if codes - {code} for img in imgs]
            if _near_or_late(learner.bank.looks[look], near, AMBIGUOUS_NEAR, budget, keys):
                learner.unsettled.add(look)
                unsettled = True
                if not budget.over():  # (its images are compared with no more)
                    gone.extend(learner.bank.variants(look))
        copies = [] if budget.over() else [fit_size(g, learner.size) for g in gone]
        for look in learner.seed_named(seen=False) if unsettled else ():
            if _near_or_late(learner.bank.looks[look], copies, learner.bank.tol, budget, keys):
                learner.unsettled.add(look)
                if not budget.over():
                    more = learner.bank.variants(look)
                    gone.extend(more)
                    copies.extend(more)
    return unsettled


def voted_unnamed(learner: Learner) -> dict[int, set[int]]:
    """The looks seen on ``learner``'s boards that its frames' game logic gave votes
    (not :meth:`Learner.seed` alone) too few to name them -> the names voted. A vote
    short of a name is still evidence of what a look may be: gnome-mines' flag at
    24 px (scaled by 0.8) had one vote for a flag (one square of a loss whose hit mine
    two looks might be), and no flag was named at any size; at 18 px, where the flag and
    the question mark (a flag with a tiny "?") make one look that no number touches,
    only the question marks seeded from 24 px named that look (5 flags read as question
    marks), 1.37 from the unnamed flag."""
    known = learner.known()
    out = {}
    for look, votes in learner.votes.by_look.items():
        seeded = learner.seeded.get(look, Counter())
        codes = {code for code, n in votes.items() if n > seeded[code]}
        if codes and look not in known and learner.bank.counts[look] > learner.seeded_hits[look]:
            out[look] = codes
    return out


def _near_or_late(img: Image, others: Sequence[Image], tol: float, budget: Budget,
                  keys: Iterable[int]) -> bool:
    """Does one of ``others`` lie within ``tol`` of ``img`` (:func:`look_distance`),
    or is the time up before that is known (then ``keys`` are noted under
    :data:`LEFT_UNCHECKED`)?"""
    for other in (None, *others):
        if budget.over():
            for key in keys:
                budget.note(LEFT_UNCHECKED, key)
            return True
        if other is not None and look_distance(img, other) <= tol:
            return True
    return False


def _seed_in_time(learner: Learner, known: Mapping[int, Sequence[Image]],
                  budget: Budget) -> bool:
    """Seed ``learner`` with ``known`` (see :meth:`Learner.seed`) unless the time is
    up before or while doing so (False: then the learner is not to be used). Seeding
    one cell size of JPEGs with every template the sizes before it learned took 30 s
    (gnome-mines at quality 90: 117 looks, each new one compared with all)."""
    if budget.over():
        return False
    for code, images in known.items():
        for img in images:
            if budget.over():
                return False
            learner.seed({code: [img]})
    return True


def find_boards(images: Sequence[Image], lossy: Sequence[bool] | None = None,
                grid: tuple[int, int] | None = None,
                ) -> tuple[list[BoardGeometry | None], dict[tuple[int, int], list[int]]]:
    """Each image's board (None: no board) and the images grouped by cell size.
    The boards of one size are put at one phase together (see
    :func:`vision.lattice.board_phase`: one board alone may not show it), then
    extended (see :func:`vision.lattice.extend_lattice`). ``lossy`` marks JPEG
    captures: boards all of JPEGs are phased by
    :func:`vision.lattice.lossy_board_phase`, a JPEG among PNGs with
    :data:`vision.lattice.LOSSY_ALIKE`. ``grid``: the board's rows and columns, given
    for a board of plain squares with no edge between them; where no lattice of that
    size is found, the board is such a board (:func:`vision.flat_board.plain_board`:
    its box is exact, neither phased nor extended)."""
    from vision.lattice import (
        ALIKE,
        LOSSY_ALIKE,
        NoBoardError,
        board_phase,
        extend_lattice,
        fitted_lattice,
        lossy_board_phase,
        template_size,
    )

    boards: list[BoardGeometry | None] = []
    budget = _budget()
    for k, image in enumerate(images):
        try:
            boards.append(None if budget.spent(LEFT_NO_BOARD, k) else fitted_lattice(image))
        except NoBoardError:
            boards.append(None)
    plain = _plain_boards(images, boards, grid)
    groups: dict[tuple[int, int], list[int]] = {}
    for i, g in enumerate(boards):
        if g is not None and i not in plain:
            groups.setdefault(template_size(g), []).append(i)
    for members in groups.values():
        fitted = [g for i in members if (g := boards[i]) is not None]  # (all of them)
        shown = [images[i] for i in members]
        jpeg = [bool(lossy and lossy[i]) for i in members]
        phased = lossy_board_phase(shown, fitted) if all(jpeg) else \
            board_phase(shown, fitted, [LOSSY_ALIKE if j else ALIKE for j in jpeg])
        for i, g in zip(members, phased, strict=True):
            # (a board not extended may be a part of one: no board, rather than that)
            boards[i] = None if budget.spent(LEFT_NO_BOARD, i) else extend_lattice(images[i], g)
    for i, g in plain.items():
        boards[i] = g
        groups.setdefault(template_size(g), []).append(i)
    return boards, _with_boards(groups, boards)


def _plain_boards(images: Sequence[Image], boards: list[BoardGeometry | None],
                  grid: tuple[int, int] | None) -> dict[int, BoardGeometry]:
    """With the board's size given (``grid``), the boards of plain squares found
    (:func:`vision.flat_board.plain_board`) in the images where no lattice of that size
    was, by image index; those images' entries in ``boards`` are set to None. Raises
    :class:`vision.lattice.NoBoardError` when the open and covered squares of one make
    whole blocks of k x k squares (:func:`vision.flat_board.block_side`): the size
    given splits each of the board's squares in k x k."""
    from vision.flat_board import block_side, plain_board, plain_kinds
    from vision.lattice import NoBoardError

    found: dict[int, BoardGeometry] = {}
    if grid is None:
        return found
    for i, image in enumerate(images):
        g = boards[i]
        if g is not None and (g.rows, g.cols) == grid:
            continue
        boards[i] = None
        plain = plain_board(image, *grid)
        if plain is None:
            continue
        k = block_side(plain_kinds(image, plain))
        if k is not None:
            rows, cols = grid
            raise NoBoardError(
                f"the open and covered squares of screenshot {i + 1} make whole blocks of "
                f"{k} x {k} of the {rows} x {cols} squares given: is the board "
                f"{rows // k} x {cols // k} squares (--grid)?")
        found[i] = plain
    return found


def _with_boards(groups: dict[tuple[int, int], list[int]],
                 boards: Sequence[BoardGeometry | None]) -> dict[tuple[int, int], list[int]]:
    """``groups`` with only their images that still have a board, and no empty group."""
    kept = {size: [i for i in members if boards[i] is not None]
            for size, members in groups.items()}
    return {size: members for size, members in kept.items() if members}


def drop_cut(images: Sequence[Image], boards: list[BoardGeometry | None],
             groups: dict[tuple[int, int], list[int]]) -> dict[tuple[int, int], list[int]]:
    """Take out of ``boards`` (set to None) and ``groups`` each board its capture in
    ``images`` (JPEGs restored, not denoised) shows cut by a window's edge or the
    screen's (:func:`vision.cut.cut_sides`), noted under :data:`LEFT_CUT`; the groups
    left. In a JPEG the lattice found may be a pixel or two off, or a line short, and
    then show part of a line past its side as a cut does: of the whole fixture boards
    at JPEG quality 60, 75 and 90, 2 in 180 read cut (one found a row short), and of
    the same boards cut 0.4 or 0.6 of a pitch in, 4 in 5 (docs/benchmarks.md)."""
    budget = _budget()
    for i, g in enumerate(boards):
        if g is not None and cut_sides(images[i], g):
            budget.note(LEFT_CUT, i)
            boards[i] = None
    return _with_boards(groups, boards)


def drop_window_over(images: Sequence[Image], boards: Sequence[BoardGeometry | None],
                     groups: Mapping[tuple[int, int], list[int]],
                     ) -> tuple[dict[tuple[int, int], list[int]], dict[int, npt.NDArray[np.bool_]]]:
    """``groups`` without the images whose board has a window over part of it
    (:func:`vision.occluder.window_over`: Windows 7's "Game Lost" dialog), each
    noted under :data:`LEFT_WINDOW`, and the squares the window covers on each of
    those (:func:`vision.occluder.window_squares`). Their boards stay, read beside
    the window alone (:data:`HIDDEN`): a dialog's white face cut into squares made a
    look of 24 squares on Windows 7's lost board, which a reading could take for a 0
    or the covered square."""
    from vision.occluder import window_squares

    out: dict[tuple[int, int], list[int]] = {}
    windows: dict[int, npt.NDArray[np.bool_]] = {}
    for size, members in groups.items():
        out[size] = []
        for i in members:
            g = boards[i]
            hidden = None if g is None else window_squares(images[i], g)
            if hidden is not None and hidden.any():
                _budget().note(LEFT_WINDOW, i)
                windows[i] = hidden
            else:
                out[size].append(i)
    return out, windows


def _dedupe(imgs: Sequence[Image]) -> list[Image]:
    """Drop images that are the same look as an earlier one."""
    out: list[Image] = []
    for img in imgs:
        if not any(look_distance(img, o) <= 1.0 for o in out):
            out.append(img)
    return out


def name_odd_looks(learner: Learner, frames: Sequence[IdGrid], lost: Sequence[bool]) -> None:
    """Unrevealed looks no count explains: one also seen while a game was still being
    played is a question mark; one seen only after losses, when some frame shows a game
    in play, is a wrong flag (with ended games alone, nothing tells a wrong flag from a
    question mark left on the board: the look stays unnamed). A frame no loss reading
    fits but that shows a look named a shown mine is no game in play either: a loss
    whose dialog hides much of the board (Windows 7's), where the wrong flag shows
    beside it."""
    known = learner.known()
    ended = {look for look, code in known.items() if code in (MINE, EXPLODED)}
    playing = [ids for ids, was_lost in zip(frames, lost, strict=True)
               if not was_lost and not np.isin(ids, list(ended)).any()]
    in_play = {int(v) for ids in playing for v in np.unique(ids)}
    for look in learner.odd - set(known):
        twin = number_twin(learner, look, frames, lost)
        if twin is not None:
            learner.name(look, twin, weight=2)
        elif no_mark(learner, look, known):
            continue
        elif look in in_play:
            learner.name(look, QUESTION, weight=2)
        elif playing:
            learner.name(look, WRONG_FLAG, weight=2)


def no_mark(learner: Learner, look: int, known: Mapping[int, int]) -> bool:
    """Is ``look``, left unexplained, perhaps no mark (question mark, wrong flag)? A
    mark is drawn, so a look with no glyph (:func:`vision.ink.inkless`) is none; nor is
    a twin (:meth:`Learner.twins`) of a look named anything but a mark: the same
    drawing at another sub-pixel phase (gnome-mines scaled by 0.8: a covered look on 28
    squares and a 2, each within 0.3 of a named look's mean image, were named question
    marks, and the reader then took every 2 for one). Nor is a look on two or more
    squares that counts on each the number a look is (:attr:`Learner.dupes`) when of
    all named looks that number's is nearest to it: the number at another phase (a 1
    and a 2 of gnome-mines' ``small_lost`` scaled by 0.8, 9.6 and 18 from the named
    ones, 40 between a 1 and a 2, were named a wrong flag and a question mark).
    (A wrong flag on two squares that happen to count one number stays a mark.)"""
    img = learner.bank.mean_image(look)
    if inkless(img):
        return True
    numbers = {known.get(to) for to in learner.dupes.get(look, ())} - {None}
    near = [(look_distance(learner.bank.mean_image(lk), img), code)
            for lk, code in known.items()
            if lk != look and learner.bank.looks[lk].shape == img.shape]
    if numbers and near and min(near)[1] in numbers:
        return True
    return any(d <= TWIN_TOL and code not in (QUESTION, WRONG_FLAG) for d, code in near)


GLYPH_TOL = 30.0
"""Most :func:`look_distance` between two looks a won frame may give one number
(:meth:`Learner.one_glyph`): xdemineur's 5s at JPEG quality 90, 3.0-6.8; two digits,
or a digit and a mine, differ by 40 and more (a 1 and a 2 of gnome-mines scaled by 0.8
at 37 px: 40; its 7, 4, 5 and hit mine at 43 px: 1190-1450)."""

TWIN_TOL = 6.0
"""Most :func:`look_distance` between the mean images of two looks of one number in a
JPEG (xdemineur's 5s at quality 90: 4.0; a 5 and a question mark: 111)."""


def number_twin(learner: Learner, look: int, frames: Sequence[IdGrid],
                lost: Sequence[bool]) -> int | None:
    """The number ``look``, left unexplained, is another look of: the named number
    whose mean image is nearest and within :data:`TWIN_TOL`, when that number counts
    the shown mines on every square of ``look`` in every lost frame (a loss shows
    them all) and no frame contradicts it. A JPEG draws one number as two looks; a
    loss reading names the bigger one and leaves the other unexplained (two looks
    with one count), which was then taken for a question mark (xdemineur's 5 at
    (2, 22) of ``expert_lost``/``expert_playing``). None: no such number."""
    known = learner.known()
    img = learner.bank.mean_image(look)
    near = [(look_distance(learner.bank.mean_image(lk), img), code)
            for lk, code in known.items() if 0 <= code <= 8
            and learner.bank.looks[lk].shape == img.shape]
    if not near or min(near)[0] > TWIN_TOL:
        return None
    code = min(near)[1]
    mines = [lk for lk, c in known.items() if c in MINE_CODES]
    for ids, was_lost in zip(frames, lost, strict=True):
        where = ids == look
        if was_lost and where.any() and \
                bool((adjacent_count(np.isin(ids, mines))[where] != code).any()):
            return None
    if any(contradicted_numbers(ids, {**known, look: code}) for ids in frames):
        return None
    return code


RING_MOST = 1 / 3
"""A recoloured band round a square reaches at most this share of its side from each
edge (:func:`ring_recolour`)."""
GAP_SHARE = 0.5
"""The share of a board's squares whose band must turn one new colour together for a
move to count as the gap between tiles recoloured (:meth:`Learner.unpaint`)."""


def ring_recolour(a: Image, b: Image, tol: int = 24) -> tuple[int, int, int] | None:
    """The colour the band round a square turned to, when looks ``a`` and ``b`` differ
    only there: a band along all four edges, one colour in each look and another
    colour in ``b`` than in ``a``, the square inside it the same (the gap between
    tiles, which some games recolour at a loss: PyMines' white turns red). None
    otherwise: a tile's bevel, a glyph, a shade of the whole square.

    >>> a = np.full((22, 22, 3), 250, np.uint8); a[3:19, 3:19] = 160   # a grey tile
    >>> b = a.copy(); b[:3] = b[19:] = b[:, :3] = b[:, 19:] = (0, 0, 250)   # red round it
    >>> ring_recolour(a, b), ring_recolour(a, a)
    ((0, 0, 250), None)
    >>> bevel = a.copy(); bevel[3:5, 3:19] = 255; bevel[17:19, 3:19] = 90   # a raised tile
    >>> print(ring_recolour(bevel, a))   # the bevel is the tile's, no band round it
    None
    """
    if a.shape != b.shape or a.ndim != 3:
        return None
    diff = np.abs(a.astype(np.int16) - b.astype(np.int16)).max(axis=2) > tol
    h, w = diff.shape
    rows, cols = diff.mean(axis=1), diff.mean(axis=0)
    top, bottom = _leading(rows), _leading(rows[::-1])
    left, right = _leading(cols), _leading(cols[::-1])
    if min(top, bottom, left, right) < 1 or max(top, bottom) > h * RING_MOST \
            or max(left, right) > w * RING_MOST:
        return None
    ring = np.ones((h, w), bool)
    ring[top:h - bottom, left:w - right] = False
    if diff[~ring].mean() > 0.02:
        return None
    was, now = _one_colour(a[ring], tol), _one_colour(b[ring], tol)
    return None if was is None or now is None else now


def _leading(shares: npt.NDArray[np.float64], most: float = 0.9) -> int:
    """How many of ``shares``, from the first, are ``most`` or more."""
    low = np.flatnonzero(shares < most)
    return int(low[0]) if low.size else len(shares)


def _one_colour(pixels: npt.NDArray[np.uint8], tol: int) -> tuple[int, int, int] | None:
    """The colour of ``pixels`` (N x 3) when nine in ten lie within ``tol`` of it."""
    median = np.median(pixels, axis=0)
    near = np.abs(pixels.astype(np.float64) - median).max(axis=1) <= tol
    if near.mean() < 0.9:
        return None
    b, g, r = (int(round(float(v))) for v in median)
    return b, g, r


def repaint_distance(a: Image, b: Image, most: int = 64) -> float:
    """:func:`look_distance` with each image's background (see
    :func:`vision.shade.background`) repainted to the other's colour, glyph pixels
    kept (the larger of both ways): small for one glyph drawn on two backgrounds, even
    a glyph as light as one of them (gnome-mines' classic theme draws its 8 white on
    a light grey square); infinite when a channel of the backgrounds differs by more
    than ``most``. Unlike :func:`vision.shade.shade_distance`, any colour shift counts.

    >>> a = np.full((16, 16, 3), 222, np.uint8); a[4:12, 6:10] = 255   # a white glyph
    >>> b = np.full((16, 16, 3), (207, 215, 211), np.uint8); b[4:12, 6:10] = 255
    >>> repaint_distance(a, b) <= 1.0, repaint_distance(a, np.full_like(a, 222)) > 1.0
    (True, True)
    """
    from vision.shade import background, reshade

    if a.shape != b.shape:
        return float("inf")
    bg_a, bg_b = background(a), background(b)
    if float(np.abs(bg_a - bg_b).max()) > most:
        return float("inf")
    return max(look_distance(a, reshade(b, bg_a)), look_distance(reshade(a, bg_b), b))


DIM_RANGE = (0.15, 0.85)
"""The factor of a whole board dimmed at a game's end (:func:`dimmed_pairs`)."""
DIM_TOL = 8.0
DIM_OFF = 0.05
DIM_INK = 40.0
DIM_GLYPH_TOL = 20.0
DIM_GLYPH_OFF = 0.1
"""A pair of looks is the dimmed one of the other when at most DIM_OFF of its pixels
lie further than DIM_TOL (any channel, 0-255) from the dimming map's value, and at
most DIM_GLYPH_OFF of its glyph's further than DIM_GLYPH_TOL: on a real lost
kivy-mines board every square but the mines has at most 0.02 of its pixels so off and
none of its glyph's (its dimmed digits are at most 14.4 off the map), every mine (a
dark red square for a dark grey one) 0.95 and 0.22-0.76."""


def dimmed_pairs(looks: Sequence[Image], pairs: Mapping[tuple[int, int], int],
                 tol: float = 1.0) -> dict[tuple[int, int], int]:
    """The pairs (look before, look after; with their square counts) that one grey
    dimming explains: every pixel value v of the look before, in every channel, turned
    to k * v + c with k in DIM_RANGE (kivy-mines-package disables every button at a
    loss: tiles, digits and all drawn at a third of their brightness), fitted over all
    the pairs by their counts and again over those it fits (DIM_TOL, DIM_OFF); none
    when no such k fits most of the squares. A pair whose look after is within twice
    ``tol`` (the :class:`CellBank`'s, see :func:`look_distance`) of the look before so
    dimmed is explained too: the bank may sort the dimmed look there (Kivy's dimmed 2
    and 3, their glyphs faint, fall in one look or the other; a shown mine is 20 or
    more from any dimmed look).

    >>> grey = np.full((8, 24, 3), 90, np.uint8); one = grey.copy(); one[2:6, 11:13] = 250
    >>> dim = lambda img: (img * 0.4 + 2).astype(np.uint8)
    >>> mine = dim(grey); mine[..., 2] = 120                      # a red square: no dim
    >>> other = one.copy(); other[2:6, 14:16] = 250               # another glyph
    >>> looks = [grey, one, dim(grey), dim(one), mine, dim(other)]
    >>> sorted(dimmed_pairs(looks, {(0, 2): 5, (1, 3): 3, (0, 4): 1, (1, 5): 1}))
    [(0, 2), (1, 3)]
    """
    keys = [p for p in pairs if looks[p[0]].shape == looks[p[1]].shape]
    keep = keys
    for _ in range(2):  # fit, then fit again over the pairs that fit
        line = _dim_line([(looks[a], looks[b], pairs[(a, b)]) for a, b in keep])
        if line is None:
            return {}
        k, c = line
        keep = [(a, b) for a, b in keys if _dims_to(looks[a], looks[b], k, c)]
    keep += [(a, b) for a, b in keys if (a, b) not in keep
             and look_distance(_dimmed(looks[a], k, c), looks[b]) <= 2 * tol]
    return {p: pairs[p] for p in keep}


def _dimmed(img: Image, k: float, c: float) -> Image:
    """``img`` with every value v turned to k * v + c."""
    return np.asarray(np.clip(np.round(img.astype(np.float64) * k + c), 0, 255), np.uint8)


def _dim_line(pairs: Sequence[tuple[Image, Image, int]]) -> tuple[float, float] | None:
    """(k, c) of the line through the median value after (over the pairs, each as
    many times as its count) of every pixel value before, weighted by how often it
    occurs: the few squares an end draws anew (the mines) do not move it. None when
    fewer than two values occur or k is out of DIM_RANGE."""
    if not pairs:
        return None
    x = np.concatenate([np.tile(a.reshape(-1), n) for a, _, n in pairs]).astype(np.int64)
    y = np.concatenate([np.tile(b.reshape(-1), n) for _, b, n in pairs]).astype(np.float64)
    order = np.lexsort((y, x))
    x, y = x[order], y[order]
    values, starts, counts = np.unique(x, return_index=True, return_counts=True)
    if len(values) < 2:
        return None
    medians = y[starts + counts // 2]
    k, c = np.polyfit(values.astype(np.float64), medians, 1, w=np.sqrt(counts))
    return (float(k), float(c)) if DIM_RANGE[0] <= k <= DIM_RANGE[1] else None


def _dims_to(a: Image, b: Image, k: float, c: float) -> bool:
    """Is ``b`` ``a`` dimmed by v -> k * v + c: at most DIM_OFF of all its pixels off
    (DIM_TOL), and of its glyph's (the pixels DIM_INK from its background in ``a``, or
    as much dimmed in ``b``, see :func:`vision.shade.background`) at most DIM_GLYPH_OFF
    (DIM_GLYPH_TOL: a 2 and a dimmed 3 differ in a few pixels of a wide square, but in
    much of their glyphs)."""
    from vision.shade import background

    fa, fb = a.astype(np.float64), b.astype(np.float64)
    gap = np.abs(fa * k + c - fb).max(axis=-1)
    glyph = (np.abs(fa - background(a)).max(axis=-1) > DIM_INK) | \
        (np.abs(fb - background(b)).max(axis=-1) > DIM_INK * k)
    return bool((gap > DIM_TOL).mean() <= DIM_OFF and (
        not glyph.any() or (gap[glyph] > DIM_GLYPH_TOL).mean() <= DIM_GLYPH_OFF))


SPILL_BAND = 0.3
"""The share of a square's side a neighbour's look may spill over it (:func:`spill_side`)."""
SPILL_ALONG = 0.75
"""The most of a square's side along which a spill may reach it (:func:`spill_side`):
kmines' graveyard-mayhem draws the hit mine's burst along 63 % (19 px squares) to 66 %
(32 px) of the bottom edge of the square above; a neighbour's tile edge runs along all
of it."""


def spill_side(a: Image, b: Image, tol: int = 32, rest: int = 12) -> tuple[int, int] | None:
    """The side (row step, column step) of the square along which alone looks ``a`` and
    ``b`` differ: by more than ``tol`` in some channel only in a patch within SPILL_BAND
    of the square from that side, touching it and covering at most SPILL_ALONG of it,
    and by at most ``rest`` everywhere else; None otherwise (a neighbour's whole edge
    showing, another shade or another glyph is no spill).

    >>> a = np.full((10, 10, 3), 100, np.uint8); b = a.copy(); b[8:, 3:6] = 0
    >>> spill_side(a, b), spill_side(b[::-1], a[::-1])
    ((1, 0), (-1, 0))
    >>> c = b.copy(); c[4, 4] = 0
    >>> d = a.copy(); d[8:, :] = 0           # a whole edge: a neighbour's tile edge
    >>> spill_side(a, c) is None, spill_side(a, d) is None
    (True, True)
    """
    if a.shape != b.shape:
        return None
    diff = np.abs(a.astype(np.int16) - b.astype(np.int16)).max(axis=2)
    big = diff > tol
    if not big.any():
        return None
    rows, cols = np.nonzero(big.any(axis=1))[0], np.nonzero(big.any(axis=0))[0]
    h, w = diff.shape
    sides = {(1, 0): rows.min() >= h - SPILL_BAND * h and rows.max() >= h - 2,
             (-1, 0): rows.max() < SPILL_BAND * h and rows.min() <= 1,
             (0, 1): cols.min() >= w - SPILL_BAND * w and cols.max() >= w - 2,
             (0, -1): cols.max() < SPILL_BAND * w and cols.min() <= 1}
    for (dr, dc), ok in sides.items():
        if not ok:
            continue
        along, length = (cols, w) if dr else (rows, h)
        band = round(SPILL_BAND * (h if dr else w))
        inner = diff[: h - band] if dr == 1 else diff[band:] if dr == -1 else \
            diff[:, : w - band] if dc == 1 else diff[:, band:]
        if along.max() - along.min() + 1 <= SPILL_ALONG * length and inner.max() <= rest:
            return (dr, dc)
    return None


def _spilt_on(before: IdGrid, after: IdGrid, was: int, now: int, side: tuple[int, int]) -> bool:
    """Did every square turned from ``was`` into ``now`` have a neighbour on ``side``
    that changed too (the look that spills over)?"""
    h, w = before.shape
    for r, c in np.argwhere((before == was) & (after == now)).tolist():
        rr, cc = r + side[0], c + side[1]
        if not (0 <= rr < h and 0 <= cc < w) or before[rr, cc] == after[rr, cc]:
            return False
    return True


def restore(before: IdGrid, after: IdGrid, pairs: Collection[tuple[int, int]]) -> IdGrid:
    """``after`` with every square whose (look in ``before``, look in ``after``) is one
    of ``pairs`` back at its look in ``before``.

    >>> restore(np.array([[1, 2, 2]]), np.array([[5, 6, 7]]), {(1, 5), (2, 7)}).tolist()
    [[1, 6, 2]]
    """
    out = after.copy()
    for was, now in pairs:
        out[(before == was) & (after == now)] = was
    return out


def label_loss_transition(before: IdGrid, after: IdGrid, known: Mapping[int, int],
                          clicked: Sequence[Cell],
                          repainted: Collection[tuple[int, int]] = (),
                          hidden: npt.NDArray[np.bool_] | None = None,
                          start: IdGrid | None = None,
                          flag_mines: Mapping[Cell, bool] | None = None,
                          ) -> dict[Cell, int] | None:
    """Exact names for the squares of a lost game, from the frame before the losing
    click(s) and the frame after, when the player knows its own marks (``known`` names
    the covered, flag and question looks). Returns square -> code (a number for every
    revealed square, by counting adjacent mines), or None if the change does not look
    like a loss (no square besides the clicked ones turned into something else).

    A covered or question-marked square that changed was a mine (now shown), unless
    its new look is one the board showed before or one known to be covered or a number
    (:func:`_old_looks`, :func:`_covered_looks`, :func:`_number_looks`); whether a
    flag, changed or not, was on a mine the numbers tell (:func:`flags_at_loss`: most
    games draw a wrong flag anew and keep a flag on a mine, some the other way round;
    ``flag_mines``: flags the player placed on squares it knew mined or safe), and a
    flag they do not tell of is left unnamed, with the squares next to it; the clicked square
    that changed into no number is the exploded mine. A question mark that stayed may
    hide a mine (ace-minesweeper leaves every question mark as it is at a loss): the
    squares next to it get no number. A square whose (look before, look after) is one
    of ``repainted`` (drawn anew by the end, see :meth:`Learner.unpaint`) is unchanged.
    An unnamed look counted a 0 next to a square that stayed covered is a covered
    square's variant (:func:`unopened_looks`); ``hidden``: squares the frame does not
    show (under a window), which may hide a mine. ``start``: the frame at the start of
    this game; a square of a look of no name that shows in ``before`` the look it had
    there was never opened (a square opens into another look than its covered one), so
    it gets no number (:func:`never_opened`).
    """
    after = restore(before, after, repainted)
    prev = np.vectorize(lambda v: known.get(int(v), UNKNOWN), otypes=[np.int8])(before)
    changed = before != after
    clicked_set = set(clicked)
    mines = np.zeros(before.shape, bool)
    out: dict[Cell, int] = {}
    old = _old_looks(before, after, known) | _covered_looks(after, known) | \
        _number_looks(after, known)
    for r, c in zip(*np.nonzero(changed), strict=True):
        cell = (int(r), int(c))
        if prev[cell] in (COVERED, QUESTION, UNKNOWN) and cell not in clicked_set \
                and not old[cell]:
            # (an unnamed look that changes at a loss is a covered square's variant)
            mines[cell] = True
            out[cell] = MINE
    flagged = prev == FLAG
    if not out and not (flagged & changed).any():
        return None
    hit = [cell for cell in clicked if changed[cell]]
    if len(hit) == 1:
        mines[hit[0]] = True
        out[hit[0]] = EXPLODED
    revealed = ~np.isin(prev, (COVERED, FLAG, QUESTION)) & ~changed
    revealed &= adjacent_count((prev == QUESTION) & ~changed) == 0
    if start is not None:
        revealed &= ~never_opened(before, prev, start)
    unseen = np.zeros(before.shape, bool) if hidden is None else hidden
    on_mines, unsure = flags_at_loss(after, mines, flagged & changed, flagged & ~changed,
                                     revealed & (adjacent_count(unseen) == 0), known,
                                     flag_mines or {})
    mines |= on_mines
    revealed &= adjacent_count(unsure) == 0
    for r, c in np.argwhere(flagged & ~on_mines & ~unsure):
        out[(int(r), int(c))] = WRONG_FLAG  # (kept: drawn as a flag still, gamelibgames)
    for r, c in np.argwhere(flagged & changed & on_mines & ~unsure):
        out[(int(r), int(c))] = MINE  # (a flag on a mine drawn anew: the Tk MineGrid)
    counts = adjacent_count(mines)
    if len(hit) == 1 and prev[hit[0]] == UNKNOWN:
        return None  # the clicked square was not known to be covered
    zeros = revealed & (counts == 0) & (adjacent_count(unseen) == 0) & ~unseen
    for r, c in np.argwhere(unopened_looks(before, prev, changed | unseen, zeros)):
        out[(int(r), int(c))] = COVERED
        revealed[r, c] = False
    for r, c in zip(*np.nonzero(revealed), strict=True):
        out[(int(r), int(c))] = int(counts[r, c])
    return out


def flags_at_loss(ids: IdGrid, mines: npt.NDArray[np.bool_], turned: npt.NDArray[np.bool_],
                  kept: npt.NDArray[np.bool_], revealed: npt.NDArray[np.bool_],
                  known: Mapping[int, int], truth: Mapping[Cell, bool],
                  ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Which flags were on mines at a loss (``ids``, the frame that shows it): those
    ``turned`` into another look go by that look, all the flags of one look alike,
    those ``kept`` as they were one by one (:func:`kept_on_mines`); a choice stands
    when the squares ``revealed`` then count one number per look and a look known to
    be a number (``known``) counts it. Most games draw a wrong flag anew and keep a
    flag on a mine (Windows Minesweeper); the Tk MineGrid draws a flag on a mine
    anew, green, and keeps a wrong flag: that green look was named a wrong flag, each
    4 beside it a 3. ``truth``: flags the player knows to be on a mine (True) or not.
    A turned look already named (a mine or a flag: on a mine; a wrong flag: not)
    counts first; a turned flag that two choices which fit tell apart is unsure.
    Returns (on mines, unsure); where nothing fits, the usual way, none unsure.

    >>> ids = np.array([[5, 2, 1, 1], [1, 2, 1, 7]])  # 5: a turned flag; 7: a mine
    >>> turned, kept, revealed = ids == 5, ids == 9, np.isin(ids, (1, 2))
    >>> on, unsure = flags_at_loss(ids, ids == 7, turned, kept, revealed, {}, {})
    >>> on[0].tolist(), bool(unsure.any())  # (as no mine, the 1 beside it counts 0)
    ([True, False, False, False], False)
    >>> nothing = np.zeros((2, 4), bool)
    >>> flags_at_loss(ids, ids == 7, turned, kept, nothing, {}, {})[1][0].tolist()
    [True, False, False, False]
    >>> flags_at_loss(ids, ids == 7, turned, kept, nothing, {}, {(0, 0): False})[1].any()
    np.False_
    """
    groups = _turned_groups(ids, turned, known, truth)[:4]
    fixed = turned & ~np.isin(ids, [lk for lk, _ in groups])  # (more looks: the usual way)
    told = np.zeros(ids.shape, bool)
    told_mine = np.zeros(ids.shape, bool)
    for cell, mine in truth.items():
        told[cell], told_mine[cell] = True, mine
    choices = [dict(zip([lk for lk, _ in groups], pick, strict=True))
               for pick in itertools.product(*(order for _, order in groups))]
    fits: list[tuple[dict[int, bool], npt.NDArray[np.bool_]]] = []
    for choice in choices:
        on = mines | (np.isin(ids, [lk for lk, mine in choice.items() if mine]) & turned
                      & ~fixed) | (kept & told_mine)
        on |= kept_on_mines(ids, on, kept & ~told, revealed)
        if _counts_fit(ids, adjacent_count(on), revealed, known):
            fits.append((choice, on & (turned | kept)))
    if not fits:
        on = np.isin(ids, [lk for lk, mine in choices[0].items() if mine]) & turned & ~fixed
        return on | kept_on_mines(ids, mines | on, kept, revealed), np.zeros(ids.shape, bool)
    sure = {lk for lk, order in groups if len(order) == 1 or known.get(lk) in _NAMED_TURN}
    split = {lk for lk, _ in groups if lk not in sure and
             len({choice[lk] for choice, _ in fits}) > 1}
    return fits[0][1], turned & np.isin(ids, list(split))


_NAMED_TURN = (MINE, EXPLODED, FLAG, WRONG_FLAG)


def _turned_groups(ids: IdGrid, turned: npt.NDArray[np.bool_], known: Mapping[int, int],
                   truth: Mapping[Cell, bool]) -> list[tuple[int, tuple[bool, ...]]]:
    """Each look flags ``turned`` into, with the choices to try for it in order (on a
    mine or not): the player's ``truth`` alone where it knows a flag of that look,
    first by the look's name where it has one, else no mine first (the usual way)."""
    groups: list[tuple[int, tuple[bool, ...]]] = []
    for look in np.unique(ids[turned]).tolist():
        told = {truth[(int(r), int(c))] for r, c in np.argwhere(turned & (ids == look))
                if (int(r), int(c)) in truth}
        if len(told) == 1:
            groups.append((look, (told.pop(),)))
        elif known.get(look) in (MINE, EXPLODED, FLAG):
            groups.append((look, (True, False)))
        else:
            groups.append((look, (False, True)))
    return groups


def _counts_fit(ids: IdGrid, counts: npt.NDArray[np.integer], revealed: npt.NDArray[np.bool_],
                known: Mapping[int, int]) -> bool:
    """Do the squares ``revealed`` count one number per look, a known one's own?"""
    if not _one_count_per_look(ids, counts, revealed):
        return False
    return all(counts[r, c] == known[int(ids[r, c])] for r, c in np.argwhere(revealed)
               if 0 <= known.get(int(ids[r, c]), -1) <= 8)


def kept_on_mines(ids: IdGrid, mines: npt.NDArray[np.bool_], kept: npt.NDArray[np.bool_],
                  revealed: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Which flags ``kept`` as they were at a loss are on mines: all of them (a wrong
    flag changes its look at a loss in most games) unless the squares ``revealed``
    then count their mines differently within one look, and a choice of fewer flags
    (the most of them, up to 6 flags) gives every look one count. gamelibgames draws a
    wrong flag as a flag at its loss: taken for a mine, "the game has 41 mines".

    >>> ids = np.array([[1, 1, 9, 2, 7], [1, 1, 1, 2, 7]])  # 1: a 0, 2: a 2, 7: a mine
    >>> kept = ids == 9  # a flag
    >>> bool(kept_on_mines(ids, ids == 7, kept, np.isin(ids, (1, 2))).any())  # (a 0 counts 1)
    False
    """
    cells = [(int(r), int(c)) for r, c in np.argwhere(kept)]
    if not cells or len(cells) > 6:
        return kept.copy()
    for n in range(len(cells), -1, -1):
        for chosen in itertools.combinations(cells, n):
            on = np.zeros(kept.shape, bool)
            for cell in chosen:
                on[cell] = True
            if _one_count_per_look(ids, adjacent_count(mines | on), revealed):
                return on
    return kept.copy()


def _one_count_per_look(ids: IdGrid, counts: npt.NDArray[np.integer],
                        revealed: npt.NDArray[np.bool_]) -> bool:
    pairs = set(zip(ids[revealed].tolist(), counts[revealed].tolist(), strict=True))
    return len(pairs) == len({look for look, _ in pairs})


def _old_looks(before: IdGrid, after: IdGrid, known: Mapping[int, int]) -> npt.NDArray[np.bool_]:
    """Squares of ``after`` in a look the board showed before the move, not known to be
    a mine: no mine is shown before a loss, so a covered square turned into such a look
    is no mine shown (kmines' graveyard-mayhem at 19 px: a covered tile with a zombie's
    head along its edge fell in one look with a covered tile over the window's ghost,
    which a fresh board shows: that look was named mine, and calibrate took no new game
    for fresh: "cannot find how to start a new game").

    >>> _old_looks(np.array([[0, 1, 0]]), np.array([[1, 1, 2]]), {}).tolist()
    [[True, True, False]]
    """
    mine_looks = [lk for lk, code in known.items() if code in (MINE, EXPLODED)]
    was = np.setdiff1d(np.unique(before), mine_looks)
    return np.asarray(np.isin(after, was))


def _covered_looks(after: IdGrid, known: Mapping[int, int]) -> npt.NDArray[np.bool_]:
    """Squares of ``after`` in a look named covered: a covered square that turned into
    one is no mine shown (kmines' graveyard-mayhem draws the burst of the mine hit a
    few pixels into the square above it; that look, one of a covered variant with no
    name, was named covered by its shade, so it was not taken for a spill, and that
    square was counted a shown mine: the covered look named mine).

    >>> _covered_looks(np.array([[3, 4]]), {3: COVERED, 4: MINE}).tolist()
    [[True, False]]
    """
    return np.asarray(np.isin(after, [lk for lk, code in known.items() if code == COVERED]))


def _number_looks(after: IdGrid, known: Mapping[int, int]) -> npt.NDArray[np.bool_]:
    """Squares of ``after`` in a look known to be a number: a covered square that
    turned into one was opened, no mine shown (minesweeper-mvc, whose losses show no
    mine: a frame of a new game's first move, its opened region read before the game
    had drawn all of it, was taken for a loss showing mines, and the looks of 0 to 3,
    learned in earlier games, were named mine).

    >>> _number_looks(np.array([[3, 4, 5]]), {3: 1, 4: MINE}).tolist()
    [[True, False, False]]
    """
    return np.asarray(np.isin(after, [lk for lk, code in known.items() if 0 <= code <= 8]))


def never_opened(before: IdGrid, prev: npt.NDArray[np.int8],
                 start: IdGrid) -> npt.NDArray[np.bool_]:
    """Squares of a look of no name (``prev`` UNKNOWN) that show in ``before`` the look
    they had in ``start``, the frame at the start of the game: no square opens into the
    look it had covered, so these were never opened, and no loss may count them as
    numbers (kmines' graveyard-mayhem draws its covered tiles over the window's
    background, a ghost, a frame's shadow: looks of their own, unnamed at the first
    losses, whose squares happened to count the same number and were named it). A
    game that starts with squares open shows them in their start look too: they are
    left unnamed in the losses of games before they have a name, not named covered.

    >>> before = np.array([[1, 5, 6]]); prev = np.array([[COVERED, UNKNOWN, UNKNOWN]], np.int8)
    >>> never_opened(before, prev, np.array([[1, 5, 1]])).tolist()
    [[False, True, False]]
    """
    return np.asarray((before == start) & (prev == UNKNOWN))


def unopened_looks(before: IdGrid, prev: npt.NDArray[np.int8], changed: npt.NDArray[np.bool_],
                   zeros: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """The unchanged squares of every look of no name (``prev`` UNKNOWN) that a loss
    would count as a 0 (``zeros``: no mine shown or hidden next to it) beside a covered
    square that stayed covered (above, below, left or right of it: a game whose 0s open
    only the squares beside them, react-minesweeper, leaves diagonal ones covered): no
    game leaves such a neighbour of a 0 covered, so that look is a covered square's variant
    (kmines' graveyard-mayhem draws its covered tiles translucent over a ghost in the
    window's background: such squares were named 0, and play read a fresh board's
    squares as 0s).

    >>> before = np.array([[0, 0, 0], [0, 5, 0], [7, 7, 7]])
    >>> prev = np.array([[-1, -1, -1], [-1, -7, -1], [-7, -7, -7]], np.int8)
    >>> still = np.zeros((3, 3), bool)
    >>> unopened_looks(before, prev, still, prev == -7).astype(int).tolist()
    [[0, 0, 0], [0, 1, 0], [1, 1, 1]]
    >>> unopened_looks(before, prev, still, np.zeros((3, 3), bool)).any()
    np.False_
    """
    by_covered = beside_any((prev == COVERED) & ~changed)
    looks = np.unique(before[zeros & by_covered & (prev == UNKNOWN)])
    return np.asarray(np.isin(before, looks) & (prev == UNKNOWN) & ~changed)


def drawn_covered(before: IdGrid, after: IdGrid, known: Mapping[int, int],
                  first: bool = False) -> IdGrid:
    """``before`` with each square of a look of no name that shows a covered look in
    ``after`` given that look: no square of a game in play turns covered, so it was
    covered all along, drawn over. With ``first`` (the game's first move, on a board
    of covered squares), also each square of a look of no name that changed at all is
    given a covered look: it was covered. (minesweeper-mvc writes "GET READY!" over a
    row of a new board until the first click; the row then turned covered, so the
    opened region was no flood around the click, and it was read as a loss showing
    44 mines, the game still going.)

    >>> drawn_covered(np.array([[7, 0, 8]]), np.array([[0, 0, 5]]), {0: COVERED}).tolist()
    [[0, 0, 8]]
    >>> drawn_covered(np.array([[7, 0, 8]]), np.array([[0, 0, 5]]), {0: COVERED}, True).tolist()
    [[0, 0, 0]]
    """
    looks = [lk for lk, code in known.items() if code == COVERED]
    unnamed = ~np.isin(before, list(known))
    out = np.where(unnamed & np.isin(after, looks), after, before)
    if first and looks:
        out[unnamed & (out != after)] = looks[0]
    return out.astype(before.dtype)


def is_flood(before: IdGrid, after: IdGrid, clicked: Sequence[Cell]) -> bool:
    """Did the click(s) change only a connected region around the clicked squares
    (opening squares), as opposed to squares far away (mines shown after a loss)?"""
    return all_reached(before != after, clicked)


def all_reached(squares: npt.NDArray[np.bool_], clicked: Sequence[Cell]) -> bool:
    """Does every 8-connected part of ``squares`` hold a clicked square?

    >>> all_reached(np.array([[True, True, False, True]]), [(0, 0)])
    False
    """
    n, labels = cv2.connectedComponents(squares.astype(np.uint8), connectivity=8)
    reached = {int(labels[cell]) for cell in clicked if squares[cell]}
    return set(range(1, n)) <= reached


def seen_mine_count(board: npt.NDArray[np.int8]) -> int | None:
    """How many mines a finished game's board (cell codes) shows, or None when the
    board does not prove it. Every square must be read; every number must count its
    neighbours among the squares taken for mines. A board showing mines (a loss) has
    at least two shown (a game that shows only the one hit tells nothing) and no
    question mark (some games leave a question-marked mine drawn as it is); the
    mines are its shown mines and flags. A board showing none (a win) has every
    square still hidden next to a number, so each is proved a mine; the mines are
    its covered, question-marked and flagged squares.

    >>> from solver.cells import COVERED as C, EXPLODED as X, MINE as M
    >>> seen_mine_count(np.array([[X, 2, M], [1, 2, 1], [0, 0, 0]], np.int8))  # a loss
    2
    >>> seen_mine_count(np.array([[C, 1, 0], [1, 1, 0]], np.int8))  # a win
    1
    >>> seen_mine_count(np.array([[C, C, 1], [C, 1, 1]], np.int8)) is None  # (0, 0) unproved
    True
    """
    if (board == UNKNOWN).any():
        return None
    numbers = (board >= 1) & (board <= 8)
    if np.isin(board, (MINE, EXPLODED)).any():
        if (board == QUESTION).any() or int(np.isin(board, (MINE, EXPLODED)).sum()) < 2:
            return None
        if ((board == FLAG) & (adjacent_count(numbers) == 0)).any():
            return None  # a flag no number counts: a mine, or a wrong flag drawn as it was
        mines = np.isin(board, MINE_CODES)
    else:
        mines = np.isin(board, (COVERED, QUESTION, FLAG))
        if (mines & (adjacent_count(numbers) == 0)).any():
            return None
    if not np.array_equal(adjacent_count(mines)[numbers], board[numbers]):
        return None
    return int(mines.sum())


def merge_mine_counts(old: Mapping[tuple[int, int], int | None],
                      seen: Iterable[tuple[tuple[int, int], int]],
                      ) -> tuple[dict[tuple[int, int], int | None], list[str]]:
    """A skin's mine counts by board size ``(rows, cols)``, with the counts ``seen``
    at the ends of games added, and a note for every size whose games disagree: such
    a size gets None (the game has no fixed count), and keeps it.

    >>> merge_mine_counts({(9, 9): 10}, [((16, 16), 45), ((16, 16), 45)])[0]
    {(9, 9): 10, (16, 16): 45}
    >>> counts, notes = merge_mine_counts({(16, 16): 40}, [((16, 16), 45)])
    >>> counts
    {(16, 16): None}
    >>> print(notes[0])  # doctest: +NORMALIZE_WHITESPACE
    mine count: games of 16x16 squares (rows x cols) had 40 and 45 mines: no fixed count
    recorded
    """
    counts: dict[tuple[int, int], int | None] = dict(old)
    by_size: dict[tuple[int, int], set[int]] = {}
    for size, n in seen:
        by_size.setdefault((int(size[0]), int(size[1])), set()).add(int(n))
    notes = []
    for size, found in sorted(by_size.items()):
        if size in counts and counts[size] is None:
            continue
        values = found | ({counts[size]} if counts.get(size) is not None else set())
        if len(values) == 1:
            counts[size] = values.pop()
        else:
            counts[size] = None
            listed = " and ".join(str(v) for v in sorted(v for v in values if v is not None))
            notes.append(f"mine count: games of {size[0]}x{size[1]} squares (rows x cols) "
                         f"had {listed} mines: no fixed count recorded")
    return counts, notes
