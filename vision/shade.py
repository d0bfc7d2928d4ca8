"""Looks that differ only by the shade of their background.

Some games draw their open squares translucent over the window's background picture
(kmines: a light-grey gradient with a soft swoosh), so an open square's flat part is a
few levels lighter or darker from row to row, while its glyph (a digit, a mine) is
drawn the same everywhere. The calibrator's cell bank (:class:`vision.calibrate.CellBank`)
tells those shades apart as different looks, so each would need a name of its own
from a lost game, and the template reader only reads a shade within a few levels of a
template's. Here:

* :func:`shade_distance` compares two cell images with the background of one
  repainted to the other's grey shade (glyph pixels kept): 1.0 or less is the same
  look but for the shade;
* :func:`spread_names` gives an unnamed look the name of the named looks it matches so;
* :func:`shaded_variants` repaints a named look onto every shade of open square seen,
  so the reader (which wants a template's background within a few levels) has a
  template of each state at each shade; :func:`open_shades` lists the shades a skin's
  templates show (play repaints a number it learns onto each, see :mod:`bot.learn`);
* :func:`shaded_name` names a look the reader left unknown after the templates it
  matches but for the shade, and :func:`resembles` tells which known states a look is
  even loosely like (:func:`ink_distance` compares glyphs alone; such a look is never
  to be named another number).

Only a grey shift (every channel by about the same amount) of at most ``MOST_SHIFT``
levels counts: a flat square of another colour (gnome-mines colours an open square by
its number, a hovered tile is lighter and tinted) stays a look of its own.

>>> a = np.full((16, 16, 3), 180, np.uint8); a[4:12, 7:9] = (120, 20, 20)  # a "1"
>>> b = a.copy(); b[a[..., 1] == 180] = 166       # the same "1", background darker
>>> look_distance(a, b) > 1.0, shade_distance(a, b) <= 1.0
(True, True)
>>> c = b.copy(); c[4:12, 10:12] = (120, 20, 20)  # another glyph
>>> shade_distance(a, c) > 1.0
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

from solver.cells import MINE
from vision.calibrate import Image, look_distance

NEAR = 10
"""A pixel this close (0-255, worst channel) to a square's background colour is
background."""
MOST_SHIFT = 24
"""Backgrounds further apart than this (any channel) are different looks."""
GREY = 3
"""The channels' shifts may differ by at most this much (a grey shade, not a tint)."""
INK = 40
"""A pixel further than this (worst channel) from a square's background colour is part
of its glyph."""
LIKE = 20.0
"""A look this close to a state's template (:func:`look_distance`,
:func:`shade_distance` or :func:`ink_distance`) is like it: one glyph drawn on another
background (a shade the skin lacks, a swoosh edge across the square) stays within a
unit or two, two digits differ by 180 and more (kmines 0-5, the mine and the flag
checked; an empty 0 and the covered tile 16 by ink), so such a look is that state or
unreadable, never another number."""
SHOWN: tuple[int, ...] = (*range(9), MINE)
"""States drawn on an open square (on the shade of the background under it)."""
Colour = npt.NDArray[np.float64]


def background(img: Image, margin: int = 2) -> Colour:
    """The per-channel median colour of ``img`` less ``margin`` pixels at the edge.

    >>> background(np.full((8, 8, 3), 7, np.uint8)).tolist()
    [7.0, 7.0, 7.0]
    """
    part = img[margin:img.shape[0] - margin, margin:img.shape[1] - margin]
    return np.asarray(np.median(part.reshape(-1, 3), axis=0), np.float64)


def grey_shift(src: Colour, dst: Colour) -> bool:
    """Is ``dst`` ``src`` made lighter or darker by a grey shade?

    >>> grey_shift(np.array([180., 180, 180]), np.array([166., 167, 166]))
    True
    >>> grey_shift(np.array([182., 189, 186]), np.array([220., 222, 222]))
    False
    """
    shift = dst - src
    return bool(np.abs(shift).max() <= MOST_SHIFT and np.ptp(shift) <= GREY)


def reshade(img: Image, dst: Colour) -> Image:
    """``img`` with its background pixels (within ``NEAR`` of its background colour)
    moved by the shift to ``dst``; the other pixels (the glyph) unchanged."""
    src = background(img)
    v = img.astype(np.int16)
    flat = np.abs(v - src).max(axis=2) <= NEAR
    v[flat] += np.round(dst - src).astype(np.int16)
    return np.asarray(np.clip(v, 0, 255), np.uint8)


