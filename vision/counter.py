"""The game's LED counters above the board, read without templates.

Windows Minesweeper, Minesweeper X/Arbiter, minesweeper.online, xdemineur and WineMine
show the mines left (the mines minus the flags placed) on a seven-segment LED panel
above the board, and the time on another. A panel is dark; a lit segment is a bright
colour with one strong channel (red almost everywhere; WineMine under Xvfb draws its
LEDs green), an unlit one is black (xdemineur) or the same colour dimmed (Windows,
WineMine). :func:`read_counters` finds every such panel in the band above the board
and decodes its digits by deciding each segment on or off; a digit that is neither
clearly on nor clearly off reads ``?`` and the panel has no value.

Which panel counts mines differs (left of the face in Windows and xdemineur, right of
it in WineMine), so :func:`mine_totals` keeps only the panels whose value plus the
flags on the board is a mine count the board allows, and :func:`steady_total` drops a
panel that changed between two looks a second apart (a running clock).

>>> image = np.zeros((60, 80, 3), np.uint8)
>>> _draw(image, 10, 10, "07")
>>> board = BoardGeometry("any", 0.0, 50.0, 10.0, 10.0, 1, 8)
>>> [(c.text, c.value) for c in read_counters(image, board)]
[('07', 7)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from solver.cells import COVERED, EXPLODED, FLAG, MINE, QUESTION, UNKNOWN, WRONG_FLAG, Board
from vision.geometry import BoardGeometry, PixelRect

Mask = npt.NDArray[np.bool_]

LIT_MIN = 150
"""A lit segment's strong channel is at least this bright."""
SEG_MIN = 30
"""A segment's strong channel, lit or dimmed, is at least this bright (WineMine's unlit
green is 46)."""
OTHER_MAX = 0.4
"""A segment's two other channels are at most this fraction of its strong one."""
DARK_MAX = 70
"""A panel's background: every channel below this."""
ON, OFF = 0.6, 0.2
"""A segment is on when its best line through it is at least ON lit, off when at most
OFF lit; in between the digit is unclear."""
MIN_HEIGHT = 9
"""Digits shorter than this (pixels) are not read."""

DIGITS: dict[str, str] = {
    "abcdef": "0", "bc": "1", "abdeg": "2", "abcdg": "3", "bcfg": "4", "acdfg": "5",
    "acdefg": "6", "cdefg": "6", "abc": "7", "abcf": "7", "abcdefg": "8",
    "abcdfg": "9", "abcfg": "9", "g": "-", "": " ",
}
"""Lit segments (a top, b upper right, c lower right, d bottom, e lower left, f upper
left, g middle) to the character they show, with the usual variants of 6, 7 and 9."""


@dataclass(frozen=True)
class LedCounter:
    """One LED panel: where its digits are (image pixels) and what they show, ``?`` for
    a digit that did not decode, blanks for unlit leading digits.

    >>> r = PixelRect(0, 0, 1, 1)
    >>> LedCounter(r, "-05").value, LedCounter(r, "0?7").value, LedCounter(r, " 12").value
    (-5, None, 12)
    """

    rect: PixelRect
    text: str

    @property
    def value(self) -> int | None:
        """The number shown; None unless every digit decoded (a minus only first)."""
        shown = self.text.lstrip(" ")
        digits = shown[1:] if shown.startswith("-") else shown
        if not digits or not digits.isdigit():
            return None
        return int(shown)


@dataclass(frozen=True)
class _Box:
    """A digit's lit or dimmed pixels: inclusive bounds in band pixels."""

    left: int
    top: int
    right: int
    bottom: int

    @property
    def height(self) -> int:
        return self.bottom - self.top + 1

    @property
    def width(self) -> int:
        return self.right - self.left + 1

    def join(self, other: _Box) -> _Box:
        return _Box(min(self.left, other.left), min(self.top, other.top),
                    max(self.right, other.right), max(self.bottom, other.bottom))


