"""Game status (playing / won / lost) and where to click for a new game.

Both are described by the skin's data (``skin.status`` and ``skin.restart``, see
:mod:`vision.skin`): a face button matched in a region around the board, or the board's
own squares (a shown mine means lost), plus optional "won" templates such as a
congratulations dialog.

``region`` is ``[[fx0, dx0, fy0, dy0], [fx1, dx1, fy1, dy1]]``: the corners
``(left + fx * width + dx, top + fy * height + dy)`` of a rectangle relative to the
board's bounds, in image pixels (``fx = 0.5`` is the board's centre line). Absent means
the whole image.

>>> from vision.skin import load_skin
>>> from vision.geometry import BoardGeometry
>>> from solver.cells import COVERED
>>> skin = load_skin("xdemineur")
>>> image = np.full((300, 300, 3), 179, np.uint8)
>>> image[100:163, 100:163] = np.tile(skin.cells[COVERED][0], (3, 3, 1))
>>> face = skin.status["templates"]["won"][0]
>>> image[40:68, 118:146] = face
>>> g = BoardGeometry("xdemineur", 100, 100, 21, 21, 3, 3)
>>> read_status(image, g, skin)
'won'
>>> locate_restart(image, g, skin)
PixelPoint(x=132.0, y=54.0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import cv2
import numpy as np

from solver.cells import COVERED, EXPLODED, MINE, QUESTION, UNKNOWN, WRONG_FLAG, Board
from vision.geometry import BoardGeometry, PixelPoint, PixelRect
from vision.read import read_board
from vision.skin import Image, Skin, SkinError

STATUSES = ("playing", "won", "lost", "unknown")
DEFAULT_THRESHOLD = 10.0
"""Root mean squared difference (0-255) under which a status/restart template matches."""
LOSS_CODES = (MINE, EXPLODED, WRONG_FLAG)


def region_rect(image: Image, geometry: BoardGeometry, region: Any) -> PixelRect:
    """The image rectangle a skin's ``region`` describes, clipped to the image."""
    h, w = image.shape[:2]
    if region is None:
        return PixelRect(0, 0, w, h)
    try:
        (fx0, dx0, fy0, dy0), (fx1, dx1, fy1, dy1) = region
    except (TypeError, ValueError):
        raise SkinError(f"region must be [[fx, dx, fy, dy], [fx, dx, fy, dy]], got {region!r}") \
            from None
    b = geometry.bounds()
    x0 = int(round(b.left + fx0 * b.width + dx0))
    y0 = int(round(b.top + fy0 * b.height + dy0))
    x1 = int(round(b.left + fx1 * b.width + dx1))
    y1 = int(round(b.top + fy1 * b.height + dy1))
    x0, x1 = max(0, min(x0, w)), max(0, min(x1, w))
    y0, y1 = max(0, min(y0, h)), max(0, min(y1, h))
    return PixelRect(x0, y0, max(0, x1 - x0), max(0, y1 - y0))


def _scaled(tpl: Image, section: Mapping[str, Any], geometry: BoardGeometry,
            skin: Skin) -> Image:
    if not section.get("scale_with_board"):
        return tpl
    f = geometry.pitch_x / skin.cell_size[0]
    size = (max(1, round(tpl.shape[1] * f)), max(1, round(tpl.shape[0] * f)))
    return cast(Image, cv2.resize(tpl, size, interpolation=cv2.INTER_AREA))


def best_match(image: Image, rect: PixelRect, templates: Iterable[Image]) -> tuple[
        float, PixelPoint | None]:
    """Lowest root mean squared difference (0-255) of any template placed anywhere
    inside rect, and that placement's centre."""
    area = image[rect.top:rect.top + rect.height, rect.left:rect.left + rect.width]
    best, where = float("inf"), None
    for tpl in templates:
        th, tw = tpl.shape[:2]
        if area.shape[0] < th or area.shape[1] < tw:
            continue
        scores = cv2.matchTemplate(area, tpl, cv2.TM_SQDIFF)
        low, _, loc, _ = cv2.minMaxLoc(scores)
        rms = float(np.sqrt(max(low, 0.0) / tpl.size))
        if rms < best:
            best = rms
            where = PixelPoint(rect.left + loc[0] + tw / 2, rect.top + loc[1] + th / 2)
    return best, where