def shade_distance(a: Image, b: Image) -> float:
    """:func:`vision.calibrate.look_distance` with each image's background repainted
    to the other's shade (the larger of both ways); infinite when the backgrounds
    differ by more than a grey shade."""
    if a.shape != b.shape:
        return float("inf")
    bg_a, bg_b = background(a), background(b)
    if not grey_shift(bg_a, bg_b):
        return float("inf")
    return max(look_distance(a, reshade(b, bg_a)), look_distance(reshade(a, bg_b), b))


def glyph(img: Image, far: int = INK) -> Image:
    """``img`` with every pixel within ``far`` of its background colour painted one
    neutral grey: the glyph alone, whatever it is drawn on."""
    bg = background(img)
    out = img.copy()
    out[np.abs(img.astype(np.int16) - bg).max(axis=2) <= far] = (128, 128, 128)
    return out


def ink_distance(a: Image, b: Image) -> float:
    """:func:`vision.calibrate.look_distance` of the glyphs alone (see :func:`glyph`):
    small for one glyph on any two backgrounds, even one that changes across the square.

    >>> a = np.full((16, 16, 3), 180, np.uint8); a[4:12, 7:9] = (120, 20, 20)
    >>> b = a.copy(); b[:, :8][a[:, :8, 1] == 180] = 196    # a lighter left half
    >>> shade_distance(a, b) > 1.0, ink_distance(a, b)
    (True, 0.0)
    """
    return look_distance(glyph(a), glyph(b))


def spread_names(looks: Sequence[Image], names: Mapping[int, int], skip: set[int],
                 memo: dict[tuple[int, int], bool], tol: float = 1.0) -> dict[int, int]:
    """Names for looks not in ``names`` nor ``skip`` (looks with evidence of their
    own): the one code of every named look within ``tol`` (:func:`shade_distance`).
    ``memo`` keeps the pairs already compared between calls.

    >>> a = np.full((16, 16, 3), 180, np.uint8); a[4:12, 7:9] = (120, 20, 20)
    >>> b = a.copy(); b[a[..., 1] == 180] = 166
    >>> spread_names([a, b], {0: 1}, set(), {})
    {1: 1}
    """
    out: dict[int, int] = {}
    for look in range(len(looks)):
        if look in names or look in skip:
            continue
        codes = set()
        for other, code in names.items():
            key = (look, other)
            if key not in memo:
                memo[key] = shade_distance(looks[other], looks[look]) <= tol
            if memo[key]:
                codes.add(code)
        if len(codes) == 1:
            out[look] = codes.pop()
    return out


def zero_shifts(cells: Mapping[int, Sequence[Image]], close: float = 2.0) -> list[Colour]:
    """The shifts between the backgrounds of the 0's templates (a checkerboard of two
    tints: Google's opened squares are #e5c29f and #d7b899, not a grey shift apart):
    one state on both, so any glyph may be repainted from one to the other.

    >>> light = np.full((8, 8, 3), (159, 194, 229), np.uint8)
    >>> dark = np.full((8, 8, 3), (153, 184, 215), np.uint8)
    >>> [s.tolist() for s in zero_shifts({0: [light, dark]})]
    [[-6.0, -10.0, -14.0], [6.0, 10.0, 14.0]]
    """
    grounds = [background(img) for img in cells.get(0, ())]
    out: list[Colour] = []
    for a in grounds:
        for b in grounds:
            if np.abs(b - a).max() > close and \
                    all(np.abs(b - a - s).max() > close for s in out):
                out.append(b - a)
    return out


