"""A popup at the pointer: what a right-click shows in a game that takes no right-click
(a browser's context menu over a web game's board).

A menu opens with a corner at the pointer and covers a box of the screen; a mark
changes one square, and a terminal's selection grows from the grid's corner to the
pointer's square, so neither has a corner at the pointer.

>>> before = np.zeros((200, 200, 3), np.uint8)
>>> after = before.copy()
>>> after[52:150, 41:120] = 230  # a menu opened at (40, 51)
>>> popup_at(before, after, PixelPoint(40, 51), min_side=40)
PixelRect(left=41, top=52, width=79, height=98)
>>> popup_at(before, after, PixelPoint(80, 100), min_side=40) is None  # not at the pointer
True
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import PixelPoint, PixelRect

Image = npt.NDArray[np.uint8]

CHANGE_TOL = 24
"""A pixel changed when a channel moved by more than this."""

MIN_FILL = 0.5
"""A popup covers at least this share of its box (a menu is one filled box)."""


def changed_pixels(before: Image, after: Image, tol: int = CHANGE_TOL) -> np.ndarray:
    """Where ``after`` differs from ``before`` (same size): a channel moved by more
    than ``tol``.

    >>> a = np.zeros((1, 3, 3), np.uint8); b = a.copy(); b[0, 1] = (0, 30, 0)
    >>> changed_pixels(a, b).tolist()
    [[False, True, False]]
    """
    return np.asarray(np.abs(before.astype(np.int16) - after.astype(np.int16)).max(axis=2) > tol)


def popup_at(before: Image, after: Image, point: PixelPoint, min_side: float,
             near: float = 6.0) -> PixelRect | None:
    """The box of what appeared between ``before`` and ``after`` (same size) with a
    corner within ``near`` px of ``point`` and both sides at least ``min_side`` px,
    filled for :data:`MIN_FILL` of it; None if nothing such appeared."""
    changed = changed_pixels(before, after)
    joined = cv2.dilate(changed.astype(np.uint8), np.ones((5, 5), np.uint8))
    stats = cv2.connectedComponentsWithStats(joined, connectivity=8)[2]
    for x, y, w, h, _area in stats.tolist()[1:]:
        if min(w, h) < min_side + 4:  # the dilation adds 2 px a side
            continue
        box = PixelRect(x + 2, y + 2, w - 4, h - 4)
        corners = [(box.left + dx, box.top + dy) for dx in (0, box.width) for dy in (0, box.height)]
        if min(np.hypot(cx - point.x, cy - point.y) for cx, cy in corners) > near:
            continue
        if covered_share(changed, after, box) >= MIN_FILL:
            return box
    return None


def covered_share(changed: np.ndarray, after: Image, box: PixelRect) -> float:
    """The share of ``box`` a popup covers: its changed pixels, and its unchanged ones
    that show the popup's own background (the colour most of its changed pixels have
    now), where it lies over a page of that colour (a light menu that sticks out of
    a small board onto a white page changes only the pixels over the board).

    >>> before = np.full((100, 100, 3), 255, np.uint8); before[:, :40] = 128
    >>> after = before.copy(); after[10:90, 20:90] = 250  # half over white
    >>> ch = changed_pixels(before, after)
    >>> box = PixelRect(20, 10, 70, 80)
    >>> round(float(ch[10:90, 20:90].mean()), 2), covered_share(ch, after, box)
    (0.29, 1.0)
    """
    sl = (slice(box.top, box.top + box.height), slice(box.left, box.left + box.width))
    inside, now = changed[sl], after[sl].astype(np.int16)
    if not inside.any():
        return 0.0
    colours, counts = np.unique(now[inside].reshape(-1, now.shape[-1]), axis=0, return_counts=True)
    background = colours[int(np.argmax(counts))]
    same = np.abs(now - background).max(axis=-1) <= CHANGE_TOL
    return float((inside | same).mean())


def drawn_past(before: Image, after: Image, point: PixelPoint, board: PixelRect,
               reach: float, least: float) -> bool:
    """Does a region of pixels changed from ``before`` to ``after`` come within
    ``reach`` px of ``point`` and have ``least`` pixels or more outside ``board``
    (something opened at the pointer that sticks out of the board: a menu, whether or
    not :func:`popup_at` takes it for one)?

    >>> a = np.zeros((40, 40, 3), np.uint8); b = a.copy(); b[10:30, 10:39] = 200
    >>> board = PixelRect(0, 0, 25, 40)
    >>> drawn_past(a, b, PixelPoint(12, 12), board, 4, 100)  # 14 x 20 px past x = 25
    True
    >>> far, same = PixelPoint(2, 2), PixelPoint(12, 12)
    >>> drawn_past(a, b, far, board, 4, 100), drawn_past(a, a, same, board, 4, 1)
    (False, False)
    """
    changed = changed_pixels(before, after).astype(np.uint8)
    _, labels = cv2.connectedComponents(changed, connectivity=8)
    x, y = point
    near = labels[max(0, int(y - reach)):max(0, int(y + reach)),
                  max(0, int(x - reach)):max(0, int(x + reach))]
    ours = np.isin(labels, np.unique(near[near > 0]))
    top, left = max(0, board.top), max(0, board.left)
    ours[top:board.top + board.height, left:board.left + board.width] = False
    return bool(ours.sum() >= least)
