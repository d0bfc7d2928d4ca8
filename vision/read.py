"""Read every square of a located board into a knowledge array.

The board region is resampled once (one cv2.remap) so that every cell becomes a
``CELL`` x ``CELL`` square (any window size, fractional or uneven pitch); the central
``SAMPLE`` x ``SAMPLE`` part of every cell (which looks the same at any window size,
unlike the gaps and grid lines around it) is compared with every template of the skin
by squared difference: identical squares once, first all of them against all templates
on 4x4 block mean colours (a lower bound, one small matrix product), then in full only
the few (square, template) pairs that bound leaves in the running. A square whose best
template is not close enough, or not clearly closer than the best template of any other
state, is ``UNKNOWN``: the reader never guesses.

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

from dataclasses import dataclass, field, replace
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from solver.cells import UNKNOWN, Board
from solver.textboard import format_board  # noqa: F401  (used by the doctest)
from vision.geometry import BoardGeometry
from vision.glyph import colour_apart, fill_unknown
from vision.skin import Image, Skin

CELL = 22
"""Side in pixels every cell (pitch square) and template is resampled to."""
SAMPLE = 16
"""Side of the central part of that square which is compared."""
_MARGIN_PX = (CELL - SAMPLE) // 2
MAX_REREAD = 40
"""At most this many unknown squares get the slower shifted second look (a board covered
by a dialog has many unknown squares and no use for it)."""
HALVE_AT = 2.0
"""Shrink the board by exact 2x2 means while a cell is at least this many CELLs wide
(afterwards a cell is 1-2 CELL wide). Not sooner: at 1.5 a cell of 43 px was halved and
its mine matched a mine template of another window size, whose background is 7 darker
(unknown by the colour check), and every cell 1.5-2 CELL wide got four sampling phases."""

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

UNNAMED = -8
"""The bank's code of a skin's unnamed looks (:attr:`vision.skin.Skin.unnamed`): a
square nearest one is unknown, and neither re-read nor read by its glyph (it is a look
calibrate saw and could not name, not one that is merely unclear)."""


@dataclass(frozen=True, eq=False)
class TemplateBank:
    """A skin's templates as one matrix: row i is template i at SAMPLE x SAMPLE."""

    vectors: F32
    sq_norms: F32
    codes: npt.NDArray[np.int8]
    states: npt.NDArray[np.int8]
    starts: npt.NDArray[np.intp]  # first template of each state (templates sorted by code)
    backgrounds: F32  # median colour (B, G, R) of each template's compared part
    blocks: F32  # each template as BLOCK x BLOCK pixel means (templates, CELLS_BLOCKS)
    block_sq_norms: F32
    blocks_t: F32  # blocks transposed, contiguous (the right factor of the bound product)
    centred_t: F32  # (vectors - 128) transposed, contiguous (the exact product's right factor)
    centred_sq: npt.NDArray[np.float64]  # squared norms of the centred vectors
    sizes: F32  # the pitch (mean side, pixels) each template was cut at
    known: dict[bytes, tuple[int, float]] = field(default_factory=dict)
    """(code, 0.0) of every template's own samples, as bytes: a square sampled exactly as a
    template is that template's state at distance 0 (see ``_own_looks``)."""
    flat_states: npt.NDArray[np.int8] = field(default_factory=lambda: np.zeros(0, np.int8))
    """States whose every template is flat (``_flat_states``): a square read as one must
    be flat too."""
    number_reach: F32 | None = None
    """A square read as a number must lie this close to its nearest template (per
    template, see ``_number_reach``; None: no limit)."""


_BANKS: dict[tuple[int, bool, bool], tuple[Skin, TemplateBank]] = {}


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


PHASES = 4
"""Cells are sampled at their measured place rounded to 1/PHASES of a (shrunk) pixel of
the image: the place is measured to a few hundredths of a pixel, and without the rounding
every column and row got its own sub-pixel phase, so identical squares gave slightly
different samples, each to be classified (gnome-mines expert, 1100x560: 110 distinct
squares instead of 27). Rounding on the image's own grid (not from the first cell's
place) gives a square the same samples whichever part of the board is read: the play
loop re-reads only the squares that changed, and their unchanged neighbours in that part
are then known from earlier reads instead of classified anew."""


def _snap(edges: npt.NDArray[np.float64], factor: int) -> npt.NDArray[np.float64]:
    """``edges`` moved to the nearest 1/PHASES shrunk pixel (at most factor / (2 PHASES)
    image pixels).

    >>> _snap(np.array([10.05, 41.02, 71.56, 102.09]), 1).tolist()
    [10.0, 41.0, 71.5, 102.0]
    >>> _snap(np.array([10.2, 41.3]), 2).tolist()
    [10.0, 41.5]
    """
    step = factor / PHASES
    return np.round(np.asarray(edges) / step) * step


_MAPS: dict[tuple[object, ...], tuple[F32, F32]] = {}


def _maps(g: BoardGeometry, left: int, top: int, factor: int) -> tuple[F32, F32]:
    """cv2.remap maps (x and y) for every compared sample of the board; cached for the
    last few geometries."""
    key = (g.x0, g.y0, g.pitch_x, g.pitch_y, g.rows, g.cols, g.lefts, g.tops, left, top, factor)
    hit = _MAPS.get(key)
    if hit is None:
        lefts = _snap(np.array([g.col_left(c) for c in range(g.cols)]), factor)
        tops = _snap(np.array([g.row_top(r) for r in range(g.rows)]), factor)
        xs = _axis_map(lefts, g.pitch_x, left, factor)
        ys = _axis_map(tops, g.pitch_y, top, factor)
        # one map row per cell (row-major cells), its SAMPLE x SAMPLE samples along it, so
        # the remapped image is already the (cells, SAMPLE*SAMPLE*3) matrix, no transpose
        s = SAMPLE
        mx = np.broadcast_to(xs.reshape(1, g.cols, 1, s), (g.rows, g.cols, s, s))
        my = np.broadcast_to(ys.reshape(g.rows, 1, s, 1), (g.rows, g.cols, s, s))
        hit = (np.ascontiguousarray(mx, np.float32).reshape(-1, s * s),
               np.ascontiguousarray(my, np.float32).reshape(-1, s * s))
        if len(_MAPS) > 8:
            _MAPS.clear()
        _MAPS[key] = hit
    return hit


def _shrink(g: BoardGeometry) -> int:
    """How many times the board is shrunk (by exact 2x2 means) before sampling."""
    factor = 1
    while min(g.pitch_x, g.pitch_y) >= HALVE_AT * factor * CELL:
        factor *= 2
    return factor


BLUR_ABOVE = 1.1
"""A board is blurred before sampling when a (shrunk) cell is wider than this many CELLs
(sampled 1.1 or more pixels apart); the templates it is compared with are sampled the
same way (``bank_for``). Until a cell was blurred from 1.0 CELL on, and every template by
its own size: a 23 px board (gnome-mines 900x480) paid for a blur against an aliasing
of 5 %, and 1.1 with templates blurred by their own size misread an exploded mine."""


def blurs(g: BoardGeometry) -> bool:
    """Whether the board at ``g`` is blurred before sampling: always after a shrink (the
    2x2 means of a board at an odd pixel pair other pixels than its templates' did, and
    without the blur one-size skins misread a 44-48 px board at odd places), otherwise
    when its cells are wider than BLUR_ABOVE CELLs."""
    return _shrink(g) > 1 or min(g.pitch_x, g.pitch_y) > BLUR_ABOVE * CELL


