"""Read a square by its glyph, at any cell size: the fallback for squares that
:mod:`vision.read` leaves unknown.

gnome-mines draws its digits, flags and mines at a size not in proportion to its tiles,
so the template reader (every square resampled to one size) only reads window sizes
near the ones its templates were cut at. Here a square is described by

- its **background**: the per-channel median colour of its central part (a flat tile,
  covered, open 0 or hovered, is told apart by this alone);
- its **glyph**: the pixels clearly different from that background, cut to their
  bounding box and resized to ``GLYPH`` x ``GLYPH`` (ink strength 0-1, from the largest
  channel difference), the box's aspect ratio and height in pixels, and the glyph's
  **colour** (mean of its strongest pixels).

Templates (``skin.cells``, each cut at its own pitch) are described the same way. A
glyph square and a glyph template are compared at the smaller of their two glyph
heights (rounded to ``HEIGHTS``): the taller one is first shrunk to it, at a few
sub-pixel offsets (``PHASES``; the nearest counts), so that both carry the same blur
and rounding (a flag 8 px tall keeps its tiny "?" only as a smudge). A square is
recognised only when its central part is framed by its background (``RING_SHARE``: not
cut across two tiles or a window's edge), its nearest template matches it in
background, glyph colour, glyph shape and glyph position (``BG_TOL``, ``COLOUR_TOL``,
``SHAPE_TOL``, ``CENTRE_TOL``) and that template's state is clearly closer than every
other state (``MARGIN``, as in the template reader), or, when two states are that close
(a flag and a flag with a tiny "?"), clearly nearer over the part of the glyph where
their nearest templates differ (``PAIR_MARGIN``); otherwise it stays ``UNKNOWN``.
As the template reader's fallback it reads only squares at a size the skin has no
template of.

Public: :func:`fill_unknown` (what ``read_board`` calls), :func:`read_cells`,
:func:`classify_cells`, :func:`glyph_bank` (cached per skin, built from ``skin.cells``
alone: a calibrated skin needs nothing more), :func:`look_of`, :func:`cut_cell`.

>>> from vision.skin import Skin, load_skin
>>> from solver.cells import EXPLODED, FLAG, MINE, QUESTION
>>> shipped = load_skin("gnome-mines")
>>> marks = (FLAG, QUESTION, MINE, EXPLODED)
>>> cells = {c: tuple(i for i in shipped.cells[c] if i.shape[0] == 60) for c in marks}
>>> bank = glyph_bank(Skin("60px", "", (60.0, 60.0), cells, {}, {}))   # cut at 60 px
>>> small = [(c, i) for c in marks for i in shipped.cells[c] if i.shape[0] == 35]
>>> [int(c) for c in classify_cells([i for _, i in small], bank)] == [c for c, _ in small]
True
"""

from __future__ import annotations

import bisect
import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from solver.cells import FLAG, QUESTION, UNKNOWN, Board
from vision.geometry import BoardGeometry
from vision.skin import Image, Skin

F32 = npt.NDArray[np.float32]
Codes = npt.NDArray[np.int8]

GLYPH = 12
"""Side of the square every glyph's bounding box is resized to."""
INSET = 0.14
"""Share of the pitch left out on every side (gaps, grid lines, rounded corners)."""
MODE_SHARE = 0.2
"""A square's background is its commonest colour where that many of its central part's
pixels have it (``_background``), else the per-channel median."""
INK_MIN = 40
"""A square whose pixels all lie within this of its background (largest channel
difference, 0-255) is flat: it has no glyph."""
BOX_SHARE = 0.35
"""Pixels with at least this share of the square's strongest ink make the glyph's box."""
CORE_SHARE = 0.75
"""Pixels with at least this share of the strongest ink give the glyph's colour."""
HEIGHTS = (5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 18, 20, 22, 24, 27, 30, 33, 36, 40, 45)
"""Glyph heights (px) a glyph is shrunk to before it is compared with a smaller one."""
PHASES = (-0.5, -0.25, 0.0, 0.25)
"""Sub-pixel offsets (pixels of the shrunk glyph, a quarter-pixel grid over one pixel)
a glyph is also shrunk at, in x and y, while it is at most PHASED_TO px tall (a small
glyph's look depends on where it falls on the pixel grid)."""
PHASED_TO = 30
"""Up to 30 px, not 16: a thin flag pole and a small "?" at 20-27 px still change with
their offset (two live skins' question marks met 23 and 26 px ones at 0.78 of the flag's
score, past MARGIN, with offsets only up to 16 px; at 0.28 with them up to 30 px)."""
SQUARE_PHASES = (-1 / 3, 0.0, 1 / 3)
"""The coarser grid a square is shrunk at to meet a template smaller than SHRINK_FROM
(a shrink per offset and square, where a template's offsets are shrunk once)."""
SHRINK_FROM = 12
"""Templates whose glyph is at least this tall are compared one height lower (shrunk,
with their offsets) with squares at least as tall: one shrink of the square, not one
per offset. Smaller ones are not shrunk (a 7 px flag shrunk to 6 px passes for a
question mark)."""

