"""Name looks from screenshots of games still in play, with no end shown: which look is
the covered square, and the numbers the game's logic fixes.

A capture of a game in play (the commonest capture of Windows Minesweeper) shows no
mine, so no count names its numbers; but some layout of mines must fit every number on
it, and a 0 never borders a covered square (the game opens round a 0 by itself). With
the covered look known, :func:`vision.consistency_labels.names_if_any_fit` names the
numbers every fitting mapping agrees on. With no covered look known, each plain look
(no glyph: :func:`vision.ink.inkless`) seen on the most squares is tried as the covered
square; the names are taken only when exactly one of them lets some mapping fit (a 0
look taken for the covered square leaves every number the player opened away from an
opening with no covered square to count).

Marks (flags, question marks) are drawn on the covered square, so a look with a glyph
whose rim is the covered look's (:func:`rim_gap` within :data:`MARK_RIM`) is taken for
an unrevealed square here, and not named. Taking a number for one only loosens the
search; taking a mark for a number could make a wrong mapping the only fit, so a
look is a mark when in doubt. A number named must have a glyph and the 0 must have
none.

>>> import numpy as np
>>> covered = np.full((10, 10, 3), 190, np.uint8); covered[:2] = 250   # raised
>>> zero = np.full((10, 10, 3), 160, np.uint8); zero[0] = 100          # a grid line
>>> one, three, flag = zero.copy(), zero.copy(), covered.copy()
>>> one[3:8, 5] = 0; three[3:8, 4:7:2] = 0; flag[3:6, 4:7] = (0, 0, 255)
>>> images = {7: covered, 1: one, 2: zero, 4: three, 5: flag}
>>> ids = np.array([[7, 4, 7, 5],
...                 [7, 7, 7, 7],
...                 [1, 1, 1, 1],
...                 [2, 2, 2, 2]])
>>> name_in_play([ids], {}, images.__getitem__)     # 5 is a mark: not named
{1: 1, 2: 0, 7: -1}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from solver.cells import COVERED, FLAG, NUMBERS, UNREVEALED
from vision.consistency_labels import Alike, names_if_any_fit
from vision.ink import inkless

Image = npt.NDArray[np.uint8]
IdGrid = npt.NDArray[np.integer]

RIM_SHARE = 0.15
"""Width of a square's rim, as a share of its side (at least 2 pixels)."""

MARK_RIM = 4.0
"""Most :func:`rim_gap` between a look and the covered look for the look to be a mark
on it. Measured on the fixtures' captures in play: flags and question marks 0-3.5
(gnome-mines at 700x700, where an open square's rim is 3.5 from a covered one's);
numbers 3.0-128 (gnome-mines' small 1, taken for a mark: only a looser search)."""

COVERED_OPTIONS = 3
"""How many plain looks, the most seen first, are tried as the covered square."""

SET_ASIDE = 4
"""How many of the rarest looks :func:`name_in_play` takes for a mark, one at a time,
when nothing fits otherwise."""

SHADE_GAP = 12.0
"""Most a plain look may differ from the covered look, in rim and in fill, to be the
covered square's other shade (:func:`covered_shades`)."""

ASIDE_SQUARES = 2
"""Most squares of one frame a look taken for a mark that way shows (the pointer lights
one square; a number on many squares taken for a mark would only loosen the search,
and the names agreed by every choice would lose it)."""


def rim_gap(a: Image, b: Image, share: float = RIM_SHARE) -> float:
    """The median, over the pixels of the rim, of the largest channel difference
    between ``a`` and ``b``: 0 for two drawings on one square (a glyph seldom reaches
    the rim), large for a raised square against a flat one.

    >>> a = np.full((10, 10, 3), 190, np.uint8); b = a.copy(); b[4:6, 4:6] = 0
    >>> rim_gap(a, b)
    0.0
    >>> b[:2] = 250; rim_gap(a, b)   # a light edge along one side of four
    0.0
    >>> b[:, :2] = 250; b[-2:] = 90; rim_gap(a, b)
    60.0
    """
    if a.shape != b.shape:
        return float("inf")
    h, w = a.shape[:2]
    d = max(2, round(share * min(h, w)))
    rim = np.ones((h, w), bool)
    rim[d:h - d, d:w - d] = False
    diff = np.abs(a.astype(np.int16) - b.astype(np.int16)).max(axis=2)
    return float(np.median(diff[rim]))


def covered_options(frames: Sequence[IdGrid], known: Mapping[int, int],
                    plain: Callable[[int], bool], most: int = COVERED_OPTIONS) -> list[int]:
    """The looks to try as the covered square: the one named so, if any; else the
    ``most`` plain looks seen on the most squares (two at least)."""
    named = [look for look, code in known.items() if code == COVERED]
    if named:
        return named[:1]
    seen = Counter(v for ids in frames for v in np.asarray(ids).ravel().tolist())
    return [look for look, n in seen.most_common()
            if n > 1 and look not in known and plain(look)][:most]


def marks_on(looks: Sequence[int], covered: int, image_of: Callable[[int], Image],
             plain: Callable[[int], bool], opened: Sequence[int] = ()) -> set[int]:
    """The looks among ``looks`` with a glyph drawn on the covered square: their rim
    within :data:`MARK_RIM` of the covered look's, or nearer it than the rim of any
    plain look of ``opened`` (the open square; a capture scaled by 0.8 blurs a flag's
    rim to 6-21 from the covered square's, 34-84 from the open one's)."""
    cov = image_of(covered)
    out = set()
    for look in looks:
        if look == covered or plain(look):
            continue
        img = image_of(look)
        gap = rim_gap(img, cov)
        if gap <= MARK_RIM or any(gap < rim_gap(img, image_of(z)) for z in opened):
            out.add(look)
    return out