def shaded_variants(cells: Mapping[int, Sequence[Image]], shades: Sequence[Colour],
                    codes: Sequence[int], close: float = 2.0,
                    shifts: Sequence[Colour] | None = None) -> dict[int, list[Image]]:
    """For each state of ``codes`` in ``cells``, an image of it repainted onto every
    background shade of ``shades`` (say those of every open square seen: a 0, a
    number, a mine) that no image of the state has yet (within ``close`` levels; grey
    shifts, or a shift between two backgrounds of the 0: ``shifts``, by default
    :func:`zero_shifts` of ``cells``).

    >>> a = np.full((16, 16, 3), 180, np.uint8); a[4:12, 7:9] = (120, 20, 20)
    >>> zero = np.full((16, 16, 3), 166, np.uint8)
    >>> out = shaded_variants({1: [a]}, [background(zero)], [1])
    >>> [background(img).tolist() for img in out[1]], out[1][0][5, 7].tolist()
    ([[166.0, 166.0, 166.0]], [120, 20, 20])
    """
    out: dict[int, list[Image]] = {}
    moves = zero_shifts(cells, close) if shifts is None else list(shifts)
    for code in codes:
        imgs = list(cells.get(code, ()))
        own = [background(img) for img in imgs]
        have = list(own)
        for shade in shades:
            if any(np.abs(shade - h).max() <= close for h in have):
                continue
            src = min(((img, h) for img, h in zip(imgs, own, strict=True)
                       if grey_shift(h, shade)
                       or any(np.abs(shade - h - m).max() <= close for m in moves)),
                      key=lambda p: float(np.abs(shade - p[1]).max()), default=None)
            if src is None:
                continue
            made = reshade(src[0], shade)
            out.setdefault(code, []).append(made)
            have.append(background(made))
    return out


def open_shades(cells: Mapping[int, Sequence[Image]], codes: Sequence[int] = SHOWN,
                close: float = 2.0) -> list[Colour]:
    """The background shades of the templates of ``codes`` in ``cells``, one of each
    within ``close`` levels, in the order met.

    >>> a, b = np.full((8, 8, 3), 180, np.uint8), np.full((8, 8, 3), 166, np.uint8)
    >>> [s.tolist() for s in open_shades({0: [a, a + 1], 1: [b]})]
    [[180.0, 180.0, 180.0], [166.0, 166.0, 166.0]]
    """
    out: list[Colour] = []
    for code in codes:
        for img in cells.get(code, ()):
            shade = background(img)
            if not any(np.abs(shade - s).max() <= close for s in out):
                out.append(shade)
    return out


def _nearest_shade(img: Image, templates: Sequence[Image]) -> Image | None:
    """The template whose background is nearest ``img``'s (None when there is none)."""
    bg = background(img)
    return min(templates, key=lambda t: float(np.abs(background(t) - bg).max()), default=None)


def resembles(img: Image, cells: Mapping[int, Sequence[Image]], codes: Sequence[int] = SHOWN,
              tol: float = LIKE) -> dict[int, float]:
    """The states of ``codes`` whose template of the nearest background shade ``img``
    is within ``tol`` of, plainly, but for the shade or by glyph alone (the smallest
    distance), by state.

    >>> a = np.full((16, 16, 3), 180, np.uint8); a[4:12, 7:9] = (120, 20, 20)  # a "1"
    >>> b = a.copy(); b[a[..., 1] == 180] = 166
    >>> two = np.full((16, 16, 3), 180, np.uint8); two[3:13, 3:13] = (20, 120, 20)
    >>> {k: round(v, 2) for k, v in resembles(b, {1: [a], 2: [two]}).items()}
    {1: 0.0}
    """
    out: dict[int, float] = {}
    for code in codes:
        tpl = _nearest_shade(img, cells.get(code, ()))
        if tpl is None:
            continue
        d = min(look_distance(tpl, img), shade_distance(tpl, img), ink_distance(tpl, img))
        if d <= tol:
            out[code] = d
    return out


def shaded_name(img: Image, cells: Mapping[int, Sequence[Image]],
                codes: Sequence[int] = SHOWN, tol: float = 1.0) -> int | None:
    """The state of ``img`` when it is the look of one state of ``codes`` alone but for
    the shade of its background (:func:`shade_distance` within ``tol`` of the state's
    template of the nearest shade, as :func:`spread_names` names looks in calibrate);
    else None.

    >>> a = np.full((16, 16, 3), 180, np.uint8); a[4:12, 7:9] = (120, 20, 20)
    >>> b = a.copy(); b[a[..., 1] == 180] = 166
    >>> shaded_name(b, {1: [a]}), shaded_name(b, {1: [a], 7: [a]}), shaded_name(b, {2: [a]}, (1,))
    (1, None, None)
    """
    found = []
    for code in codes:
        tpl = _nearest_shade(img, cells.get(code, ()))
        if tpl is not None and shade_distance(tpl, img) <= tol:
            found.append(code)
    return found[0] if len(found) == 1 else None