def _labelled(section: Mapping[str, Any]) -> Mapping[str, Sequence[Image]]:
    templates = section.get("templates", {})
    return templates if isinstance(templates, Mapping) else {}


def _face_status(image: Image, geometry: BoardGeometry, skin: Skin) -> str:
    section = skin.status
    rect = region_rect(image, geometry, section.get("region"))
    threshold = float(section.get("threshold", DEFAULT_THRESHOLD))
    scores = {}
    for label, images in _labelled(section).items():
        tpls = [_scaled(t, section, geometry, skin) for t in images]
        scores[label] = best_match(image, rect, tpls)[0]
    if not scores:
        return "unknown"
    label = min(scores, key=lambda k: scores[k])
    return label if scores[label] <= threshold and label in STATUSES else "unknown"


def board_status(board: Board) -> str:
    """Status from the squares alone: a shown mine is a loss, nothing left to open a win.

    >>> from solver.textboard import parse_board
    >>> [board_status(parse_board(t)) for t in ("1F\\n11\\n", "1.\\n11\\n", "1*\\n11\\n")]
    ['won', 'playing', 'lost']
    """
    if np.isin(board, LOSS_CODES).any():
        return "lost"
    if (board == UNKNOWN).any():
        return "unknown"
    if np.isin(board, (COVERED, QUESTION)).any():
        return "playing"
    return "won"


def end_display(image: Image, geometry: BoardGeometry, skin: Skin) -> str | None:
    """"won" or "lost" where the game's own display of an end, as the skin learned it,
    shows in ``image`` (a skin that reads its status from the board keeps what came
    over the board at an end: a dialog at a win, a message filling the board), else
    None; a skin that reads a face has none (its face shows at every end)."""
    section = skin.status
    if section.get("method", "board") != "board":
        return None
    threshold = float(section.get("threshold", DEFAULT_THRESHOLD))
    for label in ("won", "lost"):
        shown = _labelled(section).get(label, ())
        if shown:
            rect = region_rect(image, geometry, section.get("region"))
            tpls = [_scaled(t, section, geometry, skin) for t in shown]
            if best_match(image, rect, tpls)[0] <= threshold:
                return label
    return None


def _board_status(image: Image, geometry: BoardGeometry, skin: Skin) -> str:
    """The board's own status, unless the skin's "won" or "lost" templates show (a
    dialog at a win; a message filling the board at a loss that shows no mine)."""
    return end_display(image, geometry, skin) or board_status(read_board(image, geometry, skin))


def read_status(image: Image, geometry: BoardGeometry, skin: Skin) -> str:
    """"playing", "won", "lost" or "unknown", as the skin says to tell them apart."""
    method = skin.status.get("method", "board")
    if method == "face":
        return _face_status(image, geometry, skin)
    if method == "board":
        return _board_status(image, geometry, skin)
    raise SkinError(f"skin {skin.name}: unknown status method {method!r} (face, board)")


def locate_restart(image: Image, geometry: BoardGeometry, skin: Skin) -> PixelPoint | None:
    """Where to click to start the next game, or None (not visible, or a key restarts)."""
    section = skin.restart
    if section.get("kind", "click") != "click":
        return None
    if "point" in section:
        fx, dx, fy, dy = section["point"]
        b = geometry.bounds()
        return PixelPoint(b.left + fx * b.width + dx, b.top + fy * b.height + dy)
    templates = _all_templates(section)
    rect = region_rect(image, geometry, section.get("region"))
    tpls = [_scaled(t, section, geometry, skin) for t in templates]
    score, where = best_match(image, rect, tpls)
    return where if score <= float(section.get("threshold", DEFAULT_THRESHOLD)) else None


ALONE_THRESHOLD = 3.0
"""Root mean squared difference (0-255) under which a restart template matches with no
board to place it by (:func:`locate_restart_alone`): the control as learned, pixel for
pixel."""


