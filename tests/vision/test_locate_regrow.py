"""A lattice found at half size a pixel off is grown again once it is measured.

The blobs of a subsampled copy place the lattice to a pixel or so; its edge strips are
then sampled a pixel off and may read too poorly to be taken, though the board goes on.
WineMine's won beginner board (its edge rows all open numbers and flags) lost its top
row and left column at every odd screen offset until the refined lattice was grown again.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from solver.textboard import diff_boards, parse_board
from vision.locate import locate_board
from vision.read import read_board
from vision.skin import Image, Skin, available_skins, load_skin

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "winmine" / "beginner_won"


@pytest.fixture(scope="module")
def skins() -> list[Skin]:
    return [load_skin(n) for n in available_skins()]


def pasted(shot: Image, x: int, y: int) -> Image:
    desk = np.full((1080, 1920, 3), 60, np.uint8)
    h, w = shot.shape[:2]
    desk[y:y + h, x:x + w] = shot
    return desk


@pytest.mark.skipif(not FIXTURE.with_suffix(".png").exists(), reason="no winmine fixture")
@pytest.mark.parametrize("offset", [(310, 190), (311, 197), (300, 191), (315, 193)])
def test_edge_rows_found_at_any_offset(offset: tuple[int, int], skins: list[Skin]) -> None:
    shot = np.asarray(cv2.imread(str(FIXTURE.with_suffix(".png")), cv2.IMREAD_COLOR), np.uint8)
    x, y = offset
    image = pasted(shot, x, y)
    g = locate_board(image, skins)
    assert (g.skin, g.rows, g.cols, g.x0, g.y0) == ("winmine", 9, 9, x + 4, y + 51)
    skin = next(s for s in skins if s.name == "winmine")
    expected = parse_board(FIXTURE.with_suffix(".board").read_text())
    assert diff_boards(expected, read_board(image, g, skin)) == []