@dataclass(frozen=True)
class _Layout:
    """A panel's digit cells: the rightmost cell's right edge, the top row, the digit
    height and width, the pitch between digits, and how many digits."""

    right: int
    top: int
    height: int
    width: int
    pitch: int
    count: int

    def cell(self, k: int) -> tuple[int, int]:
        """Left and right column (inclusive) of the ``k``-th digit from the left."""
        right = self.right - (self.count - 1 - k) * self.pitch
        return right - self.width + 1, right


def read_counters(image: npt.NDArray[np.uint8], board: BoardGeometry) -> tuple[LedCounter, ...]:
    """Every LED panel of two or more digits in the band above ``board``, left to right.

    ``image`` is BGR; the band reaches five rows of squares (at least 60 px) above the
    board and two columns of squares past either side.
    """
    band, dx, dy = _band(image, board)
    found: list[LedCounter] = []
    for channel in range(3):
        lit, seg, dark = _masks(band, channel)
        if int(lit.sum()) < 2 * MIN_HEIGHT:
            continue
        for group in _groups(_digit_boxes(seg, lit)):
            layout = _layout(group, lit, seg)
            if layout is None or not _on_dark_panel(layout, seg, dark):
                continue
            text = "".join(_char(lit, layout, k) for k in range(layout.count))
            left = layout.cell(0)[0]
            rect = PixelRect(left + dx, layout.top + dy, layout.right - left + 1, layout.height)
            found.append(LedCounter(rect, text))
    return tuple(sorted(found, key=lambda c: c.rect.left))


def mine_totals(counters: Sequence[LedCounter], board: Board) -> dict[int, int]:
    """Panel left edge -> the mine count it implies (its value plus the flags on the
    board: a counter shows the mines minus the flags placed, question marks not
    counted), for the panels whose count the board allows: at least one mine and the
    mines shown, at most those plus the squares covered or flagged (a flag may be wrong:
    more flags than mines make a counter negative). Nothing when a square is unread.

    >>> from solver.cells import COVERED, FLAG
    >>> board = np.array([[FLAG, COVERED, COVERED, 1]], np.int8)
    >>> r = PixelRect
    >>> mine_totals([LedCounter(r(0, 0, 9, 9), "01"), LedCounter(r(40, 0, 9, 9), "05")], board)
    {0: 2}
    """
    if (board == UNKNOWN).any():
        return {}
    placed = int(np.count_nonzero((board == FLAG) | (board == WRONG_FLAG)))
    low = int(np.count_nonzero((board == MINE) | (board == EXPLODED)))
    high = low + int(np.count_nonzero((board == COVERED) | (board == QUESTION) | (board == FLAG)))
    totals = {}
    for counter in counters:
        value = counter.value
        if value is not None and max(1, low) <= value + placed <= high:
            totals[counter.rect.left] = value + placed
    return totals


def steady_total(first: Mapping[int, int], later: Mapping[int, int] | None = None) -> int | None:
    """The one mine count of :func:`mine_totals`' panels, keeping (when ``later``, the
    totals read a second or more later, is given) only panels that show the same count
    both times: a running clock changes. None when no panel is left or those left
    disagree.

    >>> steady_total({10: 40}), steady_total({10: 40, 90: 3}), steady_total({10: 9, 90: 9})
    (40, None, 9)
    >>> steady_total({10: 40, 90: 3}, later={11: 40, 90: 4})
    40
    """
    if later is not None:
        first = {x: t for x, t in first.items()
                 if any(abs(x - y) <= 2 and t == u for y, u in later.items())}
    totals = set(first.values())
    return totals.pop() if len(totals) == 1 else None


def _band(image: npt.NDArray[np.uint8],
          board: BoardGeometry) -> tuple[npt.NDArray[np.int16], int, int]:
    """The band above the board (as int16) and its offset in the image."""
    b = board.bounds()
    h, w = image.shape[:2]
    y0 = max(0, b.top - round(max(5 * board.pitch_y, 60.0)))
    x0 = max(0, b.left - round(2 * board.pitch_x))
    x1 = min(w, b.left + b.width + round(2 * board.pitch_x))
    y1 = max(y0, min(h, b.top))
    return image[y0:y1, x0:x1].astype(np.int16), x0, y0


