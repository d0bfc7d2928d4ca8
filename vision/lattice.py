"""Find a Minesweeper board with no template: a regular lattice of identical squares.

The board of every Minesweeper game is a grid of equal squares; at the start of a game
most of them are the same covered tile. :func:`find_lattice` segments the image into
flat regions (pixels joined when their colours differ little), keeps the tile-like ones,
groups them by size, and fits ``x = x0 + col * pitch_x`` (and the same for y) to the
group that forms the biggest regular lattice. The pitch may be fractional (scaled
skins). The cell boundary is put halfway between neighbouring tiles, so a cell is the
tile plus half the gap or grid line on each side.

>>> import numpy as np
>>> img = np.full((200, 260, 3), 60, np.uint8)
>>> for r in range(5):
...     for c in range(7):
...         x, y = round(30 + c * 25.5), round(40 + r * 25.5)
...         img[y + 2:y + 24, x + 2:x + 24] = (180, 180, 180)
>>> g = find_lattice(img)
>>> (g.rows, g.cols, round(g.pitch_x, 1), g.x0, g.y0)
(5, 7, 25.5, 30.0, 40.0)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import BoardGeometry

if TYPE_CHECKING:
    from vision.skin import Skin

Image = npt.NDArray[np.uint8]

MIN_TILE = 5  # smallest tile side in pixels that we look for
MIN_CELLS = 9  # fewer identical tiles than this is not a board
TILE_ASPECT = 2.0  # a tile is at most this many times as wide as high, or high as wide
STRETCHED_ASPECT = 4.0  # ... when no board of squares nearer square is found


class NoBoardError(ValueError):
    """No regular lattice of identical squares in the image (message is user-facing)."""


@dataclass(frozen=True)
class Blob:
    """A flat, tile-like region: bounding box and centre in image pixels."""

    x: int
    y: int
    w: int
    h: int

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2


def flat_regions(image: Image, tol: int = 6, step: int = 1,
                 aspect: float = TILE_ASPECT) -> list[Blob]:
    """Tile-like regions whose pixels differ by at most ``tol`` per channel from the
    pixels ``step`` away (``step=2``: tiles filled with a one-pixel dither or checker
    pattern, as Xaw/Motif stipples draw them, count as flat), at most ``aspect``
    times as wide as high or as high as wide.

    A pixel that differs from a pixel ``step`` away (left, right, up or down) by more
    than ``tol`` is an edge pixel; the remaining pixels are joined into 4-connected
    regions, so regions shrink by the same amount on every side and their centres stay
    put.
    """
    img = image.astype(np.int16)
    dx = np.abs(img[:, step:] - img[:, :-step]).max(axis=2) > tol
    dy = np.abs(img[step:] - img[:-step]).max(axis=2) > tol
    edge = np.zeros(image.shape[:2], bool)
    edge[:, :-step] |= dx
    edge[:, step:] |= dx
    edge[:-step, :] |= dy
    edge[step:, :] |= dy
    n, _, stats, _ = cv2.connectedComponentsWithStats((~edge).astype(np.uint8), connectivity=4)
    h_img, w_img = image.shape[:2]
    blobs = []
    for x, y, w, h, area in stats[1:].tolist():
        if w < MIN_TILE or h < MIN_TILE or w > w_img // 3 or h > h_img // 3:
            continue
        if not 1 / aspect <= w / h <= aspect or area < 0.6 * w * h:
            continue
        blobs.append(Blob(x, y, w, h))
    return blobs


def size_groups(blobs: list[Blob], min_count: int = MIN_CELLS) -> list[list[Blob]]:
    """Blobs grouped by size (within one pixel), biggest group first."""
    counts: dict[tuple[int, int], int] = {}
    for b in blobs:
        counts[(b.w, b.h)] = counts.get((b.w, b.h), 0) + 1
    groups = []
    seen: set[tuple[int, int]] = set()
    for (w, h), _ in sorted(counts.items(), key=lambda kv: -kv[1]):
        if (w, h) in seen:
            continue
        keys = {(w + a, h + b) for a in (-1, 0, 1) for b in (-1, 0, 1)}
        seen |= keys
        members = [b for b in blobs if (b.w, b.h) in keys]
        if len(members) >= min_count:
            groups.append(members)
    return groups


def _axis_index(
    centres: npt.NDArray[np.float64], tile: float
) -> tuple[npt.NDArray[np.int64], float]:
    """Integer lattice index of each centre along one axis, and a rough pitch.

    Centres are clustered into lines; the smallest spacing between neighbouring lines
    is the rough pitch; each line's index counts pitches from the first line, step by
    step, so rounding errors do not add up over a wide board.
    """
    order = np.sort(np.unique(np.round(centres, 1)))
    lines: list[list[float]] = [[float(order[0])]]
    for v in order[1:]:
        if v - lines[-1][-1] > max(1.5, tile * 0.3):
            lines.append([])
        lines[-1].append(float(v))
    pos = np.array([np.mean(line) for line in lines])
    if len(pos) < 2:
        return np.zeros(len(centres), np.int64), 0.0
    diffs = np.diff(pos)
    rough = float(np.median(diffs[diffs < 1.5 * diffs.min()]))
    idx = np.concatenate([[0], np.cumsum(np.round(diffs / rough))]).astype(np.int64)
    line_of = np.searchsorted(pos, centres - max(1.5, tile * 0.3))
    line_of = np.clip(line_of, 0, len(pos) - 1)
    return idx[line_of], rough


def _fit_axis(centres: npt.NDArray[np.float64], idx: npt.NDArray[np.int64]) -> tuple[float, float]:
    """Least-squares ``centre = a + pitch * idx``; returns (a, pitch)."""
    pitch, a = np.polyfit(idx.astype(float), centres, 1)
    return float(a), float(pitch)


@dataclass(frozen=True)
class LatticeFit:
    """A lattice fitted to one size group: centre of cell (0, 0), pitch, and the
    (row, col) of every blob that sits on it."""

    cx0: float
    cy0: float
    pitch_x: float
    pitch_y: float
    cells: frozenset[tuple[int, int]]
    col_centres: tuple[tuple[int, float], ...] = ()
    row_centres: tuple[tuple[int, float], ...] = ()


def fit_lattice(group: list[Blob]) -> LatticeFit | None:
    """The regular lattice through most of ``group`` (None if there is none)."""
    cx = np.array([b.cx for b in group])
    cy = np.array([b.cy for b in group])
    tw = float(np.median([b.w for b in group]))
    th = float(np.median([b.h for b in group]))
    ix, px = _axis_index(cx, tw)
    iy, py = _axis_index(cy, th)
    if px < tw * 0.9 or py < th * 0.9:
        return None
    keep = np.ones(len(group), bool)
    for _ in range(3):
        if keep.sum() < MIN_CELLS or len(set(ix[keep])) < 2 or len(set(iy[keep])) < 2:
            return None
        ax, px = _fit_axis(cx[keep], ix[keep])
        ay, py = _fit_axis(cy[keep], iy[keep])
        res = np.maximum(np.abs(cx - ax - px * ix), np.abs(cy - ay - py * iy))
        keep = res < max(1.0, 0.12 * min(px, py))
    cells = frozenset(zip(iy[keep].tolist(), ix[keep].tolist(), strict=True))
    if len(cells) < MIN_CELLS:
        return None
    return LatticeFit(ax, ay, px, py, cells, _line_centres(cx[keep], ix[keep]),
                      _line_centres(cy[keep], iy[keep]))


def _line_centres(centres: npt.NDArray[np.float64],
                  idx: npt.NDArray[np.int64]) -> tuple[tuple[int, float], ...]:
    """The measured centre of every lattice line that has tiles on it."""
    return tuple((int(i), float(np.median(centres[idx == i]))) for i in np.unique(idx))


def main_block(cells: frozenset[tuple[int, int]]) -> tuple[int, int, int, int]:
    """Row/col bounds (r0, c0, r1, c1 inclusive) of the biggest cluster of lattice cells.

    Cells one empty line apart still count as one cluster (an opened region may cut
    through the covered tiles); stray tiles further away are dropped.
    """
    rs = [r for r, _ in cells]
    cs = [c for _, c in cells]
    r_min, c_min = min(rs), min(cs)
    grid = np.zeros((max(rs) - r_min + 1, max(cs) - c_min + 1), np.uint8)
    for r, c in cells:
        grid[r - r_min, c - c_min] = 1
    grown = cv2.dilate(grid, np.ones((5, 5), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
    best = 1 + int(np.argmax([(labels == k)[grid > 0].sum() for k in range(1, n)]))
    member = (labels == best) & (grid > 0)
    rr, cc = np.nonzero(member)
    return (int(rr.min()) + r_min, int(cc.min()) + c_min,
            int(rr.max()) + r_min, int(cc.max()) + c_min)


def _edges(measured: tuple[tuple[int, float], ...], a: float, pitch: float, first: int,
           n: int) -> tuple[float, ...]:
    """Edges of lines first..first+n-1: measured centres where known, else the
    nearest measured line plus whole pitches."""
    known = dict(measured)
    out = []
    for i in range(first, first + n):
        if i in known:
            centre = known[i]
        elif known:
            j = min(known, key=lambda k: abs(k - i))
            centre = known[j] + (i - j) * pitch
        else:
            centre = a + i * pitch
        out.append(centre - pitch / 2)
    return tuple(out)


def _snap(v: float) -> float:
    """Whole pixels for a whole-pixel pitch."""
    return float(round(v)) if abs(v - round(v)) < 0.02 else v


def whole_pitch(measured: tuple[tuple[int, float], ...], pitch: float,
                ) -> tuple[float, float] | None:
    """``(a, p)``, a whole pitch ``p`` and the centre ``a`` of line 0, when every
    measured line centre lies within half a pixel of ``a + i * p``; else None.

    A game stretched by a factor that makes its squares a whole number of pixels
    (16 px squares at 125-200 %) draws every square alike, but the flat faces found
    in a blurred capture end a pixel early or late next to other colours, so the
    measured centres wobble by half a pixel and the fitted pitch is off by up to
    0.1 px: cut at those centres, one look comes out in several sub-pixel phases.
    A pitch that is really fractional drifts off a whole one over a few lines.

    >>> whole_pitch(((0, 10.0), (1, 34.5), (2, 58.0), (5, 130.5)), 24.07)
    (10.25, 24.0)
    >>> whole_pitch(tuple((i, 10 + 26.25 * i) for i in range(9)), 26.25) is None
    True

    (Over few lines a fractional pitch may pass: then no square is cut more than
    half a pixel off, as near as whole-pixel edges get anyway.)
    """
    if len(measured) < 2:
        return None
    p = float(round(pitch))
    off = np.array([v - i * p for i, v in measured])
    if p < 1 or float(off.max() - off.min()) > 1.0:
        return None
    return float(off.max() + off.min()) / 2, p


def _axis_edges(measured: tuple[tuple[int, float], ...], a: float, pitch: float,
                first: int, n: int) -> tuple[float, tuple[float, ...]]:
    """The pitch and the whole-pixel left (top) edges of lines first..first+n-1:
    at a whole pitch when the measured centres fit one (see :func:`whole_pitch`),
    else measured line by line (see :func:`_edges`)."""
    snapped = whole_pitch(measured, pitch)
    if snapped is not None:
        a, pitch = snapped
        measured = ()
    else:
        pitch = _snap(pitch)
    # whole-pixel edges, off the .5 tie: a boundary in the middle of a one-pixel grid
    # line goes to the line's pixel
    return pitch, tuple(float(math.floor(v + 0.05))
                        for v in _edges(measured, a, pitch, first, n))


def _geometry(fit: LatticeFit, r0: int, c0: int, r1: int, c1: int) -> BoardGeometry:
    px, lefts = _axis_edges(fit.col_centres, fit.cx0, fit.pitch_x, c0, c1 - c0 + 1)
    py, tops = _axis_edges(fit.row_centres, fit.cy0, fit.pitch_y, r0, r1 - r0 + 1)
    x0 = float(round(np.mean(np.array(lefts) - px * np.arange(len(lefts)))))
    y0 = float(round(np.mean(np.array(tops) - py * np.arange(len(tops)))))
    return BoardGeometry("", x0, y0, px, py, r1 - r0 + 1, c1 - c0 + 1, lefts, tops)


def _with_other_tiles(fit: LatticeFit, blobs: list[Blob]) -> LatticeFit:
    """Add the squares where a tile of another kind (say an opened square next to the
    covered ones that made the lattice) sits centred on a lattice point; beyond the
    rows and columns of the lattice's own tiles, only lines that such tiles fill a
    third of (:func:`_filled_lines`)."""
    px, py = fit.pitch_x, fit.pitch_y
    other = set()
    for b in blobs:
        if not (0.4 * px <= b.w <= px and 0.4 * py <= b.h <= py):
            continue
        c = round((b.cx - fit.cx0) / px)
        r = round((b.cy - fit.cy0) / py)
        if abs(b.cx - fit.cx0 - c * px) < 0.12 * px and abs(b.cy - fit.cy0 - r * py) < 0.12 * py:
            other.add((r, c))
    return LatticeFit(fit.cx0, fit.cy0, px, py, frozenset(_filled_lines(fit.cells, other)),
                      fit.col_centres, fit.row_centres)


def _filled_lines(cells: frozenset[tuple[int, int]],
                  other: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """``cells`` and the squares of ``other`` within their rows and columns, or in a
    row (column) beyond them that ``other`` fills a third of, as wide (tall) as
    ``cells`` span. A lone button on a lattice point below the board (UXBgtk's flag
    count in its status bar, 32x30 px under 40 px squares) made a 17th row.

    >>> cells = frozenset((r, c) for r in range(4) for c in range(4))
    >>> sorted(_filled_lines(cells, {(4, 1), (0, 4), (1, 4), (2, 4)}) - cells)  # (4, 1) alone
    [(0, 4), (1, 4), (2, 4)]
    """
    rows, cols = [r for r, _ in cells], [c for _, c in cells]
    r0, r1, c0, c1 = min(rows), max(rows), min(cols), max(cols)
    in_row = Counter(r for r, _ in other)
    in_col = Counter(c for _, c in other)
    out = set(cells)
    for r, c in other:
        if (r0 <= r <= r1 or 3 * in_row[r] >= c1 - c0 + 1) and \
                (c0 <= c <= c1 or 3 * in_col[c] >= r1 - r0 + 1):
            out.add((r, c))
    return out


def candidate_lattices(image: Image, step: int = 1,
                       aspect: float = TILE_ASPECT) -> list[BoardGeometry]:
    """Every lattice found, best (most identical tiles on it) first (``step`` and
    ``aspect``: see :func:`flat_regions`)."""
    scored = []
    for tol in (6, 16):
        blobs = flat_regions(image, tol, step, aspect)
        for group in size_groups(blobs)[:4]:
            fit = fit_lattice(group)
            if fit is None:
                continue
            fit = _with_other_tiles(fit, blobs)
            r0, c0, r1, c1 = main_block(fit.cells)
            inside = sum(r0 <= r <= r1 and c0 <= c <= c1 for r, c in fit.cells)
            g = _geometry(fit, r0, c0, r1, c1)
            if g.rows >= 2 and g.cols >= 2 and _fits_image(g, image):
                scored.append((inside, g))
    scored.sort(key=lambda sg: -sg[0])
    return [g for _, g in scored]


def _fits_image(g: BoardGeometry, image: Image) -> bool:
    b = g.bounds()
    return (b.left >= 0 and b.top >= 0 and b.left + b.width <= image.shape[1]
            and b.top + b.height <= image.shape[0])


def find_lattice(image: Image, extend: bool = True) -> BoardGeometry:
    """The board's lattice in ``image`` (skin name left empty), with the measured
    left/top edge of every column/row (``lefts``/``tops``).

    Raises :class:`NoBoardError` when there is no regular lattice of at least
    ``MIN_CELLS`` identical tiles. With ``extend``, whole rows or columns at the edge
    whose squares mostly look like squares already on the board are added (an opened
    region that reaches the board's edge has no covered tiles there).
    """
    g = align_phase(image, fitted_lattice(image))
    return extend_lattice(image, g) if extend else g


def fitted_lattice(image: Image) -> BoardGeometry:
    """The best lattice fitted to the image's tiles (see :func:`candidate_lattices`),
    before :func:`align_phase` and :func:`extend_lattice`; raises
    :class:`NoBoardError` as :func:`find_lattice` does."""
    if image.ndim != 3 or image.shape[0] < 3 * MIN_TILE or image.shape[1] < 3 * MIN_TILE:
        raise NoBoardError("no Minesweeper board found: the image is empty or too small")
    found = (candidate_lattices(image) or candidate_lattices(image, step=2)  # dithered
             or texture_lattices(image)  # textured squares with no line between
             or mark_lattices(image)  # a character a square on a plain background
             # squares stretched with the window (Kivy's buttons, 84 x 37 px in a game
             # of 9 x 9): looked for last, only when no board of squares is found
             or candidate_lattices(image, aspect=STRETCHED_ASPECT))
    if not found:
        raise NoBoardError(
            "no Minesweeper board found: no regular lattice of identical squares in the image"
        )
    return found[0]


ALIKE = 1.5
"""The mean difference (0-255) within which two squares of a lossless capture count
as cut out alike (:func:`_alike`); see :data:`LOSSY_ALIKE` for a JPEG."""


def _alike(image: Image, g: BoardGeometry, axis: int, lines: list[int] | None = None,
           tol: float = ALIKE, margin: int = 0) -> npt.NDArray[np.bool_]:
    """Which squares are cut out alike their neighbour in the next line, line by line:
    columns (``axis=1``: each square and the one to its right) or rows (``axis=0``:
    the one below), for the pairs of lines starting at ``lines`` (default all). Each
    square less its own mean colour (a translucent tile shows the shading behind it,
    which changes slowly across the board), within ``tol`` (mean difference, 0-255)."""
    n, m = (g.cols, g.rows) if axis == 1 else (g.rows, g.cols)
    starts = list(range(n - 1)) if lines is None else lines

    def line(i: int) -> npt.NDArray[np.float32]:
        cells = [(j, i) if axis == 1 else (i, j) for j in range(m)]
        cuts = np.stack([cut(image, g, cell) for cell in cells]).astype(np.float32)
        if margin:
            cuts = cuts[:, margin:cuts.shape[1] - margin, margin:cuts.shape[2] - margin]
        return np.asarray(cuts - cuts.mean(axis=(1, 2), keepdims=True))

    cache: dict[int, npt.NDArray[np.float32]] = {}
    out = []
    for i in starts:
        a = cache.setdefault(i, line(i))
        b = cache.setdefault(i + 1, line(i + 1))
        out.append(np.abs(a - b).mean(axis=(1, 2, 3)) <= tol)
    return np.asarray(out)


def align_phase(image: Image, g: BoardGeometry) -> BoardGeometry:
    """``g`` moved by whole pixels (up to a quarter of the pitch) along each axis
    where clearly more squares of the first and last columns (rows) are cut out like
    their neighbours (at least half a line more, see :func:`_alike`), and no fewer
    squares anywhere.

    The centre of a tile's flat face is not the centre of the tile when its bevel is
    wider on one side (kmines: two pixels off; the PyQt5 ``minesweeper``: five, its
    face is the right half of the tile), so each square cut from the fitted
    lattice holds a strip of its neighbour, and the squares by the board's frame hold
    a strip of the frame: unlike their neighbours. At the right phase they are alike.
    Tiles with a gap of the frame's own colour look alike at several phases: kept.
    Only a whole-pixel pitch is moved (at a fractional one, squares are cut at
    varying sub-pixel phases and alike squares differ a little anyway).

    >>> img = np.full((120, 160, 3), 40, np.uint8)
    >>> for r in range(3):
    ...     for c in range(4):
    ...         x, y = 20 + 30 * c, 20 + 30 * r
    ...         img[y:y + 30, x:x + 30] = 150
    ...         img[y:y + 30, x:x + 2] = 220  # a wide light bevel on the left
    ...         img[y:y + 30, x + 29] = 90
    >>> g = BoardGeometry("", 18.0, 20.0, 30.0, 30.0, 3, 4)
    >>> align_phase(img, g).x0
    20.0
    """
    reach = max(1, int(min(g.pitch_x, g.pitch_y) // 4))
    for axis in (1, 0):
        n, pitch = (g.cols, g.pitch_x) if axis == 1 else (g.rows, g.pitch_y)
        if n < 3 or pitch != round(pitch):
            continue  # (a fractional pitch cuts squares at varying sub-pixel phases)
        edges = [0, n - 2]
        need = max(1, (g.rows if axis == 1 else g.cols) // 2)
        base = int(_alike(image, g, axis, edges).sum())
        best, best_d = base + need - 1, 0
        for d in sorted(range(-reach, reach + 1), key=abs):
            moved = g.shifted(d, 0) if axis == 1 else g.shifted(0, d)
            if d and _fits_image(moved, image):
                score = int(_alike(image, moved, axis, edges).sum())
                if score > best:
                    best, best_d = score, d
        moved = g.shifted(best_d, 0) if axis == 1 else g.shifted(0, best_d)
        if best_d and _alike(image, moved, axis).sum() >= _alike(image, g, axis).sum():
            g = moved
    return g


LOSSY_ALIKE = 5.0
"""The mean difference (0-255) within which squares of a lossy capture (a JPEG) count
as cut out alike at :func:`board_phase`. At the default 1.5 only squares a JPEG
happens to draw to the same pixels count (a 16 px square holds two 8 px blocks:
covered squares away from other looks come out identical at any phase), and
WineMine's boards at quality 75 were put 4 px off (a strip of each neighbour in
every square: 28 looks where there are 10; nothing learned); two squares of one look
at quality 75 differ by 2-5 there, of two looks by 10 or more."""


def board_phase(images: Sequence[Image], boards: Sequence[BoardGeometry],
                tol: float | Sequence[float] = ALIKE, each: bool = False,
                ) -> list[BoardGeometry]:
    """``boards`` (one per image, of one game's skin, as fitted: see
    :func:`fitted_lattice`) put at one phase: moved by whole pixels along each axis
    where the most of their squares together are cut out alike their neighbours (see
    :func:`phase_scores`), then each by a pixel where its squares are then cut more
    like those of the biggest board (see :func:`match_phase`). Along an axis where
    some board's pitch is fractional (its squares are cut at varying sub-pixel
    phases anyway), only lines measured a pixel off are moved (see
    :func:`settle_lines`).

    The lattice is fitted to the centres of the tiles' flat faces, which sit off the
    tiles' centres (a bevel wider on one side). In a stretched capture that is two
    or three pixels, and each square cut then holds a strip of its neighbour beyond
    the outermost pixel that looks are compared without (see :func:`look_distance
    <vision.calibrate.look_distance>`): a covered square next to an open one is cut
    unlike the other covered squares, and one look splits into many by its
    neighbours. At the right phase every square of one look is cut alike, wherever it
    is. One board may have too few squares next to another look to tell (a game just
    begun), hence the move over all of them. The boards' fitted phases may differ by
    a pixel (a won board's lattice is fitted to its flags, whose faces sit elsewhere;
    a capture stretched by a factor a little off its nominal one), and one look cut
    at two phases is two looks, hence the match with one board. ``tol``: see
    :func:`_alike`, one for all images or one each (:data:`LOSSY_ALIKE` for a JPEG).
    ``each``: instead, each board is moved where its own squares are cut out most
    alike, the move best for all of them where it cannot tell (see
    :func:`lossy_board_phase`).
    """
    tols = [float(tol)] * len(images) if isinstance(tol, (int, float)) else list(tol)
    out = list(boards)
    for axis in (1, 0):
        if any((g.cols if axis == 1 else g.rows) < 3 for g in out):
            continue
        if not all(_whole(g.pitch_x if axis == 1 else g.pitch_y) for g in out):
            # (a fractional pitch cuts squares at varying sub-pixel phases)
            out = [settle_lines(im, g, axis) for im, g in zip(images, out, strict=True)]
            continue
        reach = max(1, min(3, int(min(min(g.pitch_x, g.pitch_y) for g in out) // 4)))
        scores = [phase_scores(im, g, axis, reach, t)
                  for im, g, t in zip(images, out, tols, strict=True)]
        common = set.intersection(*(set(sc) for sc in scores))
        total = {d: (sum(sc[d][0] for sc in scores), sum(sc[d][1] for sc in scores))
                 for d in common}
        best = max(total, key=lambda d: (*total[d], -abs(d)))
        moves = [max(sc, key=lambda d: (*sc[d], -abs(d - best))) if each else best
                 for sc in scores]
        out = [g.shifted(d, 0) if axis == 1 else g.shifted(0, d)
               for g, d in zip(out, moves, strict=True)]
        if not each:
            out = match_phase(images, out, axis)
    return out


LOOK_SPREAD = 8.0
"""Root mean square difference (0-255) of two squares' small signatures within which
:func:`look_count` takes them for one look."""


def lossy_board_phase(images: Sequence[Image], boards: Sequence[BoardGeometry],
                      ) -> list[BoardGeometry]:
    """The boards of JPEG captures put at one phase (:func:`board_phase` at
    :data:`LOSSY_ALIKE`), or each at its own (``each``), whichever cuts their squares
    into fewer looks (:func:`look_count`): one look cut at two phases is two looks.

    A JPEG moves a board's fitted lattice by up to two pixels, by what it shows (the
    highlight of minegauler's covered squares blurs into their face): its lost
    boards, nearly all covered, came out two pixels off its won boards, which have no
    covered square. No one move puts them all right, and the match with the biggest
    board, a won one, cannot tell a covered square cut at one phase from a 0 cut at
    another: calibrate --from named its covered squares 0 (82 squares wrong of 499
    at quality 90). Alone, a board of few squares next to another look may not show
    its phase (xdemineur's boards at quality 75: 108 looks each at its own, 62 at one
    phase), hence the choice. A board fitted at a fractional pitch within
    :data:`PITCH_SNAP` of the whole pitch of the others is first put at theirs
    (:func:`common_pitch`)."""
    boards = common_pitch(boards)
    together = board_phase(images, boards, LOSSY_ALIKE)
    apart = board_phase(images, boards, LOSSY_ALIKE, each=True)
    return apart if look_count(images, apart) < look_count(images, together) else together


PITCH_SNAP = 0.2
"""How far (pixels) a JPEG board's fitted pitch may lie from the whole pitch of the other
boards of its cell size to be put at it (:func:`common_pitch`)."""


def common_pitch(boards: Sequence[BoardGeometry]) -> list[BoardGeometry]:
    """``boards`` with any fitted at a fractional pitch within :data:`PITCH_SNAP` of the
    whole pitch most of them have put at that pitch, about the same centre. A JPEG
    moves the edges a lattice is fitted to: minegauler's 9x9 board in play at quality
    75 was fitted at 16.14 x 16.07 px, its other boards at 16, and one fractional
    board sends them all down the fractional path of :func:`board_phase`, which only
    settles lines a pixel off.

    >>> a = BoardGeometry("", 8.0, 70.0, 16.0, 16.0, 9, 9)
    >>> b = BoardGeometry("", 8.0, 70.0, 16.1, 15.95, 9, 9)
    >>> [(g.x0, g.y0, g.pitch_x, g.pitch_y) for g in common_pitch([a, a, b])][2]
    (8.0, 70.0, 16.0, 16.0)
    """
    whole = [(g.pitch_x, g.pitch_y) for g in boards if _whole(g.pitch_x) and _whole(g.pitch_y)]
    if 2 * len(whole) <= len(boards):
        return list(boards)
    px, py = Counter(whole).most_common(1)[0][0]
    out = []
    for g in boards:
        if (g.pitch_x, g.pitch_y) != (px, py) and abs(g.pitch_x - px) <= PITCH_SNAP \
                and abs(g.pitch_y - py) <= PITCH_SNAP:
            cx = g.col_left(0) + (g.col_left(g.cols - 1) + g.pitch_x - g.col_left(0)) / 2
            cy = g.row_top(0) + (g.row_top(g.rows - 1) + g.pitch_y - g.row_top(0)) / 2
            g = BoardGeometry(g.skin, float(round(cx - px * g.cols / 2)),
                              float(round(cy - py * g.rows / 2)), px, py, g.rows, g.cols)
        out.append(g)
    return out


def look_count(images: Sequence[Image], boards: Sequence[BoardGeometry],
               spread: float = LOOK_SPREAD) -> int:
    """Into how many looks the boards' squares fall: each square's small signature
    (:func:`_signatures`) joins the first look within ``spread`` of it, else starts one.

    >>> img = np.zeros((40, 40, 3), np.uint8); img[:, 20:] = 200
    >>> g = BoardGeometry("", 0.0, 0.0, 10.0, 10.0, 4, 4)
    >>> look_count([img], [g])
    2
    """
    sigs = np.concatenate([_signatures(im, g)[0] for im, g in zip(images, boards, strict=True)])
    looks = np.zeros((0, sigs.shape[1]), np.float32)
    for sig in sigs:
        if not len(looks) or np.sqrt(((looks - sig) ** 2).mean(1)).min() > spread:
            looks = np.vstack([looks, sig[None]])
    return len(looks)


def _whole(pitch: float) -> bool:
    return pitch == round(pitch)


def _signatures(image: Image, g: BoardGeometry) -> tuple[npt.NDArray[np.float32],
                                                         npt.NDArray[np.float32]]:
    """The distinct squares of ``g`` as small signatures without their outermost
    pixel (rows), and how many squares show each."""
    seen: dict[bytes, int] = {}
    cuts: list[Image] = []
    for r in range(g.rows):
        for c in range(g.cols):
            img = cut(image, g, (r, c))
            key = img.tobytes()
            if key not in seen:
                seen[key] = len(cuts)
                cuts.append(img)
    counts = np.zeros(len(cuts), np.float32)
    for r in range(g.rows):
        for c in range(g.cols):
            counts[seen[cut(image, g, (r, c)).tobytes()]] += 1
    sigs = np.stack([cv2.resize(np.ascontiguousarray(img[1:-1, 1:-1]), (12, 12),
                                interpolation=cv2.INTER_AREA).ravel() for img in cuts])
    return sigs.astype(np.float32), counts


def _match_cost(sigs: npt.NDArray[np.float32], counts: npt.NDArray[np.float32],
                ref: npt.NDArray[np.float32]) -> float:
    """Mean over squares of the distance (root mean square) from each to the nearest
    of ``ref``'s signatures."""
    d2 = ((sigs ** 2).sum(1)[:, None] + (ref ** 2).sum(1)[None, :] - 2 * sigs @ ref.T)
    nearest = np.sqrt(np.maximum(d2.min(axis=1), 0) / sigs.shape[1])
    return float((nearest * counts).sum() / counts.sum())


