"""A margin around a screenshot cropped to the board's very edge.

The locators find a board by its edge as well as its squares (a lattice's outer lines,
the frame a skin's templates include), which a screenshot cropped tight to the board
cuts off: WineMine's board cropped to its squares is found nowhere, and with a few
pixels of margin it reads right. Offline readers (``calibrate --from``, ``replay``)
give such a screenshot a black margin; geometry found on it is in its pixels.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.skin import Image

MARGIN = 8
"""Pixels of margin: more than a skin's frame or a lattice's line (1-4 px)."""


def with_margin(image: Image, px: int = MARGIN) -> Image:
    """``image`` inside a black border ``px`` pixels wide.

    >>> img = np.full((2, 3, 3), 200, np.uint8)
    >>> out = with_margin(img, 1)
    >>> out.shape, int(out[0, 0, 0]), int(out[1, 1, 0])
    ((4, 5, 3), 0, 200)
    """
    return np.asarray(cv2.copyMakeBorder(image, px, px, px, px, cv2.BORDER_CONSTANT,
                                         value=(0, 0, 0)), np.uint8)