def _masks(band: npt.NDArray[np.int16], channel: int) -> tuple[Mask, Mask, Mask]:
    """Lit, segment (lit or dimmed) and dark-background pixels for one strong channel."""
    strong = band[..., channel]
    others = np.delete(band, channel, axis=2).max(axis=2)
    pure = others <= OTHER_MAX * strong
    seg = pure & (strong >= SEG_MIN)
    return seg & (strong >= LIT_MIN), seg, band.max(axis=2) < DARK_MAX


def _digit_boxes(seg: Mask, lit: Mask) -> list[_Box]:
    """Boxes of the segment pieces that hold a lit pixel, with pieces one above another
    and nearly touching (a digit's segments meet at their ends) joined; only boxes at
    least MIN_HEIGHT tall, left to right."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(seg.astype(np.uint8), connectivity=8)
    has_lit = np.bincount(labels[lit], minlength=n) > 0
    merged: list[_Box] = []
    for i in sorted(range(1, n), key=lambda j: int(stats[j, 0])):
        if not has_lit[i]:
            continue
        x, y, w, h = (int(v) for v in stats[i, :4])
        box = _Box(x, y, x + w - 1, y + h - 1)
        for k, other in enumerate(merged):
            if _same_digit(box, other):
                merged[k] = other.join(box)
                break
        else:
            merged.append(box)
    return sorted((b for b in merged if b.height >= MIN_HEIGHT), key=lambda b: b.left)


def _same_digit(a: _Box, b: _Box) -> bool:
    """Do two pieces overlap in columns and (nearly) touch in rows?"""
    gap = max(a.top - b.bottom, b.top - a.bottom) - 1
    return a.left <= b.right and b.left <= a.right \
        and gap <= max(2.0, 0.2 * max(a.height, b.height))


def _groups(boxes: Sequence[_Box]) -> list[list[_Box]]:
    """Digits side by side on one row, less than a digit's height apart: one panel each."""
    groups: list[list[_Box]] = []
    for box in boxes:
        for group in groups:
            last = group[-1]
            if 0 <= box.left - last.right <= max(box.height, last.height) \
                    and min(box.bottom, last.bottom) - max(box.top, last.top) \
                    >= 0.7 * max(box.height, last.height):
                group.append(box)
                break
        else:
            groups.append([box])
    return groups


def _layout(group: Sequence[_Box], lit: Mask, seg: Mask) -> _Layout | None:
    """The digit cells of a panel: equal widths at one pitch, right edges aligned to the
    digits' right segments (every digit 0-9 lights b or c), plus leading cells to the
    left that hold segment pixels (a minus, a dimmed blank). None unless it is a row of
    two or more digits shaped like seven-segment digits, whole inside the band (no
    segment pixels just past either end, none at the band's edges)."""
    top = min(b.top for b in group)
    height = max(b.bottom for b in group) - top + 1
    width = max(b.width for b in group)
    if len(group) < 2 or not 0.3 * height <= width <= 0.9 * height:
        return None
    rights = [b.right for b in group]
    pitch = min(r - q for q, r in zip(rights, rights[1:], strict=False))
    if not width <= pitch <= width + 0.6 * height:
        return None
    if any(abs((r - q) / pitch - round((r - q) / pitch)) * pitch > 1.5
           for q, r in zip(rights, rights[1:], strict=False)):
        return None
    count = round((rights[-1] - rights[0]) / pitch) + 1
    layout = _Layout(rights[-1], top, height, width, pitch, count)
    rows = slice(top, top + height)
    while layout.cell(0)[0] - pitch >= 0 and seg[rows, _cols(layout, -1)].any():
        layout = _Layout(rights[-1], top, height, width, pitch, layout.count + 1)
    left = layout.cell(0)[0]
    cut = top == 0 or top + height >= seg.shape[0] or left <= 0 or layout.right >= seg.shape[1] - 1
    beside = seg[rows, max(0, left - pitch):left].any() \
        or seg[rows, layout.right + 1:layout.right + 1 + pitch].any()
    return None if cut or beside else layout  # a panel cut off by the band's edge