def settle_lines(image: Image, g: BoardGeometry, axis: int) -> BoardGeometry:
    """``g`` with each column (``axis=1``) or row (0) moved by a pixel (or not) where
    its squares are cut most like squares of the other lines (see
    :func:`_match_cost`), by a tenth at least; only when every measured edge lies
    within a pixel of one straight line (else left as it is).

    At a fractional pitch each line's edge is measured on its own, at the centre of
    its tiles' flat faces; in a blurred capture where a face ends depends on the
    sub-pixel phase the line falls at, so some lines are cut a pixel off (xdemineur's
    21 px squares at 175 %: its 0 came out as two looks). A game that draws its
    lines at rounded places itself is measured exactly (a crisp stretch: its squares
    match best where they are; gnome-mines: lines up to 3 px off one straight line,
    and glyphs drawn at their own sub-pixel places, left alone).
    """
    n = g.cols if axis == 1 else g.rows
    edges = [float(v) for v in ((g.lefts or ()) if axis == 1 else (g.tops or ()))]
    if len(edges) != n or n < 3:
        return g
    idx = np.arange(n, dtype=np.float64)
    p, a = np.polyfit(idx, np.array(edges), 1)
    if float(np.abs(np.array(edges) - a - p * idx).max()) > 1.0:
        return g
    sigs = _line_signatures(image, g, axis)
    for k in range(n):
        ref = np.concatenate([s for i, s in enumerate(sigs) if i != k])
        ref = np.asarray(np.unique(np.round(ref / 4), axis=0) * 4, np.float32)
        ones = np.ones(sigs[k].shape[0], np.float32)
        costs = {0: _match_cost(sigs[k], ones, ref) / 1.1}
        for d in (-1, 1):
            moved = _with_edge(g, axis, k, edges[k] + d)
            if _fits_image(moved, image):
                costs[d] = _match_cost(_line_signatures(image, moved, axis, k)[0], ones, ref)
        best = min(costs, key=lambda d: (costs[d], abs(d)))
        if best:
            edges[k] += best
            g = _with_edge(g, axis, k, edges[k])
            sigs[k] = _line_signatures(image, g, axis, k)[0]
    return g


