"""Restore a lossy capture (a JPEG) to the flat colours of a Minesweeper skin.

A JPEG spreads every flat colour of a screenshot into a cloud of near colours and smears
thin coloured strokes (its colour is kept at half resolution, its brightness at full):
the locator's key colours are then found nowhere and the reader's squares match no
template. Minesweeper skins paint with a few flat colours, so each pixel is snapped to
the nearest of them (:func:`snap_to_palette`): the skin's own colours when the skin is
known (:func:`skin_palette`), else the image's dominant colours
(:func:`dominant_colours`). Nearness weighs brightness over colour, as the JPEG does.

>>> flat = np.full((16, 16, 3), (0, 128, 0), np.uint8)
>>> noisy = flat.copy()
>>> noisy[::2, ::3] += np.array([3, 2, 1], np.uint8)       # a cloud of near colours
>>> restored = restore(noisy, np.array([[0, 128, 0], [255, 255, 255]], np.float32))
>>> bool((restored == flat).all())
True
>>> is_jpeg(b"\\xff\\xd8\\xff\\xe0..."), is_jpeg(b"\\x89PNG\\r\\n")
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import BoardGeometry
from vision.skin import Image, Skin

Palette = npt.NDArray[np.float32]
"""K x 3 colours (B, G, R)."""

JPEG_MAGIC = b"\xff\xd8\xff"

SNAP_TOL = 60.0
"""A pixel further than this (weighted, 0-255 scale) from every palette colour keeps its
own colour (a part of the screen the skin does not paint)."""

CHROMA_WEIGHT = 0.35
"""Weight of the squared colour (Cb, Cr) difference against the brightness (Y) one: a
JPEG keeps brightness at every pixel and colour only per 2x2 pixels, so a thin blue
stroke comes out paler but as dark as it was."""

_BIN = 4  # colour quantum of the lookup table (64 levels per channel)
_YCC = np.array([[0.114, 0.587, 0.299],  # B, G, R -> Y
                 [0.5, -0.331, -0.169],  # -> Cb
                 [-0.081, -0.419, 0.5]], np.float32)  # -> Cr


def is_jpeg(head: bytes) -> bool:
    """Whether a file starting with these bytes is a JPEG (its SOI marker)."""
    return head[:3] == JPEG_MAGIC


def skin_palette(skin: Skin, min_share: float = 0.002) -> Palette:
    """The colours a skin's cell templates paint with: each colour covering at least
    ``min_share`` of all their pixels.

    >>> from vision.skin import load_skin
    >>> pal = skin_palette(load_skin("xdemineur"))
    >>> [255, 255, 255] in pal.tolist(), len(pal) < 40
    (True, True)
    """
    pixels = np.concatenate([img.reshape(-1, 3) for imgs in skin.cells.values()
                             for img in imgs])
    return _common_colours(pixels, min_share * len(pixels))


FLAT_COVER = 0.95
"""A skin is flat when its palette paints at least this share of its templates' pixels."""


def flat_skin(skin: Skin) -> bool:
    """Whether the skin paints with a few flat colours (:data:`FLAT_COVER`): only then
    does snapping to its palette restore a capture (a skin with smooth shading or
    anti-aliased numbers, like gnome-mines', is read as captured).

    >>> from vision.skin import load_skin
    >>> [flat_skin(load_skin(n)) for n in ("xdemineur", "winmine", "gnome-mines")]
    [True, True, False]
    """
    pixels = np.concatenate([img.reshape(-1, 3) for imgs in skin.cells.values()
                             for img in imgs])
    palette = skin_palette(skin).round().astype(np.uint8)
    return bool(np.isin(_pack(pixels), _pack(palette)).mean() >= FLAT_COVER)


def _common_colours(pixels: npt.NDArray[np.uint8], least: float) -> Palette:
    packed = _pack(pixels)
    colours, counts = np.unique(packed, return_counts=True)
    keep = colours[counts >= max(1.0, least)]
    return np.stack([(keep >> 16) & 255, (keep >> 8) & 255, keep & 255], 1).astype(np.float32)