def name_in_play(frames: Sequence[IdGrid], known: Mapping[int, int],
                 image_of: Callable[[int], Image], mines: int | None = None,
                 alike: Alike | None = None) -> dict[int, int]:
    """Names for looks of ``frames`` (games in play, one skin and cell size) that the
    game's logic fixes (see the module doc): the covered look (when ``known`` names
    none) and numbers; {} when the frames do not settle it. ``image_of``: a look's
    image; ``mines``: the mine count of every frame, if known; ``alike(a, b)``: may two
    looks be one number drawn two ways (gnome-mines' squares at two sub-pixel phases).

    A covered look comes with its other shades (:func:`covered_shades`: Google's
    checkered board). When no covered look lets a mapping fit, each of the
    :data:`SET_ASIDE` rarest looks not named (on :data:`ASIDE_SQUARES` of a frame at
    most) is taken for a mark in turn (a highlighted square under the pointer is
    neither a number nor the covered look); the names are then those all the fitting
    choices agree on."""
    plain_memo: dict[int, bool] = {}

    def plain(look: int) -> bool:
        if look not in plain_memo:
            plain_memo[look] = inkless(image_of(look))
        return plain_memo[look]

    families: list[tuple[int, ...]] = []
    for covered in covered_options(frames, known, plain):
        if not any(covered in family for family in families):
            families.append((covered, *covered_shades(frames, known, covered, image_of, plain)))
    for aside in (False, True):
        fits = {family: names for family in families
                if (names := _fit(frames, known, family, image_of, plain, mines, alike,
                                  aside)) is not None}
        if fits:
            break
    if len(fits) != 1:
        return {}
    family, names = fits.popitem()
    out = {look: n for look, n in names.items()
           if n in NUMBERS and look not in known and plain(look) == (n == 0)}
    out.update({look: COVERED for look in family if known.get(look) not in UNREVEALED})
    return dict(sorted(out.items()))


def covered_shades(frames: Sequence[IdGrid], known: Mapping[int, int], covered: int,
                   image_of: Callable[[int], Image], plain: Callable[[int], bool]) -> list[int]:
    """The plain looks besides ``covered`` within :data:`SHADE_GAP` of it both in
    their rim (:func:`rim_gap`) and their fill colour (largest channel difference of
    the medians): the covered square's other shade on a checkered board (Google's
    greens: 8 apart). A covered square and a 0 of the fixtures' games differ by 24
    or more in one of the two (kmines' translucent squares: rims 24-27 apart)."""
    looks = {int(v) for ids in frames for v in np.unique(ids).tolist()}
    cov = image_of(covered)
    fill = np.median(cov.reshape(-1, cov.shape[2]), axis=0)
    out = []
    for look in sorted(looks - {covered} - set(known)):
        img = image_of(look)
        if not plain(look) or img.shape != cov.shape:
            continue
        gap = float(np.abs(np.median(img.reshape(-1, img.shape[2]), axis=0) - fill).max())
        if max(gap, rim_gap(img, cov)) <= SHADE_GAP:
            out.append(look)
    return out


def _fit(frames: Sequence[IdGrid], known: Mapping[int, int], family: tuple[int, ...],
         image_of: Callable[[int], Image], plain: Callable[[int], bool],
         mines: int | None, alike: Alike | None, aside: bool) -> dict[int, int] | None:
    """The names agreed with the looks of ``family`` for the covered square (None:
    nothing fits, or the marks on it would be most of the squares with a glyph: a 0
    taken for the covered square makes marks of the numbers). ``aside``: also each
    rare look taken for a mark in turn (see :func:`name_in_play`)."""
    covered = family[0]
    looks = Counter(v for ids in frames for v in np.asarray(ids).ravel().tolist())
    unnamed = [lk for lk in looks if lk not in known and lk not in family]
    opened = [lk for lk in looks if lk not in family and looks[lk] > 1 and plain(lk)
              and known.get(lk, 0) == 0]
    marks = marks_on(unnamed, covered, image_of, plain, opened)
    inked = [lk for lk in looks if lk not in family and not plain(lk)]  # (named numbers
    # too: with them named from a win, four flags were all the glyphs left, and the
    # pygame game's covered look was refused as its marks' only square with a glyph)
    if sum(looks[lk] for lk in marks) * 2 >= max(1, sum(looks[lk] for lk in inked)):
        return None
    base = {**known, **dict.fromkeys(family[1:], COVERED), **dict.fromkeys(marks, FLAG)}
    if not aside:
        return names_if_any_fit(frames, base, covered, mines, set_aside=0, alike=alike)
    most = {lk: max(int((np.asarray(ids) == lk).sum()) for ids in frames) for lk in unnamed}
    rare = sorted((lk for lk in unnamed if lk not in marks and most[lk] <= ASIDE_SQUARES),
                  key=lambda lk: (looks[lk], lk))
    agreed: dict[int, int] | None = None
    for look in rare[:SET_ASIDE]:
        names = names_if_any_fit(frames, {**base, look: FLAG}, covered, mines, set_aside=0,
                                 alike=alike)
        if names is not None:
            agreed = names if agreed is None else {
                lk: n for lk, n in agreed.items() if names.get(lk) == n}
    return agreed