def _with_edge(g: BoardGeometry, axis: int, k: int, edge: float) -> BoardGeometry:
    if axis == 1:
        lefts = list(g.lefts or ())
        lefts[k] = edge
        return replace(g, lefts=tuple(lefts))
    tops = list(g.tops or ())
    tops[k] = edge
    return replace(g, tops=tuple(tops))


def _line_signatures(image: Image, g: BoardGeometry, axis: int,
                     only: int | None = None) -> list[npt.NDArray[np.float32]]:
    """Small signatures (see :func:`_small`) of the squares of each line along
    ``axis`` (1: columns), or of line ``only`` alone."""
    n, m = (g.cols, g.rows) if axis == 1 else (g.rows, g.cols)
    out = []
    for i in range(n) if only is None else [only]:
        cells = [(j, i) if axis == 1 else (i, j) for j in range(m)]
        out.append(np.stack([_small(cut(image, g, cell)) for cell in cells]))
    return out


def _small(img: Image) -> npt.NDArray[np.float32]:
    """A square less its outermost pixel, shrunk to 12x12, flat."""
    small = cv2.resize(np.ascontiguousarray(img[1:-1, 1:-1]), (12, 12),
                       interpolation=cv2.INTER_AREA)
    return np.asarray(small, np.float32).ravel()


