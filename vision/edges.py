"""Edge strips: a square drawn with a band of one colour along some of its sides.

Google's Minesweeper draws an opened square with a dark green edge on each side it
shares with a covered square, so one number shows in up to 16 ways by which sides border
covered squares. :func:`find_band` tells, from two cell images, that they differ only by
such strips (the band's colour and the widest a strip may be); :func:`erase_strips`
draws a cell without them (each strip replaced by the line of pixels just inside it), so
every way of drawing a number becomes one look.

>>> beige = np.full((30, 30, 3), (159, 194, 229), np.uint8)
>>> one = beige.copy(); one[8:22, 14:17] = (210, 118, 25)          # a "1"
>>> top, left = one.copy(), one.copy()
>>> top[:2] = (58, 175, 135); left[:, :2] = (58, 175, 135)         # edged on one side
>>> band = find_band(top, left)
>>> band.colour, band.width
((58, 175, 135), 4)
>>> bool((erase_strips(top, band) == one).all()), bool((erase_strips(left, band) == one).all())
(True, True)
>>> find_band(one, beige) is None            # another glyph: no band explains it
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from vision.channels import all_channel

Image = npt.NDArray[np.uint8]

SIDES = ("top", "bottom", "left", "right")


@dataclass(frozen=True)
class EdgeBand:
    """Strips of ``colour`` (BGR), at most ``width`` pixels wide, along a cell's sides."""

    colour: tuple[int, int, int]
    width: int


def band_width(shape: tuple[int, ...]) -> int:
    """The widest strip looked for on a cell of ``shape``: an eighth of its side, at
    least 2 pixels (Google's edge is 2 px on a 30 px square, 3 px on a 45 px one).

    >>> band_width((30, 30, 3)), band_width((45, 45, 3)), band_width((12, 12, 3))
    (4, 6, 2)
    """
    return max(2, round(min(shape[0], shape[1]) / 8))


def _line(img: Image, side: str, k: int, skip: int) -> npt.NDArray[np.int16]:
    """The pixels ``k`` lines in from ``side``, without ``skip`` pixels at each end."""
    h, w = img.shape[:2]
    if side == "top":
        line = img[k, skip:w - skip]
    elif side == "bottom":
        line = img[h - 1 - k, skip:w - skip]
    elif side == "left":
        line = img[skip:h - skip, k]
    else:
        line = img[skip:h - skip, w - 1 - k]
    return np.asarray(line, np.int16)


def _is(line: npt.NDArray[np.int16], colour: npt.NDArray[np.int16], tol: int,
        share: float = 0.9) -> bool:
    """Is ``share`` of the line within ``tol`` (every channel) of ``colour``?"""
    near = (np.abs(line - colour) <= tol).all(axis=1)
    return bool(near.mean() >= share)


def strip_depth(img: Image, side: str, band: EdgeBand, tol: int = 20) -> int:
    """How many lines from ``side`` inwards are a strip of the band's colour (0: none).
    The outermost line may miss (a neighbour's pixel at a sub-pixel phase).

    >>> img = np.zeros((20, 20, 3), np.uint8); img[:3] = 200
    >>> band = EdgeBand((200, 200, 200), 4)
    >>> strip_depth(img, "top", band), strip_depth(img, "left", band)
    (3, 0)
    """
    near = _near_lines(img, side, band, tol)
    depth = 0
    for k in range(band.width + 1):
        if near[k]:
            depth = k + 1
        elif k > 0 or depth:
            break
    if depth > band.width or depth == 1 and not near[0]:
        return 0  # (wider than a strip, or one odd line one pixel in)
    return depth


def _near_lines(img: Image, side: str, band: EdgeBand, tol: int,
                share: float = 0.9) -> npt.NDArray[np.bool_]:
    """For each line ``k`` = 0 .. ``band.width`` from ``side`` inwards (its ends, as
    wide as the band, left out): is ``share`` of it within ``tol`` (every channel) of
    the band's colour? (:func:`_is` of every line at once.)"""
    h, w = img.shape[:2]
    n, skip = band.width + 1, band.width
    if side == "top":
        lines = img[:n, skip:w - skip]
    elif side == "bottom":
        lines = img[h - n:, skip:w - skip][::-1]
    elif side == "left":
        lines = img[skip:h - skip, :n].swapaxes(0, 1)
    else:
        lines = img[skip:h - skip, w - n:][:, ::-1].swapaxes(0, 1)
    gap = np.abs(np.asarray(lines, np.int16) - np.asarray(band.colour, np.int16))
    return np.asarray(all_channel(gap <= tol).mean(axis=1) >= share)


def edged_sides(img: Image, band: EdgeBand) -> frozenset[str]:
    """The sides of ``img`` with a strip of the band's colour."""
    return frozenset(s for s in SIDES if strip_depth(img, s, band) > 0)


@lru_cache(maxsize=1024)
def _known_sides(raw: bytes, shape: tuple[int, ...], band: EdgeBand) -> frozenset[str]:
    """:func:`edged_sides` of the image of bytes ``raw`` and ``shape``, remembered: a
    cell bank compares each new look with every look it holds (:func:`find_band`).
    (1024 images of squares up to 60 px hold 11 MB at most.)"""
    return edged_sides(np.frombuffer(raw, np.uint8).reshape(shape), band)


