"""``calibrate --from`` on captures of a Google-style checkered Minesweeper page.

Every state shows on two shades (a checkerboard of two greens covered, two beiges
open), and a lost game shows each mine as a circle on a square of its own random colour
(eight mine looks here). A loss reading that takes one look as covered and at most four
as mines fits no such frame, so the learner named nothing. Now a won frame (its
unrevealed looks hide exactly the mines) names the numbers, its unrevealed looks are
covered since the fresh frame shows nothing else, and with those named the lost frame's
mine looks are the only choice that makes every number count right.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from solver.cells import COVERED, FLAG, MINE, UNKNOWN
from solver.textboard import parse_board
from vision.calibrate import learn_from_images, read_cells

CAPTURES = Path(__file__).resolve().parent / "web_checkered"


def read_back(kind: str) -> tuple[set[int], int]:
    """Learn the four ``kind`` captures offline and read each back with what was
    learned: nothing misread. The states named, and the squares read."""
    paths = sorted(CAPTURES.glob(f"{kind}_*.png"))
    assert len(paths) == 4
    images = [np.asarray(cv2.imread(str(p)), np.uint8) for p in paths]
    learned = learn_from_images(images)
    named = 0
    for path, image, g in zip(paths, images, learned.boards, strict=True):
        assert g is not None, path.name
        expected = parse_board(path.with_suffix(".board").read_text())
        read = read_cells(image, g, learned.cells)
        known = read != UNKNOWN
        assert (read[known] == expected[known]).all(), path.name
        named += int(known.sum())
    return set(learned.cells), named


def test_plain_checkered_captures_read_back_named_and_right() -> None:
    states, named = read_back("plain")
    assert {COVERED, MINE, FLAG, *range(5)} <= states
    assert named >= 1000  # of 4 x 252 squares