def match_phase(images: Sequence[Image], boards: Sequence[BoardGeometry],
                axis: int) -> list[BoardGeometry]:
    """Each of ``boards`` moved by a pixel along ``axis`` (or not) where its squares
    are cut most like some square of the biggest board (see :func:`_match_cost`):
    one look is then cut the same way on every board."""
    ref_k = max(range(len(boards)), key=lambda k: boards[k].rows * boards[k].cols)
    ref = _signatures(images[ref_k], boards[ref_k])[0]
    ref = np.asarray(np.unique(np.round(ref / 4), axis=0) * 4, np.float32)  # near repeats
    out = list(boards)
    for k, (image, g) in enumerate(zip(images, boards, strict=True)):
        if k == ref_k:
            continue
        costs = {}
        for d in (0, -1, 1):
            moved = g.shifted(d, 0) if axis == 1 else g.shifted(0, d)
            if _fits_image(moved, image):
                costs[d] = _match_cost(*_signatures(image, moved), ref)
        best = min(costs, key=lambda d: (costs[d], abs(d)))
        out[k] = g.shifted(best, 0) if axis == 1 else g.shifted(0, best)
    return out


def phase_scores(image: Image, g: BoardGeometry, axis: int, reach: int,
                 tol: float = ALIKE) -> dict[int, tuple[int, int]]:
    """For every move ``d`` of ``g`` by up to ``reach`` whole pixels along ``axis``
    (1: x, 0: y) that keeps it in the image: how many squares are cut out alike
    their neighbour in the next line (see :func:`_alike`) without their outermost
    pixel, then with it (a blurred capture mixes the one pixel on each side of a
    tile's edge)."""
    out = {}
    for d in range(-reach, reach + 1):
        moved = g.shifted(d, 0) if axis == 1 else g.shifted(0, d)
        if _fits_image(moved, image):
            out[d] = (int(_alike(image, moved, axis, tol=tol, margin=1).sum()),
                      int(_alike(image, moved, axis, tol=tol).sum()))
    return out


