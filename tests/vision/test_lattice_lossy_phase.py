"""The phase of a JPEG capture's board: WineMine's captures saved as JPEG (quality 75
and 90) are put at the phase their PNGs are put at. Squares of one look in a JPEG are
never cut out quite alike; at the lossless tolerance only squares the JPEG happens to
draw to the same pixels counted, and the boards at quality 75 came out 4 px off (every
square holding a strip of its neighbour: each look split by its neighbours, so
`calibrate --from` on them learned nothing)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.geometry import BoardGeometry
from vision.lattice import LOSSY_ALIKE, board_phase, fitted_lattice
from vision.lossy import denoise

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "winmine"
NAMES = ("intermediate_lost", "expert_playing", "dense_lost", "beginner_won")


def pngs() -> list[np.ndarray]:
    return [np.asarray(cv2.imread(str(FIXTURES / f"{n}.png")), np.uint8) for n in NAMES]


def jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)


def places(boards: list[BoardGeometry]) -> list[tuple[float, float, int, int]]:
    return [(g.x0, g.y0, g.rows, g.cols) for g in boards]


@pytest.mark.parametrize("quality", [75, 90])
def test_jpeg_boards_are_put_where_their_pngs_are(quality: int) -> None:
    images = pngs()
    truth = board_phase(images, [fitted_lattice(im) for im in images])
    assert [(g.x0 % 16, g.y0 % 16) for g in truth] == [(5.0, 4.0)] * len(NAMES)  # by eye
    views = [denoise(jpeg(im, quality)) for im in images]
    phased = board_phase(views, [fitted_lattice(v) for v in views], LOSSY_ALIKE)
    assert places(phased) == places(truth)
