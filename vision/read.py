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

MAX_RMS = 24.0
"""A cell further than this (root mean squared difference, 0-255 scale) from every
template is unknown."""

MARGIN = 0.75
"""The best state's distance must be at most this fraction of the next state's."""

MEAN_TOL = 6.0
"""A cell's mean colour may differ from its best template's by at most this much in any
channel (flat tiles differ from the window background or a highlight by their colour
alone; glyphs drawn at another size keep the mean colour)."""

F32 = npt.NDArray[np.float32]
_BLOCK = 32


@dataclass(frozen=True, eq=False)
class TemplateBank:
    """A skin's templates as one matrix: row i is template i at SAMPLE x SAMPLE."""

    vectors: F32
    sq_norms: F32
    codes: npt.NDArray[np.int8]
    states: npt.NDArray[np.int8]
    starts: npt.NDArray[np.intp]  # first template of each state (templates sorted by code)
    means: F32  # mean colour (B, G, R) of each template's compared part


_BANKS: dict[int, tuple[Skin, TemplateBank]] = {}


def _halve_image(img: Image) -> Image:
    h, w = img.shape[:2]
    even = img[: h - h % 2, : w - w % 2]
    return cv2.resize(even, (w // 2, h // 2), interpolation=cv2.INTER_AREA)


def _resample(img: Image, cells_x: int, cells_y: int, factor: int = 1) -> Image:
    """Resample ``img`` to ``factor * CELL`` pixels per cell: exact 2x2 means while
    the image is at least twice too big (fast, no aliasing), then bilinear."""
    side = factor * CELL
    while img.shape[1] >= 2 * cells_x * side and img.shape[0] >= 2 * cells_y * side:
        img = _halve_image(img)
    return cv2.resize(img, (cells_x * side, cells_y * side), interpolation=cv2.INTER_LINEAR)


def _inner(small: Image, rows: int, cols: int) -> Image:
    """The central SAMPLE x SAMPLE part of every CELL x CELL cell: (rows, S, cols, S, 3)."""
    lo, hi = _MARGIN_PX, _MARGIN_PX + SAMPLE
    return small.reshape(rows, CELL, cols, CELL, 3)[:, lo:hi, :, lo:hi]


def template_bank(skin: Skin) -> TemplateBank:
    """The skin's templates resampled for comparison (cached per skin object)."""
    hit = _BANKS.get(id(skin))
    if hit is not None and hit[0] is skin:
        return hit[1]
    vecs, codes = [], []
    for code in sorted(skin.cells):
        for img in skin.cells[code]:
            vecs.append(_inner(_resample(img, 1, 1), 1, 1).reshape(-1))
            codes.append(code)
    vectors = np.ascontiguousarray(np.stack(vecs), dtype=np.float32)
    code_arr = np.array(codes, np.int8)
    states, starts = np.unique(code_arr, return_index=True)
    bank = TemplateBank(vectors, (vectors * vectors).sum(axis=1), code_arr,
                        states.astype(np.int8), starts.astype(np.intp), _means(vectors))
    _BANKS[id(skin)] = (skin, bank)
    return bank


def _offsets(edges: tuple[float, ...] | None, start: float, pitch: float, n: int) -> npt.NDArray[
        np.intp]:
    """Per-line shift, in 2*CELL units, of measured edges from the uniform lattice."""
    if edges is None:
        return np.zeros(n, np.intp)
    uniform = start + pitch * np.arange(n)
    return np.rint((np.asarray(edges) - uniform) * (2 * CELL) / pitch).astype(np.intp)


def _index(shifts: npt.NDArray[np.intp], n: int) -> npt.NDArray[np.intp]:
    s2 = 2 * CELL
    idx = np.arange(n * s2).reshape(n, s2) + shifts[:, None]
    return np.clip(idx, 0, n * s2 - 1).reshape(-1)


def cell_samples(image: Image, geometry: BoardGeometry) -> npt.NDArray[np.uint8]:
    """Every cell as a row vector (rows*cols, SAMPLE*SAMPLE*3), row-major cell order."""
    g = geometry
    x0, y0 = g.col_left(0), g.row_top(0)
    px = (g.col_left(g.cols) - x0) / g.cols
    py = (g.row_top(g.rows) - y0) / g.rows
    left, top = int(round(x0)), int(round(y0))
    right, bottom = int(round(x0 + g.cols * px)), int(round(y0 + g.rows * py))
    h, w = image.shape[:2]
    if left < 0 or top < 0 or right > w or bottom > h or right <= left or bottom <= top:
        raise ValueError(f"board {left},{top}-{right},{bottom} lies outside the {w}x{h} image")
    region = image[top:bottom, left:right]
    if g.lefts is None and g.tops is None:
        small = _resample(region, g.cols, g.rows)
    else:  # shift each column/row to its measured edge at twice the sample size
        big = _resample(region, g.cols, g.rows, 2)
        if g.lefts is not None:
            big = big[:, _index(_offsets(g.lefts, x0, px, g.cols), g.cols)]
        if g.tops is not None:
            big = big[_index(_offsets(g.tops, y0, py, g.rows), g.rows)]
        small = _halve_image(big)
    cells = _inner(small, g.rows, g.cols).transpose(0, 2, 1, 3, 4)
    return np.ascontiguousarray(cells.reshape(g.rows * g.cols, -1))


def _sq_distances(samples: F32, bank: TemplateBank) -> F32:
    """Sum of squared differences of every sample to every template (n, templates)."""
    # small blocks keep OpenBLAS single-threaded: its threads cost milliseconds on a
    # busy 2-core machine for a product this size
    cross = np.concatenate([samples[i:i + _BLOCK] @ bank.vectors.T
                            for i in range(0, len(samples), _BLOCK)])
    sq = (samples * samples).sum(axis=1)[:, None] - 2.0 * cross
    sq += bank.sq_norms[None, :]
    return sq


def state_distances(samples: npt.NDArray[np.uint8] | F32, bank: TemplateBank) -> F32:
    """Root mean squared difference of every sample to the nearest template of every
    state (n, states); column j is state ``bank.states[j]``."""
    samples = samples.astype(np.float32, copy=False)
    best = np.minimum.reduceat(_sq_distances(samples, bank), bank.starts, axis=1)
    return np.sqrt(np.maximum(best, 0.0) / samples.shape[1])


def _means(vectors: F32) -> F32:
    return vectors.reshape(len(vectors), -1, 3).mean(axis=1)


def _unique_rows(samples: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.uint8],
                                                         npt.NDArray[np.intp]]:
    """Distinct rows (byte-wise) and, for every row, the index of its distinct row."""
    rows = np.ascontiguousarray(samples)
    keys = rows.view(np.dtype((np.void, rows.shape[1]))).ravel()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    return rows[first], inverse.reshape(-1)


def classify(samples: npt.NDArray[np.uint8] | F32, bank: TemplateBank,
             strictness: float = 1.0) -> tuple[npt.NDArray[np.int8], F32]:
    """Cell codes (UNKNOWN where unsure) and each sample's best distance.

    ``strictness`` > 1 divides the distance and colour tolerances (used to decide whether
    squares at a lattice's edge belong to the board). Identical samples (a board is
    mostly the same few tiles) are compared once."""
    if samples.dtype == np.uint8:
        distinct, inverse = _unique_rows(samples)
        codes, best = classify(distinct.astype(np.float32), bank, strictness)
        return codes[inverse], best[inverse]
    sq = _sq_distances(samples, bank)
    per_state = np.minimum.reduceat(sq, bank.starts, axis=1)
    ds = np.sqrt(np.maximum(per_state, 0.0) / samples.shape[1])
    order = np.argsort(ds, axis=1)
    best = np.take_along_axis(ds, order[:, :1], axis=1)[:, 0]
    if ds.shape[1] > 1:
        second = np.take_along_axis(ds, order[:, 1:2], axis=1)[:, 0]
    else:
        second = np.full_like(best, np.inf)
    nearest = np.argmin(sq, axis=1)
    colour_gap = np.abs(_means(samples) - bank.means[nearest]).max(axis=1)
    codes = bank.states[order[:, 0]].copy()
    sure = (best <= MAX_RMS / strictness) & (best <= MARGIN * second)
    sure &= colour_gap <= MEAN_TOL / strictness
    codes[~sure] = UNKNOWN
    return codes, best


def read_board(image: Image, geometry: BoardGeometry, skin: Skin) -> Board:
    """The knowledge array of the board at ``geometry`` (UNKNOWN where unsure)."""
    codes, _ = classify(cell_samples(image, geometry), template_bank(skin))
    return codes.reshape(geometry.rows, geometry.cols).astype(np.int8)