def template_size(g: BoardGeometry) -> tuple[int, int]:
    """Width and height of a cell cut from ``g``: the pitch, rounded."""
    return max(1, round(g.pitch_x)), max(1, round(g.pitch_y))


def cut(image: Image, g: BoardGeometry, cell: tuple[int, int]) -> Image:
    """One cell's pitch square at :func:`template_size`, from the cell's measured
    left/top edge (so squares of one look line up even when the pitch wobbles)."""
    w, h = template_size(g)
    r, c = cell
    left = min(max(round(g.col_left(c)), 0), image.shape[1] - w)
    top = min(max(round(g.row_top(r)), 0), image.shape[0] - h)
    return np.ascontiguousarray(image[top:top + h, left:left + w])


def _signature(image: Image, g: BoardGeometry, cell: tuple[int, int]) -> npt.NDArray[np.float32]:
    small = cv2.resize(cut(image, g, cell), (12, 12), interpolation=cv2.INTER_AREA)
    return small.astype(np.float32)


def _grown(g: BoardGeometry, side: str) -> tuple[BoardGeometry, list[tuple[int, int]]]:
    """``g`` with one more line on ``side``, and the new line's cells."""
    px, py, rows, cols = g.pitch_x, g.pitch_y, g.rows, g.cols
    lefts = tuple(g.col_left(c) for c in range(cols))
    tops = tuple(g.row_top(r) for r in range(rows))
    if side == "left":
        return (BoardGeometry("", g.x0 - px, g.y0, px, py, rows, cols + 1,
                              (lefts[0] - px, *lefts), tops), [(r, 0) for r in range(rows)])
    if side == "right":
        return (BoardGeometry("", g.x0, g.y0, px, py, rows, cols + 1,
                              (*lefts, lefts[-1] + px), tops), [(r, cols) for r in range(rows)])
    if side == "top":
        return (BoardGeometry("", g.x0, g.y0 - py, px, py, rows + 1, cols,
                              lefts, (tops[0] - py, *tops)), [(0, c) for c in range(cols)])
    return (BoardGeometry("", g.x0, g.y0, px, py, rows + 1, cols,
                          lefts, (*tops, tops[-1] + py)), [(rows, c) for c in range(cols)])


def extend_lattice(image: Image, g: BoardGeometry, share: float = 0.6) -> BoardGeometry:
    """Grow ``g`` by edge rows/columns where at least ``share`` of the squares look
    exactly like squares inside (see :func:`vision.calibrate.look_distance`) and those
    squares back them (see :func:`_is_known`)."""
    memo: dict[tuple[bytes, bytes], bool] = {}  # (the same squares come again and again)
    while True:
        inside = _inside_looks(image, g)
        for side in ("left", "right", "top", "bottom"):
            cand, line = _grown(g, side)
            axis = 1 if side in ("left", "right") else 0
            if _fits_image(cand, image) and _enough(
                    (_is_known(image, cand, cell, inside, axis, memo) for cell in line),
                    len(line), max(2, share * len(line))):
                g = cand
                break
        else:
            return g


def _enough(checks: Iterable[bool], n: int, need: float) -> bool:
    """Are at least ``need`` of the ``n`` ``checks`` true? Stops taking them as soon as
    the answer is known.

    >>> taken: list[bool] = []
    >>> _enough((taken.append(ok) or ok for ok in [False, False, True]), 3, 2), taken
    (False, [False, False])
    >>> _enough(iter([True, True, False]), 3, 2)
    True
    """
    got = 0
    for taken, ok in enumerate(checks, start=1):
        got += bool(ok)
        if got >= need or got + n - taken < need:
            break
    return got >= need


@dataclass(frozen=True)
class InsideLook:
    """One look of the board's squares: its small signature, one image of it, how many
    squares show it, and whether it is blank and has edges across x and across y (see
    :func:`vision.locate.is_blank`, :func:`vision.locate.edge_spans`)."""

    sig: npt.NDArray[np.float32]
    image: Image
    count: int
    blank: bool
    edged: tuple[bool, bool]


def _inside_looks(image: Image, g: BoardGeometry) -> list[InsideLook]:
    """One :class:`InsideLook` per different small signature of the board's squares;
    only the inner squares are counted (all if g is less than 3 squares across: the
    squares by the board's frame lack the frame's side of the grid)."""
    from vision.locate import STRUCTURE, edge_spans, is_blank

    inside: dict[bytes, InsideLook] = {}
    for r in range(g.rows):
        for c in range(g.cols):
            sig = _signature(image, g, (r, c))
            key = sig.astype(np.uint8).tobytes()
            border = r in (0, g.rows - 1) or c in (0, g.cols - 1)
            add = 0 if border and min(g.rows, g.cols) >= 3 else 1
            if key in inside:
                inside[key] = replace(inside[key], count=inside[key].count + add)
                continue
            img = cut(image, g, (r, c))
            spans = edge_spans(img) >= STRUCTURE
            inside[key] = InsideLook(sig, img, add, is_blank(img),
                                     (bool(spans[0]), bool(spans[1])))
    return list(inside.values())


def _is_known(image: Image, g: BoardGeometry, cell: tuple[int, int],
              inside: list[InsideLook], axis: int,
              memo: dict[tuple[bytes, bytes], bool]) -> bool:
    """Does the square look exactly like some of ``inside`` (a cheap look at small
    signatures first; ``memo`` keeps each pair's answer), and do the board's squares of
    those looks back it? A blank square is backed when at least BLANK_SHARE of them are
    blank too, one flat across ``axis`` (where the board's grid lines would cross a new
    line) when fewer than EDGED_SHARE of them have edges there (see
    :func:`vision.locate.unbacked_share`)."""
    from vision.locate import BLANK_SHARE, EDGED_SHARE, STRUCTURE, edge_spans, is_blank

    img = cut(image, g, cell)
    pixels = img.tobytes()
    sig = _signature(image, g, cell)
    near = [look for look in inside if float(np.abs(sig - look.sig).mean()) <= 20.0
            and img.shape == look.image.shape]
    blank = is_blank(img)
    if not blank and edge_spans(img)[axis] >= STRUCTURE:  # one look alike is enough
        return any(_same_look(img, pixels, look.image, memo) for look in near)
    alike = [look for look in near if _same_look(img, pixels, look.image, memo)]
    total = sum(look.count for look in alike)
    if blank:
        return bool(total) and sum(look.count for look in alike if look.blank) >= \
            BLANK_SHARE * total
    return bool(alike) and sum(look.count for look in alike if look.edged[axis]) < \
        EDGED_SHARE * max(1, total)


def _same_look(img: Image, pixels: bytes, look: Image,
               memo: dict[tuple[bytes, bytes], bool]) -> bool:
    """``look_distance(img, look) <= 1.0``, kept in ``memo`` by the images' bytes
    (``pixels`` are ``img``'s)."""
    from vision.calibrate import look_distance

    key = (pixels, look.tobytes())
    if key not in memo:
        memo[key] = look_distance(img, look) <= 1.0
    return memo[key]