def locate_told(geometry: BoardGeometry, skin: Skin) -> PixelPoint | None:
    """The new-game control the user named when calibrating (``--restart-at``: kept
    as ``restart["told"]``), on a board of the size and pitch it was named on; None
    otherwise. Play clicks it when no look of the control learned shows: DangerUXB's
    face grins at a win, and a calibration that won no game never saw it grin.

    >>> from vision.skin import Skin
    >>> told = {"offset": [95.0, -25.0], "size": [9, 9], "pitch": [20.0, 20.0]}
    >>> skin = Skin("t", "", (20.0, 20.0), {}, {}, {"kind": "click", "told": told})
    >>> locate_told(BoardGeometry("t", 10.0, 50.0, 20.0, 20.0, 9, 9), skin)
    PixelPoint(x=105.0, y=25.0)
    >>> locate_told(BoardGeometry("t", 10.0, 50.0, 20.0, 20.0, 16, 16), skin) is None
    True
    """
    told = skin.restart.get("told")
    if not isinstance(told, Mapping) or skin.restart.get("kind", "click") != "click":
        return None
    rows, cols = told["size"]
    px, py = told["pitch"]
    if (rows, cols) != (geometry.rows, geometry.cols) or \
            abs(px - geometry.pitch_x) > 0.5 or abs(py - geometry.pitch_y) > 0.5:
        return None
    b = geometry.bounds()
    return PixelPoint(b.left + float(told["offset"][0]), b.top + float(told["offset"][1]))


def locate_restart_alone(image: Image, skin: Skin) -> PixelPoint | None:
    """Where a skin's new-game control shows on a screen with no board, for a skin
    whose control shows so (``restart["alone"]``, learned by calibrate: a game's menu);
    None unless exactly one place in ``image`` shows one of its templates as learned
    (within :data:`ALONE_THRESHOLD`) and no other place any of them within
    :data:`DEFAULT_THRESHOLD` (minesweeper-mvc's MEDIUM, not its EASY or HARD).

    >>> from vision.skin import Skin
    >>> button = np.zeros((6, 10, 3), np.uint8); button[2:4, 2:8] = 255
    >>> skin = Skin("menu", "", (16.0, 16.0), {}, {}, {"kind": "click", "alone": [0],
    ...                                                "templates": (button,)})
    >>> screen = np.full((40, 60, 3), 90, np.uint8); screen[20:26, 30:40] = button
    >>> locate_restart_alone(screen, skin)
    PixelPoint(x=35.0, y=23.0)
    >>> screen[5:11, 5:15] = button  # a second one: which to click?
    >>> locate_restart_alone(screen, skin) is None
    True
    """
    section = skin.restart
    alone = section.get("alone")
    if not alone or section.get("kind", "click") != "click":
        return None
    templates = _all_templates(section)
    if alone is not True:  # (indices of the looks it shows alone)
        templates = [t for i, t in enumerate(templates) if i in alone]
    h, w = image.shape[:2]
    found: list[tuple[float, PixelRect]] = []
    for tpl in templates:
        th, tw = tpl.shape[:2]
        if th > h or tw > w:
            continue
        rms = np.sqrt(np.maximum(cv2.matchTemplate(image, tpl, cv2.TM_SQDIFF), 0) / tpl.size)
        ys, xs = np.nonzero(rms <= DEFAULT_THRESHOLD)
        found += [(float(rms[y, x]), PixelRect(int(x), int(y), tw, th))
                  for y, x in zip(ys, xs, strict=True)]
    if not found:
        return None
    best, at = min(found, key=lambda f: f[0])
    centre = PixelPoint(at.left + at.width / 2, at.top + at.height / 2)
    if best > ALONE_THRESHOLD or any(not r.contains(centre) for _, r in found):
        return None
    return centre


def _all_templates(section: Mapping[str, Any]) -> list[Image]:
    """A section's templates, its labelled groups (if any) run together."""
    templates = section.get("templates", ())
    if isinstance(templates, Mapping):
        return [t for group in templates.values() for t in group]
    return list(templates)


STEADY_TOL = 12
"""A pixel belongs to a control's steady part when its learned looks of one size all
agree on it within this much (per channel, 0-255)."""
STEADY_SHARE = 0.3
"""The steady part must be at least this share of the control's pixels to be matched
alone (less says too little of where the control is)."""