def _board_region(image: Image, geometry: BoardGeometry,
                  blur: bool | None = None) -> tuple[Image, int, int, int]:
    """The board's pixels (plus one around) ready for sampling: shrunk by exact 2x2 means
    while a cell is at least HALVE_AT CELLs wide, then, when a cell is still wider than
    BLUR_ABOVE CELLs (or as ``blur`` says), blurred by the (1, 2, 1)/4 kernel (OpenCV's
    fixed-point fast path, twice as fast as other kernels; sigma 0.71, against aliasing
    when sampling 1-2 pixels apart).
    Returns (region, left, top, factor): the region as BGRA (see ``_remap``), its origin in
    the image and its shrink."""
    g = geometry
    b = g.bounds()
    h, w = image.shape[:2]
    if b.left < 0 or b.top < 0 or b.left + b.width > w or b.top + b.height > h or not (
            b.width > 0 and b.height > 0):
        raise ValueError(f"board {b.left},{b.top} {b.width}x{b.height} lies outside the "
                         f"{w}x{h} image")
    factor = _shrink(g)
    # the origin on a multiple of the shrink: any part of the board shrinks on one grid
    left, top = max(0, b.left - 1) // factor * factor, max(0, b.top - 1) // factor * factor
    region = image[top:min(h, b.top + b.height + 1), left:min(w, b.left + b.width + 1)]
    for _ in range(factor.bit_length() - 1):
        region = _halve_image(region)
    if blurs(g) if blur is None else blur:  # anti-alias before sampling fewer pixels
        region = cast(Image, cv2.GaussianBlur(region, (3, 3), 0))  # sigma 0: (1, 2, 1)/4
    return cast(Image, cv2.cvtColor(region, cv2.COLOR_BGR2BGRA)), left, top, factor


def cell_samples(image: Image, geometry: BoardGeometry,
                 blur: bool | None = None) -> npt.NDArray[np.uint8]:
    """Every cell as a row vector (rows*cols, SAMPLE*SAMPLE*3), row-major cell order.

    The board is shrunk by exact 2x2 means while a cell is at least twice CELL, blurred
    when ``blurs`` says so (or as ``blur`` says), then sampled bilinearly at each cell's
    own (possibly uneven) position."""
    return _sample_cells(_board_region(image, geometry, blur), geometry)


Prepared = tuple[Image, int, int, int]
"""A board region ready for sampling, from _board_region."""


def _sample_cells(prepared: Prepared, g: BoardGeometry) -> npt.NDArray[np.uint8]:
    region, left, top, factor = prepared
    mx, my = _maps(g, left, top, factor)
    return _remap(region, mx, my).reshape(g.rows * g.cols, -1)