def locate_by_lattice(image: Image, skins: Sequence[Skin], accept: float = 0.8,
                      ) -> BoardGeometry | None:
    """The template-free lattice (:func:`find_lattice`), named after the skin of its
    cell size that reads the most of its squares as known (at least ``accept``); None
    if there is no lattice or no skin reads it so.

    For boards :func:`vision.locate.locate_board` cannot find: it looks for the flat
    colour of a skin's tiles, and some games have none (kmines shades its covered
    tiles and its open squares over a gradient; Windows 7's glossy tiles too).

    The lattice is also tried a pixel off each way (:data:`PHASE_TRIES`): a square
    framed by a one-pixel line on one side only (Windows 7's dark gap above and left of
    each tile) has two edges a pixel apart, and which one the lattice takes depends on
    what the squares show; the skin's templates read only the one they were cut at (a
    lost board of the Windows 7 look was found a row of pixels higher than its fresh
    board, and read unknown). When none of those reads, the other offsets of
    :data:`NEAR_PHASES` are tried: PyMines' lost board, its 16 px tiles on a red window,
    was found a pixel off each way at once."""
    try:
        g = find_lattice(image)
    except NoBoardError:
        return None
    return name_lattice(image, g, skins, accept) or \
        name_lattice(image, g, skins, accept, phases=NEAR_PHASES[len(PHASE_TRIES):])


def name_lattice(image: Image, g: BoardGeometry, skins: Sequence[Skin],
                 accept: float = 0.8,
                 share: Callable[[BoardGeometry, Skin], float] | None = None,
                 phases: Sequence[tuple[int, int]] | None = None,
                 resize: bool = False) -> BoardGeometry | None:
    """The lattice ``g`` named after the skin of its cell size that reads the most of
    its squares as known (at least ``accept``), at the phase of ``phases`` (default
    :data:`PHASE_TRIES`) that reads best; None if no skin reads it so (see
    :func:`locate_by_lattice`).
    ``share``: the share of a named lattice's squares read as known (default: as
    :func:`vision.read.read_board` reads them in ``image``).
    ``resize``: also try ``g`` at the skin's cell size (:func:`at_cell_size`) when it
    reads below PHASE_SURE at its own pitch; only with a ``share`` that names squares
    by more than a look alike (a lattice a pixel off reads a JPEG's covered squares as
    0s, and by the plain share, better)."""
    if share is None:
        def share(named: BoardGeometry, skin: Skin) -> float:
            return _known_share(image, named, skin)
    best: tuple[float, BoardGeometry] | None = None
    for skin in skins:
        sx, sy = skin.cell_size
        if abs(g.pitch_x / sx - 1) > 0.04 or abs(g.pitch_y / sy - 1) > 0.04:
            continue
        for lattice in (g, *(at_cell_size(g, skin.cell_size) if resize else ())):
            if lattice is not g and best is not None and best[0] >= PHASE_SURE:
                break  # (read well at the pitch found)
            for dx, dy in phases or PHASE_TRIES:
                named = replace(lattice.shifted(dx, dy), skin=skin.name)
                known = share(named, skin)
                if known >= accept and (best is None or known > best[0]):
                    best = (known, named)
                if dx == dy == 0 and known >= PHASE_SURE:
                    break  # (read well in place: no other phase tried)
    return None if best is None else best[1]


def at_cell_size(g: BoardGeometry, size: tuple[float, float]) -> tuple[BoardGeometry, ...]:
    """The lattice ``g`` made uniform at the pitch ``size`` (a skin's cell size) about
    the same centre, its corner on a whole pixel where that pitch is whole; () if ``g``
    is uniform at that pitch already. A lossy capture's lattice may come out a share of
    a pixel a square off, its edges uneven (minegauler's lost 9x9 at JPEG quality 60:
    16.19 px for 16, columns 14 to 17 px wide, its left edge 2 px off), and no
    whole-pixel phase of it reads the far squares.

    >>> g = BoardGeometry("", 8.0, 71.0, 16.19, 16.14, 9, 9)
    >>> at_cell_size(g, (16.0, 16.0))
    (BoardGeometry(skin='', x0=9.0, y0=72.0, pitch_x=16.0, pitch_y=16.0, rows=9, cols=9),)
    """
    px, py = size
    if (g.pitch_x, g.pitch_y) == (px, py) and g.lefts is None and g.tops is None:
        return ()
    x0 = (g.col_left(0) + g.col_left(g.cols) - g.cols * px) / 2
    y0 = (g.row_top(0) + g.row_top(g.rows) - g.rows * py) / 2
    x0, y0 = (float(round(x0)) if px == round(px) else x0,
              float(round(y0)) if py == round(py) else y0)
    return (BoardGeometry(g.skin, x0, y0, px, py, g.rows, g.cols),)


PHASE_TRIES = ((0, 0), (0, 1), (0, -1), (1, 0), (-1, 0))
"""Offsets (dx, dy) in pixels :func:`locate_by_lattice` tries the lattice at."""
NEAR_PHASES = (*PHASE_TRIES, *((dx, dy) for dy in range(-2, 3) for dx in range(-2, 3)
                               if (dx, dy) not in PHASE_TRIES))
"""Every offset within 2 pixels, :data:`PHASE_TRIES` first, for a lattice a lossy
capture puts further off (a won WineMine 9x9 as a JPEG: found 1 px right, 2 px low)."""
PHASE_SURE = 0.98
"""... but only when fewer than this share of its squares read as known in place."""


def lattice_known_share(image: Image, g: BoardGeometry, skin: Skin) -> float:
    """The share of g's squares the skin reads as known (0 if g leaves the image)."""
    return _known_share(image, g, skin)


def _known_share(image: Image, g: BoardGeometry, skin: Skin) -> float:
    from solver.cells import UNKNOWN
    from vision.read import read_board

    if g.x0 < 0 or g.y0 < 0 or g.x0 + g.cols * g.pitch_x > image.shape[1] or \
            g.y0 + g.rows * g.pitch_y > image.shape[0]:
        return 0.0
    return float((read_board(image, g, skin) != UNKNOWN).mean())


# ------------------------------------------------------------------ textured tiles

TEXTURE_PITCHES = range(8, 97)
"""Whole-pixel pitches a board of textured squares is looked for at."""
TEXTURE_TOL = 1  # grey levels: one texture drawn at a whole-pixel pitch repeats exactly
TEXTURE_DEVIATION = 3.0  # a pitch square deviating less (mean, grey levels) is flat
TEXTURE_FULL = 0.99  # share of a square's pixels equal to its neighbour's: alike
TEXTURE_BUSY = 0.25  # share of a square's pixels unlike the next pixel: not flat


def _grey(image: Image) -> npt.NDArray[np.int16]:
    return cv2.cvtColor(np.ascontiguousarray(image), cv2.COLOR_BGR2GRAY).astype(np.int16)


def _repeats(grey: npt.NDArray[np.int16], p: int) -> tuple[npt.NDArray[np.bool_],
                                                            npt.NDArray[np.bool_]]:
    """Which pixels equal (within TEXTURE_TOL) the pixel ``p`` to their right, and
    the pixel ``p`` below them (arrays one pitch short of the image)."""
    return (np.abs(grey[:, :-p] - grey[:, p:]) <= TEXTURE_TOL,
            np.abs(grey[:-p] - grey[p:]) <= TEXTURE_TOL)


def texture_pitches(grey: npt.NDArray[np.int16], top: int = 3) -> list[int]:
    """Up to ``top`` whole-pixel pitches (of TEXTURE_PITCHES, the same across and
    down) at which the most pixels that are not flat repeat to the right and below at
    once, most first, with enough such pixels for MIN_CELLS squares; a multiple of a
    pitch listed before is left out.

    Squares of one texture with no line between them (kmines' green theme: a tuft
    of grass) are a texture repeating at the board's pitch (a tiled wallpaper may
    repeat more, at its own). A pixel equal to its right and lower neighbour is
    flat: flat areas repeat at any pitch.
    """
    h, w = grey.shape
    # every other pixel across and down is looked at (a quarter of the work)
    near = (np.abs(grey[:-1:2, :-1:2] - grey[:-1:2, 1::2]) <= TEXTURE_TOL) \
        & (np.abs(grey[:-1:2, :-1:2] - grey[1::2, :-1:2]) <= TEXTURE_TOL)
    scores = {}
    for p in TEXTURE_PITCHES:
        if 3 * p > min(h, w):
            break
        at = grey[:h - p:2, :w - p:2]
        n_y, n_x = at.shape
        repeat = (np.abs(at - grey[:h - p:2, p::2][:, :n_x]) <= TEXTURE_TOL) \
            & (np.abs(at - grey[p::2, :w - p:2][:n_y]) <= TEXTURE_TOL)
        scores[p] = int((repeat & ~near[:n_y, :n_x]).sum())
    out: list[int] = []
    for p in sorted(scores, key=lambda p: -scores[p]):
        if len(out) == top or scores[p] < MIN_CELLS * p * p / 16:
            break
        if all(p % q for q in out):
            out.append(p)
    return out


