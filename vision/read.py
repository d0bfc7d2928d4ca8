"""Read every square of a located board into a knowledge array.

The board region is resampled once so that every cell becomes a ``CELL`` x ``CELL``
square (any window size, fractional or uneven pitch); the central ``SAMPLE`` x ``SAMPLE``
part of every cell (which looks the same at any window size, unlike the gaps and grid
lines around it) is compared with every template of the skin at once by mean squared
difference (one matrix product). A square whose best template is not close enough, or
not clearly closer than the best template of any other state, is ``UNKNOWN``: the
reader never guesses.

>>> from vision.skin import load_skin
>>> from vision.geometry import BoardGeometry
>>> from solver.cells import COVERED, FLAG
>>> skin = load_skin("xdemineur")
>>> image = np.tile(skin.cells[COVERED][0], (2, 3, 1))   # a 2x3 board of covered squares
>>> image[:21, :21] = skin.cells[FLAG][0]
>>> image[21:, 42:] = 255                                 # a square no template explains
>>> board = read_board(image, BoardGeometry("xdemineur", 0, 0, 21, 21, 2, 3), skin)
>>> print(format_board(board), end="")
F..
..U
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from solver.cells import UNKNOWN, Board
from solver.textboard import format_board  # noqa: F401  (used by the doctest)
from vision.geometry import BoardGeometry
from vision.skin import Image, Skin

CELL = 22
"""Side in pixels every cell (pitch square) and template is resampled to."""
SAMPLE = 16
"""Side of the central part of that square which is compared."""
_MARGIN_PX = (CELL - SAMPLE) // 2
MAX_REREAD = 40
"""At most this many unknown squares get the slower shifted second look (a board covered
by a dialog has many unknown squares and no use for it)."""
BLUR = 0.5
HALVE_AT = 2.0  # shrink the board by 2x2 means while a cell is this many CELLs wide

MAX_RMS = 24.0
"""A cell further than this (root mean squared difference, 0-255 scale) from every
template is unknown."""

MARGIN = 0.75
"""The best state's distance must be at most this fraction of the next state's."""

BG_TOL = 6.0
"""A cell's background colour (the per-channel median of its compared part) may differ
from its best template's by at most this much in any channel: flat tiles differ from the
window background or a highlight by their colour alone, while a glyph drawn at another
size changes the mean colour but not the median."""

F32 = npt.NDArray[np.float32]


@dataclass(frozen=True, eq=False)
class TemplateBank:
    """A skin's templates as one matrix: row i is template i at SAMPLE x SAMPLE."""

    vectors: F32
    sq_norms: F32
    codes: npt.NDArray[np.int8]
    states: npt.NDArray[np.int8]
    starts: npt.NDArray[np.intp]  # first template of each state (templates sorted by code)
    backgrounds: F32  # median colour (B, G, R) of each template's compared part


_BANKS: dict[int, tuple[Skin, TemplateBank]] = {}


