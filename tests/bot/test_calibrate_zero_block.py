"""A move that opens a block of 0s before any 0 was seen is no loss.

Real Chromium captures (Xvfb, openbox) of minesweeper-for-web 3.0.4 (npm) during a live
calibration: the fresh board; the board after its first click showed a lone 1 at
(13, 9) and calibrate flagged (10, 2) by ctrl+click ("39 mines left"); and the board
after a click on (8, 1) opened a region of 0s, 1s, 2s and 3s (this game's 0s open
flagged squares too: (10, 2) shows 1, "40 mines left"). The page did not end the game.
Before, the block of 0s, a look not seen before, read as a flat panel over the board,
so the move was no flood and calibrate judged a loss ("the game has 26 mines"),
named a 1 covered, and later stopped: "the game stopped responding"."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from checked_image import StillScreen, read_checked

from bot.calibrate_live import LiveCalibrator, LiveOptions
from bot.mouse import RecordingMouse
from solver.cells import COVERED, FLAG

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

HERE = Path(__file__).parent / "msweb_opening"
SHA256 = {"fresh.png": "d95bd37f94b3c6a4676f1bd63dd621253cf1d67aa014c953cd1a0e96911a51d1",
          "flagged.png": "b3aa47c7548cf80755df980aef4ea8beba876e2259d60de0610d2053762d8442",
          "opened.png": "1ea639bd13b1c3d5e9e1d67394690d191513e23436a1c10641bd44745eb42cda"}


def capture(name: str) -> np.ndarray:
    return read_checked(HERE / name, SHA256[name])


def test_a_first_block_of_zeros_is_no_loss() -> None:
    fresh, flagged, opened = (capture(n) for n in ("fresh.png", "flagged.png", "opened.png"))
    log: list[str] = []
    screen = StillScreen(fresh)
    cal = LiveCalibrator(screen, RecordingMouse(size=screen.size()), LiveOptions(log=log.append))
    start = cal.find_board()
    assert start.shape == (16, 16)
    cal.L.name(int(start[0, 0]), COVERED, weight=1000)  # as learn_marks names them
    cal.L.name(int(cal.ids(flagged)[10, 2]), FLAG, weight=100)
    cal.game_start, cal.opened = start, np.zeros(start.shape, bool)
    before, after = cal.ids(flagged), cal.ids(opened)
    assert not cal.judge(before, after, flagged, opened, [(8, 1)])
    assert cal.results == [] and cal.mines is None, log