def _square_sums(integral: npt.NDArray[np.float64], p: int, fy: int, n: int,
                 ) -> npt.NDArray[np.float64]:
    """Sums of the ``p`` x ``p`` squares whose tops are ``fy``, ``fy + p``, ...
    (``integral``: :func:`cv2.integral` of an image), ``[row, j, fx]`` the square whose
    left is ``fx + j * p``, for ``j`` < ``n``."""
    h = integral.shape[0] - 1
    ys = np.arange(fy, h - p + 1, p)
    band = integral[ys + p] - integral[ys]
    sums = band[:, p:] - band[:, :-p]
    return np.asarray(sums[:, :n * p].reshape(len(ys), n, p), np.float64)


def _texture_squares(busy: npt.NDArray[np.float64], right: npt.NDArray[np.float64],
                     down: npt.NDArray[np.float64], p: int) -> npt.NDArray[np.bool_]:
    """Which squares (sums as :func:`_square_sums` gives them: of the pixels unlike
    their right or lower neighbour, of the pixels equal to the pixel ``p`` right, and
    ``p`` down) are busy (TEXTURE_BUSY, not flat) and alike (TEXTURE_FULL) a square
    beside them and one above or below."""
    area = float(p * p)
    to_right, to_below = right / area >= TEXTURE_FULL, down / area >= TEXTURE_FULL
    beside = to_right.copy()
    beside[:, 1:] |= to_right[:, :-1]
    above_below = to_below.copy()
    above_below[1:] |= to_below[:-1]
    return np.asarray((busy / area >= TEXTURE_BUSY) & beside & above_below)


def texture_squares(grey: npt.NDArray[np.int16], p: int,
                    ) -> tuple[int, int, npt.NDArray[np.bool_]]:
    """The grid of ``p`` squares (origin ``fx, fy``, each in 0..p-1) with the most
    squares of a texture (:func:`_texture_squares`), and which of its whole squares
    are (``[row, col]``, square (0, 0) at ``(fx, fy)``).

    Any grid cuts a repeating texture into alike squares; a grid off the board's
    lines cuts the squares along its edge with a strip of what lies beside it, which
    are then alike no square beside them: the board's own grid has the most.
    """
    h, w = grey.shape
    across, down = _repeats(grey, p)
    masks = [np.zeros((h, w), np.uint8) for _ in range(3)]
    masks[0][:-1, :-1] = (np.abs(grey[:-1, :-1] - grey[:-1, 1:]) > TEXTURE_TOL) \
        | (np.abs(grey[:-1, :-1] - grey[1:, :-1]) > TEXTURE_TOL)
    masks[1][:, :w - p] = across
    masks[2][:h - p] = down
    busy, right, below = (np.asarray(cv2.integral(m, sdepth=cv2.CV_64F), np.float64)
                          for m in masks)
    n = (w - p + 1) // p
    best: tuple[int, int, int, npt.NDArray[np.bool_]] = (-1, 0, 0, np.zeros((0, 0), bool))
    for fy in range(p):
        tex = _texture_squares(_square_sums(busy, p, fy, n), _square_sums(right, p, fy, n),
                               _square_sums(below, p, fy, n), p)
        counts = tex.sum(axis=(0, 1))
        fx = int(np.argmax(counts))
        if counts[fx] > best[0]:
            best = (int(counts[fx]), fx, fy, tex[:, :, fx])
    return best[1], best[2], best[3]


def no_shorter_period(tile: npt.NDArray[np.int16]) -> bool:
    """Whether a texture square (one period) is not flat (TEXTURE_DEVIATION) and does
    not also repeat at a shorter shift across or down: stripes (repeating down at
    every shift) or text (a character a fraction of the pitch wide) are no squares.

    >>> tuft = np.add.outer(np.arange(12) * 9, np.arange(12) * 5).astype(np.int16)
    >>> no_shorter_period(tuft)
    True
    >>> no_shorter_period(np.tile(np.arange(12, dtype=np.int16) * 9, (12, 1)))  # stripes
    False
    """
    t = tile.astype(np.float32)
    spread = float(np.abs(t - t.mean()).mean())
    p = tile.shape[0]
    for d in (d for d in range(1, p) if p % d == 0):
        for axis in (0, 1):
            if float(np.abs(t - np.roll(t, d, axis)).mean()) < max(1.0, 0.2 * spread):
                return False
    return spread >= TEXTURE_DEVIATION


def texture_goes_on(grey: npt.NDArray[np.int16], g: BoardGeometry) -> bool:
    """Whether the texture goes on past ``g``: the one-pixel line just outside some
    side of it lies off the image, or half its pixels or more equal the line one pitch
    inside (a tiled wallpaper is a texture too; a board's ends at its frame)."""
    b = g.bounds()
    p = round(g.pitch_x)
    left, top, right, bottom = b.left - 1, b.top - 1, b.left + b.width, b.top + b.height
    h, w = grey.shape
    if left < 0 or top < 0 or right >= w or bottom >= h:
        return True
    ys, xs = slice(b.top, bottom), slice(b.left, right)
    pairs = ((grey[ys, left], grey[ys, left + p]), (grey[ys, right], grey[ys, right - p]),
             (grey[top, xs], grey[top + p, xs]), (grey[bottom, xs], grey[bottom - p, xs]))
    return any(float((np.abs(a - b) <= TEXTURE_TOL).mean()) >= 0.5 for a, b in pairs)


def texture_lattices(image: Image) -> list[BoardGeometry]:
    """The board of textured squares with no line between them, as
    :func:`candidate_lattices` gives lattices (empty if there is none): at the first
    of :func:`texture_pitches` that gives one, see :func:`texture_lattice`."""
    grey = _grey(image)
    for p in texture_pitches(grey):
        g = texture_lattice(image, grey, p)
        if g is not None:
            return [g]
    return []


def texture_lattice(image: Image, grey: npt.NDArray[np.int16], p: int,
                    ) -> BoardGeometry | None:
    """The squares of a texture of pitch ``p`` on the grid where most are
    (:func:`texture_squares`), their biggest block (:func:`main_block`) grown by
    lines of squares like its own (:func:`extend_lattice`); None unless the texture
    repeats at no shorter shift (:func:`no_shorter_period`) and ends on every side
    inside the image (:func:`texture_goes_on`)."""
    fx, fy, full = texture_squares(grey, p)
    if full.sum() < MIN_CELLS:
        return None
    rr, cc = np.nonzero(full)
    cells = frozenset(zip(rr.tolist(), cc.tolist(), strict=True))
    r0, c0, r1, c1 = main_block(cells)
    inside = sorted((r, c) for r, c in cells if r0 <= r <= r1 and c0 <= c <= c1)
    if len(inside) < MIN_CELLS:
        return None
    r, c = inside[0]
    if not no_shorter_period(grey[fy + r * p:fy + (r + 1) * p, fx + c * p:fx + (c + 1) * p]):
        return None
    g = BoardGeometry("", float(fx + c0 * p), float(fy + r0 * p), float(p), float(p),
                      r1 - r0 + 1, c1 - c0 + 1)
    g = extend_lattice(image, g)
    return None if texture_goes_on(grey, g) else g


# ------------------------------------------------------------------ marks (terminals)

MARK_INK = 48
"""A pixel is ink when it differs from the background colour by more than this (0-255,
some channel)."""
MARK_PITCH = (10.0, 120.0)
"""A board of marks has its squares this far apart (pixels, either axis): a terminal's
text at one character a cell is no board (6-9 px across here; up to 12 px its letters
stand too close to be alone, see MARK_ALONE)."""
MARK_NEAR = 1.5  # pixels: a neighbour mark this close to a whole pitch is on the lattice
MARK_MOST = 2500  # marks of one shape looked at (their steps are compared pairwise)
MARK_ALONE = (8, 4)
"""A mark stands alone when no other ink lies this near it across (pixels, or twice its
width if more) and down: a character in a square of its own, not one of a line of
text or a frame (``+-----+``; at a big font the gap between its dashes grows too)."""


MARK_GROUNDS = 3
"""Colours tried as the background of a board of marks, the most common first: a
terminal in a window smaller than the rest of the screen (freesweep's black xterm on a
light desktop) has a background of its own, not the screen's most common colour."""


def common_colours(image: Image, n: int) -> list[npt.NDArray[np.int16]]:
    """The image's ``n`` most common colours, the most common first (every fourth pixel
    across and down counted).

    >>> img = np.zeros((8, 8, 3), np.uint8); img[:3] = 200; img[3, :4] = 9
    >>> [c.tolist() for c in common_colours(img, 3)]
    [[0, 0, 0], [200, 200, 200]]
    """
    px = np.ascontiguousarray(image[::4, ::4]).reshape(-1, 3).astype(np.int64)
    packed = (px[:, 0] << 16) | (px[:, 1] << 8) | px[:, 2]
    values, counts = np.unique(packed, return_counts=True)
    top = values[np.argsort(-counts, kind="stable")][:n].tolist()
    return [np.array([v >> 16 & 255, v >> 8 & 255, v & 255], np.int16) for v in top]


