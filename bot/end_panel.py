"""A result panel drawn over the middle of an ended board, with its own restart button.

Google's Minesweeper ends a game with a panel over the board ("Try again" / "Play
again"); the calibrator looks for restart controls among what changed *outside* the
board (a dialog's buttons, a face), so it never clicked the panel's button. Here:
:func:`panel_controls` finds the controls inside what came over the board.

>>> before = np.full((300, 400, 3), 200, np.uint8)
>>> after = before.copy()
>>> after[60:240, 80:320] = (250, 190, 80)          # a panel over the board
>>> after[90:100, 150:250] = 255                    # its title text
>>> after[190:220, 160:240] = 255                   # its button
>>> board = PixelRect(0, 0, 400, 300)
>>> panel_controls(before, after, board, 30.0)[0]
PixelRect(left=159, top=189, width=81, height=31)
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import PixelRect

Image = npt.NDArray[np.uint8]


def panel_box(before: Image, after: Image, board: PixelRect, pitch: float) -> PixelRect | None:
    """The box of the largest solid patch that changed over the board between two
    frames, at least two squares wide and high (a panel; the mines a loss shows
    change one square each, and a lone square does not survive the opening)."""
    part = (slice(board.top, board.top + board.height), slice(board.left, board.left + board.width))
    diff = np.abs(before[part].astype(np.int16) - after[part].astype(np.int16)).max(axis=2) > 24
    k = max(3, int(round(pitch * 1.6)) | 1)
    solid = cv2.morphologyEx(diff.astype(np.uint8), cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(solid, connectivity=8)
    if n < 2:
        return None
    x, y, w, h, _area = max(stats[1:].tolist(), key=lambda s: s[4])
    if w < 2 * pitch or h < 2 * pitch:
        return None
    return PixelRect(board.left + x, board.top + y, w, h)


def _button_like(image: Image, r: PixelRect, ring: int = 4) -> bool:
    """Is ``r`` filled with a colour of its own, unlike text on the panel?"""
    inner = image[r.top:r.top + r.height, r.left:r.left + r.width].reshape(-1, 3)
    t, left = max(0, r.top - ring), max(0, r.left - ring)
    outer = image[t:r.top + r.height + ring, left:r.left + r.width + ring]
    border = np.concatenate([outer[:ring].reshape(-1, 3), outer[-ring:].reshape(-1, 3)])
    return bool(np.abs(np.median(inner, axis=0) - np.median(border, axis=0)).max() > 20)


def panel_controls(before: Image, after: Image, board: PixelRect, pitch: float,
                   most: int = 4) -> list[PixelRect]:
    """Controls on a panel that came over the board (:func:`panel_box`): the separate
    pieces of it by their outlines at least a square wide, button-like ones first (a
    filled box), the largest first; at most ``most``."""
    box = panel_box(before, after, board, pitch)
    if box is None:
        return []
    crop = after[box.top:box.top + box.height, box.left:box.left + box.width]
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    edges = cv2.dilate(cv2.Canny(gray, 50, 150), np.ones((5, 9), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(edges, connectivity=8)
    pieces = []
    for x, y, w, h, _area in stats[1:].tolist():
        if max(12, pitch) <= w <= box.width * 0.8 and 8 <= h <= min(80, box.height * 0.6):
            # (the outline of a filled box; its inside is the control)
            pieces.append(PixelRect(box.left + x + 4, box.top + y + 2, max(1, w - 8),
                                    max(1, h - 4)))
    pieces.sort(key=lambda r: (not _button_like(after, r), -r.width * r.height))
    return pieces[:most]


def panel_over(ids: npt.NDArray[np.int32], known: Mapping[int, int],
               before: npt.NDArray[np.int32], least: int = 3, fill: float = 0.9,
               face: float = 0.25) -> npt.NDArray[np.bool_]:
    """Squares under a panel that came over the board since ``before`` (by look ids):
    a solid patch (what stays of them after an opening by ``least`` x ``least``
    squares) of changed squares, each of a look ``before`` nowhere shows and not
    named, filling at least ``fill`` of its box, at least ``least`` squares each way,
    one look on at least ``face`` of it (a flat face: a dialog whose every square is a
    look of its own is :func:`bot.calibrate_live.window_over`'s); with one square more
    all round (the panel's edge and shadow cut the squares there into looks seen
    elsewhere). A loss's mines never fill such a box.

    >>> before = np.zeros((6, 7), np.int32)
    >>> after = before.copy(); after[1:5, 2:6] = 9; after[3, 3] = 8; after[0, 0] = 7
    >>> panel_over(after, {}, before).astype(int).tolist()[0]
    [0, 1, 1, 1, 1, 1, 1]
    >>> int(panel_over(after, {9: 10}, before).sum())   # its look named: no panel
    0
    >>> after[0, 1] = after[5, 6] = 6                   # mines shown beside it
    >>> int(panel_over(after, {}, before).sum())
    36
    """
    fresh = ~np.isin(ids, np.unique(before)) & ~np.isin(ids, list(known)) & (ids != before)
    # (the mines a loss shows next to the panel are fresh too: only solid blocks stay)
    solid = cv2.morphologyEx(fresh.astype(np.uint8), cv2.MORPH_OPEN,
                             np.ones((least, least), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(solid, connectivity=8)
    out = np.zeros(ids.shape, bool)
    for k in range(1, n):
        x, y, w, h, area = stats[k].tolist()
        _, repeats = np.unique(ids[y:y + h, x:x + w], return_counts=True)
        if w >= least and h >= least and area >= fill * w * h and \
                repeats.max() >= face * w * h:
            out[max(0, y - 1):y + h + 1, max(0, x - 1):x + w + 1] = True
    return out