BG_TOL = 6.0
"""Largest background difference (max channel) of a recognised square to its nearest
template (the template reader's tolerance)."""
COLOUR_TOL = 70.0
"""Largest glyph colour difference (max channel): small glyphs blend with their tile."""
SHAPE_TOL = 0.35
"""Largest root mean squared difference of the ink maps (0-1)."""
MARGIN = 0.75
"""The best state's score must be at most this fraction of the next state's."""
BG_SCALE = 10.0
COLOUR_SCALE = 150.0
COLOUR_FREE = 25.0
ASPECT_WEIGHT = 0.25
"""Score = shape distance + background gap / BG_SCALE + max(0, colour gap - COLOUR_FREE)
/ COLOUR_SCALE + ASPECT_WEIGHT * |difference of log aspect ratios|; a flat square
against a glyph (or back) never matches."""
RING_TOL = 12
RING_SHARE = 0.9
"""At least this share of the 1 px frame of a square's central part must lie within
RING_TOL of its background (the tile fills it; glyphs stay inside): a square cut across
two tiles, a gap or a dialog's edge (a misplaced lattice, a window over the board) is
unknown."""
AS_THEY_ARE = True
"""Glyph squares are also compared with the templates as they are (``_agreed``)."""
AGAINST = 0.8
"""A glyph read at the smaller height is left unknown when, compared as it is, another
state's template is nearer than this fraction of the read state's (``_against``)."""
RIM = 8
"""Samples per side of a frame profile (``frame_profile``)."""
RIM_TOL = 0.25
"""A square not framed by its background (its glyph reaches the frame: classic games
draw digits, flags and mines that fill the tile, so at another cell size they touch the
central part's frame as their templates do) is recognised only if a template of the
state it is read as touches the frame where it does: on every side, the mean difference
of the two frame profiles is at most this (a tile's edge or a grid line along a side,
as a misplaced lattice cuts it, differs there by about 1)."""
CENTRE_TOL = 0.1
"""Largest offset (share of the central part) between the centres of a square's glyph
box and its nearest template's: a glyph off its place is another square's."""
SAME_HEIGHT = 1.0
"""A glyph within this many px of the height of a template of its background was the
template reader's to judge (the fallback leaves it unknown)."""
PAIR_MARGIN = 0.5
"""A square the MARGIN leaves between its two nearest states (two looks alike but for a
small part: gnome-mines' flag and its question mark, the same flag with a tiny "?") is
given the nearer state when, over the part of the glyph where the two states' nearest
templates differ (each ink cell weighted by how much they differ there, less
PAIR_NOISE), it is at most this fraction as far from that template as from the other,
and that template passes every other test."""
PAIR_NOISE = 0.1
"""Ink differences (0-1) up to this between the two templates are blur and sub-pixel
rounding, not a part of one glyph the other lacks."""
SPOT_NOISE = 10.0
"""Colour differences (max channel, 0-255) up to this between a flag template and a
question template of one size are rounding, not the question's spot (``_spot``)."""
SPOT_FLAG = 0.08
SPOT_QUESTION = 0.14
"""A square bigger than its marks' templates, between a flag and a question mark, is a
flag when, shrunk to those templates' size, it is at most SPOT_FLAG of the two
templates' distance from the flag over the spot where they differ, and a question mark
when at least SPOT_QUESTION of it (``_mark_by_spot``). Every flag and question mark of
the gnome-mines fixtures against the shipped templates of one size (23, 30, 35, 41 or
60 px) or a skin calibrated at 23 px: flags 0.00-0.05, question marks 0.20-1.05 (a
"?" drawn anew at a larger size has ink in that spot, though not just where the small
one's smudge was)."""
MARKS = (FLAG, QUESTION)
"""The player's marks are read by glyph only when the skin has templates of both: each
is the other's nearest look (gnome-mines draws its question mark as a flag with a tiny
"?"), so with one of them missing the other would be taken for it."""


@dataclass(frozen=True, eq=False)
class Looks:
    """Descriptors of n squares (or templates), one row each."""

    backgrounds: F32  # (n, 3) BGR
    flat: npt.NDArray[np.bool_]  # (n,) no glyph
    shapes: F32  # (n, GLYPH * GLYPH) ink strength in the glyph's box; 0 when flat
    colours: F32  # (n, 3) glyph colour; the background when flat
    aspects: F32  # (n,) log(box width / box height); 0 when flat
    heights: F32  # (n,) box height in pixels; 0 when flat
    centres: F32  # (n, 2) box centre minus the part's centre (share of its size); 0s flat

    def __len__(self) -> int:
        return len(self.flat)

    def take(self, rows: npt.NDArray[np.intp]) -> Looks:
        """The looks of ``rows`` only."""
        return Looks(self.backgrounds[rows], self.flat[rows], self.shapes[rows],
                     self.colours[rows], self.aspects[rows], self.heights[rows],
                     self.centres[rows])


Row = tuple[F32, bool, F32, F32, float, float, F32]
"""One look: background, flat, shape, colour, aspect, height, centre."""


@dataclass(frozen=True, eq=False)
class Source:
    """A square's (or template's) central part, its background and its look."""

    part: Image
    bg: npt.NDArray[np.uint8]
    look: Row
    box: tuple[int, int, int, int]  # the glyph's (x, y, w, h) in ``part``; 0s when flat
    framed: bool  # the part's frame is the background (RING_SHARE)


