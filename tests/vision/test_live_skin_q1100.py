"""A gnome-mines skin calibrated live from scratch in CI (22 Nov 2026, run of e781db3,
`tests/bot/test_calibrate_live.py`) that left one question mark of
`expert_1100x560_lost` (23 px squares, read through vision.glyph from the skin's
49 px templates) unknown: kept here so the failure reproduces offline. It must never
misread; reading the square is still to do (strict xfail: it fails once fixed, so the
mark comes off and the live test's STILL_UNREAD entry with it)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from solver.cells import UNKNOWN
from solver.textboard import parse_board
from vision.locate import locate_board
from vision.read import read_board
from vision.skin import load_skin

HERE = Path(__file__).resolve().parent
CASE = HERE.parents[0] / "fixtures" / "gnome-mines" / "expert_1100x560_lost"


def _read() -> tuple[np.ndarray, np.ndarray]:
    skin = load_skin(HERE / "live_skin_q1100")
    image = np.asarray(cv2.imread(str(CASE.with_suffix(".png"))), np.uint8)
    geometry = locate_board(image, [skin])
    return parse_board(CASE.with_suffix(".board").read_text()), read_board(image, geometry, skin)


def test_the_skin_never_misreads_the_capture() -> None:
    expected, board = _read()
    wrong = (board != expected) & (board != UNKNOWN)
    assert not wrong.any(), np.argwhere(wrong).tolist()


@pytest.mark.xfail(strict=True, reason="a 23 px question mark left unknown by vision.glyph")
def test_the_skin_reads_every_square() -> None:
    expected, board = _read()
    assert np.argwhere(board != expected).tolist() == []