def _remap(region: Image, mx: F32, my: F32) -> npt.NDArray[np.uint8]:
    """The BGRA ``region`` sampled bilinearly at (mx, my), as BGR: OpenCV's vectorised
    bilinear remap takes float maps and four channels (a third faster than three channels
    with fixed-point maps, the conversions included)."""
    small = cv2.remap(region, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(cv2.cvtColor(small, cv2.COLOR_BGRA2BGR), np.uint8)


def template_bank(skin: Skin, blurred: bool = True, phased: bool = False) -> TemplateBank:
    """The skin's templates sampled like the cells of a board that is ``blurred`` or not
    (cached per skin object). ``phased``: for a board that is shrunk, every template that
    is shrunk too is also taken at the other phases of the 2x2 means (shifted by a
    pixel), since the board's cells may sit at odd pixels."""
    hit = _BANKS.get((id(skin), blurred, phased))
    if hit is not None and hit[0] is skin:
        return hit[1]
    vecs, codes, sizes = [], [], []
    for code, images in sorted([*skin.cells.items(), (UNNAMED, skin.unnamed)]):
        for img in images:
            th, tw = img.shape[:2]
            for sample in _template_samples(img, blurred, phased):
                vecs.append(sample)
                codes.append(code)
                sizes.append((th + tw) / 2)
    vectors = np.ascontiguousarray(np.stack(vecs), dtype=np.float32)
    code_arr = np.array(codes, np.int8)
    states, starts = np.unique(code_arr, return_index=True)
    blocks = _blocks(vectors)
    centred = vectors - np.float32(128.0)
    bank = TemplateBank(vectors, (vectors * vectors).sum(axis=1), code_arr,
                        states.astype(np.int8), starts.astype(np.intp), _backgrounds(vectors),
                        blocks, (blocks * blocks).sum(axis=1), np.ascontiguousarray(blocks.T),
                        np.ascontiguousarray(centred.T),
                        (centred.astype(np.float64) ** 2).sum(axis=1),
                        np.array(sizes, np.float32), _own_looks(vectors, code_arr),
                        number_reach=_number_reach(vectors, code_arr))
    bank = replace(bank, flat_states=_flat_states(vectors, bank.backgrounds, code_arr))
    _BANKS[(id(skin), blurred, phased)] = (skin, bank)
    return bank


def _number_reach(vectors: F32, codes: npt.NDArray[np.int8]) -> F32:
    """For each template of a number, half its distance (root mean squared) to the
    nearest template of another number, when the skin lacks some number (else, and for
    the other states, infinite): a number the skin lacks may be drawn as near a known
    one as the known ones are to each other, so a square further than this from the
    template it is nearest may be such a number and is not read (kmines'
    graveyard-mayhem draws a small digit on a large tile: an unseen 5 lay 7.6 from a 3,
    10.2 from a 2, and read as the 3).

    >>> v = np.array([[0], [10], [10.5], [99]], np.float32)   # a 2, two 3s, a covered
    >>> _number_reach(v, np.array([2, 3, 3, -1], np.int8)).tolist()
    [5.0, 5.0, 5.25, inf]
    >>> float(_number_reach(np.arange(9, dtype=np.float32)[:, None],
    ...                     np.arange(9, dtype=np.int8))[0])
    inf
    """
    out = np.full(len(codes), np.inf, np.float32)
    numbers = np.flatnonzero((codes >= 0) & (codes <= 8))
    if len(set(codes[numbers].tolist())) in (0, 1, 9):
        return out
    v = vectors[numbers].astype(np.float64)
    c = codes[numbers]
    sq = (v * v).sum(axis=1)
    d = sq[:, None] + sq[None, :] - 2.0 * (v @ v.T)
    d[c[:, None] == c[None, :]] = np.inf
    out[numbers] = np.sqrt(np.maximum(d.min(axis=1), 0.0) / vectors.shape[1]) / 2.0
    return out


REACH_PITCH = 1.0
"""``number_reach`` holds for templates cut within this many pixels of the board's pitch
(a square of another size is further from every template of a one-size skin)."""


def _reach_at(bank: TemplateBank, pitch: float | None) -> F32 | None:
    """``bank.number_reach`` of the templates cut at about ``pitch`` (infinite for the
    others); None when no limit applies."""
    if bank.number_reach is None or pitch is None:
        return None
    reach = np.where(np.abs(bank.sizes - pitch) <= REACH_PITCH, bank.number_reach, np.inf)
    return reach.astype(np.float32) if np.isfinite(reach).any() else None


def _pitch(g: BoardGeometry) -> float:
    """The board's mean pitch (pixels)."""
    return (g.pitch_x + g.pitch_y) / 2


def _own_looks(vectors: F32, codes: npt.NDArray[np.int8]) -> dict[bytes, tuple[int, float]]:
    """Every template's samples (as uint8 bytes) with its code and distance 0: what the
    full comparison decides for a square sampled exactly so (its best distance is 0, so
    within any limit and margin, and its colour is its template's). A look shared by
    templates of two states is left out.

    >>> looks = _own_looks(np.array([[1, 2], [3, 4], [1, 2]], np.float32),
    ...                    np.array([0, 1, 2], np.int8))
    >>> looks == {bytes([3, 4]): (1, 0.0)}
    True
    """
    looks: dict[bytes, tuple[int, float]] = {}
    clash: set[bytes] = set()
    for vector, code in zip(vectors.astype(np.uint8), codes.tolist(), strict=True):
        key = vector.tobytes()
        if looks.setdefault(key, (code, 0.0))[0] != code:
            clash.add(key)
    return {k: v for k, v in looks.items() if k not in clash}


def _template_samples(img: Image, blurred: bool, phased: bool) -> list[npt.NDArray[np.uint8]]:
    """A template's samples: as cut, and with ``phased`` (when the template is shrunk)
    also one pixel further right, down, and both (the edge pixels repeated)."""
    th, tw = img.shape[:2]
    one = BoardGeometry("", 0.0, 0.0, float(tw), float(th), 1, 1)
    out = [cell_samples(img, one, blurred).reshape(-1)]
    if phased and _shrink(one) > 1:
        for dx, dy in ((1, 0), (0, 1), (1, 1)):
            padded = cast(Image, cv2.copyMakeBorder(img, dy, 0, dx, 0, cv2.BORDER_REPLICATE))
            moved = BoardGeometry("", float(dx), float(dy), float(tw), float(th), 1, 1)
            out.append(cell_samples(padded, moved, blurred).reshape(-1))
    return out


def bank_for(skin: Skin, geometry: BoardGeometry) -> TemplateBank:
    """The skin's templates sampled like the cells of the board at ``geometry``."""
    return template_bank(skin, blurs(geometry), _shrink(geometry) > 1)


def _subset(bank: TemplateBank, keep: npt.NDArray[np.intp]) -> TemplateBank:
    """The bank of templates ``keep`` (ascending, so still sorted by code)."""
    codes = bank.codes[keep]
    states, starts = np.unique(codes, return_index=True)
    blocks = bank.blocks[keep]
    return TemplateBank(bank.vectors[keep], bank.sq_norms[keep], codes, states.astype(np.int8),
                        starts.astype(np.intp), bank.backgrounds[keep], blocks,
                        bank.block_sq_norms[keep], np.ascontiguousarray(blocks.T),
                        np.ascontiguousarray(bank.centred_t[:, keep]), bank.centred_sq[keep],
                        bank.sizes[keep])


@dataclass(frozen=True, eq=False)
class Split:
    """A bank's templates in two parts: ``near`` (indices ``near_idx``) and ``rest``."""

    near: TemplateBank
    rest: TemplateBank
    near_idx: npt.NDArray[np.intp]
    rest_idx: npt.NDArray[np.intp]
    apart: npt.NDArray[np.float64]  # (near, rest): Euclidean distance of every pair


def _apart(near: TemplateBank, rest: TemplateBank) -> npt.NDArray[np.float64]:
    """Euclidean distance of every (near, rest) template pair (``_all_distances``)."""
    return np.sqrt(np.maximum(_all_distances(near.vectors, rest), 0.0).astype(np.float64))


NEAR_RATIO = 1.1
"""A skin cut at many window sizes (gnome-mines: 205 templates, 23-69 px) is compared
first with the templates cut at a pitch within this ratio of the board's (and, for a
state with none there, its templates of the nearest pitch): a glyph is drawn at a size
that follows the window's, so those are the candidates, and a matrix product with a few
dozen templates stays in the processor's cache. The rest are compared by their cheap
lower bound, and in full only where that bound could change a decision (``_split_sq``).
"""

_NEAR: dict[tuple[int, float], tuple[TemplateBank, Split | None]] = {}


def _near_bank(bank: TemplateBank, pitch: float) -> Split | None:
    """The bank split by template pitch around ``pitch``; None when every template is
    near."""
    key = (id(bank), round(pitch, 2))
    hit = _NEAR.get(key)
    if hit is not None and hit[0] is bank:
        return hit[1]
    ratio = np.maximum(bank.sizes / pitch, pitch / bank.sizes)
    keep = ratio <= NEAR_RATIO
    for state in bank.states:
        own = bank.codes == state
        if not keep[own].any():
            keep |= own & (ratio <= ratio[own].min() * 1.001)
    near_idx, rest_idx = np.flatnonzero(keep), np.flatnonzero(~keep)
    if keep.all():
        split = None
    else:
        near, rest = _subset(bank, near_idx), _subset(bank, rest_idx)
        split = Split(near, rest, near_idx, rest_idx, _apart(near, rest))
    if len(_NEAR) > 64:
        _NEAR.clear()
    _NEAR[key] = (bank, split)
    return split


def _split_sq(samples: F32, bank: TemplateBank, split: Split, group: int = 1) -> F32:
    """Squared distances (rows, templates) for ``_decide``, exact wherever a decision could
    depend on them, as ``_sq_distances``: every near template in full (one product with a
    cached matrix), the rest by a lower bound (``_triangle``; for ``group`` > 1 the
    block-mean ``_bounds``), and in full only those whose bound is within a square's best
    near distance (capped at the limit) / MARGIN**2. ``group`` consecutive rows are views
    of one square (the shifted views of a second look, most far from every template, where
    the triangle bound is weak) and share that cap."""
    near_sq = _all_distances(samples, split.near)
    sq = np.empty((len(samples), len(bank.vectors)), np.float32)
    sq[:, split.near_idx] = near_sq
    bound = _triangle(near_sq, split) if group == 1 else _bounds(samples, split.rest)
    best = np.minimum(near_sq.min(axis=1).reshape(-1, group).min(axis=1), _limit(samples.shape[1]))
    rows, cols = np.nonzero(bound <= np.repeat(best / MARGIN ** 2, group)[:, None])
    if len(rows):
        bound[rows, cols] = _pair_sq(samples, split.rest, rows, cols)
    sq[:, split.rest_idx] = bound
    return sq


def _triangle(near_sq: F32, split: Split) -> F32:
    """A lower bound of the squared distances (rows, rest templates) by the triangle
    inequality through each row's nearest near template t, at distance d: a template u
    is at least |t u| - d away (``Split.apart``), so no product with the rest is needed.

    >>> from vision.skin import load_skin
    >>> near = template_bank(load_skin("xdemineur"))
    >>> split = Split(near, near, np.arange(15), np.arange(15), _apart(near, near))
    >>> bound = _triangle(_all_distances(near.vectors[:2], near), split)
    >>> bool((bound <= _all_distances(near.vectors[:2], near)).all())
    True
    """
    nearest = np.argmin(near_sq, axis=1)
    d = np.sqrt(np.maximum(near_sq[np.arange(len(near_sq)), nearest], 0.0).astype(np.float64))
    # a little low, for the float32 rounding of the distances (d and |t u|, 6e-8 of
    # them) and of the square roots
    gap = np.maximum(split.apart[nearest] - (d * 1.000001 + 0.001)[:, None], 0.0)
    return (gap * gap * 0.99999).astype(np.float32)


_PRODUCT_ROWS = 32

BLOCK = 4
"""Side in samples of the blocks whose mean colours make the cheap first comparison."""


def _blocks(vectors: F32) -> F32:
    """Every SAMPLE x SAMPLE x 3 vector as the mean colours of its BLOCK x BLOCK blocks."""
    k = SAMPLE // BLOCK
    stacked = np.ascontiguousarray(vectors, np.float32).reshape(-1, SAMPLE, 3)
    means = cv2.resize(stacked, (k, len(vectors) * k), interpolation=cv2.INTER_AREA)
    return np.asarray(means, np.float32).reshape(len(vectors), -1)


def _bounds(samples: F32, bank: TemplateBank) -> F32:
    """A lower bound of the sum of squared differences of every sample to every template
    (n, templates), from BLOCK x BLOCK block mean colours (one small matrix product): a
    block's sum of squared differences is at least its pixel count times the squared
    difference of its means."""
    small = _blocks(samples)
    cross = np.empty((len(small), len(bank.blocks)), np.float32)
    # in pieces: OpenBLAS runs a product this small on one thread (cv2.gemm takes 10
    # times longer), a larger one on all cores, whose threads then spin long after it
    for i in range(0, len(small), _PRODUCT_ROWS):
        np.matmul(small[i:i + _PRODUCT_ROWS], bank.blocks_t, out=cross[i:i + _PRODUCT_ROWS])
    bound = (small * small).sum(axis=1)[:, None] - 2.0 * cross + bank.block_sq_norms[None, :]
    # a little low, for the rounding of the expanded square
    return np.maximum(bound * np.float32(BLOCK * BLOCK * 0.999) - 1.0, 0.0).astype(np.float32)


def _pair_sq(samples: F32, bank: TemplateBank, rows: npt.NDArray[np.intp],
             cols: npt.NDArray[np.intp]) -> F32:
    """Exact sums of squared differences of the (sample row, template) pairs."""
    diff = samples[rows] - bank.vectors[cols]
    return cast(F32, np.einsum("ij,ij->i", diff, diff))


def _exact(sq: F32, samples: F32, bank: TemplateBank, rows: npt.NDArray[np.intp],
           cols: npt.NDArray[np.intp]) -> None:
    """Replace the bounds of the (row, col) pairs by exact sums of squared differences."""
    if len(rows):
        sq[rows, cols] = _pair_sq(samples, bank, rows, cols)


def _sq_distances(samples: F32, bank: TemplateBank, limit: float = np.inf,
                  group: int = 1, bound: F32 | None = None) -> F32:
    """Sum of squared differences of every sample to every template (n, templates),
    exact wherever a decision could depend on it, elsewhere a lower bound.

    First the block-mean lower bound of every pair (``_bounds``, or ``bound`` when
    given). The template with the lowest bound is then compared in full; its distance d
    caps the best, so only templates whose bound is within min(d, ``limit``) / MARGIN**2
    can be the best or a close second, and only they are compared in full (all pairs at
    once). With ``group`` > 1 consecutive rows are views of one square (classified by
    their minimum) and share that cap."""
    n = len(samples)
    if n == 0:
        return np.zeros((0, len(bank.vectors)), np.float32)
    sq = _bounds(samples, bank) if bound is None else bound.copy()
    first = np.argmin(sq, axis=1)
    rows = np.arange(n)
    _exact(sq, samples, bank, rows, first)
    if np.isfinite(limit):
        cap = np.minimum(sq[rows, first].reshape(-1, group).min(axis=1), limit)
        cap = np.repeat(cap / MARGIN ** 2, group)
        rows, cols = np.nonzero(sq <= cap[:, None])
        keep = cols != first[rows]
        _exact(sq, samples, bank, rows[keep], cols[keep])
    else:
        rows, cols = np.nonzero(np.ones_like(sq, bool))
        _exact(sq, samples, bank, rows, cols)
    return sq


DIRECT_MAX = 64
"""Up to this many samples are compared with every template in full by one matrix
product (``_all_distances``); more go through the block-mean bound first."""
SPLIT_MAX = 256
"""Up to this many samples are compared with a skin's near templates first
(``_split_sq``) when the board's pitch is known."""


def _all_distances(samples: F32, bank: TemplateBank) -> F32:
    """Exact sums of squared differences of every sample to every template (n, templates)
    by one matrix product: with both sides centred on 128 every product and partial sum
    is an integer below 2**24, so the float32 products (and the samples' own squared norms,
    at most 768 * 128**2) are exact whatever the summation order; the norms are added in
    float64.

    >>> from vision.skin import load_skin
    >>> bank = template_bank(load_skin("xdemineur"))
    >>> s = bank.vectors[:3] + np.float32(1.0)
    >>> np.allclose(_all_distances(s, bank)[:, :3].diagonal(), s.shape[1])
    True
    """
    centred = samples - np.float32(128.0)
    cross = np.matmul(centred, bank.centred_t).astype(np.float64)
    own = np.einsum("ij,ij->i", centred, centred).astype(np.float64)
    return (own[:, None] - 2.0 * cross + bank.centred_sq[None, :]).astype(np.float32)


def _limit(dims: int) -> float:
    """Squared-difference sum beyond which a square is unknown whatever else it is near."""
    return float(MAX_RMS ** 2 * dims) * 1.001


def state_distances(samples: npt.NDArray[np.uint8] | F32, bank: TemplateBank) -> F32:
    """Root mean squared difference of every sample to the nearest template of every
    state (n, states); column j is state ``bank.states[j]``."""
    samples = samples.astype(np.float32, copy=False)
    best = np.minimum.reduceat(_sq_distances(samples, bank), bank.starts, axis=1)
    return np.sqrt(np.maximum(best, 0.0) / samples.shape[1])


def _backgrounds(vectors: F32 | npt.NDArray[np.uint8]) -> F32:
    """Per-channel median colour of every vector (n, 3), as np.median computes it
    (faster on uint8 samples)."""
    px = np.ascontiguousarray(vectors.reshape(len(vectors), -1, 3).transpose(0, 2, 1))
    m = px.shape[2]
    if m % 2:
        return np.partition(px, m // 2, axis=2)[:, :, m // 2].astype(np.float32)
    two = np.partition(px, (m // 2 - 1, m // 2), axis=2)[:, :, m // 2 - 1:m // 2 + 1]
    return two.mean(axis=2, dtype=np.float32)


def classify(samples: npt.NDArray[np.uint8] | F32, bank: TemplateBank,
             strictness: float = 1.0, pitch: float | None = None,
             ) -> tuple[npt.NDArray[np.int8], F32]:
    """Cell codes (UNKNOWN where unsure) and each sample's best distance.

    ``strictness`` > 1 divides the distance and colour tolerances (used to decide whether
    squares at a lattice's edge belong to the board). Identical samples (a board is
    mostly the same few tiles) are compared once. ``pitch`` (the board's, in pixels)
    makes templates cut at about that pitch be compared first (same answers, faster)."""
    codes, best = _classify_named(samples, bank, strictness, pitch)
    codes[codes == UNNAMED] = UNKNOWN
    return codes, best


def _classify_named(samples: npt.NDArray[np.uint8] | F32, bank: TemplateBank,
                    strictness: float = 1.0, pitch: float | None = None,
                    ) -> tuple[npt.NDArray[np.int8], F32]:
    """:func:`classify`, but a square nearest an unnamed look is UNNAMED."""
    if samples.dtype == np.uint8:
        return _classify_cached(cast(npt.NDArray[np.uint8], samples), bank, strictness, pitch)
    floats = cast(F32, samples)
    return _classify_floats(floats, _backgrounds(floats), bank, strictness, pitch)


_SEEN: dict[tuple[int, float, float | None], dict[bytes, tuple[int, float]]] = {}
_SEEN_MAX = 20000


def forget_samples() -> None:
    """Empty the memory of classified squares (benchmarks measure cold reads with it)."""
    _SEEN.clear()


_WEIGHTS: dict[int, npt.NDArray[np.uint64]] = {}


def _hash_weights(n: int) -> npt.NDArray[np.uint64]:
    """``n`` fixed odd 64-bit multipliers (a row's hash is its words' weighted sum)."""
    if n not in _WEIGHTS:
        rng = np.random.default_rng(n)
        _WEIGHTS[n] = rng.integers(1, 2 ** 63, n, dtype=np.uint64) | np.uint64(1)
    return _WEIGHTS[n]


def _distinct(samples: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.intp],
                                                       npt.NDArray[np.intp]]:
    """(first, inverse): one row index per distinct sample and, for every sample, the
    position of its own in ``first`` (``samples[first][inverse]`` equals ``samples``).

    Rows are grouped by a 64-bit hash (one small integer product), then checked exactly;
    on a hash collision the rows are grouped by their bytes instead.

    >>> first, inverse = _distinct(np.array([[1, 2], [3, 4], [1, 2]], np.uint8))
    >>> first.tolist(), inverse.tolist()
    ([0, 1], [0, 1, 0])
    """
    rows = np.ascontiguousarray(samples)
    n, dims = rows.shape
    if dims % 8:
        padded = np.zeros((n, -(-dims // 8) * 8), np.uint8)
        padded[:, :dims] = rows
        rows = padded
    words = rows.view(np.uint64)
    hashes = np.einsum("ij,j->i", words, _hash_weights(words.shape[1]))
    _, first, inverse = np.unique(hashes, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    if not (words.take(first[inverse], axis=0) == words).all():  # a collision: by bytes
        index: dict[bytes, int] = {}
        inverse = np.array([index.setdefault(r.tobytes(), len(index)) for r in rows], np.intp)
        first = np.zeros(len(index), np.intp)
        first[inverse[::-1]] = np.arange(n)[::-1]
    return first.astype(np.intp), inverse.astype(np.intp)


def _classify_cached(samples: npt.NDArray[np.uint8], bank: TemplateBank,
                     strictness: float, pitch: float | None = None,
                     ) -> tuple[npt.NDArray[np.int8], F32]:
    """classify() of uint8 samples, each distinct one once, remembering every answer:
    between two reads of a game most squares look exactly as before."""
    key = (id(bank), strictness, pitch)  # (the pitch: see _reach_at)
    seen = _SEEN.get(key)
    if seen is None:  # a template's own look needs no comparison
        seen = _SEEN[key] = dict(bank.known)
    first, inverse = _distinct(samples)
    keys = [samples[i].tobytes() for i in first.tolist()]
    new = [j for j, k in enumerate(keys) if k not in seen]
    if len(seen) + len(new) > _SEEN_MAX:
        seen.clear()
        seen.update(bank.known)
        new = [j for j, k in enumerate(keys) if k not in seen]
    if new:
        fresh = samples[first[new]]
        codes, best = _classify_floats(fresh.astype(np.float32), _backgrounds(fresh), bank,
                                       strictness, pitch)
        for j, code, dist in zip(new, codes.tolist(), best.tolist(), strict=True):
            seen[keys[j]] = (code, dist)
    pairs = [seen[k] for k in keys]
    return (np.array([p[0] for p in pairs], np.int8)[inverse],
            np.array([p[1] for p in pairs], np.float32)[inverse])


def shift_gap(samples: F32, templates: F32) -> F32:
    """How far each sample differs from its template by a colour shift: the largest
    channel's median of their pixel differences. A tile of another shade or a highlight
    differs so everywhere; a glyph drawn a fraction of a pixel off differs at its edges
    only (a minority of the pixels), though its blur moves the sample's median colour.

    >>> t = np.tile(np.array([192, 192, 192], np.float32), (1, 8))
    >>> ink = t.copy(); ink[0, :9] = 60                  # three of eight pixels inked
    >>> shade = t - 9.0
    >>> shift_gap(np.vstack([ink, shade]), np.vstack([t, t])).tolist()
    [0.0, 9.0]
    """
    diff = (samples - templates).reshape(len(samples), -1, 3)
    return cast(F32, np.abs(np.median(diff, axis=1)).max(axis=1).astype(np.float32))


def _decide(sq: F32, backgrounds: F32, dims: int, bank: TemplateBank,
            strictness: float = 1.0, reach: F32 | None = None,
            matched: F32 | None = None) -> tuple[npt.NDArray[np.int8], F32]:
    """Codes and best distances from squared distances (n, templates); ``reach``: see
    :func:`_reach_at`. ``matched``: the samples as compared to their nearest template
    (a second look's best offset), whose colour passes when either its median colour or
    its :func:`shift_gap` is within BG_TOL."""
    per_state = np.maximum(np.minimum.reduceat(sq, bank.starts, axis=1), 0.0)
    state = np.argmin(per_state, axis=1)
    best = np.sqrt(per_state[np.arange(len(sq)), state] / dims)
    if per_state.shape[1] > 1:
        second = np.sqrt(np.partition(per_state, 1, axis=1)[:, 1] / dims)
    else:
        second = np.full_like(best, np.inf)
    nearest = np.argmin(sq, axis=1)
    colour_gap = np.abs(backgrounds - bank.backgrounds[nearest]).max(axis=1)
    if matched is not None:
        colour_gap = np.minimum(colour_gap, shift_gap(matched, bank.vectors[nearest]))
    codes = bank.states[state]
    sure = (best <= MAX_RMS / strictness) & (best <= MARGIN * second)
    sure &= colour_gap <= BG_TOL / strictness
    if reach is not None:
        sure &= best <= reach[nearest] / strictness
    codes[~sure] = UNKNOWN
    return codes, best


FLAT_TEMPLATE = 8.0
"""A state is flat when every template of it is: no pixel of its sample (bar three)
further than this from its background colour (a revealed 0, most covered tiles)."""

FLAT_SQUARE = 48.0
"""A square read as a flat state must be flat too: no more than three pixels of its
sample further than this from its background (on the fixtures a flat state's squares
reach 18; xbomb's thin violet 7 on a white 0 tile reaches 120, and is 19.5 RMS from the
0: near enough to be read as a 0 when the skin has no 7)."""


def _ink(vectors: F32, backgrounds: F32) -> F32:
    """Each vector's fourth-largest pixel distance (largest channel gap) from its
    background colour: how far its ink reaches, a few stray pixels aside.

    >>> flat = np.full((1, 16 * 3), 200, np.float32)
    >>> dot = flat.copy(); dot[0, :6] = 40                          # two dark pixels
    >>> line = flat.copy(); line[0, :12] = 40                       # four
    >>> _ink(np.vstack([flat, dot, line]), np.full((3, 3), 200, np.float32)).tolist()
    [0.0, 0.0, 160.0]
    """
    px = vectors.reshape(len(vectors), -1, 3)
    gap = np.abs(px - backgrounds[:, None, :]).max(axis=2)
    return np.partition(gap, gap.shape[1] - 4, axis=1)[:, -4]


def _flat_states(vectors: F32, backgrounds: F32,
                 codes: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    """The states every template of which is flat (FLAT_TEMPLATE)."""
    ink = _ink(vectors, backgrounds)
    states = np.unique(codes)
    return np.array([s for s in states.tolist() if ink[codes == s].max() <= FLAT_TEMPLATE],
                    np.int8)


def _unflat(samples: F32, backgrounds: F32, codes: npt.NDArray[np.int8], bank: TemplateBank,
            ) -> npt.NDArray[np.int8]:
    """``codes`` with every square read as a flat state but not flat itself UNKNOWN
    (a glyph the skin has no template of, near a blank tile by distance)."""
    check = np.flatnonzero(np.isin(codes, bank.flat_states))
    if len(check):
        inked = _ink(samples[check], backgrounds[check]) > FLAT_SQUARE
        codes[check[inked]] = UNKNOWN
    return codes


def _classify_floats(samples: F32, backgrounds: F32, bank: TemplateBank,
                     strictness: float = 1.0, pitch: float | None = None,
                     ) -> tuple[npt.NDArray[np.int8], F32]:
    """``_nearest_states``, but a square read as a flat state that is not flat itself is
    unknown (``_unflat``)."""
    codes, best = _nearest_states(samples, backgrounds, bank, strictness, pitch)
    return _unflat(samples, backgrounds, codes, bank), best


def _nearest_states(samples: F32, backgrounds: F32, bank: TemplateBank,
                    strictness: float = 1.0, pitch: float | None = None,
                    ) -> tuple[npt.NDArray[np.int8], F32]:
    """Codes and distances of samples: ``_settle`` where the template with the lowest
    bound already decides, the full comparison (``_sq_distances``) for the rest; with
    ``pitch``, first against the templates cut near it (``_near_bank``)."""
    dims = samples.shape[1]
    if len(samples) == 0:
        return np.zeros(0, np.int8), np.zeros(0, np.float32)
    split = None if pitch is None or len(samples) > SPLIT_MAX else _near_bank(bank, pitch)
    reach = _reach_at(bank, pitch)
    if split is not None:
        return _decide(_split_sq(samples, bank, split), backgrounds, dims, bank, strictness,
                       reach)
    if len(samples) <= DIRECT_MAX:
        return _decide(_all_distances(samples, bank), backgrounds, dims, bank, strictness,
                       reach)
    bound = _bounds(samples, bank)
    codes, best, settled = _settle(samples, backgrounds, bound, bank, strictness, reach)
    rest = np.flatnonzero(~settled)
    if len(rest):
        sq = _sq_distances(samples[rest], bank, _limit(dims), bound=bound[rest])
        codes[rest], best[rest] = _decide(sq, backgrounds[rest], dims, bank, strictness,
                                          reach)
    return codes, best


def _settle(samples: F32, backgrounds: F32, bound: F32, bank: TemplateBank,
            strictness: float, reach: F32 | None = None,
            ) -> tuple[npt.NDArray[np.int8], F32, npt.NDArray[np.bool_]]:
    """(codes, distances, settled): the decisions ``_decide`` would take on the exact
    distances, for the samples where they follow from fewer comparisons.

    Let d be the exact distance to the template with the lowest bound. If d is within
    the limit and every template of another state whose bound is within d / MARGIN**2 is
    compared and found further, that state is the answer whatever the nearest template
    of its own state is; its nearest template (needed only for the colour check) is
    among those whose bound is at most d, and when the colour check comes out the same for
    all of them it is settled too. Returned distances of settled samples are d (an upper
    bound of the nearest); other rows are not settled and their codes are meaningless."""
    n, dims = samples.shape
    rows = np.arange(n)
    first = np.argmin(bound, axis=1)
    d1 = _pair_sq(samples, bank, rows, first)
    state = bank.codes[first]
    same = bank.codes[None, :] == state[:, None]
    limit = (MAX_RMS / strictness) ** 2 * dims
    near = d1 <= limit  # (the others are settled only if no template is within the limit)
    other = np.full(n, np.inf, np.float32)
    r, c = np.nonzero((bound <= (d1 / MARGIN ** 2)[:, None]) & ~same & near[:, None])
    if len(r):
        np.minimum.at(other, r, _pair_sq(samples, bank, r, c))
    far = bound.min(axis=1) > limit * 1.001
    clear = near & (other > d1 / MARGIN ** 2)
    if reach is not None:  # (within the reach of every template of the state)
        low = np.minimum.reduceat(reach, bank.starts)
        reach = low[np.searchsorted(bank.states, state)] / strictness
        clear &= d1 <= reach.astype(np.float64) ** 2 * dims
    # the colour check against every template that could be the nearest
    r, c = np.nonzero(same & (bound <= d1[:, None]) & clear[:, None])  # (first among them)
    bad = np.abs(backgrounds[r] - bank.backgrounds[c]).max(axis=1) > BG_TOL / strictness
    n_bad = np.bincount(r, bad, minlength=n)
    n_all = np.bincount(r, minlength=n)
    settled = far | (clear & ((n_bad == 0) | (n_bad == n_all)))
    codes = np.where(clear & (n_bad == 0), state, UNKNOWN).astype(np.int8)
    return codes, np.sqrt(d1 / dims).astype(np.float32), settled


_STEPS = (-1.0, -0.5, 0.0, 0.5, 1.0)
SHIFTS = tuple((dx, dy) for dy in _STEPS for dx in _STEPS)
"""Offsets (image pixels) tried for a square the first pass left unknown: a glyph one
pixel off its template's position (uneven layouts, rounding) is still recognised."""


def _shifted_maps(g: BoardGeometry, cells: list[tuple[int, int]], left: int, top: int,
                  factor: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """remap maps sampling every cell at every offset of SHIFTS: one SAMPLE x SAMPLE block
    per (cell, offset), stacked vertically."""
    dxs = np.array([dx for dx, _ in SHIFTS])
    dys = np.array([dy for _, dy in SHIFTS])
    lefts = np.array([g.col_left(c) for _, c in cells])
    tops = np.array([g.row_top(r) for r, _ in cells])
    xs = _axis_map((lefts[:, None] + dxs[None, :]).reshape(-1), g.pitch_x, left, factor)
    ys = _axis_map((tops[:, None] + dys[None, :]).reshape(-1), g.pitch_y, top, factor)
    mx = np.repeat(xs.reshape(-1, 1, SAMPLE), SAMPLE, axis=1).reshape(-1, SAMPLE)
    my = np.repeat(ys.reshape(-1, SAMPLE, 1), SAMPLE, axis=2).reshape(-1, SAMPLE)
    return mx, my


def reread_shifted(image: Image, geometry: BoardGeometry, bank: TemplateBank,
                   cells: list[tuple[int, int]]) -> npt.NDArray[np.int8]:
    """Codes of ``cells`` compared at every offset in SHIFTS (best offset per template);
    every (cell, offset) is sampled in one remap."""
    if not cells:
        return np.zeros(0, np.int8)
    return _reread(_board_region(image, geometry), geometry, bank, cells)


def _reread(prepared: Prepared, geometry: BoardGeometry, bank: TemplateBank,
            cells: list[tuple[int, int]]) -> npt.NDArray[np.int8]:
    region, left, top, factor = prepared
    mx, my = _shifted_maps(geometry, cells, left, top, factor)
    small = _remap(region, mx, my)
    n, k = len(cells), len(SHIFTS)
    raw = np.asarray(small, np.uint8).reshape(n, k, -1)
    v = raw.reshape(n * k, -1).astype(np.float32)
    backgrounds = _backgrounds(raw[:, SHIFTS.index((0.0, 0.0))])
    split = _near_bank(bank, (geometry.pitch_x + geometry.pitch_y) / 2)
    if len(v) <= DIRECT_MAX and split is None:
        sq = _all_distances(v, bank)
    elif len(v) <= SPLIT_MAX and split is not None:
        sq = _split_sq(v, bank, split, group=k)
    else:
        sq = _sq_distances(v, bank, _limit(v.shape[1]), group=k)
    per_shift = sq.reshape(n, k, -1)
    best_shift = np.argmin(per_shift.min(axis=2), axis=1)
    matched = v.reshape(n, k, -1)[np.arange(n), best_shift]
    codes, _ = _decide(per_shift.min(axis=1), backgrounds, v.shape[1], bank,
                       reach=_reach_at(bank, _pitch(geometry)), matched=matched)
    unshifted = raw[:, SHIFTS.index((0.0, 0.0))].astype(np.float32)
    return _unflat(unshifted, backgrounds, codes, bank)


def read_board(image: Image, geometry: BoardGeometry, skin: Skin) -> Board:
    """The knowledge array of the board at ``geometry`` (UNKNOWN where unsure)."""
    bank = bank_for(skin, geometry)
    prepared = _board_region(image, geometry)
    samples = _sample_cells(prepared, geometry)
    codes, best = _classify_named(samples, bank, pitch=_pitch(geometry))
    board = codes.reshape(geometry.rows, geometry.cols).astype(np.int8)
    doubted = _doubted_numbers(board, best.reshape(board.shape), bank, _pitch(geometry))
    unsure = [(int(r), int(c)) for r, c in np.argwhere(board == UNKNOWN)]
    if unsure and len(unsure) <= MAX_REREAD:
        # second looks, by first-look sample
        seen = _SEEN.setdefault((id(bank), -1.0, _pitch(geometry)), {})
        keys = [samples[r * geometry.cols + c].tobytes() for r, c in unsure]
        new = [i for i, k in enumerate(keys) if k not in seen]
        if new:
            again = _reread(prepared, geometry, bank, [unsure[i] for i in new])
            for i, code in zip(new, again.tolist(), strict=True):
                seen[keys[i]] = (code, 0.0)
        board[tuple(np.array(unsure).T)] = [seen[k][0] for k in keys]
    unnamed = board == UNNAMED
    board[unnamed] = UNKNOWN
    if unsure:  # still unsure after the second look: read by glyph, at any cell size
        fill_unknown(image, geometry, skin, board)
    board = split_twins(image, geometry, skin, bank, samples, board)
    board[unnamed] = UNKNOWN  # (whatever the glyph or twin readers made of them)
    for r, c in np.argwhere(doubted & (board >= 1) & (board <= 8)).tolist():
        if colour_apart(image, geometry, skin, (r, c), int(board[r, c])):
            board[r, c] = UNKNOWN
    return board


DOUBT_SHARE = 0.5
"""A square read as a number further than this share of the number's reach (see
:func:`_number_reach`) from its template has its glyph's colour checked too, and is
unknown where that is another (:func:`vision.glyph.colour_apart`): a small digit on a
big square is a few pixels of the compared sample, so an unseen number may lie within
reach of a known one (ItzAleksG's Tk game: its dark red 5, a small glyph on a 60 x 44
px square, lay 2.5 from its bright red 3, whose reach is 2.8, and was read as the 3).
Only the colour: the whole glyph reader disagreed with JPEG captures' blurred digits
(minegauler at quality 75: its board then found in part)."""


def _doubted_numbers(board: Board, best: F32, bank: TemplateBank,
                     pitch: float) -> npt.NDArray[np.bool_]:
    """Squares of ``board`` read as a number at more than DOUBT_SHARE of its reach
    (that of its furthest-reaching template cut at about ``pitch``) from it; none when
    the skin has every number or none (no reach).

    >>> v = np.array([[0.0], [10.0], [99.0]], np.float32)          # a 1, a 2, covered
    >>> bank = template_bank_of(v, [1, 2, -1])
    >>> bank = replace(bank, sizes=np.full(3, 20.0), number_reach=_number_reach(v, bank.codes))
    >>> board = np.array([[1, 2, 1, -1]], np.int8)
    >>> _doubted_numbers(board, np.array([[0.5, 2.4, 2.6, 9.0]], np.float32), bank,
    ...                  20.0).tolist()
    [[False, False, True, False]]
    """
    reach = _reach_at(bank, pitch)
    out = np.zeros(board.shape, bool)
    if reach is None:
        return out
    for code in np.unique(board[(board >= 1) & (board <= 8)]).tolist():
        of = reach[bank.codes == code]
        limit = float(of[np.isfinite(of)].max(initial=-1.0)) * DOUBT_SHARE
        if limit >= 0.0:
            out |= (board == code) & (best > limit)
    return out


TWIN_RMS = 4.0
"""Two templates of different states whose compared (central) parts lie within this
(root mean squared) are twins: the central part cannot tell them apart, only the rim
can (pygame-minesweeper's covered square and its 0 at 16 px: the same grey inside, a
2-pixel bevel against a 1-pixel line at the rim)."""

RIM_SHARE = 0.25
"""Two templates of different states are twins too when their central parts lie within
this share of their whole squares' distance: they differ mostly at the rim, so a sample
taken half a pixel off may come nearer the wrong one (the classic look's covered square
and its 0 at 20.8 px: middles 5.2 apart, whole squares 42; the rim-only pairs of the
skins in tests are 0.00-0.20, every other pair 0.27 or more)."""


@dataclass(frozen=True)
class Twins:
    """A skin's twin templates (``TWIN_RMS``), by their row in the bank."""

    rows: npt.NDArray[np.intp]
    states: frozenset[int]


_TWINS: dict[int, tuple[TemplateBank, Twins, Skin | None]] = {}


def _whole_apart(skin: Skin, codes: npt.NDArray[np.int8]) -> F32:
    """Root mean squared distance between the whole templates of the states of each
    pair of bank rows (``codes``): the nearest two of the two states, at the skin's
    cell size.

    >>> a, b = np.zeros((4, 4, 3), np.uint8), np.full((4, 4, 3), 10, np.uint8)
    >>> skin = Skin("s", "test", (4.0, 4.0), {-1: (a,), 0: (b,)}, {}, {})
    >>> _whole_apart(skin, np.array([-1, 0], np.int8)).tolist()
    [[0.0, 10.0], [10.0, 0.0]]
    """
    w, h = (max(1, round(s)) for s in skin.cell_size)
    states = sorted({int(c) for c in codes})
    x = np.stack([cv2.resize(np.ascontiguousarray(img[:, :, :3]), (w, h),
                             interpolation=cv2.INTER_AREA).astype(np.float64).reshape(-1)
                  for s in states for img in skin.cells[s]])
    starts = np.cumsum([0] + [len(skin.cells[s]) for s in states[:-1]])
    sq = (x * x).sum(axis=1)
    d = np.maximum(sq[:, None] + sq[None, :] - 2.0 * (x @ x.T), 0.0) / x.shape[1]
    nearest = np.minimum.reduceat(np.minimum.reduceat(d, starts, axis=0), starts, axis=1)
    np.fill_diagonal(nearest, 0.0)
    at = np.searchsorted(states, codes.astype(np.int64))
    return cast(F32, np.sqrt(nearest).astype(np.float32)[at][:, at])


def twins(bank: TemplateBank, skin: Skin | None = None) -> Twins:
    """The bank's templates that have a twin of another state (cached per bank): within
    ``TWIN_RMS``, or (given the ``skin`` whose bank it is) within ``RIM_SHARE`` of the
    two states' whole templates' distance.

    >>> v = np.array([[10, 10], [10, 11], [90, 90]], np.float32)
    >>> bank = template_bank_of(v, [-1, 0, 1])
    >>> t = twins(bank)
    >>> t.rows.tolist(), sorted(t.states)
    ([0, 1], [-1, 0])
    """
    hit = _TWINS.get(id(bank))
    if hit is not None and hit[0] is bank and hit[2] is skin:
        return hit[1]
    v = bank.vectors.astype(np.float64)
    sq = (v * v).sum(axis=1)
    d = np.maximum(sq[:, None] + sq[None, :] - 2.0 * (v @ v.T), 0.0) / v.shape[1]
    near = d <= TWIN_RMS ** 2
    named = np.flatnonzero(bank.codes != UNNAMED)  # (an unnamed look is no one's twin)
    if skin is not None and set(skin.cells) >= {int(c) for c in bank.codes[named]}:
        apart = _whole_apart(skin, bank.codes[named]).astype(np.float64)
        near[np.ix_(named, named)] |= d[np.ix_(named, named)] <= (RIM_SHARE * apart) ** 2
    pair = near & (bank.codes[:, None] != bank.codes[None, :])
    pair &= (bank.codes != UNNAMED)[:, None] & (bank.codes != UNNAMED)[None, :]
    rows = np.flatnonzero(pair.any(axis=1))
    found = Twins(rows, frozenset(int(c) for c in bank.codes[rows]))
    if len(_TWINS) > 8:
        _TWINS.clear()
    _TWINS[id(bank)] = (bank, found, skin)
    return found


def template_bank_of(vectors: F32, codes: list[int]) -> TemplateBank:
    """A bank of bare vectors (for examples and tests): only ``vectors`` and ``codes``
    are meaningful."""
    code_arr = np.array(codes, np.int8)
    states, starts = np.unique(code_arr, return_index=True)
    n = len(codes)
    z = np.zeros((n, 1), np.float32)
    return TemplateBank(vectors.astype(np.float32), (vectors * vectors).sum(axis=1),
                        code_arr, states.astype(np.int8), starts.astype(np.intp), z, z,
                        z[:, 0], z.T, z.T, np.zeros(n), np.zeros(n, np.float32))


def _twin_candidates(samples: npt.NDArray[np.uint8], bank: TemplateBank, found: Twins,
                     board: Board) -> tuple[npt.NDArray[np.intp], list[list[int]]]:
    """Squares (flat indices) read as a twin state or unknown whose sample lies within
    MAX_RMS of twin templates of two or more states, each no further than the nearest
    plus TWIN_RMS; and those states, per square."""
    flat = board.reshape(-1)
    maybe = np.flatnonzero(np.isin(flat, [*found.states, UNKNOWN]))
    if len(maybe) == 0:
        return maybe, []
    x = samples[maybe].astype(np.float64)
    t = bank.vectors[found.rows].astype(np.float64)
    d = np.sqrt(np.maximum((x * x).sum(axis=1)[:, None] + (t * t).sum(axis=1)[None, :]
                           - 2.0 * (x @ t.T), 0.0) / x.shape[1])
    near = (d <= np.minimum(d.min(axis=1, keepdims=True) + TWIN_RMS, MAX_RMS))
    codes = bank.codes[found.rows]
    keep, states = [], []
    for i, row in enumerate(near):
        among = sorted({int(c) for c in codes[row]})
        if len(among) > 1:
            keep.append(maybe[i])
            states.append(among)
    return np.array(keep, np.intp), states


def _whole_cells(image: Image, geometry: BoardGeometry, cells: npt.NDArray[np.intp],
                 size: tuple[int, int]) -> npt.NDArray[np.float32]:
    """The squares ``cells`` (flat indices) as whole pitch squares plus one pixel around
    (edge pixels repeated at the image's border): (n, h + 2, w + 2, 3)."""
    g = geometry
    w, h = size
    padded = cv2.copyMakeBorder(image, 1, 1, 1, 1, cv2.BORDER_REPLICATE)
    out = np.empty((len(cells), h + 2, w + 2, 3), np.float32)
    for k, i in enumerate(cells.tolist()):
        r, c = divmod(i, g.cols)
        left = min(max(round(g.col_left(c)), 0), image.shape[1] - w)
        top = min(max(round(g.row_top(r)), 0), image.shape[0] - h)
        out[k] = padded[top:top + h + 2, left:left + w + 2, :3]
    return out


def _whole_distances(crops: npt.NDArray[np.float32], template: Image) -> F32:
    """Root mean squared distance of each whole square to ``template`` (resized to the
    squares' size): the least of the whole square at the best of the nine one-pixel
    shifts, and of the square in place with its outermost pixels left out (a border or
    a neighbour's edge may show there: gamelibgames' top row of covered squares, under
    the board's frame, was as near its opened 0, which differs by a 2 px line only)."""
    n, hp, wp = crops.shape[:3]
    h, w = hp - 2, wp - 2
    t = np.ascontiguousarray(template[:, :, :3])
    if t.shape[:2] != (h, w):
        t = cast(Image, cv2.resize(t, (w, h), interpolation=cv2.INTER_AREA))
    tf = t.astype(np.float32)
    inner = crops[:, 2:h, 2:w] - tf[1:h - 1, 1:w - 1]
    best = np.sqrt((inner * inner).mean(axis=(1, 2, 3))).astype(np.float32)
    for dy in range(3):
        for dx in range(3):
            diff = crops[:, dy:dy + h, dx:dx + w] - tf
            best = np.minimum(best, np.sqrt((diff * diff).mean(axis=(1, 2, 3))))
    return best


def split_twins(image: Image, geometry: BoardGeometry, skin: Skin, bank: TemplateBank,
                samples: npt.NDArray[np.uint8], board: Board) -> Board:
    """``board`` with each square whose central part matches twin templates of several
    states (``twins``) read by the whole square instead (in place): the state of the
    nearest whole template, when within MAX_RMS and MARGIN of the next state's, else
    UNKNOWN. A skin with no twins is left as read."""
    found = twins(bank, skin)
    if len(found.rows) == 0:
        return board
    cells, states = _twin_candidates(samples, bank, found, board)
    if len(cells) == 0:
        return board
    size = (max(1, round(geometry.pitch_x)), max(1, round(geometry.pitch_y)))
    crops = _whole_cells(image, geometry, cells, size)
    wanted = sorted({s for group in states for s in group})
    dist = {s: np.min([_whole_distances(crops, img) for img in skin.cells[s]], axis=0)
            for s in wanted}
    flat = board.reshape(-1)
    for k, (i, group) in enumerate(zip(cells.tolist(), states, strict=True)):
        ranked = sorted((float(dist[s][k]), s) for s in group)
        (best, state), (second, _) = ranked[0], ranked[1]
        flat[i] = state if best <= MAX_RMS and best <= MARGIN * second else UNKNOWN
    return board