def _halve_image(img: Image) -> Image:
    h, w = img.shape[:2]
    even = img[: h - h % 2, : w - w % 2]
    return cast(Image, cv2.resize(even, (w // 2, h // 2), interpolation=cv2.INTER_AREA))


def _axis_map(edges: npt.NDArray[np.float64], pitch: float, origin: int,
              factor: int) -> npt.NDArray[np.float32]:
    """Source coordinates (in an image shrunk ``factor`` times from ``origin``) of the
    compared samples of every line: SAMPLE per line, centred in a CELL-wide square."""
    u = np.arange(_MARGIN_PX, _MARGIN_PX + SAMPLE) + 0.5
    cont = edges[:, None] + u[None, :] * (pitch / CELL) - origin
    return (cont / factor - 0.5).reshape(-1).astype(np.float32)


_MAPS: dict[tuple[object, ...], tuple[npt.NDArray[np.int16], npt.NDArray[np.uint16]]] = {}


def _maps(g: BoardGeometry, left: int, top: int, factor: int) -> tuple[
        npt.NDArray[np.int16], npt.NDArray[np.uint16]]:
    """cv2.remap maps for every compared sample of the board, in OpenCV's fixed-point
    form (several times faster to apply); cached for the last few geometries."""
    key = (g.x0, g.y0, g.pitch_x, g.pitch_y, g.rows, g.cols, g.lefts, g.tops, left, top, factor)
    hit = _MAPS.get(key)
    if hit is None:
        xs = _axis_map(np.array([g.col_left(c) for c in range(g.cols)]), g.pitch_x, left, factor)
        ys = _axis_map(np.array([g.row_top(r) for r in range(g.rows)]), g.pitch_y, top, factor)
        mx, my = np.meshgrid(xs, ys)
        fixed = cv2.convertMaps(np.ascontiguousarray(mx), np.ascontiguousarray(my),
                                cv2.CV_16SC2)
        hit = (np.asarray(fixed[0], np.int16), np.asarray(fixed[1], np.uint16))
        if len(_MAPS) > 8:
            _MAPS.clear()
        _MAPS[key] = hit
    return hit


def cell_samples(image: Image, geometry: BoardGeometry) -> npt.NDArray[np.uint8]:
    """Every cell as a row vector (rows*cols, SAMPLE*SAMPLE*3), row-major cell order.

    The board is shrunk by exact 2x2 means while a cell is at least twice CELL, then
    sampled bilinearly at each cell's own (possibly uneven) position."""
    g = geometry
    b = g.bounds()
    h, w = image.shape[:2]
    if b.left < 0 or b.top < 0 or b.left + b.width > w or b.top + b.height > h or not (
            b.width > 0 and b.height > 0):
        raise ValueError(f"board {b.left},{b.top} {b.width}x{b.height} lies outside the "
                         f"{w}x{h} image")
    left, top = max(0, b.left - 1), max(0, b.top - 1)
    region = image[top:min(h, b.top + b.height + 1), left:min(w, b.left + b.width + 1)]
    factor = 1
    while min(g.pitch_x, g.pitch_y) >= HALVE_AT * factor * CELL:
        region = _halve_image(region)
        factor *= 2
    ratio = min(g.pitch_x, g.pitch_y) / (factor * CELL)
    if ratio > 1.0 and BLUR > 0:  # anti-alias before sampling fewer pixels than there are
        region = cast(Image, cv2.GaussianBlur(region, (3, 3), BLUR * ratio))
    mx, my = _maps(g, left, top, factor)
    small = cv2.remap(region, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    cells = small.reshape(g.rows, SAMPLE, g.cols, SAMPLE, 3).transpose(0, 2, 1, 3, 4)
    return np.ascontiguousarray(cells.reshape(g.rows * g.cols, -1))


def template_bank(skin: Skin) -> TemplateBank:
    """The skin's templates sampled like board cells (cached per skin object)."""
    hit = _BANKS.get(id(skin))
    if hit is not None and hit[0] is skin:
        return hit[1]
    vecs, codes = [], []
    for code in sorted(skin.cells):
        for img in skin.cells[code]:
            th, tw = img.shape[:2]
            one = BoardGeometry("", 0.0, 0.0, float(tw), float(th), 1, 1)
            vecs.append(cell_samples(img, one).reshape(-1))
            codes.append(code)
    vectors = np.ascontiguousarray(np.stack(vecs), dtype=np.float32)
    code_arr = np.array(codes, np.int8)
    states, starts = np.unique(code_arr, return_index=True)
    bank = TemplateBank(vectors, (vectors * vectors).sum(axis=1), code_arr,
                        states.astype(np.int8), starts.astype(np.intp), _backgrounds(vectors))
    _BANKS[id(skin)] = (skin, bank)
    return bank


def _sq_distances(samples: F32, bank: TemplateBank) -> F32:
    """Sum of squared differences of every sample to every template (n, templates)."""
    # one matrix-vector product per sample: a matrix product would start OpenBLAS's
    # threads, which cost milliseconds on a busy 2-core machine for a product this size
    cross = np.stack([bank.vectors @ row for row in samples]) if len(samples) else \
        np.zeros((0, len(bank.vectors)), np.float32)
    sq = (samples * samples).sum(axis=1)[:, None] - 2.0 * cross
    sq += bank.sq_norms[None, :]
    return sq


def state_distances(samples: npt.NDArray[np.uint8] | F32, bank: TemplateBank) -> F32:
    """Root mean squared difference of every sample to the nearest template of every
    state (n, states); column j is state ``bank.states[j]``."""
    samples = samples.astype(np.float32, copy=False)
    best = np.minimum.reduceat(_sq_distances(samples, bank), bank.starts, axis=1)
    return np.sqrt(np.maximum(best, 0.0) / samples.shape[1])


def _backgrounds(vectors: F32) -> F32:
    return np.median(vectors.reshape(len(vectors), -1, 3), axis=1)


def classify(samples: npt.NDArray[np.uint8] | F32, bank: TemplateBank,
             strictness: float = 1.0) -> tuple[npt.NDArray[np.int8], F32]:
    """Cell codes (UNKNOWN where unsure) and each sample's best distance.

    ``strictness`` > 1 divides the distance and colour tolerances (used to decide whether
    squares at a lattice's edge belong to the board). Identical samples (a board is
    mostly the same few tiles) are compared once."""
    if samples.dtype == np.uint8:
        return _classify_cached(cast(npt.NDArray[np.uint8], samples), bank, strictness)
    floats = cast(F32, samples)
    sq = _sq_distances(floats, bank)
    return _decide(sq, _backgrounds(floats), floats.shape[1], bank, strictness)


_SEEN: dict[tuple[int, float], dict[bytes, tuple[int, float]]] = {}
_SEEN_MAX = 20000


def forget_samples() -> None:
    """Empty the memory of classified squares (benchmarks measure cold reads with it)."""
    _SEEN.clear()


def _classify_cached(samples: npt.NDArray[np.uint8], bank: TemplateBank,
                     strictness: float) -> tuple[npt.NDArray[np.int8], F32]:
    """classify() of uint8 samples, each distinct one once, remembering every answer:
    between two reads of a game most squares look exactly as before."""
    seen = _SEEN.setdefault((id(bank), strictness), {})
    keys = [row.tobytes() for row in np.ascontiguousarray(samples)]
    new: dict[bytes, int] = {}
    for i, k in enumerate(keys):
        if k not in seen and k not in new:
            new[k] = i
    if new:
        if len(seen) + len(new) > _SEEN_MAX:
            seen.clear()
        rows = list(new.values())
        codes, best = classify(samples[rows].astype(np.float32), bank, strictness)
        for k, code, dist in zip(new, codes.tolist(), best.tolist(), strict=True):
            seen[k] = (code, dist)
    pairs = [seen[k] for k in keys]
    return (np.array([p[0] for p in pairs], np.int8),
            np.array([p[1] for p in pairs], np.float32))


def _decide(sq: F32, backgrounds: F32, dims: int, bank: TemplateBank,
            strictness: float = 1.0) -> tuple[npt.NDArray[np.int8], F32]:
    """Codes and best distances from squared distances (n, templates)."""
    per_state = np.minimum.reduceat(sq, bank.starts, axis=1)
    ds = np.sqrt(np.maximum(per_state, 0.0) / dims)
    order = np.argsort(ds, axis=1)
    best = np.take_along_axis(ds, order[:, :1], axis=1)[:, 0]
    if ds.shape[1] > 1:
        second = np.take_along_axis(ds, order[:, 1:2], axis=1)[:, 0]
    else:
        second = np.full_like(best, np.inf)
    nearest = np.argmin(sq, axis=1)
    colour_gap = np.abs(backgrounds - bank.backgrounds[nearest]).max(axis=1)
    codes = bank.states[order[:, 0]].copy()
    sure = (best <= MAX_RMS / strictness) & (best <= MARGIN * second)
    sure &= colour_gap <= BG_TOL / strictness
    codes[~sure] = UNKNOWN
    return codes, best


_STEPS = (-1.0, -0.5, 0.0, 0.5, 1.0)
SHIFTS = tuple((dx, dy) for dy in _STEPS for dx in _STEPS)
"""Offsets (image pixels) tried for a square the first pass left unknown: a glyph one
pixel off its template's position (uneven layouts, rounding) is still recognised."""


def reread_shifted(image: Image, geometry: BoardGeometry, bank: TemplateBank,
                   cells: list[tuple[int, int]]) -> npt.NDArray[np.int8]:
    """Codes of ``cells`` compared at every offset in SHIFTS (best offset per template)."""
    g = geometry
    sqs, bgs = [], []
    for r, c in cells:
        variants = []
        for dx, dy in SHIFTS:
            one = BoardGeometry("", g.col_left(c) + dx, g.row_top(r) + dy, g.pitch_x,
                                g.pitch_y, 1, 1)
            try:
                variants.append(cell_samples(image, one)[0])
            except ValueError:  # shifted past the image edge
                continue
        v = np.stack(variants).astype(np.float32)
        sqs.append(_sq_distances(v, bank).min(axis=0))
        bgs.append(_backgrounds(v[len(v) // 2:len(v) // 2 + 1])[0])
    codes, _ = _decide(np.stack(sqs), np.stack(bgs), len(bank.vectors[0]), bank)
    return codes


def read_board(image: Image, geometry: BoardGeometry, skin: Skin) -> Board:
    """The knowledge array of the board at ``geometry`` (UNKNOWN where unsure)."""
    bank = template_bank(skin)
    samples = cell_samples(image, geometry)
    codes, _ = classify(samples, bank)
    board = codes.reshape(geometry.rows, geometry.cols).astype(np.int8)
    unsure = [(int(r), int(c)) for r, c in np.argwhere(board == UNKNOWN)]
    if unsure and len(unsure) <= MAX_REREAD:
        seen = _SEEN.setdefault((id(bank), -1.0), {})  # second looks, by first-look sample
        keys = [samples[r * geometry.cols + c].tobytes() for r, c in unsure]
        new = [i for i, k in enumerate(keys) if k not in seen]
        if new:
            again = reread_shifted(image, geometry, bank, [unsure[i] for i in new])
            for i, code in zip(new, again.tolist(), strict=True):
                seen[keys[i]] = (code, 0.0)
        board[tuple(np.array(unsure).T)] = [seen[k][0] for k in keys]
    return board
