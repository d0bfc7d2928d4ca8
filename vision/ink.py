"""Whether a square's picture carries a glyph at all: a plain square (covered, an
opened 0) is never a mine, which is always drawn."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]

INK = 40
"""How far (0-255, in some channel) from the square's background colour a pixel of a
glyph is: a mine's body, a digit, a flag's cloth are all much farther."""


def inkless(img: Image, keep: float = 0.6, far: int = INK, share: float = 0.02) -> bool:
    """Does the middle of ``img`` (``keep`` of its width and height: no bevel, no
    grid line) hold almost no pixel (below ``share`` of them) ``far`` from the
    square's background colour (its median, less a 2-pixel rim) and ``far`` from its
    row's (the median of the row across the square, less the rim)? A glossy square
    shaded from top to bottom (Windows 7's covered square: 234 at the top, 148 at the
    bottom) has no glyph; a digit's bar spans too little of a row to be its median.

    >>> tile = np.full((20, 20, 3), 190, np.uint8); tile[:2] = 255; tile[-2:] = 90
    >>> inkless(tile)  # a raised covered tile: light and dark edges only
    True
    >>> tile[6:14, 6:14] = 0  # a mine's body
    >>> inkless(tile)
    False
    >>> glossy = np.repeat(np.linspace(235, 145, 20).astype(np.uint8), 60).reshape(20, 20, 3)
    >>> inkless(glossy)
    True
    >>> glossy[5:15, 9:11] = 40  # a 1
    >>> inkless(glossy)
    False
    """
    h, w = img.shape[:2]
    bg = np.median(img[2:h - 2, 2:w - 2].reshape(-1, img.shape[2]), axis=0)
    dy, dx = int(round(h * (1 - keep) / 2)), int(round(w * (1 - keep) / 2))
    middle = img[dy:h - dy, dx:w - dx].astype(np.int16)
    if not middle.size:
        return False
    rows = np.median(img[dy:h - dy, 2:w - 2].astype(np.int16), axis=1, keepdims=True)
    ink = (np.abs(middle - bg).max(axis=2) >= far) & (np.abs(middle - rows).max(axis=2) >= far)
    return bool(ink.mean() < share)