def erase_strips(img: Image, band: EdgeBand) -> Image:
    """``img`` without its strips: each strip becomes copies of the line just inside
    it (top and bottom first, then left and right, so corners are covered too)."""
    out = img.copy()
    for side in SIDES:
        d = strip_depth(out, side, band)
        if not d:
            continue
        if side == "top":
            out[:d] = out[d]
        elif side == "bottom":
            out[-d:] = out[-d - 1]
        elif side == "left":
            out[:, :d] = out[:, d:d + 1]
        else:
            out[:, -d:] = out[:, -d - 1:-d]
    return out


def _candidates(img: Image, width: int, contrast: int = 40) -> list[tuple[int, int, int]]:
    """Colours of a uniform line one pixel in from a side, far from the line just
    past the widest strip (the inside of the cell)."""
    out = []
    for side in SIDES:
        line = _line(img, side, 1, width)
        colour = np.median(line, axis=0).astype(np.int16)
        inside = np.median(_line(img, side, width + 1, width), axis=0)
        if _is(line, colour, 12, 0.97) and np.abs(colour - inside).max() > contrast:
            c = (int(colour[0]), int(colour[1]), int(colour[2]))
            if c not in out:
                out.append(c)
    return out


def strip_colours(img: Image) -> list[tuple[int, int, int]]:
    """The colours of the uniform lines one pixel in from ``img``'s sides that differ
    from its inside: the colours :func:`find_band` tries for a band. Two images that
    have none differ by no band.

    >>> cell = np.full((24, 24, 3), 200, np.uint8)
    >>> edged = cell.copy(); edged[:, -2:] = 90
    >>> strip_colours(cell), strip_colours(edged)
    ([], [(90, 90, 90)])
    """
    return _candidates(img, band_width(img.shape))


def has_glyph(img: Image, width: int, far: int = 60, least: int = 4) -> bool:
    """Has ``img``, inside its ``width`` border, at least ``least`` pixels further
    than ``far`` (worst channel) from its median colour: a glyph, not a flat square (a
    window's frame over the board cuts flat squares of the window's face).

    >>> flat = np.full((20, 20, 3), 200, np.uint8)
    >>> one = flat.copy(); one[6:14, 9:11] = 30
    >>> has_glyph(flat, 3), has_glyph(one, 3)
    (False, True)
    """
    inner = np.asarray(img[width + 1:img.shape[0] - width - 1,
                           width + 1:img.shape[1] - width - 1], np.int16)
    median = np.median(inner.reshape(-1, 3), axis=0)
    return int((np.abs(inner - median).max(axis=2) > far).sum()) >= least


def find_band(a: Image, b: Image, tol: float = 1.0,
              colours: list[tuple[int, int, int]] | None = None) -> EdgeBand | None:
    """The band whose strips make all the difference between cell images ``a`` and
    ``b`` of one glyph (:func:`has_glyph`): with every strip of it erased they are the
    same look (see :func:`vision.calibrate.look_distance`, within ``tol``), and they
    had strips on different sides. None when no such band exists (two different
    looks, or flat squares). ``colours``: :func:`strip_colours` of ``a`` then of ``b``,
    if known already.

    >>> cell = np.full((24, 24, 3), 200, np.uint8); cell[9:15, 11:13] = 30
    >>> edged = cell.copy(); edged[:, -2:] = 90
    >>> find_band(cell, edged)
    EdgeBand(colour=(90, 90, 90), width=3)
    >>> other = edged.copy(); other[5:8, 5:8] = 30      # another glyph besides
    >>> find_band(cell, other) is None
    True
    >>> find_band(np.full_like(cell, 200), np.where(edged == 90, 90, 200).astype(np.uint8))
    """
    from vision.calibrate import look_distance

    if a.shape != b.shape or min(a.shape[:2]) < 10:
        return None
    width = band_width(a.shape)
    if colours is None:
        colours = _candidates(a, width) + _candidates(b, width)
    for colour in colours:
        band = EdgeBand(colour, width)
        if _known_sides(a.tobytes(), a.shape, band) == _known_sides(b.tobytes(), b.shape, band):
            continue
        plain_a = erase_strips(a, band)
        if has_glyph(plain_a, width) and look_distance(plain_a, erase_strips(b, band)) <= tol:
            return band
    return None


@dataclass
class BandEvidence:
    """Bands seen to make the only difference between two looks, kept until one has
    explained ``needed`` different looks (a 1 and a 2 edged on different sides, say):
    one pair alone may be chance (a window's frame over the board).

    >>> cell = np.full((24, 24, 3), 200, np.uint8)
    >>> one, two = cell.copy(), cell.copy()
    >>> one[9:15, 11:13] = 30; two[9:15, 8:16:6] = 30
    >>> seen = BandEvidence()
    >>> edge = lambda img: np.where(np.arange(24)[None, :, None] >= 22, 90, img).astype(np.uint8)
    >>> seen.add(find_band(one, edge(one)), one) is None
    True
    >>> seen.add(find_band(two, edge(two)), two)
    EdgeBand(colour=(90, 90, 90), width=3)
    """

    needed: int = 2
    looks: dict[EdgeBand, list[Image]] = field(default_factory=dict)

    def add(self, band: EdgeBand | None, img: Image) -> EdgeBand | None:
        """Note that ``band`` explained ``img``; the band once it is sure."""
        from vision.calibrate import look_distance

        if band is None:
            return None
        plain = erase_strips(img, band)
        seen = self.looks.setdefault(band, [])
        if all(look_distance(plain, other) > 1.0 for other in seen):
            seen.append(plain)
        return band if len(seen) >= self.needed else None