def steady_part(templates: Sequence[Image]) -> list[tuple[Image, Image]]:
    """(look, mask) per size with two or more looks: the pixels every look of that size
    agrees on (the button's frame and the face's disc, not its expression).

    >>> a = np.zeros((4, 4, 3), np.uint8); b = a.copy(); b[1:3, 1:3] = 200
    >>> [(int(m.sum() // 255), int(t[0, 0, 0])) for t, m in steady_part([a, b])]
    [(36, 0)]
    >>> steady_part([a])
    []
    """
    by_size: dict[tuple[int, ...], list[Image]] = {}
    for t in templates:
        by_size.setdefault(tuple(t.shape), []).append(t)
    out = []
    for looks in by_size.values():
        if len(looks) < 2:
            continue
        stack = np.stack(looks).astype(np.int16)
        spread = (stack.max(axis=0) - stack.min(axis=0)).max(axis=2)
        steady = spread <= STEADY_TOL
        if steady.mean() < STEADY_SHARE:
            continue
        mask = np.repeat(steady[:, :, None], 3, axis=2).astype(np.uint8) * 255
        out.append((cast(Image, looks[0]), cast(Image, mask)))
    return out


STEADY_MISS = 0.05
"""At most this share of a steady part may differ by more than MISS_TOL at its best
place: the in-play face differs from every end face at a few pixels the end faces share
(pygame-minesweeper: 4 of 242 at 17 px), which squared differences let dominate."""
MISS_TOL = 40


def _steady_match(image: Image, rect: PixelRect,
                  parts: Sequence[tuple[Image, Image]]) -> tuple[float, PixelPoint | None]:
    """The steady part of each look placed where it fits best in ``rect`` (squared
    differences over the part); the lowest share of the part's pixels that differ there
    by more than MISS_TOL (any channel), and that placement's centre."""
    area = image[rect.top:rect.top + rect.height, rect.left:rect.left + rect.width]
    best, where = float("inf"), None
    for tpl, mask in parts:
        th, tw = tpl.shape[:2]
        if area.shape[0] < th or area.shape[1] < tw:
            continue
        scores = cv2.matchTemplate(area, tpl, cv2.TM_SQDIFF, mask=mask)
        _, _, loc, _ = cv2.minMaxLoc(np.nan_to_num(scores, nan=np.inf, posinf=np.inf))
        x, y = loc
        diff = np.abs(area[y:y + th, x:x + tw].astype(np.int16) - tpl.astype(np.int16))
        steady = mask[:, :, 0] > 0
        miss = float((diff.max(axis=2)[steady] > MISS_TOL).mean())
        if miss < best:
            best = miss
            where = PixelPoint(rect.left + x + tw / 2, rect.top + y + th / 2)
    return best, where

def locate_idle_face(image: Image, geometry: BoardGeometry, skin: Skin) -> PixelPoint | None:
    """Where the game's face shows its in-play look inside the restart control's region
    (a skin whose restart is a click): the status face's "playing" look, else the part
    all learned restart looks of one size share (``steady_part``); else None.

    For an ended game whose face was not redrawn: the face is still the control that
    starts a new game (pygame-minesweeper draws its face only when a frame's last mouse
    event changes it, so after a batch of fast clicks the winning or losing face may
    never show). Callers look for the learned restart looks (:func:`locate_restart`)
    first.

    >>> from vision.skin import load_skin
    >>> from solver.cells import COVERED
    >>> skin = load_skin("xdemineur")
    >>> image = np.full((300, 300, 3), 179, np.uint8)
    >>> image[100:163, 100:163] = np.tile(skin.cells[COVERED][0], (3, 3, 1))
    >>> g = BoardGeometry("xdemineur", 100, 100, 21, 21, 3, 3)
    >>> locate_restart(image, g, skin) is None, locate_idle_face(image, g, skin) is None
    (True, True)
    >>> image[40:68, 118:146] = skin.status["templates"]["playing"][0]
    >>> locate_idle_face(image, g, skin)
    PixelPoint(x=132.0, y=54.0)
    """
    status, restart = skin.status, skin.restart
    if restart.get("kind", "click") != "click" or "point" in restart:
        return None
    rect = region_rect(image, geometry, restart.get("region", status.get("region")))
    playing = _labelled(status).get("playing", ()) if status.get("method") == "face" else ()
    if playing:
        tpls = [_scaled(t, status, geometry, skin) for t in playing]
        score, where = best_match(image, rect, tpls)
        if score <= float(status.get("threshold", DEFAULT_THRESHOLD)):
            return where
    templates = restart.get("templates", ())
    if isinstance(templates, Mapping):
        templates = [t for group in templates.values() for t in group]
    parts = steady_part([_scaled(t, restart, geometry, skin) for t in templates])
    miss, where = _steady_match(image, rect, parts)
    return where if miss <= STEADY_MISS else None