def ink_of(image: Image, ground: npt.NDArray[np.int16]) -> npt.NDArray[np.bool_]:
    """The pixels off the background colour ``ground`` by more than :data:`MARK_INK`."""
    return np.asarray(np.abs(image.astype(np.int16) - ground).max(axis=2) > MARK_INK)


def ink_marks(image: Image, ground: npt.NDArray[np.int16]) -> list[list[Blob]]:
    """The 8-connected marks of ink (:data:`MARK_INK`) on the background colour
    ``ground`` that stand alone (:data:`MARK_ALONE`), no bigger than
    MARK_PITCH's upper end, grouped by their exact shape (letters of one size differ;
    one character drawn again is the same), groups of MIN_CELLS to MARK_MOST marks,
    biggest first."""
    ink = ink_of(image, ground)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8),
                                                           connectivity=8)
    top, (ax, ay) = MARK_PITCH[1], MARK_ALONE
    groups: dict[bytes, list[Blob]] = {}
    for k, (x, y, w, h, area) in enumerate(stats[1:].tolist(), start=1):
        across = max(ax, 2 * w)
        near = ink[max(0, y - ay):y + h + ay, max(0, x - across):x + w + across]
        if w < top and h < top and int(near.sum()) == area:
            shape = labels[y:y + h, x:x + w] == k
            key = bytes([w, h]) + np.packbits(shape).tobytes()
            groups.setdefault(key, []).append(Blob(x, y, w, h))
    return sorted((g for g in groups.values() if MIN_CELLS <= len(g) <= MARK_MOST), key=len,
                  reverse=True)


def _steps(marks: list[Blob], axis: int) -> npt.NDArray[np.float64]:
    """For each mark, how far the nearest other mark lies after it along ``axis``
    (1: to its right on its line, 0: below it in its column); inf where none does."""
    cx = np.array([b.cx for b in marks])
    cy = np.array([b.cy for b in marks])
    along, across = (cx, cy) if axis == 1 else (cy, cx)
    d = along[None, :] - along[:, None]
    same = np.abs(across[None, :] - across[:, None]) <= 0.5
    return np.asarray(np.where((d > 0.5) & same, d, np.inf).min(axis=1), np.float64)


def _step_mode(steps: npt.NDArray[np.float64]) -> float | None:
    """The most common whole-pixel step inside MARK_PITCH (None if there is none)."""
    ok = steps[np.isfinite(steps) & (steps >= MARK_PITCH[0]) & (steps <= MARK_PITCH[1])]
    if not len(ok):
        return None
    values, counts = np.unique(np.round(ok), return_counts=True)
    return float(values[int(np.argmax(counts))])


def _on_step(marks: list[Blob], axis: int) -> list[Blob]:
    """The marks with another one the commonest step (:func:`_step_mode`) after or
    before them along ``axis`` (see :func:`_steps`)."""
    if len(marks) < MIN_CELLS:
        return []
    steps = _steps(marks, axis)
    pitch = _step_mode(steps)
    if pitch is None:
        return []
    after = np.abs(steps - pitch) <= MARK_NEAR
    pos = np.array([(b.cx, b.cy)[1 - axis] for b in marks])
    lines = np.array([(b.cy, b.cx)[1 - axis] for b in marks])
    before = np.zeros(len(marks), bool)
    for i in np.nonzero(after)[0]:
        before |= (np.abs(pos - pos[i] - pitch) <= MARK_NEAR) & (np.abs(lines - lines[i]) <= 0.5)
    return [b for b, ok in zip(marks, after | before, strict=True) if ok]


def mark_lattice_group(marks: list[Blob]) -> list[Blob]:
    """Of marks of one shape, those in columns a common step apart down (a mark above
    or below) and then, of those, in lines a common step apart across: the covered
    squares of a board drawn as one character each on a plain background (a terminal
    game's ``-``), without the same character drawn in a frame (``+-----+``, one per
    character cell, in lines too far apart to stack)."""
    return _on_step(_on_step(marks, 0), 1)


MARK_MIDDLE = (0.25, 0.75)
"""A square's ink is centred when it lies between these shares of the square's width:
a character in the middle of its square, not a frame's ``---`` or ``|`` across or at
its edge."""
MARK_QUIET = 2  # lines of blank squares (opened 0s) crossed while growing a board


def _centred(ink: npt.NDArray[np.bool_]) -> bool | None:
    """Whether a square's ink (its cut of the ink mask) is all in its middle
    (MARK_MIDDLE); None when it holds no ink."""
    cols = np.nonzero(ink.any(axis=0))[0]
    if not len(cols):
        return None
    w = ink.shape[1]
    return bool(cols[0] >= MARK_MIDDLE[0] * w and cols[-1] < MARK_MIDDLE[1] * w)


def _line_looks(ink: npt.NDArray[np.bool_], g: BoardGeometry,
                line: list[tuple[int, int]]) -> tuple[int, int]:
    """How many squares of a line hold a centred character (:func:`_centred`), and
    how many hold ink off their middle."""
    looks = [_centred(cut(ink.view(np.uint8), g, cell).astype(bool)) for cell in line]
    return looks.count(True), looks.count(False)


def _grown_by_marks(ink: npt.NDArray[np.bool_], image: Image, g: BoardGeometry,
                    side: str) -> BoardGeometry | None:
    """``g`` grown on ``side`` by a line of the board: one where some squares hold a
    centred character, at least as many as hold ink off their middle, and at most two
    do (the game's cursor ``<2>`` and the terminal's own block may sit on a line); a
    frame's line has ink off the middle of every square. Up to MARK_QUIET lines with
    no centred character (a line of opened 0s) are crossed to reach one; None if no
    line of the board is there."""
    for _ in range(MARK_QUIET + 1):
        g, line = _grown(g, side)
        if not _fits_image(g, image):
            return None
        centred, off = _line_looks(ink, g, line)
        if off > 2 or centred < off:
            return None
        if centred:
            return g
    return None


def grow_marks(image: Image, g: BoardGeometry, ground: npt.NDArray[np.int16]) -> BoardGeometry:
    """Grow a board of marks line by line while each new line is one of its own
    (:func:`_grown_by_marks`): in play, opened squares (blank or a digit) around the
    block of covered ``-`` squares the lattice was fitted to, up to the frame.
    ``ground``: the background colour."""
    ink = ink_of(image, ground)
    while True:
        for side in ("left", "right", "top", "bottom"):
            grown = _grown_by_marks(ink, image, g, side)
            if grown is not None:
                g = grown
                break
        else:
            return g


def mark_lattices(image: Image) -> list[BoardGeometry]:
    """Boards of small identical marks on a plain background, as
    :func:`candidate_lattices` gives lattices (empty if there is none): a terminal
    game's board (freesweep in an xterm: a ``-`` a covered square, three character
    cells apart, no tile or line around it). The lattice is fitted to the marks of
    :func:`mark_lattice_group` of each shape (:func:`ink_marks`), its biggest block
    (3 x 3 squares or more, the pitch inside MARK_PITCH and near square) grown by
    lines of centred characters (:func:`grow_marks`). The background is the image's
    most common colour, else the next most common ones (:data:`MARK_GROUNDS`): the
    first on which a board shows is taken."""
    for ground in common_colours(image, MARK_GROUNDS):
        found = _mark_lattices_on(image, ground)
        if found:
            return found
    return []


def _mark_lattices_on(image: Image, ground: npt.NDArray[np.int16]) -> list[BoardGeometry]:
    """:func:`mark_lattices` with ``ground`` the background colour."""
    scored = []
    for group in ink_marks(image, ground)[:4]:
        members = mark_lattice_group(group)
        fit = fit_lattice(members) if len(members) >= MIN_CELLS else None
        if fit is None or min(fit.pitch_x, fit.pitch_y) < MARK_PITCH[0] \
                or not 0.5 <= fit.pitch_x / fit.pitch_y <= 2.0:
            continue
        r0, c0, r1, c1 = main_block(fit.cells)
        if min(r1 - r0, c1 - c0) < 2:  # fewer than 3 rows or columns
            continue
        g = _geometry(fit, r0, c0, r1, c1)
        if _fits_image(g, image):
            scored.append((sum(r0 <= r <= r1 and c0 <= c <= c1 for r, c in fit.cells), g))
    scored.sort(key=lambda sg: -sg[0])
    return [grow_marks(image, g, ground) for _, g in scored[:1]]