def _median(part: Image) -> npt.NDArray[np.uint8]:
    """Per-channel median colour (the lower middle value: a pixel colour that occurs)."""
    px = part.reshape(-1, 3)
    return np.asarray(np.partition(px, len(px) // 2, axis=0)[len(px) // 2], np.uint8)


def _background(part: Image) -> npt.NDArray[np.uint8]:
    """The part's commonest colour where at least MODE_SHARE of its pixels have it, else
    the per-channel median.

    A glyph filling about half the tile, blurred (a WineMine mine stretched 1.5x
    bilinearly), puts the median on its blurred edge, 16-40 from the tile's colour;
    the tile's flat pixels keep their exact colour.

    >>> part = np.zeros((10, 10, 3), np.uint8); part[:, :4] = 128   # tile: 40 %
    >>> part[:, 4:] = np.arange(6, dtype=np.uint8)[None, :, None] * 10  # a blurred glyph
    >>> _median(part).tolist(), _background(part).tolist()
    ([50, 50, 50], [128, 128, 128])
    """
    px = part.reshape(-1, 3)
    median = _median(part)
    if 2 * np.count_nonzero((px == median).all(axis=1)) > len(px):
        return median  # over half the pixels: the commonest (most squares, cheaply)
    packed = (px[:, 0].astype(np.int32) << 16) | (px[:, 1].astype(np.int32) << 8) | px[:, 2]
    values, counts = np.unique(packed, return_counts=True)
    top = int(np.argmax(counts))
    if counts[top] < MODE_SHARE * len(px):
        return median
    v = int(values[top])
    return np.array([v >> 16, (v >> 8) & 255, v & 255], np.uint8)


def _ink(part: Image, bg: npt.NDArray[np.uint8]) -> Image:
    """Largest channel difference of every pixel from ``bg``."""
    scalar = (float(bg[0]), float(bg[1]), float(bg[2]), 0.0)  # per channel, no image
    diff = cv2.absdiff(part, scalar)  # type: ignore[call-overload]
    return np.asarray(cv2.reduce(diff.reshape(-1, 3), 1, cv2.REDUCE_MAX), np.uint8).reshape(
        part.shape[:2])


Box = tuple[int, int, int, int]


def _glyph(part: Image, bg: npt.NDArray[np.uint8], ink: Image | None = None) -> tuple[
        Row, Box]:
    """The look of a square's central part (BGR) on background ``bg``, and the glyph's
    box (x, y, w, h): the pixels with at least BOX_SHARE of the strongest ink."""
    bgf = bg.astype(np.float32)
    ink = _ink(part, bg) if ink is None else ink
    peak = int(cv2.minMaxLoc(ink)[1])
    if peak < INK_MIN:
        return (bgf, True, np.zeros(GLYPH * GLYPH, np.float32), bgf, 0.0, 0.0,
                np.zeros(2, np.float32)), (0, 0, 0, 0)
    x, y, w, h = (int(v) for v in cv2.boundingRect(
        np.asarray(ink >= BOX_SHARE * peak, np.uint8)))
    box = ink[y:y + h, x:x + w].astype(np.float32) * np.float32(1.0 / peak)
    shape = np.asarray(cv2.resize(box, (GLYPH, GLYPH), interpolation=cv2.INTER_AREA),
                       np.float32).reshape(-1)
    core = np.asarray(ink >= CORE_SHARE * peak, np.uint8)
    colour = np.array(cv2.mean(part, mask=core)[:3], np.float32)
    centre = np.array([(x + w / 2) / part.shape[1] - 0.5, (y + h / 2) / part.shape[0] - 0.5],
                      np.float32)
    return (bgf, False, shape, colour, float(np.log(w / h)), float(h), centre), (x, y, w, h)


def _framed(ink: Image) -> bool:
    """Whether at least RING_SHARE of the frame of ``ink`` is within RING_TOL."""
    frame = np.concatenate([ink[0], ink[-1], ink[1:-1, 0], ink[1:-1, -1]])
    return bool(np.count_nonzero(frame <= RING_TOL) >= RING_SHARE * len(frame))


def frame_profile(ink: Image) -> F32:
    """Where ink (above RING_TOL) touches the frame of a square's central part: each side
    (top, bottom, left, right) resampled to RIM shares, so parts of any size compare.

    >>> ink = np.zeros((12, 12), np.uint8); ink[-1, 3:9] = 255   # a base on the bottom
    >>> frame_profile(ink)[:2].tolist()                          # top, bottom
    [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0]]
    """
    sides = (ink[0], ink[-1], ink[:, 0], ink[:, -1])
    return np.array([cv2.resize(np.asarray(side > RING_TOL, np.float32).reshape(1, -1),
                                (RIM, 1), interpolation=cv2.INTER_AREA).reshape(-1)
                     for side in sides], np.float32)


def _rims(cell: Image) -> F32:
    """Frame profiles of a template's central part with its frame one pixel further out,
    where it is, and one pixel in (the part of a square of another size is cut at its
    own rounded inset: its frame may fall up to a pixel of the template off the
    template's)."""
    h, w = cell.shape[:2]
    dy, dx = round(h * INSET), round(w * INSET)
    part = cell[dy:max(h - dy, dy + 1), dx:max(w - dx, dx + 1)]
    ink = _ink(np.ascontiguousarray(cell), _background(np.ascontiguousarray(part)))
    out = []
    for d in (-1, 0, 1):
        y0, x0 = max(0, dy + d), max(0, dx + d)
        y1, x1 = min(h, max(h - dy - d, y0 + 1)), min(w, max(w - dx - d, x0 + 1))
        out.append(frame_profile(ink[y0:y1, x0:x1]))
    return np.array(out, np.float32)


def _source(cell: Image) -> Source:
    """A square's central part, background and look, from its pitch square."""
    h, w = cell.shape[:2]
    dy, dx = round(h * INSET), round(w * INSET)
    part = np.ascontiguousarray(cell[dy:max(h - dy, dy + 1), dx:max(w - dx, dx + 1)])
    bg = _background(part)
    ink = _ink(part, bg)
    return Source(part, bg, *_glyph(part, bg, ink), _framed(ink))


def _stack(rows: Sequence[Row]) -> Looks:
    return Looks(np.array([r[0] for r in rows], np.float32).reshape(-1, 3),
                 np.array([r[1] for r in rows], bool),
                 np.array([r[2] for r in rows], np.float32).reshape(-1, GLYPH * GLYPH),
                 np.array([r[3] for r in rows], np.float32).reshape(-1, 3),
                 np.array([r[4] for r in rows], np.float32),
                 np.array([r[5] for r in rows], np.float32),
                 np.array([r[6] for r in rows], np.float32).reshape(-1, 2))


def look_of(cell: Image) -> Looks:
    """The look of one square, given as its pitch square (BGR, any size)."""
    return _stack([_source(cell).look])


def _shrunk(source: Source, height: int, phase: tuple[float, float] = (0.0, 0.0)) -> Row:
    """The look with the glyph shrunk to ``height`` px (shifted by ``phase`` shrunk
    pixels first); as it is when flat or not taller."""
    row = source.look
    if row[1] or height >= row[5]:
        return row
    x, y, w, h = source.box
    s = height / h
    pad = int(np.ceil(2 / s))
    region = np.empty((h + 2 * pad, w + 2 * pad, 3), np.uint8)
    region[:] = source.bg
    region[pad:-pad, pad:-pad] = source.part[y:y + h, x:x + w]
    if phase != (0.0, 0.0):
        shift = np.array([[1, 0, phase[0] / s], [0, 1, phase[1] / s]], np.float32)
        region = np.asarray(cv2.warpAffine(region, shift, region.shape[1::-1],
                                           flags=cv2.INTER_LINEAR,
                                           borderMode=cv2.BORDER_REPLICATE), np.uint8)
    size = (max(1, round(region.shape[1] * s)), max(1, round(region.shape[0] * s)))
    small = np.asarray(cv2.resize(region, size, interpolation=cv2.INTER_AREA), np.uint8)
    out = _glyph(small, source.bg)[0]
    return row if out[1] else (*out[:6], row[6])  # the centre where it was cut


def _phases(height: int, grid: tuple[float, ...] = PHASES) -> list[tuple[float, float]]:
    """The (dx, dy) offsets a glyph shrunk to ``height`` px is cut at."""
    if height > PHASED_TO:
        return [(0.0, 0.0)]
    return [(dx, dy) for dy in grid for dx in grid]


@dataclass(frozen=True, eq=False)
class GlyphBank:
    """A skin's templates as looks: as cut (``native``) and, built when first needed,
    shrunk to a height of HEIGHTS (:meth:`shrunk`)."""

    sources: tuple[Source, ...]
    native: Looks
    codes: Codes  # state of each template
    levels: npt.NDArray[np.intp]  # index in HEIGHTS of each glyph template's height
    states: Codes  # the distinct codes, sorted
    cells: tuple[Image, ...]  # each template as cut
    _rim_cache: dict[int, F32] = field(default_factory=dict)  # code -> rims(code)
    _shrunk: dict[tuple[int, int], Looks] = field(default_factory=dict)
    memo: dict[bytes, int] = field(default_factory=dict)  # square digest -> code

    def rims(self, code: int) -> F32:
        """Frame profiles (one pixel out, at and in: ``_rims``) of every template of
        state ``code``, (templates, 3, 4, RIM); built when first needed."""
        if code not in self._rim_cache:
            self._rim_cache[code] = np.array([_rims(img) for img, c in zip(
                self.cells, self.codes.tolist(), strict=True) if c == code],
                np.float32).reshape(-1, 3, 4, RIM)
        return self._rim_cache[code]

    def shrunk(self, level: int, templates: npt.NDArray[np.intp]) -> tuple[Looks, Codes]:
        """The looks of ``templates`` shrunk to HEIGHTS[level] (one row per offset) and
        the state of every row."""
        parts, codes = [], []
        for t in templates.tolist():
            key = (level, t)
            if key not in self._shrunk:
                self._shrunk[key] = _stack([_shrunk(self.sources[t], HEIGHTS[level], p)
                                            for p in _phases(HEIGHTS[level])])
            parts.append(self._shrunk[key])
            codes.extend([self.codes[t]] * len(self._shrunk[key]))
        return _concat(parts), np.array(codes, np.int8)


def _concat(looks: Sequence[Looks]) -> Looks:
    return Looks(np.concatenate([lk.backgrounds for lk in looks]),
                 np.concatenate([lk.flat for lk in looks]),
                 np.concatenate([lk.shapes for lk in looks]),
                 np.concatenate([lk.colours for lk in looks]),
                 np.concatenate([lk.aspects for lk in looks]),
                 np.concatenate([lk.heights for lk in looks]),
                 np.concatenate([lk.centres for lk in looks]))


_BANKS: dict[int, tuple[Skin, GlyphBank]] = {}


def glyph_bank(skin: Skin) -> GlyphBank:
    """The looks of the skin's cell templates (cached per skin object)."""
    hit = _BANKS.get(id(skin))
    if hit is not None and hit[0] is skin:
        return hit[1]
    sources, codes = [], []
    for code in sorted(skin.cells):
        for img in skin.cells[code]:
            sources.append(_source(np.ascontiguousarray(img)))
            codes.append(code)
    native = _stack([s.look for s in sources])
    code_arr = np.array(codes, np.int8)
    levels = np.array([_level(float(h)) for h in native.heights], np.intp)
    cells = tuple(np.ascontiguousarray(img) for code in sorted(skin.cells)
                  for img in skin.cells[code])
    bank = GlyphBank(tuple(sources), native, code_arr, levels,
                     np.unique(code_arr).astype(np.int8), cells)
    if len(_BANKS) > 8:
        _BANKS.clear()
    _BANKS[id(skin)] = (skin, bank)
    return bank


_LEVEL_EDGES = tuple(math.sqrt(a * b) for a, b in zip(HEIGHTS[:-1], HEIGHTS[1:], strict=True))


def _level(height: float) -> int:
    """The index of the height in HEIGHTS nearest (by ratio) to ``height`` px.

    >>> [HEIGHTS[_level(h)] for h in (1, 8, 8.4, 8.6, 17.1, 100)]
    [5, 8, 8, 9, 18, 45]
    """
    return bisect.bisect(_LEVEL_EDGES, height)


_NONE = np.zeros((0, 0), np.float32)  # cv2.gemm's absent third matrix

Gaps = tuple[F32, F32, F32, F32, F32]
"""(score, background gap, colour gap, shape distance, centre gap), each (squares,
templates)."""


def _gaps(cells: Looks, t: Looks) -> Gaps:
    bg_gap = np.abs(cells.backgrounds[:, None, :] - t.backgrounds[None, :, :]).max(axis=2)
    col_gap = np.abs(cells.colours[:, None, :] - t.colours[None, :, :]).max(axis=2)
    a, b = cells.shapes, t.shapes  # |a - b|^2 = |a|^2 + |b|^2 - 2 a.b, one product
    # OpenCV's product, not numpy's: OpenBLAS threads would spin on the other core after it
    ab = np.asarray(cv2.gemm(a, b, 1.0, _NONE, 0.0, flags=cv2.GEMM_2_T), np.float32)
    sq = (a * a).sum(axis=1)[:, None] + (b * b).sum(axis=1)[None, :] - 2.0 * ab
    shape = np.sqrt(np.maximum(sq, 0.0) / a.shape[1])
    aspect = np.abs(cells.aspects[:, None] - t.aspects[None, :])
    colour = np.maximum(col_gap - COLOUR_FREE, 0.0) / COLOUR_SCALE
    score = shape + bg_gap / BG_SCALE + colour + ASPECT_WEIGHT * aspect
    score[cells.flat[:, None] != t.flat[None, :]] = np.inf
    centre = np.abs(cells.centres[:, None, :] - t.centres[None, :, :]).max(axis=2)
    return score, bg_gap, col_gap, shape, centre


def _only_near(gaps: Gaps, near: npt.NDArray[np.bool_]) -> Gaps:
    """``gaps`` with every square's score (and shape distance) to a template not ``near``
    it (squares x templates: of another background) infinite, so that a square is read
    the same whichever squares it is read with.

    >>> one = np.ones((1, 2), np.float32)
    >>> _only_near((one, one, one, one, one), np.array([[True, False]]))[3].tolist()
    [[1.0, inf]]
    """
    score, bg_gap, col_gap, shape, centre = gaps
    return (np.where(near, score, np.inf).astype(np.float32), bg_gap, col_gap,
            np.where(near, shape, np.inf).astype(np.float32), centre)


def _decide(gaps: Gaps, codes: Codes, states: Codes) -> Codes:
    """The state of every square from its gaps to templates of states ``codes``
    (a state with no template here counts as infinitely far)."""
    score, bg_gap, col_gap, shape, centre = gaps
    per_state = np.stack([score[:, codes == s].min(axis=1, initial=np.inf) for s in states],
                         axis=1)
    order = np.argsort(per_state, axis=1)
    rows = np.arange(len(score))
    best = per_state[rows, order[:, 0]]
    second = per_state[rows, order[:, 1]] if len(states) > 1 else np.full(len(rows), np.inf)
    near = np.argmin(score, axis=1)
    sure = np.isfinite(best) & (best <= MARGIN * second) & (bg_gap[rows, near] <= BG_TOL)
    sure &= (col_gap[rows, near] <= COLOUR_TOL) & (shape[rows, near] <= SHAPE_TOL)
    sure &= centre[rows, near] <= CENTRE_TOL
    out = states[order[:, 0]].astype(np.int8)
    out[~sure] = UNKNOWN
    return out


@dataclass(frozen=True, eq=False)
class Compared:
    """The ink maps behind a group's gaps: every column's template shape and, per square
    and column, the square's shape at the offset that column was compared at."""

    templates: F32  # (columns, GLYPH * GLYPH)
    squares: tuple[F32, ...]  # per meet height: (squares, offsets, GLYPH * GLYPH)
    part: npt.NDArray[np.intp]  # (columns,) index into ``squares``
    pick: npt.NDArray[np.intp]  # (squares, columns) the offset each column met
    bank_index: npt.NDArray[np.intp]  # (columns,) the template each column is of

    def square(self, row: int, column: int) -> F32:
        """The shape of square ``row`` as compared with ``column``."""
        return self.squares[int(self.part[column])][row, int(self.pick[row, column])]


def _glyph_gaps(cells: Sequence[Source], level: int, bank: GlyphBank,
                templates: npt.NDArray[np.intp]) -> tuple[Gaps, Codes, Compared]:
    """Gaps of glyph squares about HEIGHTS[level] tall to the glyph ``templates``, the
    state of every column, and the ink maps compared.

    Each pair is compared at the smaller of the two heights, where a template at least
    SHRINK_FROM px tall is always shrunk (one height lower) so that it brings its
    sub-pixel offsets; a square shrunk to a smaller template brings its own."""
    native = bank.levels[templates]
    below = native - (np.array(HEIGHTS)[native] >= SHRINK_FROM)
    meet = np.minimum(below, level)
    gaps: list[list[F32]] = [[], [], [], [], []]
    codes: list[Codes] = []
    shapes: list[F32] = []
    squares: list[F32] = []
    parts: list[npt.NDArray[np.intp]] = []
    picks: list[npt.NDArray[np.intp]] = []
    owners: list[npt.NDArray[np.intp]] = []
    for m in np.unique(meet).tolist():
        looks, states = bank.shrunk(m, templates[meet == m])
        per = len(looks) // int((meet == m).sum())  # rows (offsets) per template
        owners.append(np.repeat(templates[meet == m], per))
        # unshrunk templates: the square brings the offsets (each column's own, so that a
        # square's gaps never depend on which other templates its group compares)
        own = np.repeat(native[meet == m] == m, per) & (m < level)
        phases = _phases(HEIGHTS[m], SQUARE_PHASES) if own.any() else [(0.0, 0.0)]
        mine = _stack([_shrunk(c, HEIGHTS[m], p) if m < level else c.look
                       for c in cells for p in phases])
        score, *rest = _gaps(mine, looks)
        score = score.reshape(len(cells), len(phases), -1)
        unmoved = phases.index((0.0, 0.0))
        pick = np.where(own, np.argmin(score, axis=1), unmoved)[:, None, :]
        parts_ = [score] + [r.reshape(score.shape) for r in rest]
        for whole, part in zip(gaps, parts_, strict=True):
            whole.append(np.take_along_axis(part, pick, axis=1)[:, 0, :])
        codes.append(states)
        shapes.append(looks.shapes)
        parts.append(np.full(len(looks), len(squares), np.intp))
        squares.append(mine.shapes.reshape(len(cells), len(phases), -1))
        picks.append(pick[:, 0, :])
    joined = [np.concatenate(g, axis=1) for g in gaps]
    compared = Compared(np.concatenate(shapes), tuple(squares), np.concatenate(parts),
                        np.concatenate(picks, axis=1), np.concatenate(owners))
    return ((joined[0], joined[1], joined[2], joined[3], joined[4]), np.concatenate(codes),
            compared)


def _passes(gaps: Gaps, row: int, column: int) -> bool:
    """Whether square ``row`` is close enough to template ``column`` in every way."""
    _, bg_gap, col_gap, shape, centre = gaps
    return bool(bg_gap[row, column] <= BG_TOL and col_gap[row, column] <= COLOUR_TOL
                and shape[row, column] <= SHAPE_TOL and centre[row, column] <= CENTRE_TOL)


def _part_distance(square: F32, near: F32, far: F32) -> float:
    """Root mean squared difference of ``square`` to ``near`` over the ink cells where
    ``near`` and ``far`` differ, each weighted by how much (less PAIR_NOISE).

    >>> near, far = np.array([1.0, 0.0, 0.0]), np.array([1.0, 1.0, 0.0])  # cell 1 differs
    >>> round(_part_distance(np.array([0.0, 0.1, 0.5]), near, far), 3)  # cells 0, 2 ignored
    0.1
    """
    weight = np.maximum(np.abs(near - far) - PAIR_NOISE, 0.0)
    total = float(weight.sum())
    if total <= 0.0:
        return math.inf
    return math.sqrt(float((weight * (square - near) ** 2).sum()) / total)


def _settle_pairs(gaps: Gaps, codes: Codes, compared: Compared, out: Codes,
                  squares: Sequence[Source], bank: GlyphBank) -> Codes:
    """``out`` with its unknown squares given their nearest state where the MARGIN alone
    left them between two states and the part where those differ decides (PAIR_MARGIN),
    or, between a flag and a question mark, the spot where their templates differ
    (``_mark_by_spot``)."""
    score = gaps[0]
    for row in np.flatnonzero(out == UNKNOWN).tolist():
        order = np.argsort(score[row])
        a = int(order[0])
        if not np.isfinite(score[row, a]) or not _passes(gaps, row, a):
            continue
        others = order[codes[order] != codes[a]]
        if not len(others) or not np.isfinite(score[row, int(others[0])]):
            continue
        b = int(others[0])
        near, far = compared.templates[a], compared.templates[b]
        mine = _part_distance(compared.square(row, a), near, far)
        theirs = _part_distance(compared.square(row, b), far, near)
        if mine <= PAIR_MARGIN * theirs:
            out[row] = codes[a]
        elif {int(codes[a]), int(codes[b])} == set(MARKS):
            out[row] = _mark_by_spot(squares[row], bank)
    return out


def _spot(flag: F32, question: F32) -> F32:
    """Where a question template has ink that a flag template of its size has not, once
    the question is moved onto the flag (``_moved_onto``: gnome-mines draws the flag of
    its question mark a pixel off its plain flag at some sizes): each pixel's largest
    channel difference less SPOT_NOISE, where the question is further from the flag's
    background than the flag is (0 elsewhere)."""
    question = _moved_onto(question, flag)
    bg = np.median(flag.reshape(-1, 3), axis=0)
    further = np.abs(question - bg).max(axis=2) > np.abs(flag - bg).max(axis=2)
    diff = np.abs(flag - question).max(axis=2)
    return cast(F32, np.where(further, np.maximum(diff - SPOT_NOISE, 0.0), 0.0))


def _moved_onto(part: F32, template: F32) -> F32:
    """``part`` at the offset (up to a pixel, half-pixel steps) nearest ``template``."""
    return min((_shift(part, dx, dy) for dy in _HALF_STEPS for dx in _HALF_STEPS),
               key=lambda moved: float(((moved - template) ** 2).sum()))


_HALF_STEPS = (-1.0, -0.5, 0.0, 0.5, 1.0)


def _shift(part: F32, dx: float, dy: float) -> F32:
    move = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
    return np.asarray(cv2.warpAffine(part, move, part.shape[1::-1], flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE), np.float32)


def _spot_distance(part: F32, template: F32, weight: F32) -> float:
    """Weighted root mean squared difference of ``part`` to ``template`` (same size),
    at the best of the offsets of up to a pixel in half-pixel steps."""
    best = min(float((((_shift(part, dx, dy) - template) ** 2).sum(axis=2) * weight).sum())
               for dy in _HALF_STEPS for dx in _HALF_STEPS)
    return math.sqrt(best / float(weight.sum()))


def _fitted(square: Source, template: Source) -> F32 | None:
    """The square's central part shrunk so that its glyph is as tall as the template's
    and moved so that the two glyphs' boxes share their top-left corner (a flag's pole
    and top, with or without a "?" beside it), on the square's background, in the
    template's part's size; None when the square's glyph is not taller."""
    x, y, _, h = square.box
    tx, ty, _, th = template.box
    if square.look[1] or template.look[1] or h <= th:
        return None
    s = th / h
    small = cv2.resize(square.part, (max(1, round(square.part.shape[1] * s)),
                                     max(1, round(square.part.shape[0] * s))),
                       interpolation=cv2.INTER_AREA)
    move = np.array([[1, 0, tx - x * s], [0, 1, ty - y * s]], np.float32)
    bg = tuple(float(v) for v in square.bg)
    placed = cv2.warpAffine(small, move, template.part.shape[1::-1], flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=bg)
    return np.asarray(placed, np.float32)


def _mark_pairs(bank: GlyphBank, bg: npt.NDArray[np.uint8]) -> list[tuple[Source, Source]]:
    """Every question template on about the background ``bg`` (BG_TOL) with the nearest
    flag template of its size and background, as (flag, question)."""
    def near(i: int) -> bool:
        gap = np.abs(bank.sources[i].bg.astype(np.float32) - bg.astype(np.float32))
        return bool(gap.max() <= BG_TOL)

    src = bank.sources
    flags = [i for i in np.flatnonzero(bank.codes == FLAG).tolist() if near(i)]
    pairs = []
    for q in np.flatnonzero(bank.codes == QUESTION).tolist():
        alike = [f for f in flags if src[f].part.shape == src[q].part.shape]
        if near(q) and alike:
            f = min(alike, key=lambda i: float(cv2.norm(src[i].part, src[q].part,
                                                         cv2.NORM_L1)))
            pairs.append((src[f], src[q]))
    return pairs


def _mark_by_spot(square: Source, bank: GlyphBank) -> int:
    """FLAG or QUESTION for a square between the two marks (each its nearest look, the
    glyphs too small in the templates to tell apart by shape: gnome-mines' "?" beside
    its flag is a smudge of a few pixels at 23 px), else UNKNOWN.

    The square, its glyph taller than the templates', is fitted to each pair of flag
    and question templates of one size on its background (``_fitted``: shrunk to the
    flag's glyph height, the glyphs' top-left corners together) and compared with the
    flag where the two templates differ (``_spot``): about the flag there is a flag, far
    from it a question mark (SPOT_FLAG, SPOT_QUESTION). Every pair must agree.

    >>> from vision.skin import Skin, load_skin
    >>> shipped = load_skin("gnome-mines")
    >>> at = {c: tuple(i for i in shipped.cells[c] if i.shape[0] == 35) for c in MARKS}
    >>> bank = glyph_bank(Skin("35px", "", (35.0, 35.0), at, {}, {}))   # cut at 35 px
    >>> big = [next(i for i in shipped.cells[c] if i.shape[0] == 60) for c in MARKS]
    >>> [_mark_by_spot(_source(i), bank) for i in big] == list(MARKS)
    True
    """
    answers = set()
    for flag, question in _mark_pairs(bank, square.bg):
        part = _fitted(square, flag)
        if part is None:
            continue  # (a square no taller than the templates: the glyph comparison's)
        f, q = flag.part.astype(np.float32), question.part.astype(np.float32)
        weight = _spot(f, q)
        if float(weight.sum()) <= 0.0:
            continue
        gap, off = _spot_distance(q, f, weight), _spot_distance(part, f, weight)
        answers.add(FLAG if off <= SPOT_FLAG * gap else
                    QUESTION if off >= SPOT_QUESTION * gap else UNKNOWN)
    return answers.pop() if len(answers) == 1 else UNKNOWN


def _against(score: F32, codes: Codes, picked: Codes) -> npt.NDArray[np.bool_]:
    """Squares whose nearest template by ``score`` (here the shape distance; squares x
    templates of states ``codes``) is of another state than ``picked`` and nearer than
    AGAINST times that state's nearest (a clear lean the other way, sure or not); a flag
    and a question mark, each the other's nearest look, are not told apart so (MARKS)."""
    rows = np.arange(len(score))
    near = np.argmin(score, axis=1)
    best = score[rows, near]
    mine = np.array([score[i, codes == c].min(initial=np.inf) for i, c in
                     enumerate(picked.tolist())], np.float32)
    marks = np.isin(picked, MARKS) & np.isin(codes[near], MARKS)  # PAIR_MARGIN's to settle
    return (picked != UNKNOWN) & (codes[near] != picked) & np.isfinite(best) & (
        best <= AGAINST * mine) & ~marks


def _agreed(shrunk: Codes, whole: Codes, against: npt.NDArray[np.bool_]) -> Codes:
    """The states two comparisons agree on: the glyphs compared at the smaller height
    (``shrunk``) and as they are, each box resized to GLYPH x GLYPH (``whole``); where
    one is unknown the other's, but a ``shrunk`` state not where the glyphs as they are
    lean clearly to another (``against``); where they disagree, ``whole``'s where it
    leans so, else UNKNOWN.

    A window drawn stretched by the system (HiDPI scaling: every pixel of the game's
    bitmap 1.25-2 screen pixels) keeps the glyph's shape, which ``whole`` sees; shrinking
    a stretched 1 px stroke back blurs it (a WineMine 2 at 1.5x was nearer an 8), while a
    game that draws its glyphs anew per size (gnome-mines) is read by ``shrunk``.

    >>> _agreed(np.array([1, UNKNOWN, 2, 3, 2, 8], np.int8),
    ...         np.array([1, 4, UNKNOWN, 8, UNKNOWN, 2], np.int8),
    ...         np.array([False] * 4 + [True] * 2)).tolist() == [1, 4, 2, UNKNOWN, UNKNOWN, 2]
    True
    """
    out = np.where(shrunk == UNKNOWN, whole, shrunk).astype(np.int8)
    out[(shrunk != UNKNOWN) & (whole == UNKNOWN) & against] = UNKNOWN
    differ = (shrunk != UNKNOWN) & (whole != UNKNOWN) & (shrunk != whole)
    out[differ] = np.where(against[differ], whole[differ], UNKNOWN)
    return out


def _rims_fit(rim: F32, bank: GlyphBank, code: int) -> bool:
    """Whether some template of state ``code`` touches its part's frame where a square
    with frame profile ``rim`` does (RIM_TOL on every side, each side's frame taken
    where it fits best of one pixel out, at and in: ``_rims``)."""
    rims = bank.rims(code)  # (templates, offsets, sides, RIM)
    side_gap = np.abs(rims - rim[None, None]).mean(axis=3).min(axis=1)  # best offset per side
    return bool((side_gap.max(axis=1) <= RIM_TOL).any())


def classify_cells(cells: Sequence[Image], bank: GlyphBank,
                   other_sizes_only: bool = False) -> Codes:
    """A state code per square (each given as its pitch square, BGR, any size),
    ``UNKNOWN`` unless one state is clearly the best.

    A glyph square whose central part is not framed by its background is read only as
    a state some template of which touches its frame the same way (RIM_TOL; a flat one
    is unknown at once); only templates of about the square's background (within 3
    BG_TOL) are compared (none: unknown at once); flat squares with flat templates,
    glyphs with glyphs, each both at the smaller height and as they are (_agreed).
    ``other_sizes_only`` (the fallback's mode) leaves unknown what the template reader
    has templates to judge: flat squares (a flat tile looks the same at any size), and
    glyphs as tall (SAME_HEIGHT) as a template of their background."""
    sources = [_source(np.ascontiguousarray(c)) for c in cells]
    out = np.full(len(sources), UNKNOWN, np.int8)
    if not sources:
        return out
    looks = _stack([s.look for s in sources])
    t = bank.native
    bg_gap = np.abs(looks.backgrounds[:, None, :] - t.backgrounds[None, :, :]).max(axis=2)
    near = (bg_gap <= 3 * BG_TOL) & (looks.flat[:, None] == t.flat[None, :])
    levels = np.array([_level(float(h)) for h in looks.heights])
    framed = np.array([s.framed for s in sources])
    live = framed | ~looks.flat  # a glyph reaching the frame is checked after (_rims_fit)
    if other_sizes_only:
        as_tall = np.abs(looks.heights[:, None] - t.heights[None, :]) <= SAME_HEIGHT
        judged = (bg_gap <= BG_TOL) & as_tall & ~t.flat
        live &= ~looks.flat & ~judged.any(axis=1)
    groups = [(-1, np.flatnonzero(live & looks.flat))]
    groups += [(k, np.flatnonzero(live & ~looks.flat & (levels == k)))
               for k in np.unique(levels)]
    for k, rows in groups:
        templates = np.flatnonzero(near[rows].any(axis=0))
        if len(rows) == 0 or len(templates) == 0:
            continue
        if k < 0:
            gaps = _only_near(_gaps(looks.take(rows), t.take(templates)),
                              near[rows][:, templates])
            codes = bank.codes[templates]
            out[rows] = _decide(gaps, codes, bank.states)
            continue
        gaps, codes, compared = _glyph_gaps([sources[i] for i in rows], int(k), bank,
                                            templates)
        gaps = _only_near(gaps, near[rows][:, compared.bank_index])
        shrunk = _settle_pairs(gaps, codes, compared, _decide(gaps, codes, bank.states),
                               [sources[i] for i in rows], bank)
        if not AS_THEY_ARE:
            out[rows] = shrunk
            continue
        as_is = _only_near(_gaps(looks.take(rows), t.take(templates)),
                           near[rows][:, templates])
        whole = _decide(as_is, bank.codes[templates], bank.states)
        out[rows] = _agreed(shrunk, whole,
                            _against(as_is[3], bank.codes[templates], shrunk))
    loose = np.flatnonzero(~framed & (out != UNKNOWN))
    out[loose] = [code if _rims_fit(frame_profile(_ink(sources[i].part, sources[i].bg)),
                                    bank, code) else UNKNOWN
                  for i, code in zip(loose.tolist(), out[loose].tolist(), strict=True)]
    if not np.isin(MARKS, bank.states).all():
        out[np.isin(out, MARKS)] = UNKNOWN
    return out


def cut_cell(image: Image, geometry: BoardGeometry, cell: tuple[int, int]) -> Image:
    """The pitch square of ``cell``: from its measured left/top edge, the pitch rounded."""
    g = geometry
    r, c = cell
    w, h = max(1, round(g.pitch_x)), max(1, round(g.pitch_y))
    left = min(max(round(g.col_left(c)), 0), image.shape[1] - w)
    top = min(max(round(g.row_top(r)), 0), image.shape[0] - h)
    return np.ascontiguousarray(image[top:top + h, left:left + w])


MEMO_MAX = 5000
"""At most this many squares' answers are remembered per skin (by a digest of their
pixels): between two reads of a game most squares look exactly as before."""


def read_cells(image: Image, geometry: BoardGeometry, skin: Skin,
               cells: Sequence[tuple[int, int]]) -> Codes:
    """Codes of ``cells`` of the board at ``geometry`` read by their glyphs (UNKNOWN
    where unsure)."""
    bank = glyph_bank(skin)
    crops = [cut_cell(image, geometry, c) for c in cells]
    keys = [hashlib.blake2b(c.tobytes(), digest_size=16).digest() + str(c.shape).encode()
            for c in crops]
    new = sorted({k: i for i, k in enumerate(keys) if k not in bank.memo}.values())
    if len(bank.memo) + len(new) > MEMO_MAX:
        bank.memo.clear()
        new = sorted({k: i for i, k in enumerate(keys)}.values())
    if new:
        codes = classify_cells([crops[i] for i in new], bank, other_sizes_only=True)
        bank.memo.update(zip([keys[i] for i in new], codes.tolist(), strict=True))
    return np.array([bank.memo[k] for k in keys], np.int8)


def colour_apart(image: Image, geometry: BoardGeometry, skin: Skin,
                 cell: tuple[int, int], code: int) -> bool:
    """Is the glyph of ``cell`` further in colour than COLOUR_TOL (largest channel) from
    the glyph of every template of ``code`` (a number read by the template reader)?
    False when the square or every such template is flat. A small digit is a few pixels
    of a big square: another number drawn in another colour may lie near its shape.

    >>> from vision.skin import Skin
    >>> tile = np.full((20, 20, 3), 200, np.uint8)
    >>> red, dark = tile.copy(), tile.copy()
    >>> red[8:14, 8:12] = (0, 0, 255); dark[8:14, 8:12] = (0, 0, 139)   # 6 px of 20
    >>> skin = Skin("s", "", (20.0, 20.0), {3: (red,)}, {}, {})
    >>> g = BoardGeometry("s", 0.0, 0.0, 20.0, 20.0, 1, 2)
    >>> image = np.hstack([red, dark])
    >>> colour_apart(image, g, skin, (0, 0), 3), colour_apart(image, g, skin, (0, 1), 3)
    (False, True)
    """
    bank = glyph_bank(skin)
    crop = cut_cell(image, geometry, cell)
    key = hashlib.blake2b(crop.tobytes(), digest_size=16).digest() + \
        f"{crop.shape}colour{code}".encode()  # (remembered: read again every turn)
    if key not in bank.memo:
        if len(bank.memo) >= MEMO_MAX:
            bank.memo.clear()
        of = (bank.codes == code) & ~bank.native.flat
        square = _source(crop).look
        apart = not square[1] and bool(of.any()) and \
            square[5] <= SMALL_GLYPH * geometry.pitch_y and \
            float(np.abs(bank.native.colours[of] - square[3][None, :]).max(axis=1).min()) \
            > COLOUR_TOL
        bank.memo[key] = int(apart)
    return bool(bank.memo[key])


SMALL_GLYPH = 0.4
"""Only a glyph at most this share of the square's height is judged by its colour
(:func:`colour_apart`): ItzAleksG's digits are 0.27 of their 44 px squares. A JPEG
keeps thin strokes' colour at half resolution (minegauler's blue 1s, 0.6 of their 16 px
squares, came out 83 levels paler), and a big digit's shape tells it anyway."""


def fill_unknown(image: Image, geometry: BoardGeometry, skin: Skin, board: Board) -> Board:
    """``board`` with its ``UNKNOWN`` squares read by their glyphs where clear (in place).

    Only squares at a size the skin has no template of are read (flat tiles and glyphs
    of a templated size are the template reader's to judge).

    >>> from vision.skin import Skin, load_skin
    >>> from solver.cells import FLAG, QUESTION, UNKNOWN
    >>> shipped = load_skin("gnome-mines")
    >>> marks = {c: tuple(i for i in shipped.cells[c] if i.shape[0] == 60)
    ...          for c in (FLAG, QUESTION)}
    >>> skin = Skin("60px", "", (60.0, 60.0), marks, {}, {})             # cut at 60 px
    >>> image = np.hstack([next(i for i in shipped.cells[c] if i.shape[0] == 35)
    ...                    for c in (QUESTION, FLAG)])                 # two squares, 35 px
    >>> board = np.full((1, 2), UNKNOWN, np.int8)
    >>> g = BoardGeometry("gnome-mines", 0, 0, 35, 35, 1, 2)
    >>> fill_unknown(image, g, skin, board).tolist() == [[QUESTION, FLAG]]
    True
    """
    unsure = [(int(r), int(c)) for r, c in np.argwhere(board == UNKNOWN)]
    if unsure:
        board[tuple(np.array(unsure).T)] = read_cells(image, geometry, skin, unsure)
    return board