def _pack(pixels: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    p = pixels.reshape(-1, 3).astype(np.int64)
    return (p[:, 0] << 16) | (p[:, 1] << 8) | p[:, 2]


def dominant_colours(image: Image, min_share: float = 0.0003, min_count: int = 12,
                     apart: float = 64.0) -> Palette:
    """The image's flat colours: the peaks of its colour histogram (bins of 4 levels,
    each the most common bin among its 26 neighbours and holding, with them, at least
    ``min_share`` of the pixels), most common first, each at least ``apart`` from a
    commoner one; a peak's colour is its bin's most common exact colour. A JPEG makes
    peaks of its own between a thin stroke's colour and its background (a green 1 on
    black came out as four greens 20-40 apart, and its squares as four looks); the
    colours of a Minesweeper skin lie further apart.

    >>> img = np.zeros((40, 40, 3), np.uint8); img[:, 20:] = (0, 128, 0)
    >>> img[::3, 25] = (1, 130, 2)                  # noise near the green
    >>> dominant_colours(img).astype(int).tolist()
    [[0, 0, 0], [0, 128, 0]]
    """
    flat = image.reshape(-1, 3)
    n = 256 // _BIN
    bins = flat.astype(np.int64) // _BIN
    idx = (bins[:, 0] * n + bins[:, 1]) * n + bins[:, 2]
    counts = np.bincount(idx, minlength=n ** 3).reshape(n, n, n)
    pad = np.pad(counts, 1)
    most = np.zeros_like(counts)
    around = np.zeros_like(counts)
    for dz in range(3):
        for dy in range(3):
            for dx in range(3):
                shifted = pad[dz:dz + n, dy:dy + n, dx:dx + n]
                np.maximum(most, shifted, out=most)
                around += shifted
    need = max(float(min_count), min_share * len(flat))
    peaks = np.argwhere((counts == most) & (counts > 0) & (around >= need))
    peaks = peaks[np.argsort(-around[tuple(peaks.T)], kind="stable")]
    chosen: list[npt.NDArray[np.float32]] = []
    for b in peaks:
        colour = _mode(flat[idx == (b[0] * n + b[1]) * n + b[2]])
        if all(float(np.linalg.norm(colour - c)) > apart for c in chosen):
            chosen.append(colour)
    return np.array(chosen, np.float32).reshape(-1, 3)


def _mode(pixels: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    colours, counts = np.unique(_pack(pixels), return_counts=True)
    m = int(colours[np.argmax(counts)])
    return np.array([(m >> 16) & 255, (m >> 8) & 255, m & 255], np.float32)


def snap_to_palette(image: Image, palette: Palette, tol: float = SNAP_TOL,
                    chroma_weight: float = CHROMA_WEIGHT) -> Image:
    """Every pixel of ``image`` replaced by its nearest palette colour (brightness
    weighing 1, colour ``chroma_weight``), unless every palette colour is further than
    ``tol``. Nearness is looked up per 4-level colour bin (one table of 64^3 entries).

    >>> img = np.array([[[10, 10, 10], [250, 240, 250], [0, 0, 200]]], np.uint8)
    >>> pal = np.array([[0, 0, 0], [255, 255, 255]], np.float32)
    >>> snap_to_palette(img, pal, tol=30.0).tolist()
    [[[0, 0, 0], [255, 255, 255], [0, 0, 200]]]
    """
    if len(palette) == 0:
        return image
    n = 256 // _BIN
    grid = np.indices((n, n, n)).reshape(3, -1).T.astype(np.float32) * _BIN + _BIN / 2
    pal = palette.astype(np.float32)
    weights = np.array([1.0, chroma_weight, chroma_weight], np.float32)
    d = np.full(len(grid), np.inf, np.float32)
    nearest = np.zeros(len(grid), np.intp)
    grid_ycc = grid @ _YCC.T
    for k, colour in enumerate(pal @ _YCC.T):
        dk = (((grid_ycc - colour) ** 2) * weights).sum(1)
        closer = dk < d
        d[closer], nearest[closer] = dk[closer], k
    bins = image.reshape(-1, 3).astype(np.int64) // _BIN
    idx = (bins[:, 0] * n + bins[:, 1]) * n + bins[:, 2]
    snap = d[idx] <= tol * tol
    out = image.reshape(-1, 3).copy()
    out[snap] = pal[nearest[idx[snap]]].round().astype(np.uint8)
    return out.reshape(image.shape)


def restore(image: Image, palette: Palette | None = None) -> Image:
    """``image`` snapped to ``palette`` (default: its own :func:`dominant_colours`)."""
    if palette is None:
        palette = dominant_colours(image)
    return snap_to_palette(image, palette)


def denoise(image: Image) -> Image:
    """``image`` blurred by the (1, 2, 1)/4 kernel: a JPEG's block noise on a skin of
    smooth shading (gnome-mines at quality 75 read 10x4 of a 10x10 board, its noisy
    squares past the fourth column too far from every template to grow the board)."""
    return cast(Image, cv2.GaussianBlur(image, (3, 3), 0))


def lossy_views(image: Image, skins: Sequence[Skin]) -> list[tuple[Image, list[Skin]]]:
    """The ways to read a lossy capture, each an image and the skins to look for in it:
    the capture denoised, with every skin; the capture restored to each flat skin's
    palette (:func:`flat_skin`), with that skin alone; last the capture restored to its
    own dominant colours (:func:`restore`), with every skin (last: a reader keeping the
    first of equally good readings keeps a skin's own colours, as a thin digit of a
    colour the capture shows little of is snapped to its background in this view: an
    xdemineur 5 read as 0).

    A skin ``calibrate --from`` learned from JPEGs holds squares of the captures
    restored to their dominant colours, with the noise left where no colour was near
    (not flat by :func:`flat_skin`): only the capture restored the same way reads with
    it (WineMine's fixtures at quality 75 read back none of 7 boards in the other
    views)."""
    views = [(denoise(image), list(skins))]
    views += [(restore(image, skin_palette(s)), [s]) for s in skins if flat_skin(s)]
    return views + [(restore(image), list(skins))]


def restore_all(images: Sequence[Image], most: int = 2_000_000) -> list[Image]:
    """Every image snapped to the dominant colours of all of them together (at most
    ``most`` pixels looked at, evenly spread): captures of one game are restored to the
    same colours, so a square shown in two of them comes out the same (the offline
    learner sorts squares into looks by their pixels).

    >>> a = np.full((8, 8, 3), 100, np.uint8); b = a + 2
    >>> [int(x[0, 0, 0]) for x in restore_all([a, b])]
    [100, 100]
    """
    if not images:
        return []
    total = sum(img.shape[0] * img.shape[1] for img in images)
    step = max(1, int(np.ceil(total / most)))
    pixels = np.concatenate([img.reshape(-1, 3)[::step] for img in images])
    palette = dominant_colours(pixels.reshape(-1, 1, 3))
    return [snap_to_palette(img, palette) for img in images]


def restore_lossy(images: Sequence[Image], lossy: Sequence[bool]) -> list[Image]:
    """The images with those marked ``lossy`` restored together (:func:`restore_all`);
    the others as they are.

    >>> a = np.full((8, 8, 3), 100, np.uint8)
    >>> out = restore_lossy([a, a + 2, a + 2], [True, True, False])
    >>> [int(x[0, 0, 0]) for x in out]
    [100, 100, 102]
    """
    out = list(images)
    marked = [i for i, flag in enumerate(lossy) if flag]
    for i, img in zip(marked, restore_all([images[i] for i in marked]), strict=True):
        out[i] = img
    return out


def board_views(images: Sequence[Image], lossy: Sequence[bool]) -> list[Image]:
    """The images to find boards in (``learn_from_images(find_in=...)``): those marked
    ``lossy`` denoised (:func:`denoise`), the others as they are. Restored to a joint
    palette, a JPEG of gnome-mines' shaded squares grew boards past their edges (a
    16x16 board found as 22x22, each growth step comparing hundreds of noisy looks:
    95 s for 29 captures), and WineMine's won 9x9 at quality 75 was found 9x8; the
    denoised captures give every fixture board its size.

    >>> a = np.zeros((6, 6, 3), np.uint8); a[::2, ::2] = 40
    >>> out = board_views([a, a], [True, False])
    >>> int(out[0].max()) < 40, out[1] is a
    (True, True)
    """
    return [denoise(img) if flag else img for img, flag in zip(images, lossy, strict=True)]


def lattice_board(image: Image) -> BoardGeometry | None:
    """The board of a lossy capture found with no skin: the template-free lattice
    ``calibrate --from`` finds in it (:func:`vision.calibrate.find_boards` on the
    capture denoised); None if there is none. A skin's templates may read only part of
    a JPEG's squares, and the locator then grows its board only that far (minegauler's
    won 16x16 at quality 90 found as its top-left 10x6); the lattice of alike squares
    knows nothing of the skin and finds every fixture board of WineMine, xdemineur and
    minegauler whole at qualities 60-90."""
    from vision.calibrate import find_boards

    boards, _ = find_boards([denoise(image)], [True])
    return boards[0]


def split_board(image: Image, lattice: BoardGeometry) -> BoardGeometry | None:
    """The board a window over it splits, when ``lattice`` (:func:`lattice_board`) is
    one side of it: ``lattice`` joined with the lattice found in the capture once
    lattice's squares are blacked out, when the two lie on one lattice apart
    (:func:`joined`); None otherwise. gnome-mines' won dialog leaves 9 and 5 of a 24x10
    board's columns in view, and a skin learned from JPEGs read the left 9 as the
    board; what lies under the window reads as nothing a game shows."""
    from vision.calibrate import find_boards

    b = lattice.bounds()
    masked = denoise(image)
    masked[max(0, b.top - 2):b.top + b.height + 2, max(0, b.left - 2):b.left + b.width + 2] = 0
    others, _ = find_boards([masked], [True])
    return None if others[0] is None else joined(lattice, others[0])


def joined(a: BoardGeometry, b: BoardGeometry) -> BoardGeometry | None:
    """The board both ``a`` and ``b`` are parts of, at a's pitch and lines, when they
    lie on one lattice (:func:`grid_offset`) apart, side by side with the same rows or
    one above the other with the same columns; None otherwise.

    >>> a = BoardGeometry("", 10.0, 20.0, 16.0, 16.0, 10, 9)
    >>> g = joined(a, BoardGeometry("", 10.0 + 19 * 16, 20.0, 16.0, 16.0, 10, 5))
    >>> (g.x0, g.y0, g.rows, g.cols)
    (10.0, 20.0, 10, 24)
    >>> joined(a, BoardGeometry("", 10.0 + 19 * 16, 36.0, 16.0, 16.0, 9, 5)) is None
    True
    """
    at = grid_offset(b, a)
    if at is None:
        return None
    top, left = at
    beside = top == 0 and b.rows == a.rows and (left >= a.cols or left + b.cols <= 0)
    above = left == 0 and b.cols == a.cols and (top >= a.rows or top + b.rows <= 0)
    if not (beside or above):
        return None
    r0, c0 = min(0, top), min(0, left)
    whole = BoardGeometry(a.skin, a.col_left(0) + c0 * a.pitch_x, a.row_top(0) + r0 * a.pitch_y,
                          a.pitch_x, a.pitch_y, max(a.rows, top + b.rows) - r0,
                          max(a.cols, left + b.cols) - c0)
    return widened(a, whole)


ON_LINE = 0.25
"""An edge of a board lies on a line of another when within this share of a pitch."""


def offset_in(part: BoardGeometry, whole: BoardGeometry) -> tuple[int, int] | None:
    """(row, col) of ``part``'s first square in ``whole`` when ``part`` lies inside
    ``whole`` at about its pitch with its edges on whole's lines (:data:`ON_LINE`);
    None when it does not (another board, another pitch).

    >>> whole = BoardGeometry("", 10.0, 20.0, 16.0, 16.0, 9, 9)
    >>> offset_in(BoardGeometry("s", 27.0, 20.0, 16.0, 16.0, 6, 5), whole)
    (0, 1)
    >>> offset_in(BoardGeometry("s", 27.0, 20.0, 21.0, 21.0, 6, 5), whole) is None
    True
    """
    at = grid_offset(part, whole)
    if at is None:
        return None
    top, left = at
    if left < 0 or top < 0 or left + part.cols > whole.cols or top + part.rows > whole.rows:
        return None
    return top, left


def grid_offset(a: BoardGeometry, b: BoardGeometry) -> tuple[int, int] | None:
    """(rows, cols) from ``b``'s first square to ``a``'s (negative: above or left of
    it) when the two lie on one lattice: about one pitch, ``a``'s edges on ``b``'s lines
    (:data:`ON_LINE`); None when they do not.

    >>> b = BoardGeometry("", 10.0, 20.0, 16.0, 16.0, 9, 9)
    >>> grid_offset(BoardGeometry("s", 26.0, 4.0, 16.0, 16.0, 9, 10), b)
    (-1, 1)
    >>> grid_offset(BoardGeometry("s", 18.0, 20.0, 16.0, 16.0, 9, 9), b) is None
    True
    """
    if abs(a.pitch_x / b.pitch_x - 1) > 0.05 or abs(a.pitch_y / b.pitch_y - 1) > 0.05:
        return None
    c0 = (a.col_left(0) - b.col_left(0)) / b.pitch_x
    r0 = (a.row_top(0) - b.row_top(0)) / b.pitch_y
    left, top = round(c0), round(r0)
    if abs(c0 - left) > ON_LINE or abs(r0 - top) > ON_LINE:
        return None
    return top, left


def widened(part: BoardGeometry, whole: BoardGeometry) -> BoardGeometry | None:
    """``part`` grown, at its own pitch and lines, to the rows and columns of ``whole``
    it lies in (:func:`offset_in`); None when it does not lie in it.

    >>> whole = BoardGeometry("", 10.0, 20.0, 16.0, 16.0, 9, 9)
    >>> g = widened(BoardGeometry("s", 27.0, 20.0, 16.0, 16.0, 6, 5), whole)
    >>> (g.skin, g.x0, g.y0, g.rows, g.cols)
    ('s', 11.0, 20.0, 9, 9)
    """
    at = offset_in(part, whole)
    if at is None:
        return None
    top, left = at
    lefts = _stretched(part.lefts, part.col_left(0), part.pitch_x, left,
                       whole.cols - left - part.cols)
    tops = _stretched(part.tops, part.row_top(0), part.pitch_y, top,
                      whole.rows - top - part.rows)
    return BoardGeometry(part.skin, part.x0 - left * part.pitch_x,
                         part.y0 - top * part.pitch_y, part.pitch_x, part.pitch_y,
                         whole.rows, whole.cols, lefts, tops)


def trimmed(g: BoardGeometry, top: int, left: int, rows: int, cols: int) -> BoardGeometry:
    """The ``rows`` x ``cols`` squares of ``g`` from square (``top``, ``left``), at g's
    own lines.

    >>> g = trimmed(BoardGeometry("s", 10.0, 20.0, 16.0, 16.0, 9, 10), 1, 0, 8, 8)
    >>> (g.x0, g.y0, g.rows, g.cols)
    (10.0, 36.0, 8, 8)
    """
    lefts = None if g.lefts is None else g.lefts[left:left + cols]
    tops = None if g.tops is None else g.tops[top:top + rows]
    return BoardGeometry(g.skin, g.x0 + left * g.pitch_x, g.y0 + top * g.pitch_y,
                         g.pitch_x, g.pitch_y, rows, cols, lefts, tops)


def _stretched(edges: tuple[float, ...] | None, first: float, pitch: float, before: int,
               after: int) -> tuple[float, ...] | None:
    """Measured edges with ``before`` and ``after`` more at the pitch (None stays)."""
    if edges is None:
        return None
    return (tuple(first - k * pitch for k in range(before, 0, -1)) + edges
            + tuple(edges[-1] + k * pitch for k in range(1, after + 1)))
