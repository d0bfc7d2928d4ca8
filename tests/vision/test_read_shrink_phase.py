"""A board shrunk by 2x2 means reads the same at any pixel place.

Cells of 44 px and more are shrunk by exact 2x2 means before sampling; the means pair
other pixels when the board sits at an odd pixel than when the templates were cut, and a
skin of one cell size (one a user calibrated, say) then misread or left unknown whole
states (ace-minesweeper's 48 px flags, in play's capture with the board at 3, 3). The
board is now always blurred after a shrink and its templates are also taken at the other
phase (``vision.read.template_bank(phased=True)``).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.geometry import BoardGeometry
from vision.read import forget_samples, read_board
from vision.skin import Image, Skin, load_skin


def _one_size(px: int, interpolation: int) -> Skin:
    """xdemineur's looks scaled to ``px`` (one template per state)."""
    base = load_skin("xdemineur")
    cells = {code: (np.asarray(cv2.resize(imgs[0], (px, px), interpolation=interpolation),
                               np.uint8),) for code, imgs in base.cells.items()}
    return Skin(f"xd{px}", "test", (float(px), float(px)), cells, base.status, base.restart)


def _board(skin: Skin, px: int, offset: tuple[int, int]) -> tuple[Image, BoardGeometry,
                                                                   np.ndarray]:
    """Every state of ``skin`` on a 4-row board drawn at ``offset`` (x, y)."""
    codes = sorted(skin.cells)
    rows, cols = 4, len(codes)
    truth = np.array([[codes[(r + c) % cols] for c in range(cols)] for r in range(rows)],
                     np.int8)
    x, y = offset
    image = np.full((rows * px + 2 * y + 4, cols * px + 2 * x + 4, 3), 90, np.uint8)
    for r in range(rows):
        for c in range(cols):
            image[y + r * px:y + (r + 1) * px, x + c * px:x + (c + 1) * px] = \
                skin.cells[int(truth[r, c])][0]
    return image, BoardGeometry(skin.name, float(x), float(y), float(px), float(px), rows,
                                cols), truth


@pytest.mark.parametrize("px", [44, 46, 48, 90])
@pytest.mark.parametrize("interpolation", [cv2.INTER_NEAREST, cv2.INTER_LINEAR])
def test_one_size_skin_reads_a_shrunk_board_at_any_pixel(px: int, interpolation: int) -> None:
    skin = _one_size(px, interpolation)
    for offset in ((0, 0), (3, 3), (1, 2), (2, 5)):
        image, g, truth = _board(skin, px, offset)
        forget_samples()
        board = read_board(image, g, skin)
        wrong = np.argwhere(board != truth).tolist()
        assert not wrong, f"{px} px at {offset}: {wrong}"
