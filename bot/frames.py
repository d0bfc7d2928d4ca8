"""Pixels of the board between two captures: which squares changed, and the lattice of
a block of squares (to re-read only that block).
"""

from __future__ import annotations

import cv2
import numpy as np

from bot.screen import Image
from vision.geometry import BoardGeometry, PixelPoint, PixelRect

EDGE = 4
"""Pixels a parked pointer keeps from the image's edges (away from the fail-safe
corners, and where the X server would clamp it)."""


def sub_geometry(g: BoardGeometry, r0: int, r1: int, c0: int, c1: int) -> BoardGeometry:
    """The lattice of rows r0..r1-1 and columns c0..c1-1 of ``g``.

    >>> g = BoardGeometry("s", 10.0, 20.0, 5.0, 4.0, 8, 9)
    >>> sub_geometry(g, 2, 4, 3, 9).cell_center((0, 0)) == g.cell_center((2, 3))
    True
    """
    lefts = None if g.lefts is None else g.lefts[c0:c1]
    tops = None if g.tops is None else g.tops[r0:r1]
    return BoardGeometry(g.skin, g.col_left(c0), g.row_top(r0), g.pitch_x, g.pitch_y,
                         r1 - r0, c1 - c0, lefts, tops)


def park_pixel(b: PixelRect, gap: float, size: tuple[int, int]) -> PixelPoint | None:
    """A point ``gap`` pixels off the board ``b`` (left of it, else right, below or
    above), at least :data:`EDGE` pixels inside an image of ``size`` (width, height);
    None if the board leaves no room on any side. A window at the screen's left edge
    (no window manager, or maximised) has no room on its left.

    >>> park_pixel(PixelRect(100, 50, 200, 100), 8, (640, 480))
    PixelPoint(x=92, y=100.0)
    >>> park_pixel(PixelRect(0, 0, 400, 300), 8, (640, 480))
    PixelPoint(x=408, y=150.0)
    >>> park_pixel(PixelRect(0, 0, 640, 480), 8, (640, 480)) is None
    True
    """
    w, h = size
    cx, cy = b.left + b.width / 2, b.top + b.height / 2
    for x, y in ((b.left - gap, cy), (b.left + b.width + gap, cy),
                 (cx, b.top + b.height + gap), (cx, b.top - gap)):
        if EDGE <= x < w - EDGE and EDGE <= y < h - EDGE:
            return PixelPoint(x, y)
    return None


def changed_cells(before: Image, after: Image, g: BoardGeometry) -> np.ndarray:
    """Which squares (rows x cols booleans) have a pixel that differs.

    Every pixel counts (a change anywhere in a square must re-read it). Where both
    images are whole contiguous rows of a multiple of 8 bytes (the loop captures the
    board so), rows are compared as 8-byte words: a word that differs marks every
    square it touches, so a square next to a changed pixel may be marked too (it is
    only read again). Otherwise the absolute differences are summed per square through
    one integral image, and a square is marked exactly when its sum is not 0.

    >>> a = np.zeros((40, 60, 3), np.uint8)
    >>> b = a.copy(); b[25, 31] = 9
    >>> g = BoardGeometry("s", 0.0, 0.0, 20.0, 20.0, 2, 3)
    >>> changed_cells(a, b, g).astype(int).tolist()
    [[0, 0, 0], [0, 1, 0]]
    >>> b[0, 59, 2] = 1; b[39, 0, 0] = 255
    >>> changed_cells(a, b, g).astype(int).tolist()
    [[0, 0, 1], [1, 1, 0]]
    >>> a = np.zeros((40, 64, 3), np.uint8); b = a.copy()  # 192-byte rows: words
    >>> b[25, 31] = 9; b[0, 59, 2] = 1
    >>> changed_cells(a, b, g).astype(int).tolist()
    [[0, 0, 1], [0, 1, 0]]
    >>> b[:] = 0; b[5, 21, 0] = 1  # byte 63: the word of bytes 56-63 spans squares 0, 1
    >>> changed_cells(a, b, g).astype(int).tolist()
    [[1, 1, 0], [0, 0, 0]]
    """
    h, w = after.shape[:2]
    ys = np.clip(np.rint([g.row_top(r) for r in range(g.rows + 1)]).astype(np.intp), 0, h)
    xs = np.clip(np.rint([g.col_left(c) for c in range(g.cols + 1)]).astype(np.intp), 0, w)
    if ys[-1] <= ys[0] or xs[-1] <= xs[0]:
        return np.zeros((g.rows, g.cols), dtype=bool)
    ch = after.shape[2] if after.ndim == 3 else 1
    if (before.shape == after.shape and (w * ch * after.itemsize) % 8 == 0
            and before.flags.c_contiguous and after.flags.c_contiguous):
        return _changed_words(before, after, ys, xs, ch * after.itemsize)
    y0, x0 = ys[0], xs[0]
    diff = cv2.absdiff(before[y0:ys[-1], x0:xs[-1]], after[y0:ys[-1], x0:xs[-1]])
    flat = diff.reshape(diff.shape[0], -1)  # channels side by side: one plane
    exact32 = 255 * flat.size < 2**31  # an int32 sum cannot overflow; else exact float64
    sums = cv2.integral(flat, sdepth=cv2.CV_32S if exact32 else cv2.CV_64F)
    c = sums[(ys - y0)[:, None], (ch * (xs - x0))[None, :]].astype(np.int64)
    return (c[1:, 1:] - c[:-1, 1:] - c[1:, :-1] + c[:-1, :-1]) != 0


def _changed_words(before: Image, after: Image, ys: np.ndarray, xs: np.ndarray,
                   pixel_bytes: int) -> np.ndarray:
    """:func:`changed_cells` on rows compared as 8-byte words (8 to 24 times fewer
    elements than bytes); the squares between rows ys and columns xs."""
    y0, y1 = int(ys[0]), int(ys[-1])
    a = before[y0:y1].reshape(y1 - y0, -1).view(np.uint64)
    b = after[y0:y1].reshape(y1 - y0, -1).view(np.uint64)
    lo = (pixel_bytes * xs[:-1]) // 8  # the words each square's bytes touch: lo..hi-1
    hi = -((-pixel_bytes * xs[1:]) // 8)
    w0 = int(lo[0])
    differs = np.not_equal(a[:, w0:int(hi[-1])], b[:, w0:int(hi[-1])]).view(np.uint8)
    sums = cv2.integral(differs, sdepth=cv2.CV_32S)
    r = (ys - y0)[:, None]
    c = sums[r, (hi - w0)[None, :]] - sums[r, (lo - w0)[None, :]]
    return (c[1:] - c[:-1]) != 0
