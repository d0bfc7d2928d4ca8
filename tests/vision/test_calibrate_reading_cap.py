"""``calibrate --from`` gives up on a lost frame with too many readings to try, instead
of running for many minutes: Google's board draws an edge on each side an opened square
shares with a covered one, so each number has a look per edge variant (38 looks in the
edged captures, 3.9 million readings of one frame; before the cap the learner ran for
over 15 minutes on these four captures)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.calibrate as calibrate
from solver.cells import COVERED, EXPLODED, MINE, UNKNOWN
from solver.textboard import parse_board
from vision.calibrate import learn_from_images, loss_hypotheses, read_cells

CAPTURES = Path(__file__).resolve().parent / "web_checkered"


def test_edged_checkered_captures_are_learned_without_a_wrong_name() -> None:
    paths = sorted(CAPTURES.glob("edges_*.png"))
    assert len(paths) == 4
    images = [np.asarray(cv2.imread(str(p)), np.uint8) for p in paths]
    learned = learn_from_images(images)
    assert {COVERED, 0, 1, 2} <= set(learned.cells)
    for path, image, g in zip(paths, images, learned.boards, strict=True):
        assert g is not None, path.name
        expected = parse_board(path.with_suffix(".board").read_text())
        read = read_cells(image, g, learned.cells)
        known = read != UNKNOWN
        assert (read[known] == expected[known]).all(), path.name


# a lost frame by look ids: 0 covered, 1 a 1, 2 the hit mine, 3 a shown mine
LOSS = np.array([[2, 1, 0, 0],
                 [1, 1, 0, 3],
                 [0, 0, 0, 0]], np.int32)


def test_a_frame_with_more_readings_than_the_cap_gets_none(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert loss_hypotheses(LOSS, {})
    monkeypatch.setattr(calibrate, "MAX_READINGS", 3)
    assert loss_hypotheses(LOSS, {}) == []
    assert loss_hypotheses(LOSS, {0: COVERED, 2: EXPLODED, 3: MINE})  # few left to try
