"""The lattice finder on tiles filled with a one-pixel checker (dither) pattern, the way
Xaw programs such as xbomb draw covered squares: no pixel equals its neighbour, yet the
board must be found."""

from __future__ import annotations

import numpy as np
import pytest

from vision.lattice import NoBoardError, find_lattice


def dithered_board(rows: int, cols: int, pitch: int, x0: int, y0: int) -> np.ndarray:
    """White screen; black 2 px grid lines; each tile a 127/255 checker."""
    img = np.full((y0 + rows * pitch + 40, x0 + cols * pitch + 40, 3), 255, np.uint8)
    yy, xx = np.mgrid[0:img.shape[0], 0:img.shape[1]]
    checker = np.where((yy + xx) % 2 == 0, 127, 255).astype(np.uint8)
    for r in range(rows):
        for c in range(cols):
            top, left = y0 + r * pitch, x0 + c * pitch
            img[top:top + pitch, left:left + pitch] = 0
            tile = checker[top + 2:top + pitch, left + 2:left + pitch]
            img[top + 2:top + pitch, left + 2:left + pitch] = tile[..., None]
    return img


@pytest.mark.parametrize("pitch", [20, 21])
def test_dithered_tiles_make_a_lattice(pitch: int) -> None:
    g = find_lattice(dithered_board(16, 30, pitch, 37, 52))
    assert (g.rows, g.cols) == (16, 30)
    assert g.pitch_x == g.pitch_y == pitch
    # cell boundaries sit within a pixel of the grid line the tiles share
    assert abs(g.x0 - (37 + 1)) <= 1 and abs(g.y0 - (52 + 1)) <= 1


def test_noise_is_still_no_board() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(NoBoardError):
        find_lattice(rng.integers(0, 256, (300, 400, 3), dtype=np.uint8))