def _cols(layout: _Layout, k: int) -> slice:
    left, right = layout.cell(k) if k >= 0 else (layout.cell(0)[0] - layout.pitch,
                                                  layout.cell(0)[1] - layout.pitch)
    return slice(max(0, left), right + 1)


def _on_dark_panel(layout: _Layout, seg: Mask, dark: Mask) -> bool:
    """Are the digit cells all dark background or segment pixels (an LED panel, not
    coloured text on a grey window)?"""
    left = layout.cell(0)[0]
    rows = slice(layout.top, layout.top + layout.height)
    cols = slice(left, layout.right + 1)
    return bool((seg[rows, cols] | dark[rows, cols]).mean() >= 0.95)


def _char(lit: Mask, layout: _Layout, k: int) -> str:
    """The character of the ``k``-th digit cell: a digit, ``-``, a blank, or ``?``."""
    cell = lit[layout.top:layout.top + layout.height, _cols(layout, k)]
    lit_segments = _segments(cell)
    return "?" if lit_segments is None else DIGITS.get(lit_segments, "?")


def _segments(cell: Mask) -> str | None:
    """The lit segments of one digit cell in order (``"abcdefg"`` for an 8), or None
    when one is neither clearly on nor clearly off. Each segment is judged by its best
    line: rows through the middle two fifths for a, g, d; columns of the outer quarters,
    between the bevelled ends, for b, c, e, f."""
    h, w = cell.shape
    mid = cell[:, round(0.3 * w):max(round(0.3 * w) + 1, round(0.7 * w))].mean(axis=1)
    third = max(1, w // 4)
    upper, lower = slice(int(0.2 * h), int(0.4 * h)), slice(int(0.6 * h), int(0.8 * h))
    scores = {
        "a": mid[:int(np.ceil(0.25 * h))].max(),
        "b": cell[upper, w - third:].mean(axis=0).max(),
        "c": cell[lower, w - third:].mean(axis=0).max(),
        "d": mid[int(0.75 * h):].max(),
        "e": cell[lower, :third].mean(axis=0).max(),
        "f": cell[upper, :third].mean(axis=0).max(),
        "g": mid[int(0.38 * h):int(np.ceil(0.62 * h))].max(),
    }
    if any(OFF < s < ON for s in scores.values()):
        return None
    return "".join(name for name, s in scores.items() if s >= ON)


_STROKES = {"a": (0, 0, 1, 0), "b": (1, 0, 1, 1), "c": (1, 1, 1, 2), "d": (0, 2, 1, 2),
            "e": (0, 1, 0, 2), "f": (0, 0, 0, 1), "g": (0, 1, 1, 1)}


def _draw(image: npt.NDArray[np.uint8], x: int, y: int, text: str, size: int = 20,
          lit: tuple[int, int, int] = (0, 0, 255),
          unlit: tuple[int, int, int] = (0, 0, 0)) -> None:
    """Draw ``text`` (digits, ``-``, blanks) as seven-segment digits ``size`` px high on
    a black panel at (x, y): for doctests and synthetic tests."""
    w, gap, t = size // 2, max(2, size // 8), max(2, size // 8)
    cv2.rectangle(image, (x - gap, y - gap),
                  (x + len(text) * (w + gap) + gap, y + size + gap), (0, 0, 0), -1)
    on = {v: k for k, v in DIGITS.items() if v not in "679" or len(k) > 4}
    on["6"], on["7"], on["9"] = "acdefg", "abc", "abcdfg"
    for i, ch in enumerate(text):
        x0 = x + i * (w + gap)
        strokes = sorted(_STROKES.items(), key=lambda item: item[0] in on[ch])  # unlit first
        for name, (c0, r0, c1, r1) in strokes:
            colour = lit if name in on[ch] else unlit
            cv2.rectangle(image, (x0 + c0 * (w - t), y + r0 * (size - t) // 2),
                          (x0 + c1 * (w - t) + t - 1, y + r1 * (size - t) // 2 + t - 1),
                          colour, -1)
