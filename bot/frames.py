"""Pixels of the board between two captures: which squares changed, and the lattice of
a block of squares (to re-read only that block).
"""

from __future__ import annotations

import cv2
import numpy as np

from bot.screen import Image
from vision.geometry import BoardGeometry


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


def changed_cells(before: Image, after: Image, g: BoardGeometry) -> np.ndarray:
    """Which squares (rows x cols booleans) have any pixel that differs.

    Every pixel counts (a change anywhere in a square must re-read it): the absolute
    differences of the board's pixels are summed per square through one integral image
    (four look-ups a square), and a square changed exactly when its sum is not 0.

    >>> a = np.zeros((40, 60, 3), np.uint8)
    >>> b = a.copy(); b[25, 31] = 9
    >>> g = BoardGeometry("s", 0.0, 0.0, 20.0, 20.0, 2, 3)
    >>> changed_cells(a, b, g).astype(int).tolist()
    [[0, 0, 0], [0, 1, 0]]
    >>> b[0, 59, 2] = 1; b[39, 0, 0] = 255
    >>> changed_cells(a, b, g).astype(int).tolist()
    [[0, 0, 1], [1, 1, 0]]
    """
    h, w = after.shape[:2]
    ys = np.clip(np.rint([g.row_top(r) for r in range(g.rows + 1)]).astype(np.intp), 0, h)
    xs = np.clip(np.rint([g.col_left(c) for c in range(g.cols + 1)]).astype(np.intp), 0, w)
    if ys[-1] <= ys[0] or xs[-1] <= xs[0]:
        return np.zeros((g.rows, g.cols), dtype=bool)
    y0, x0 = ys[0], xs[0]
    diff = cv2.absdiff(before[y0:ys[-1], x0:xs[-1]], after[y0:ys[-1], x0:xs[-1]])
    ch = after.shape[2] if after.ndim == 3 else 1
    flat = diff.reshape(diff.shape[0], -1)  # channels side by side: one plane
    exact32 = 255 * flat.size < 2**31  # an int32 sum cannot overflow; else exact float64
    sums = cv2.integral(flat, sdepth=cv2.CV_32S if exact32 else cv2.CV_64F)
    c = sums[(ys - y0)[:, None], (ch * (xs - x0))[None, :]].astype(np.int64)
    return (c[1:, 1:] - c[:-1, 1:] - c[1:, :-1] + c[:-1, :-1]) != 0
