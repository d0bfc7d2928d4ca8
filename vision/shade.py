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
  template of each state at each shade.

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

from vision.calibrate import Image, look_distance

NEAR = 10
"""A pixel this close (0-255, worst channel) to a square's background colour is
background."""
MOST_SHIFT = 24
"""Backgrounds further apart than this (any channel) are different looks."""
GREY = 3
"""The channels' shifts may differ by at most this much (a grey shade, not a tint)."""
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


def shaded_variants(cells: Mapping[int, Sequence[Image]], shades: Sequence[Colour],
                    codes: Sequence[int], close: float = 2.0) -> dict[int, list[Image]]:
    """For each state of ``codes`` in ``cells``, an image of it repainted onto every
    background shade of ``shades`` (say those of every open square seen: a 0, a
    number, a mine) that no image of the state has yet (within ``close`` levels; grey
    shifts only).

    >>> a = np.full((16, 16, 3), 180, np.uint8); a[4:12, 7:9] = (120, 20, 20)
    >>> zero = np.full((16, 16, 3), 166, np.uint8)
    >>> out = shaded_variants({1: [a]}, [background(zero)], [1])
    >>> [background(img).tolist() for img in out[1]], out[1][0][5, 7].tolist()
    ([[166.0, 166.0, 166.0]], [120, 20, 20])
    """
    out: dict[int, list[Image]] = {}
    for code in codes:
        imgs = list(cells.get(code, ()))
        own = [background(img) for img in imgs]
        have = list(own)
        for shade in shades:
            if any(np.abs(shade - h).max() <= close for h in have):
                continue
            src = min(((img, h) for img, h in zip(imgs, own, strict=True)
                       if grey_shift(h, shade)),
                      key=lambda p: float(np.abs(shade - p[1]).max()), default=None)
            if src is None:
                continue
            made = reshade(src[0], shade)
            out.setdefault(code, []).append(made)
            have.append(background(made))
    return out
