"""Find a Minesweeper board anywhere in a screenshot, with no coordinates from the user.

Every cell template of a skin has a dominant flat colour (the covered tile's grey, an
open square's background, ...) that forms one blob of known relative size and position
inside the cell. :func:`locate_board`

1. finds the blobs of those colours in a subsampled copy of the image; each blob's size
   implies a pitch and its centre a cell centre;
2. keeps the blobs that agree on the most common pitch and links neighbours (one, two or
   three pitches apart in x or y) into lattices; the biggest lattice is the board;
3. measures every column's and row's position (games spread spare pixels unevenly), and
4. grows the lattice row by row and column by column while the squares past its edge
   read as known cells of the skin (a border of revealed squares has no covered tile)
   and are not flat where their state's templates have edges (a window's plain margin
   in the colour of a tile's middle is no row of tiles).

The skin whose lattice reads best wins. Only when no skin's lattice reads well enough,
the best ones are grown and judged again with the glyph fallback (:mod:`vision.glyph`)
reading the squares the templates leave unknown (a skin learned at one window size
meets numbers drawn at another size).

>>> from vision.skin import load_skin
>>> from solver.cells import COVERED, FLAG
>>> skin = load_skin("xdemineur")
>>> board = np.tile(skin.cells[COVERED][0], (9, 12, 1))
>>> board[:21, :21] = skin.cells[FLAG][0]
>>> screen = np.zeros((600, 800, 3), np.uint8)
>>> screen[100:289, 300:552] = board
>>> g = locate_board(screen, [skin])
>>> (g.skin, g.x0, g.y0, g.pitch_x, g.pitch_y, g.rows, g.cols)
('xdemineur', 300.0, 100.0, 21.0, 21.0, 9, 12)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from solver.cells import COVERED, UNKNOWN
from vision.geometry import BoardGeometry
from vision.glyph import read_cells
from vision.lattice import cut as cut_square
from vision.lattice import template_size
from vision.read import bank_for, cell_samples, classify
from vision.skin import Image, Skin

MIN_PITCH = 10.0
MAX_PITCH = 160.0
COLOUR_TOL = 2
GROW_KNOWN = 0.8  # a strip joins the board when this share of its squares reads as known
GROW_STRICTNESS = 1.0  # ... read with the tolerances divided by this
ACCEPT_KNOWN = 0.4  # a lattice is a board when this share of its squares reads as known
STRUCTURE = 24.0
"""A template has edges across an axis when the mean colours of its pixel columns (or
rows) span at least this much in some channel (0-255 scale)."""
FLAT_SHARE = 0.25
"""A square past the lattice's edge is flat across an axis when its columns' (rows')
mean colours span less than this share of what every template of the state it reads as
spans there: the reader compares only a square's middle, and a tile whose middle is one
flat colour (sgt-mines' covered tile) matches a plain margin of that colour."""
BLANK_TOL = 8
"""A square is blank when its pixels span at most this much in every channel (one flat
colour: no line, bevel or glyph)."""
BLANK_SHARE = 0.25
"""A blank square past the lattice's edge counts as known only when at least this share
of the board's own squares of the state it reads as are blank too: a game whose opened
square is one flat colour only where no grid line reaches it (WineMine's black 0 at the
board's corner) matches a desktop or window margin of that colour, and its board's own
squares of that state show the lines the margin lacks."""
EDGED_SHARE = 0.75
"""A strip square flat across the axis the board's grid lines would cross it on is not
backed when at least this share of the board's own squares of its state have edges
there: the board's lines do not go on into it (WineMine's opened squares have lines on
their left and top, the board one more on its right and bottom, so the strips right of
and below the board on a black desktop hold a line along them but none across)."""
OVER_EDGE = 3.0
"""A square past the lattice's edge named a state is no such square when its edges span
this many times more than the board's own squares of that state usually do (and than
STRUCTURE), across either axis: a window's edge or a board's frame along the strip
(kmines draws its 0 translucent over the window's grey, so the grey above the board,
with the board's dark frame at its foot, reads as a row of 0s; the board's own 0s span
18-25 there, the frame 97)."""
OVER_MIN = 4
"""... judged only where the board shows at least this many squares of that state."""
RESCUE_TRIES = 2
"""When no skin's lattice reaches ACCEPT_KNOWN, the best this many are grown and judged
again with the glyph fallback (:mod:`vision.glyph`) reading the squares the template
reader leaves unknown: a skin learned at one window size reads another size's numbers
only by glyph. Never sooner (it costs a glyph read of the lattice's squares)."""
PARTIAL_KNOWN = 0.8
"""A board found from key-colour blobs that reads fewer of its squares as known than
this is set against the template-free lattice (:func:`vision.lattice.locate_by_lattice`),
which wins when it reads more squares: on a lost board of the classic look scaled by
1.5 with smoothing, few squares are plain enough for the key colour's blobs, which
linked into a part of the board (10x10 of 16x16, 45 % of it read)."""


class BoardNotFound(ValueError):
    """No board of any given skin in the image (message is user-facing)."""


@dataclass(frozen=True)
class KeyBlob:
    """A flat colour blob inside a cell template: its colour (BGR), its bounding box
    relative to the pitch (w, h), its fill of that box, and its centre's offset from the
    cell centre as a fraction of the pitch."""

    colour: tuple[int, int, int]
    state: int
    rel_w: float
    rel_h: float
    fill: float
    off_x: float
    off_y: float


@dataclass(frozen=True)
class Blobs:
    """Blobs found in the image, as arrays: the cell centre and pitch each implies."""

    cx: npt.NDArray[np.float64]
    cy: npt.NDArray[np.float64]
    px: npt.NDArray[np.float64]
    py: npt.NDArray[np.float64]
    colour: npt.NDArray[np.int64]  # the blob's key colour, packed as 0xBBGGRR

    def __len__(self) -> int:
        return len(self.cx)

    def where(self, keep: npt.NDArray[np.bool_]) -> Blobs:
        return Blobs(self.cx[keep], self.cy[keep], self.px[keep], self.py[keep],
                     self.colour[keep])


_KEYS: dict[int, tuple[Skin, tuple[KeyBlob, ...]]] = {}


def mask_blobs(mask: Image) -> npt.NDArray[np.float64]:
    """Outer outlines of a binary mask as rows (x, y, w, h, fill); fill is the outline's
    area over its bounding box's (holes such as a glyph on a tile do not count).

    >>> m = np.zeros((10, 20), np.uint8); m[2:6, 3:9] = 255
    >>> mask_blobs(m).tolist()
    [[3.0, 2.0, 6.0, 4.0, 1.0]]
    """
    found, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if not found:
        return np.zeros((0, 5))
    outer = np.nonzero(hierarchy[0][:, 3] < 0)[0]
    contours = [found[i] for i in outer.tolist()]
    lengths = np.array([len(c) for c in contours])
    pts = np.concatenate(contours).reshape(-1, 2).astype(np.float64)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    x0 = np.minimum.reduceat(pts[:, 0], starts)
    y0 = np.minimum.reduceat(pts[:, 1], starts)
    w = np.maximum.reduceat(pts[:, 0], starts) - x0 + 1
    h = np.maximum.reduceat(pts[:, 1], starts) - y0 + 1
    nxt = np.arange(1, len(pts) + 1)
    nxt[starts + lengths - 1] = starts  # each outline closes on its first point
    cross = pts[:, 0] * pts[nxt, 1] - pts[nxt, 0] * pts[:, 1]
    area = np.abs(np.add.reduceat(cross, starts)) / 2
    fill = area / np.maximum(1.0, (w - 1) * (h - 1))
    return np.column_stack([x0, y0, w, h, fill])


def _key_of(img: Image, state: int) -> KeyBlob | None:
    """The dominant colour's biggest blob in one template (None if not flat enough)."""
    h, w = img.shape[:2]
    packed = img.reshape(-1, 3).astype(np.int32) @ np.array([65536, 256, 1], np.int32)
    values, counts = np.unique(packed, return_counts=True)
    top = int(values[np.argmax(counts)])
    if counts.max() < 0.2 * h * w:
        return None
    colour = (top >> 16, (top >> 8) & 255, top & 255)
    blobs = mask_blobs(cast(Image, cv2.inRange(img, colour, colour)))
    if not len(blobs):
        return None
    x, y, bw, bh, fill = blobs[int(np.argmax(blobs[:, 2] * blobs[:, 3]))]
    return KeyBlob(colour, state, bw / w, bh / h, float(fill), (x + bw / 2) / w - 0.5,
                   (y + bh / 2) / h - 0.5)


def skin_keys(skin: Skin) -> tuple[KeyBlob, ...]:
    """The distinct key blobs of a skin's cell templates (cached per skin object)."""
    hit = _KEYS.get(id(skin))
    if hit is not None and hit[0] is skin:
        return hit[1]
    keys: dict[tuple[object, ...], KeyBlob] = {}
    for state, images in skin.cells.items():
        for img in images:
            key = _key_of(img, state)
            if key is not None and key.rel_w > 0.3 and key.rel_h > 0.3:
                sig = (key.colour, round(key.rel_w, 1), round(key.rel_h, 1), round(key.fill, 1))
                keys[sig] = key
    result = tuple(keys.values())
    _KEYS[id(skin)] = (skin, result)
    return result


def _packed(colour: tuple[int, int, int]) -> int:
    return (colour[0] << 16) | (colour[1] << 8) | colour[2]


_BLOBS: dict[tuple[int, int], npt.NDArray[np.float64]] = {}
_SHRUNK: dict[int, Image] = {}
_SOURCE: list[Image] = []


def _colour_blobs(image: Image, colour: tuple[int, int, int],
                  step: int) -> npt.NDArray[np.float64]:
    """``mask_blobs`` of ``colour`` (within COLOUR_TOL) in ``image`` subsampled by
    ``step``. Within one ``locate_board`` call (``_SOURCE`` holds its image) the shrunk
    image and each colour's blobs are computed once, whichever skins share them."""
    cached = bool(_SOURCE) and _SOURCE[0] is image
    key = (step, _packed(colour))
    if cached and key in _BLOBS:
        return _BLOBS[key]
    small = _SHRUNK.get(step) if cached else None
    if small is None:
        small = _shrink(image, step)
        if cached:
            _SHRUNK[step] = small
    lo = tuple(max(0, v - COLOUR_TOL) for v in colour)
    hi = tuple(min(255, v + COLOUR_TOL) for v in colour)
    blobs = mask_blobs(split_corners(cast(Image, cv2.inRange(small, lo, hi))))
    if cached:
        _BLOBS[key] = blobs
    return blobs


def split_corners(mask: Image) -> Image:
    """``mask`` (0 or 255) with both pixels of every corner-to-corner contact cleared
    (two pixels diagonal to each other whose two common neighbours are both off), so
    that regions touching only at a corner are outlined apart.

    Squares of one colour with no line between them, in a checkerboard of two shades
    (a browser board in the look of Google's Minesweeper), touch only corner to
    corner; an outline joins such pixels, and every square of one shade made one blob
    the size of the board. Clearing the corner pixels leaves each square's box as it
    was.

    >>> m = np.zeros((4, 4), np.uint8); m[:2, :2] = m[2:, 2:] = 255
    >>> len(mask_blobs(m)), mask_blobs(split_corners(m))[:, :4].tolist()
    (1, [[2.0, 2.0, 2.0, 2.0], [0.0, 0.0, 2.0, 2.0]])
    """
    a, b, c, d = mask[:-1, :-1], mask[1:, 1:], mask[:-1, 1:], mask[1:, :-1]
    # (0 or 255 each: x - y saturates to x & ~y; cv2 works on these views in place)
    down = cv2.subtract(cv2.bitwise_and(a, b), cv2.bitwise_or(c, d))  # a b touch
    up = cv2.subtract(cv2.bitwise_and(c, d), cv2.bitwise_or(a, b))  # c d touch
    if not (cv2.countNonZero(down) or cv2.countNonZero(up)):
        return mask
    out = mask.copy()
    for view, cut in ((out[:-1, :-1], down), (out[1:, 1:], down), (out[:-1, 1:], up),
                      (out[1:, :-1], up)):
        cv2.subtract(view, cut, dst=view)
    return out


def _shrink(image: Image, step: int) -> Image:
    """``image`` subsampled by ``step`` by area means (they keep 1-pixel grid lines as a
    blended separator between tiles)."""
    if step == 1:
        return image
    h, w = image.shape[:2]
    even = image[: h - h % step, : w - w % step]
    return cast(Image, cv2.resize(even, (w // step, h // step), interpolation=cv2.INTER_AREA))


def find_blobs(image: Image, keys: Sequence[KeyBlob], step: int,
               only: Sequence[int] | None = None) -> Blobs:
    """Blobs of the key colours (``only`` these packed colours, if given) in ``image``
    subsampled by ``step``, as cell hypotheses."""
    parts = []
    for colour in sorted({k.colour for k in keys}):
        if only is not None and _packed(colour) not in only:
            continue
        b = _colour_blobs(image, colour, step)
        x, y, w, h, fill = (b[:, i] for i in range(5))
        ok = (w >= 3) & (h >= 3) & (w <= 2.5 * h) & (h <= 2.5 * w)
        for key in (k for k in keys if k.colour == colour):
            px, py = w * step / key.rel_w, h * step / key.rel_h
            sel = ok & (np.abs(fill - key.fill) < 0.2)
            sel &= (np.minimum(px, py) >= MIN_PITCH) & (np.maximum(px, py) <= MAX_PITCH)
            cx = (x + w / 2) * step - key.off_x * px
            cy = (y + h / 2) * step - key.off_y * py
            packed = np.full(len(cx), _packed(colour), np.float64)
            parts.append(np.column_stack([cx, cy, px, py, packed])[sel])
    allb = np.concatenate(parts) if parts else np.zeros((0, 5))
    return Blobs(allb[:, 0], allb[:, 1], allb[:, 2], allb[:, 3], allb[:, 4].astype(np.int64))


def pitch_hypotheses(blobs: Blobs, top: int = 3) -> list[tuple[float, float]]:
    """The pitches most blobs agree on, most supported first (8 % log bins, each pooled
    with its neighbours)."""
    if not len(blobs):
        return []
    lp = np.log(blobs.px * blobs.py) / 2
    bins = np.floor(lp / 0.08).astype(int)
    values, counts = np.unique(bins, return_counts=True)
    pooled = np.array([counts[(values >= v - 1) & (values <= v + 1)].sum() for v in values])
    out: list[tuple[float, float]] = []
    taken: set[int] = set()
    for i in np.argsort(-pooled, kind="stable"):
        centre = int(values[i])
        if len(out) == top or pooled[i] < 2:
            break
        if centre in taken:
            continue
        taken.update((centre - 1, centre, centre + 1))
        near = np.abs(bins - centre) <= 1
        out.append((float(np.median(blobs.px[near])), float(np.median(blobs.py[near]))))
    return out


@dataclass(frozen=True)
class Lattice:
    """Blobs with integer (row, col) indices and the pitch they were linked with."""

    cx: npt.NDArray[np.float64]
    cy: npt.NDArray[np.float64]
    rows: npt.NDArray[np.int64]
    cols: npt.NDArray[np.int64]
    px: float
    py: float
    colours: tuple[int, ...] = ()  # the members' key colours, most common first


def _lines(values: npt.NDArray[np.float64], pitch: float) -> tuple[
        npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Cluster blob centres along one axis into lines and number the lines.

    Returns (segment, index) per blob: lines a whole number of pitches apart share a
    segment and get consecutive-pitch indices; a line off that lattice starts a new
    segment (or is dropped as noise, segment -1, when it holds fewer than 3 blobs)."""
    order = np.argsort(values)
    sv = values[order]
    cuts = np.nonzero(np.diff(sv) > 0.3 * pitch)[0] + 1
    groups = np.split(np.arange(len(sv)), cuts)
    seg = np.full(len(values), -1, np.int64)
    idx = np.zeros(len(values), np.int64)
    segment, anchor, anchor_idx = -1, -math.inf, 0
    for members in groups:
        centre = float(sv[members].mean())
        k = (centre - anchor) / pitch
        if segment >= 0 and abs(k - round(k)) < 0.2:
            anchor_idx += round(k)
        elif segment < 0 or len(members) >= 3:
            segment, anchor_idx = segment + 1, 0
        else:
            continue
        anchor = centre
        seg[order[members]] = segment
        idx[order[members]] = anchor_idx
    return seg, idx


def _overlap(a: npt.NDArray[np.int64], b: npt.NDArray[np.int64]) -> float:
    """How much of the shorter of two index ranges the other one covers (0..1)."""
    lo, hi = max(a.min(), b.min()), min(a.max(), b.max())
    return max(0, hi - lo + 1) / min(np.ptp(a) + 1, np.ptp(b) + 1)


def _same_band(rows: npt.NDArray[np.int64], cols: npt.NDArray[np.int64],
               main: npt.NDArray[np.bool_], other: npt.NDArray[np.bool_]) -> bool:
    """Whether ``other`` spans the same rows (or columns) as ``main``, beside it."""
    return bool(_overlap(rows[main], rows[other]) >= 0.8 or
                _overlap(cols[main], cols[other]) >= 0.8)


def _spacing(along: npt.NDArray[np.float64], across: npt.NDArray[np.float64], pitch: float,
             pitch_across: float) -> float:
    """The median distance between neighbouring blobs of one line (``pitch`` if none):
    blob sizes only estimate the pitch (fixed gaps, subsampling), neighbours measure it."""
    order = np.argsort(across)
    cuts = np.nonzero(np.diff(across[order]) > 0.3 * pitch_across)[0] + 1
    steps = []
    for line in np.split(order, cuts):
        if len(line) > 1:
            d = np.diff(np.sort(along[line]))
            steps.append(d[(d > 0.6 * pitch) & (d < 1.6 * pitch)])
    found = np.concatenate(steps) if steps else np.zeros(0)
    return float(np.median(found)) if len(found) >= 3 else pitch


def link_lattice(blobs: Blobs, px: float, py: float) -> Lattice | None:
    """The biggest connected set of blobs on one lattice, with their indices."""
    keep = (np.abs(np.log(blobs.px / px)) < 0.15) & (np.abs(np.log(blobs.py / py)) < 0.15)
    if keep.sum() < 2:
        return None
    cx, cy, colour = blobs.cx[keep], blobs.cy[keep], blobs.colour[keep]
    px, py = _spacing(cx, cy, px, py), _spacing(cy, cx, py, px)
    sx, ix = _lines(cx, px)
    sy, iy = _lines(cy, py)
    ok = (sx >= 0) & (sy >= 0)
    if ok.sum() < 2:
        return None
    pairs, counts = np.unique(np.stack([sx[ok], sy[ok]], axis=1), axis=0, return_counts=True)
    bx, by = pairs[int(np.argmax(counts))]
    sel = ok & (sx == bx) & (sy == by)
    rows, cols = iy[sel], ix[sel]
    occupied = np.zeros((rows.max() + 1, cols.max() + 1), np.uint8)
    occupied[rows, cols] = 1
    grown = cv2.dilate(occupied, np.ones((5, 5), np.uint8))
    n, labels = cv2.connectedComponents(grown, connectivity=8)
    lab = labels[rows, cols]
    sizes = np.bincount(lab, minlength=n)
    main = int(np.argmax(sizes))
    member = lab == main
    for k in range(1, n):  # parts of the same board split by a window over its middle
        if k != main and sizes[k] >= 4 and _same_band(rows, cols, member, lab == k):
            member |= lab == k
    if member.sum() < 2:
        return None
    rows, cols = rows[member], cols[member]
    values, counts = np.unique(colour[sel][member], return_counts=True)
    colours = tuple(int(v) for v in values[np.argsort(-counts)])
    return Lattice(cx[sel][member], cy[sel][member], rows - rows.min(), cols - cols.min(), px, py,
                   colours)


def _axis(centres: npt.NDArray[np.float64], idx: npt.NDArray[np.int64], pitch: float,
          n: int) -> tuple[float, float, npt.NDArray[np.float64]]:
    """Uniform fit (start, pitch) and the measured centre of each of n lines (index
    0..n-1 relative to the fit's line 0), interpolated where no blob was seen."""
    shift = int(idx.min())
    sums = np.bincount(idx - shift, weights=centres)
    counts = np.bincount(idx - shift)
    lines = np.nonzero(counts)[0]
    means = sums[lines] / counts[lines]
    lines = lines + shift
    if len(lines) >= 2:
        slope, start = np.polyfit(lines.astype(np.float64), means, 1)
        pitch = float(slope)
    else:
        start = float(means[0] - lines[0] * pitch)
    want = np.arange(n, dtype=np.float64)
    measured = np.interp(want, lines, means)
    outside = (want < lines[0]) | (want > lines[-1])
    measured[outside] = start + pitch * want[outside]
    return float(start), pitch, measured


UNEVEN = 0.35
"""A line measured further than this (pixels) from the uniform fit makes a lattice
uneven: every line keeps its own measured edge."""


def _geometry(lat: Lattice, name: str, r0: int, c0: int, rows: int, cols: int) -> BoardGeometry:
    """The geometry of rows r0.. and cols c0.. of the lattice (indices may be negative)."""
    sx, px, mx = _axis(lat.cx, lat.cols - c0, lat.px, cols)
    sy, py, my = _axis(lat.cy, lat.rows - r0, lat.py, rows)
    lefts = mx - px / 2
    tops = my - py / 2
    x0, y0 = sx - px / 2, sy - py / 2
    uneven_x = np.abs(lefts - (x0 + px * np.arange(cols))).max() > UNEVEN
    uneven_y = np.abs(tops - (y0 + py * np.arange(rows))).max() > UNEVEN
    if abs(px - round(px)) < 0.02 and not uneven_x:
        px, x0 = float(round(px)), float(round(x0))
    if abs(py - round(py)) < 0.02 and not uneven_y:
        py, y0 = float(round(py)), float(round(y0))
    return BoardGeometry(name, float(x0), float(y0), float(px), float(py), rows, cols,
                         tuple(float(v) for v in lefts) if uneven_x else None,
                         tuple(float(v) for v in tops) if uneven_y else None)


def _inside(g: BoardGeometry, image: Image) -> bool:
    b = g.bounds()
    h, w = image.shape[:2]
    return b.left >= 0 and b.top >= 0 and b.left + b.width <= w and b.top + b.height <= h


def _known_share(image: Image, g: BoardGeometry, skin: Skin, strictness: float = 1.0) -> float:
    codes, _ = classify(cell_samples(image, g), bank_for(skin, g), strictness)
    return float((codes != UNKNOWN).mean())


def glyph_share(image: Image, g: BoardGeometry, skin: Skin, strictness: float = 1.0) -> float:
    """The share of g's squares read as known by the template reader or, where it leaves
    them unknown, by their glyphs (which reads only squares framed by their own tile's
    colour: a lattice off the board's squares stays unknown)."""
    codes, _ = classify(cell_samples(image, g), bank_for(skin, g), strictness)
    unknown = np.flatnonzero(codes == UNKNOWN)
    if not len(unknown):
        return 1.0
    cells = [(int(i) // g.cols, int(i) % g.cols) for i in unknown.tolist()]
    still = np.count_nonzero(read_cells(image, g, skin, cells) == UNKNOWN)
    return 1.0 - float(still) / len(codes)


Share = Callable[[Image, BoardGeometry, Skin, float], float]


def edge_spans(square: Image) -> npt.NDArray[np.float64]:
    """How much the mean colours of a square's pixel columns, and of its pixel rows,
    span (the largest over the channels): (across x, across y). Measured at the
    square's own size, a line or bevel of a few pixels spans the same at any pitch.

    >>> tile = np.full((20, 20, 3), 230, np.uint8); tile[:, :2] = 255; tile[:, -2:] = 153
    >>> edge_spans(tile).tolist()
    [102.0, 0.0]
    """
    px = square.astype(np.float64)
    cols, rows = px.mean(axis=0), px.mean(axis=1)
    return np.array([np.ptp(cols, axis=0).max(), np.ptp(rows, axis=0).max()])


_SPANS: dict[int, tuple[Skin, dict[int, npt.NDArray[np.float64]]]] = {}


def state_spans(skin: Skin) -> dict[int, npt.NDArray[np.float64]]:
    """Per state, the smallest :func:`edge_spans` of its templates (cached per skin)."""
    hit = _SPANS.get(id(skin))
    if hit is None or hit[0] is not skin:
        spans = {state: np.min([edge_spans(img) for img in images], axis=0)
                 for state, images in skin.cells.items() if images}
        hit = _SPANS[id(skin)] = (skin, spans)
    return hit[1]


def _squares(image: Image, g: BoardGeometry) -> list[Image]:
    """Every square of g (row-major), its whole pitch square at whole pixels."""
    out = []
    for r in range(g.rows):
        top = round(g.row_top(r))
        bottom = max(top + 1, round(g.row_top(r) + g.pitch_y))
        for c in range(g.cols):
            left = round(g.col_left(c))
            out.append(image[top:bottom, left:max(left + 1, round(g.col_left(c) + g.pitch_x))])
    return out


def flat_share(image: Image, g: BoardGeometry, skin: Skin,
               strictness: float = GROW_STRICTNESS) -> float:
    """The share of g's squares that the template reader names but that are flat across
    an axis where every template of the state named has edges (see FLAT_SHARE)."""
    codes, _ = classify(cell_samples(image, g), bank_for(skin, g), strictness)
    spans = state_spans(skin)
    flat = 0
    for code, square in zip(codes.tolist(), _squares(image, g), strict=True):
        want = spans.get(code)
        if want is None:
            continue
        edged = want >= STRUCTURE
        flat += bool((edged & (edge_spans(square) < FLAT_SHARE * want)).any())
    return flat / len(codes)


def is_blank(square: Image) -> bool:
    """Whether a square is one flat colour (within BLANK_TOL in every channel).

    >>> is_blank(np.zeros((16, 16, 3), np.uint8))
    True
    >>> tile = np.zeros((16, 16, 3), np.uint8); tile[:, 0] = 255
    >>> is_blank(tile)
    False
    """
    return bool(square.size) and int(np.ptp(square.reshape(-1, 3), axis=0).max()) <= BLANK_TOL


@dataclass(frozen=True)
class StateLook:
    """How a board's own squares of one state look: how many, the share that are blank,
    and per axis (across x, across y) the share with edges (:func:`edge_spans` at least
    STRUCTURE) and the median span of those."""

    count: int
    blank: float
    edged: tuple[float, float]
    span: tuple[float, float]
    usual: tuple[float, float] = (0.0, 0.0)  # the upper quartile of all their spans


def _look(blank: npt.NDArray[np.bool_], spans: npt.NDArray[np.float64]) -> StateLook:
    edged = spans >= STRUCTURE
    med = [float(np.median(spans[edged[:, a], a])) if edged[:, a].any() else 0.0
           for a in (0, 1)]
    usual = np.percentile(spans, 75, axis=0) if len(spans) else np.zeros(2)
    return StateLook(len(blank), float(blank.mean()),
                     (float(edged[:, 0].mean()), float(edged[:, 1].mean())), (med[0], med[1]),
                     (float(usual[0]), float(usual[1])))


ANY_STATE = -100
"""The key of :func:`state_looks`' entry for all the squares together."""


def state_looks(image: Image, g: BoardGeometry, skin: Skin) -> dict[int, StateLook]:
    """Per state the template reader names on g's inner squares (all of g if it is
    less than 3 squares across; a lattice's box may hold one line of margin), how they
    look; under ANY_STATE, how all of them look."""
    codes, _ = classify(cell_samples(image, g), bank_for(skin, g), GROW_STRICTNESS)
    inner = np.ones((g.rows, g.cols), bool)
    if g.rows >= 3 and g.cols >= 3:
        inner[[0, -1], :] = inner[:, [0, -1]] = False
    squares = [sq for sq, keep in zip(_squares(image, g), inner.ravel(), strict=True) if keep]
    codes = codes[inner.ravel()]
    blank = np.array([is_blank(sq) for sq in squares])
    spans = np.array([edge_spans(sq) for sq in squares])
    out = {ANY_STATE: _look(blank, spans)}
    for state in np.unique(codes).tolist():
        mine = codes == state
        out[int(state)] = _look(blank[mine], spans[mine])
    return out


def unbacked_share(image: Image, g: BoardGeometry, skin: Skin, axis: int,
                   board: Callable[[], dict[int, StateLook]]) -> float:
    """The share of the strip g's named squares that the board's own squares of their
    state do not back: blank where fewer than BLANK_SHARE of the board's squares of that
    state are blank, or flat across ``axis`` (0: x, 1: y; the direction the board's
    grid lines would cross the strip) where at least EDGED_SHARE of them have edges
    there (the board's squares of all states where it shows none of that state).
    ``board()`` is called only when some named square may be flat across ``axis``."""
    codes, _ = classify(cell_samples(image, g), bank_for(skin, g), GROW_STRICTNESS)
    suspects = []
    for code, square in zip(codes.tolist(), _squares(image, g), strict=True):
        if code != UNKNOWN:
            span = float(edge_spans(square)[axis])
            if span < FLAT_SHARE * 255:  # (it could be flat next to the board's)
                suspects.append((code, is_blank(square), span))
    if not suspects:
        return 0.0
    looks = board()
    bad = 0
    for code, blank, span in suspects:
        look = looks.get(code)
        if blank and (look is None or look.blank < BLANK_SHARE):
            bad += 1
            continue
        look = look if look is not None else looks.get(ANY_STATE)
        if look is not None and look.count >= 2 and look.edged[axis] >= EDGED_SHARE:
            bad += span < FLAT_SHARE * look.span[axis]
    return bad / len(codes)


def overedged_share(image: Image, g: BoardGeometry, skin: Skin,
                    board: Callable[[], dict[int, StateLook]]) -> float:
    """The share of the strip g's named squares whose edges, across x or y, span far more
    (OVER_EDGE) than the board's own squares of their state usually do (at least
    OVER_MIN of them; their upper quartile, and at least STRUCTURE): a window's edge or a
    board's frame along the strip. ``board()`` is called only when some named square
    has strong edges."""
    codes, _ = classify(cell_samples(image, g), bank_for(skin, g), GROW_STRICTNESS)
    strong = []
    for code, square in zip(codes.tolist(), _squares(image, g), strict=True):
        spans = edge_spans(square)
        if code != UNKNOWN and spans.max() >= OVER_EDGE * STRUCTURE:
            strong.append((code, spans))
    if not strong:
        return 0.0
    looks = board()
    over = 0
    for code, spans in strong:
        look = looks.get(code)
        if look is not None and look.count >= OVER_MIN:
            over += bool((spans >= OVER_EDGE * np.maximum(look.usual, STRUCTURE)).any())
    return over / len(codes)


def _strip(g: BoardGeometry, side: str) -> BoardGeometry:
    """The one-cell-wide strip just outside ``side`` of g (same lattice)."""
    px, py = g.pitch_x, g.pitch_y
    lefts = (g.col_left(0) - px,) if side == "left" else (g.col_left(g.cols),)
    tops = (g.row_top(0) - py,) if side == "top" else (g.row_top(g.rows),)
    if side in ("left", "right"):
        return BoardGeometry(g.skin, lefts[0], g.row_top(0), px, py, g.rows, 1, None, g.tops)
    return BoardGeometry(g.skin, g.col_left(0), tops[0], px, py, 1, g.cols, g.lefts, None)


Box = tuple[int, int, int, int]
"""Rows r0.. and cols c0.. of a lattice: (r0, c0, rows, cols)."""


def _band(lat: Lattice, name: str, box: Box, side: str, start: int, depth: int) -> BoardGeometry:
    """Lines start..start+depth-1 of the box counted in from ``side``, as a geometry."""
    r0, c0, rows, cols = box
    if side == "top":
        return _geometry(lat, name, r0 + start, c0, depth, cols)
    if side == "bottom":
        return _geometry(lat, name, r0 + rows - start - depth, c0, depth, cols)
    if side == "left":
        return _geometry(lat, name, r0, c0 + start, rows, depth)
    return _geometry(lat, name, r0, c0 + cols - start - depth, rows, depth)


def cut_bands(image: Image, lat: Lattice, skin: Skin, box: Box,
              share: Share = _known_share) -> Box:
    """The box of a found board's own lattice (:func:`cell_lattice`) less any band
    along a side that the first line of squares read as nothing at all (from that
    side) cuts off from the rest, when the band (with that line) is the smaller part
    and reads as known less than a strip :func:`grow` adds (GROW_KNOWN): a dialog over
    the middle of a board leaves the lines outside it whole. Such a band is blobs of a
    game's frame that fell on the board's lines (the flat grey between a classic
    game's counters and its face, a few pitches above the board, where the lattice's
    lines are linked with a fifth of a pitch of slack; at 9x9 every square of it read
    unknown), which grow would never have joined across that line. A board's
    own edge lines read as known (an edge square has at most five neighbours: no 6, 7
    or 8 a skin may lack). Done on the refined board: a lattice from subsampled blobs
    a pixel off reads whole lines unknown."""
    r0, c0, rows, cols = box
    while True:
        g = _geometry(lat, skin.name, r0, c0, rows, cols)
        if not _inside(g, image):
            return r0, c0, rows, cols
        codes, _ = classify(cell_samples(image, g), bank_for(skin, g), GROW_STRICTNESS)
        known = (codes != UNKNOWN).reshape(rows, cols)
        cut = None
        for side in ("top", "bottom", "left", "right"):
            lines = known if side in ("top", "bottom") else known.T
            lines = lines[::-1] if side in ("bottom", "right") else lines
            n = len(lines)
            empty = np.flatnonzero(~lines.any(axis=1))
            if not len(empty):
                continue
            k = int(empty[0])  # the band: lines 0..k-1 from this side, up to the first
            if k + 1 >= n - k - 1:  # such line; it and the line the smaller part
                continue
            box_now = (r0, c0, rows, cols)
            if share(image, _band(lat, skin.name, box_now, side, k, 1), skin,
                     GROW_STRICTNESS) > 0:
                continue  # (a glyph reads some square of the line)
            if k and share(image, _band(lat, skin.name, box_now, side, 0, k), skin,
                           GROW_STRICTNESS) >= GROW_KNOWN:
                continue
            cut = side, k + 1
            break
        if cut is None:
            return r0, c0, rows, cols
        side, depth = cut
        if side in ("top", "bottom"):
            r0, rows = (r0 + depth if side == "top" else r0), rows - depth
        else:
            c0, cols = (c0 + depth if side == "left" else c0), cols - depth


def grow(image: Image, lat: Lattice, skin: Skin, share: Share = _known_share) -> BoardGeometry:
    """Extend the lattice's box side by side while the next strip reads as known cells
    (``share`` of its squares, less those :func:`flat_share` counts, those the
    lattice's own squares of their state do not back, :func:`unbacked_share`, and those
    with far more edges than their state's templates, :func:`overedged_share`)."""
    r0, c0 = 0, 0
    rows, cols = int(lat.rows.max()) + 1, int(lat.cols.max()) + 1
    g = _geometry(lat, skin.name, r0, c0, rows, cols)
    first = g
    cache: list[dict[int, StateLook]] = []

    def board() -> dict[int, StateLook]:
        if not cache:
            cache.append(state_looks(image, first, skin) if _inside(first, image) else {})
        return cache[0]

    moved = True
    while moved:
        moved = False
        for side in ("left", "right", "top", "bottom"):
            strip = _strip(g, side)
            if not _inside(strip, image):
                continue
            known = share(image, strip, skin, GROW_STRICTNESS)
            if known < GROW_KNOWN or known - flat_share(image, strip, skin) < GROW_KNOWN:
                continue
            axis = 1 if side in ("left", "right") else 0
            if known - unbacked_share(image, strip, skin, axis, board) < GROW_KNOWN:
                continue
            if known - overedged_share(image, strip, skin, board) < GROW_KNOWN:
                continue
            if side == "left":
                c0, cols = c0 - 1, cols + 1
            elif side == "right":
                cols += 1
            elif side == "top":
                r0, rows = r0 - 1, rows + 1
            else:
                rows += 1
            g = _geometry(lat, skin.name, r0, c0, rows, cols)
            moved = True
    return g


def refine(image: Image, g: BoardGeometry, skin: Skin,
           colours: Sequence[int] | None = None) -> BoardGeometry:
    """Re-measure every column and row of ``g`` from full-resolution blobs (of the
    given packed key colours only, if any)."""
    b = g.bounds()
    h, w = image.shape[:2]
    left, top = max(0, b.left - 2), max(0, b.top - 2)
    right, bottom = min(w, b.left + b.width + 2), min(h, b.top + b.height + 2)
    found = find_blobs(image[top:bottom, left:right], skin_keys(skin), 1, colours)
    near = np.abs(np.log(found.px / g.pitch_x)) < 0.3
    near &= np.abs(np.log(found.py / g.pitch_y)) < 0.3
    cx, cy = found.cx[near] + left, found.cy[near] + top
    edges_x = np.array([g.col_left(c) for c in range(g.cols + 1)])
    edges_y = np.array([g.row_top(r) for r in range(g.rows + 1)])
    cols = np.searchsorted(edges_x, cx, side="right") - 1
    rows = np.searchsorted(edges_y, cy, side="right") - 1
    inside = (cols >= 0) & (cols < g.cols) & (rows >= 0) & (rows < g.rows)
    if inside.sum() < 2:
        return g
    lat = Lattice(cx[inside], cy[inside], rows[inside], cols[inside], g.pitch_x, g.pitch_y)
    return _geometry(lat, g.skin, 0, 0, g.rows, g.cols)


SPAN_FIT = 0.08
"""In :func:`span_refine` a key names a blob of its own look when the pitch the blob's
size implies through it is within this share (log) of the board's."""
SPAN_MOVE = 0.6
"""... and the refined lattice is kept when neither end of the board moved by more than
this share of a pixel plus a hundredth of a pitch along either axis (else the old one
stands)."""


def _edge_share(near: npt.NDArray[np.float64], far: npt.NDArray[np.float64],
                key: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """How much of the key colour a pixel just outside a blob holds (0..1), from its
    colour ``near`` between the key's and the colour ``far`` a pixel further out;
    0 where those are no blend (too alike, or ``near`` off the line between them)."""
    span = key - far
    size = np.einsum("ij,ij->i", span, span)
    share = np.einsum("ij,ij->i", near - far, span) / np.maximum(size, 1.0)
    share = np.clip(share, 0.0, 1.0)
    off = near - far - share[:, None] * span
    blend = (size >= 24.0 ** 2) & (np.einsum("ij,ij->i", off, off) <= 0.0625 * size)
    return np.where(blend, share, 0.0)


def _subpixel_centres(image: Image, boxes: npt.NDArray[np.float64],
                      colour: tuple[int, int, int]) -> tuple[npt.NDArray[np.float64],
                                                             npt.NDArray[np.float64]]:
    """Centres of blob boxes (x, y, w, h rows) with each side moved out by the share of
    the key colour the pixel past it holds (:func:`_edge_share`), measured across the
    box's middle. A browser's smoothed scaling blends the squares' edges into the
    pixels they fall in, and whole-pixel boxes put a blob's centre up to half a pixel
    off in a pattern that repeats every few squares; a fit over a board that shows one
    look on one side and another on the other does not average it out (zoom 1.3,
    20.8 px squares: 0.01 px a square). Sharp edges (whole-pixel skins) move nothing."""
    img = image.astype(np.float64)
    h, w = image.shape[:2]
    key = np.array(colour, np.float64)
    x, y, bw, bh = (boxes[:, i].astype(np.int64) for i in range(4))

    def side(pos: npt.NDArray[np.int64], lo: npt.NDArray[np.int64],
             length: npt.NDArray[np.int64], step: int, along_x: bool,
             limit: int) -> npt.NDArray[np.float64]:
        shares = np.zeros(len(pos))
        counts = np.zeros(len(pos))
        for t in (0.3, 0.5, 0.7):
            across = np.clip(lo + (length * t).astype(np.int64), 0, (h if along_x else w) - 1)
            near, far = pos + step, pos + 2 * step
            ok = (far >= 0) & (far < limit)
            nr, fr, ins = (np.clip(v, 0, limit - 1) for v in (near, far, pos))
            if along_x:
                inside, a, b = img[across, ins], img[across, nr], img[across, fr]
            else:
                inside, a, b = img[ins, across], img[nr, across], img[fr, across]
            ok &= np.abs(inside - key).max(axis=1) <= COLOUR_TOL
            shares += np.where(ok, _edge_share(a, b, key), 0.0)
            counts += ok
        return cast(npt.NDArray[np.float64], shares / np.maximum(counts, 1))

    left = x - side(x, y, bh, -1, True, w)
    right = x + bw + side(x + bw - 1, y, bh, 1, True, w)
    top = y - side(y, x, bw, -1, False, h)
    bottom = y + bh + side(y + bh - 1, x, bw, 1, False, h)
    return (left + right) / 2, (top + bottom) / 2


def _span_axis(centres: npt.NDArray[np.float64], idx: npt.NDArray[np.int64],
               looks: npt.NDArray[np.int64]) -> tuple[float, float] | None:
    """(start, pitch) of ``centres = start + pitch * idx`` with an offset of its own
    for each look, the start their mean (blobs weighted alike); None if no look spans
    two lines, or if some line's blobs lie off the fit by more than UNEVEN on average
    (a game that spreads spare pixels unevenly)."""
    _, group = np.unique(looks, return_inverse=True)
    group = group.ravel()
    counts = np.bincount(group).astype(np.float64)
    at = idx.astype(np.float64)
    di = at - (np.bincount(group, weights=at) / counts)[group]
    dc = centres - (np.bincount(group, weights=centres) / counts)[group]
    spread = float(di @ di)
    if spread <= 0:
        return None
    pitch = float(di @ dc) / spread
    offsets = np.bincount(group, weights=centres - pitch * at) / counts
    residual = centres - offsets[group] - pitch * at
    line = idx - int(idx.min())
    seen = np.bincount(line)
    means = np.bincount(line, weights=residual)[seen > 0] / seen[seen > 0]
    if np.abs(means).max() > UNEVEN:
        return None
    return float(offsets @ counts) / float(counts.sum()), pitch


def span_refine(image: Image, g: BoardGeometry, skin: Skin,
                colours: Sequence[int] | None = None) -> BoardGeometry:
    """``g`` with its pitch and origin fitted to every key blob of the board at once
    (of the given packed key colours only, if any; along an axis of fractional pitch
    only: along one of whole pixels ``g`` is kept, and an uneven one is made uniform
    only if the fit finds every line on it).

    The blob lattice averages the centres of the blobs of each line, whichever keys
    named them; keys' offsets were measured on templates cut at whole pixels and
    differ by up to a pixel and a half between looks (a covered square's key also
    names an opened square's bigger flat), so where the board shows opened squares on
    one side and covered ones on the other, the fit tilts: 30x16 at zoom 1.3 was found
    at 20.7705 px a square, not about 20.794, the last column 0.7 px off. Here only the
    keys that fit a blob's size name it, every look gets an offset of its own, the
    blobs' edges are measured to a share of a pixel (:func:`_subpixel_centres`), and
    one pitch is fitted across the whole board."""
    fractional = (g.pitch_x != round(g.pitch_x), g.pitch_y != round(g.pitch_y))
    if not any(fractional):
        return g
    b = g.bounds()
    h, w = image.shape[:2]
    left, top = max(0, b.left - 2), max(0, b.top - 2)
    right, bottom = min(w, b.left + b.width + 2), min(h, b.top + b.height + 2)
    crop = image[top:bottom, left:right]
    keys = skin_keys(skin)
    parts = []
    for colour in sorted({k.colour for k in keys}):
        if colours and _packed(colour) not in colours:
            continue
        lo = tuple(max(0, v - COLOUR_TOL) for v in colour)
        hi = tuple(min(255, v + COLOUR_TOL) for v in colour)
        boxes = mask_blobs(split_corners(cast(Image, cv2.inRange(crop, lo, hi))))
        boxes = boxes[(boxes[:, 2] >= 3) & (boxes[:, 3] >= 3)]
        if not len(boxes):
            continue
        sx, sy = _subpixel_centres(crop, boxes, colour)
        bw, bh, fill = boxes[:, 2], boxes[:, 3], boxes[:, 4]
        for n, key in enumerate(keys):
            if key.colour != colour:
                continue
            implied_x, implied_y = bw / key.rel_w, bh / key.rel_h
            own = np.abs(np.log(implied_x / g.pitch_x)) < SPAN_FIT
            own &= np.abs(np.log(implied_y / g.pitch_y)) < SPAN_FIT
            own &= np.abs(fill - key.fill) < 0.2
            cx = sx + left - key.off_x * g.pitch_x
            cy = sy + top - key.off_y * g.pitch_y
            parts.append(np.column_stack([cx, cy, np.full(len(cx), n)])[own])
    if not parts:
        return g
    found = np.concatenate(parts)
    cx, cy, look = found[:, 0], found[:, 1], found[:, 2].astype(np.int64)
    cols = np.floor((cx - g.x0) / g.pitch_x).astype(np.int64)
    rows = np.floor((cy - g.y0) / g.pitch_y).astype(np.int64)
    inside = (cols >= 0) & (cols < g.cols) & (rows >= 0) & (rows < g.rows)
    if inside.sum() < 4:
        return g
    x0, px, y0, py, lefts, tops = g.x0, g.pitch_x, g.y0, g.pitch_y, g.lefts, g.tops
    if fractional[0] and (fit := _span_axis(cx[inside], cols[inside], look[inside])):
        x0, px, lefts = fit[0] - fit[1] / 2, fit[1], None
    if fractional[1] and (fit := _span_axis(cy[inside], rows[inside], look[inside])):
        y0, py, tops = fit[0] - fit[1] / 2, fit[1], None
    new = BoardGeometry(g.skin, float(x0), float(y0), float(px), float(py), g.rows, g.cols,
                        lefts, tops)
    limit_x = SPAN_MOVE + 0.01 * g.pitch_x
    limit_y = SPAN_MOVE + 0.01 * g.pitch_y
    if max(abs(new.col_left(c) - g.col_left(c)) for c in (0, g.cols)) > limit_x or max(
            abs(new.row_top(r) - g.row_top(r)) for r in (0, g.rows)) > limit_y:
        return g
    return new


SNAP_NEAR = 0.004
"""A fitted pitch within this share of the skin's own whole cell size is tried at that
size (:func:`snap_to_skin`)."""


def snap_to_skin(image: Image, g: BoardGeometry, skin: Skin) -> BoardGeometry:
    """``g`` at the skin's own whole cell size, where its fitted pitch is within
    :data:`SNAP_NEAR` of it, at the whole-pixel origin (within a pixel of the one that
    keeps the board's centre) whose squares are nearest their templates; ``g`` unless
    one is nearer.

    Blob centres fitted line by line leave a small error in the pitch: a page's
    40 px buttons, with a shadow under each (nicegui-minesweeper), were found at
    40.06 px from x 20.92, the last columns a pixel off the templates' cut, and
    the numbers there read as unknown. A board at the skin's own size is cut where
    the templates were. So is one fitted at that very size, but a pixel off: a skin
    with a second covered look a pixel off the first (react-minesweeper's square
    pressed) matched its covered squares there, and its numbers did not read.

    >>> img = np.full((140, 140, 3), 200, np.uint8)
    >>> covered = np.full((20, 20, 3), 200, np.uint8); covered[2:18, 2:18] = 90
    >>> for r in range(6):
    ...     for c in range(6):
    ...         img[10 + 20 * r:30 + 20 * r, 10 + 20 * c:30 + 20 * c] = covered
    >>> skin = Skin("demo", "", (20.0, 20.0), {COVERED: (covered,)}, {}, {})
    >>> g = BoardGeometry("demo", 10.6, 10.4, 20.07, 19.95, 6, 6)
    >>> snapped = snap_to_skin(img, g, skin)
    >>> snapped.x0, snapped.y0, snapped.pitch_x, snapped.pitch_y
    (10.0, 10.0, 20.0, 20.0)
    """
    sx, sy = skin.cell_size
    if sx != round(sx) or sy != round(sy) or \
            abs(g.pitch_x / sx - 1) > SNAP_NEAR or abs(g.pitch_y / sy - 1) > SNAP_NEAR:
        return g
    x_mid = round(g.x0 + g.cols * (g.pitch_x - sx) / 2)
    y_mid = round(g.y0 + g.rows * (g.pitch_y - sy) / 2)
    tries = [BoardGeometry(g.skin, float(x_mid + dx), float(y_mid + dy), float(sx), float(sy),
                           g.rows, g.cols) for dy in (0, -1, 1) for dx in (0, -1, 1)]
    best, best_d = g, _distance(image, g, skin)
    for t in tries:
        if _inside(t, image) and (d := _distance(image, t, skin)) < best_d:
            best, best_d = t, d
    return best


def _distance(image: Image, g: BoardGeometry, skin: Skin) -> float:
    """The mean over ``g``'s squares, each cut at whole pixels, of its mean absolute
    difference (0-255) to the nearest of the skin's templates of that size (a pixel's
    shift shows at full size: sampled smaller, a flat tile reads alike anyway)."""
    w, h = template_size(g)
    own = [t for ts in skin.cells.values() for t in ts if t.shape[:2] == (h, w)]
    if not own:
        return math.inf
    bank = np.stack(own).astype(np.int16)
    squares = (cut_square(image, g, (r, c)).astype(np.int16)
               for r in range(g.rows) for c in range(g.cols))
    best = [float(np.abs(bank - sq).mean(axis=(1, 2, 3)).min()) for sq in squares]
    return float(np.mean(best))


@dataclass(frozen=True)
class Candidate:
    """A board hypothesis: its geometry, the share of its squares read as known, and
    the lattice and skin it came from (to judge it again, see :func:`rescue`)."""

    geometry: BoardGeometry
    known: float
    lattice: Lattice | None = field(default=None, compare=False, repr=False)
    skin: Skin | None = field(default=None, compare=False, repr=False)

    @property
    def score(self) -> tuple[bool, float]:
        cells = self.geometry.rows * self.geometry.cols
        return (self.known >= ACCEPT_KNOWN, self.known * cells)


def cell_lattice(g: BoardGeometry) -> Lattice:
    """Every square's centre of g as a lattice (``_geometry`` of it gives g back).

    >>> g = BoardGeometry("s", 10.0, 20.0, 16.0, 16.0, 2, 3)
    >>> lat = cell_lattice(g)
    >>> _geometry(lat, "s", 0, 0, 2, 3) == g
    True
    """
    rows, cols = np.mgrid[0:g.rows, 0:g.cols]
    cx = np.array([g.col_left(c) + g.pitch_x / 2 for c in range(g.cols)])[cols.ravel()]
    cy = np.array([g.row_top(r) + g.pitch_y / 2 for r in range(g.rows)])[rows.ravel()]
    return Lattice(cx, cy, rows.ravel().astype(np.int64), cols.ravel().astype(np.int64),
                   g.pitch_x, g.pitch_y)


def _moved(a: BoardGeometry, b: BoardGeometry) -> bool:
    """Whether refining moved a grown box by half a pixel or more somewhere."""
    return (a.rows, a.cols) != (b.rows, b.cols) or max(
        abs(a.col_left(c) - b.col_left(c)) for c in (0, a.cols)) >= 0.5 or max(
        abs(a.row_top(r) - b.row_top(r)) for r in (0, a.rows)) >= 0.5


OFF_SIZE = 0.1
"""A lattice whose pitch differs by more than this share from every template's of the
skin is off its sizes (``off_size``)."""


def off_size(skin: Skin, px: float, py: float) -> bool:
    """Whether no template of ``skin`` was cut at about this pitch (OFF_SIZE): the
    template reader then knows little more than the flat tiles.

    >>> from vision.skin import load_skin
    >>> [off_size(load_skin("winmine"), p, p) for p in (16.0, 17.0, 20.0)]
    [False, False, True]
    """
    sizes = np.array([(img.shape[0] + img.shape[1]) / 2 for imgs in skin.cells.values()
                      for img in imgs], np.float64)
    return not bool(len(sizes)) or bool(
        np.abs(sizes / ((px + py) / 2) - 1.0).min() > OFF_SIZE)


ASPECT_TOL = 0.1
"""A lattice whose squares' width over height differs by more than this share from the
skin's is of another shape (``off_aspect``)."""


def off_aspect(skin: Skin, px: float, py: float) -> bool:
    """Whether a lattice of pitch ``px`` x ``py`` has squares of another shape than
    ``skin``'s (ASPECT_TOL): a window scaled for the screen keeps its squares' shape.
    Blobs of a colour found all over a texture (kmines' green theme: the light green
    between its tufts of grass) link into lattices of any shape, and the template
    reader reads a tuft cut anywhere as covered: a 16x16 board of 19 px squares was
    found as 15 columns of 19 x 9.5 px, which play could not read.

    >>> from vision.skin import load_skin
    >>> [off_aspect(load_skin("xdemineur"), 21.0, py) for py in (21.0, 22.5, 10.5)]
    [False, False, True]
    """
    sx, sy = skin.cell_size
    return bool(abs((px / py) / (sx / sy) - 1.0) > ASPECT_TOL)


def _candidate(image: Image, lat: Lattice, skin: Skin,
               share: Share = _known_share) -> Candidate | None:
    if off_aspect(skin, lat.px, lat.py):
        return None
    # a board drawn at a size the skin has no templates of (a window stretched by a
    # HiDPI scale) grows by strips its glyphs read: a strip of numbers and flags is
    # otherwise unknown but for its flat tiles, and left off
    by = glyph_share if share is _known_share and off_size(skin, lat.px, lat.py) else share
    grown = grow(image, lat, skin, by)
    g = refine(image, grown, skin, lat.colours[:2])
    if g.rows < 2 or g.cols < 2 or not _inside(g, image):
        return None
    cand = Candidate(g, share(image, g, skin, 1.0), lat, skin)
    if cand.score[0] and _moved(grown, g):  # a lattice from subsampled blobs a pixel
        again = grow(image, cell_lattice(g), skin, by)  # off reads its edge strips
        if (again.rows, again.cols) != (g.rows, g.cols):  # worse: grow it once more
            g = refine(image, again, skin, lat.colours[:2])
            if _inside(g, image):
                cand = Candidate(g, share(image, g, skin, 1.0), lat, skin)
    whole = (0, 0, g.rows, g.cols)
    if cand.score[0] and (cut := cut_bands(image, cell_lattice(g), skin, whole, by)) != whole:
        g = refine(image, _geometry(cell_lattice(g), skin.name, *cut), skin, lat.colours[:2])
        if _inside(g, image):
            cand = Candidate(g, share(image, g, skin, 1.0), lat, skin)
    return cand


def rescue(image: Image, cand: Candidate) -> Candidate | None:
    """The candidate's lattice grown and judged again with :func:`glyph_share` (None
    if it has no lattice or no longer fits the image)."""
    if cand.lattice is None or cand.skin is None:
        return None
    return _candidate(image, cand.lattice, cand.skin, glyph_share)


def _rescued(image: Image, seen: Sequence[Candidate]) -> list[Candidate]:
    """Those of the RESCUE_TRIES best candidates a second look with glyphs accepts."""
    best = sorted(seen, key=lambda c: c.score, reverse=True)[:RESCUE_TRIES]
    again = [rescue(image, c) for c in best]
    return [c for c in again if c is not None and c.score[0]]


_FIRST: dict[int, tuple[Skin, frozenset[tuple[int, int, int]]]] = {}


def _first_colours(skin: Skin) -> frozenset[tuple[int, int, int]]:
    """Key colours of the FIRST_STATES templates (cached per skin object)."""
    hit = _FIRST.get(id(skin))
    if hit is None or hit[0] is not skin:
        colours = frozenset(key.colour for state in FIRST_STATES
                            for img in skin.cells.get(state, ())
                            if (key := _key_of(img, state)) is not None)
        hit = _FIRST[id(skin)] = (skin, colours)
    return hit[1]


FIRST_STATES = (COVERED, 0)
"""The key colours of these states are tried first (a board nearly always shows some);
the other states' colours only if that finds no board."""


def _steps(image: Image) -> tuple[int, ...]:
    """Subsampling steps to try: a half-size copy of a big image first, then full size."""
    return (2, 1) if image.shape[0] * image.shape[1] > 800_000 else (1,)


def locate_with_skin(image: Image, skin: Skin,
                     steps: tuple[int, ...] | None = None) -> Candidate | None:
    """The best board of one skin in the image, or None."""
    keys = skin_keys(skin)
    first = [k for k in keys if k.colour in _first_colours(skin)]
    steps = _steps(image) if steps is None else steps
    found: Candidate | None = None
    for step in steps:  # a half-size copy first; full size if that finds nothing
        for tier in ((first, keys) if first else (keys,)):
            cand = _locate_with_keys(image, skin, tier, step)
            if cand is not None and cand.score[0]:
                return cand
            if cand is not None and (found is None or cand.score > found.score):
                found = cand
    return found


def _locate_with_keys(image: Image, skin: Skin, keys: Sequence[KeyBlob],
                      step: int) -> Candidate | None:
    blobs = find_blobs(image, keys, step)
    lattices = [lat for p in pitch_hypotheses(blobs) if (lat := link_lattice(blobs, *p))]
    lattices.sort(key=lambda la: -len(la.cx) * la.px * la.py)  # most board area first
    found = []
    for lat in lattices:
        cand = _candidate(image, lat, skin)
        if cand is not None and cand.score[0]:
            return cand
        if cand is not None:
            found.append(cand)
    return max(found, key=lambda c: c.score) if found else None


def _check_image(image: object) -> Image:
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3:
        shape = getattr(image, "shape", None)
        raise BoardNotFound(f"expected a BGR image (height x width x 3), got shape {shape}")
    if image.dtype != np.uint8:
        raise BoardNotFound(f"expected an 8-bit image, got {image.dtype}")
    return image


def locate_board(image: Image, skins: Sequence[Skin]) -> BoardGeometry:
    """The board in ``image``, read with whichever of ``skins`` explains it best."""
    image = _check_image(image)
    if not skins:
        raise BoardNotFound("no skins to look for")
    _SOURCE[:] = [image]
    try:
        return _locate_board(image, skins)
    finally:
        _SOURCE.clear()
        _SHRUNK.clear()
        _BLOBS.clear()


def _locate_board(image: Image, skins: Sequence[Skin]) -> BoardGeometry:
    good: list[Candidate] = []
    seen: list[Candidate] = []
    for step in _steps(image):  # full size only when no skin finds a board at half size
        found = [locate_with_skin(image, s, (step,)) for s in skins]
        good = [c for c in found if c is not None and c.score[0]]
        if good:
            break
        seen.extend(c for c in found if c is not None)
    if not good:  # squares the template reader leaves unknown may read by glyph
        good = _rescued(image, seen)
    if not good:
        names = ", ".join(s.name for s in skins)
        h, w = image.shape[:2]
        raise BoardNotFound(f"no Minesweeper board ({names}) found in the {w}x{h} image")
    best = max(good, key=lambda c: c.score)
    if best.known < PARTIAL_KNOWN:  # (a lost board, most of its squares mines and numbers)
        from vision.lattice import lattice_known_share, locate_by_lattice

        other = locate_by_lattice(image, skins)
        if other is not None:
            skin = next(s for s in skins if s.name == other.skin)
            if lattice_known_share(image, other, skin) * other.rows * other.cols > \
                    best.score[1]:
                return span_refine(image, other, skin)
    if best.skin is None:
        return best.geometry
    colours = best.lattice.colours[:2] if best.lattice is not None else None
    return snap_to_skin(image, span_refine(image, best.geometry, best.skin, colours), best.skin)
