"""A wrong flag a game draws as it was at its loss is no mine (issue #5).

Real gamelibgames captures (``tests/bot/gamelib/README.md``): calibrate's flag on (8, 3)
stayed a flag at the loss, though no mine lies there. A flag kept at a loss was taken
for a mine (most games draw a wrong flag anew): "the game has 41 mines", every later
loss of 40 doubted, and the game recorded as having no fixed count.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from checked_image import StillScreen, read_checked

from bot.calibrate_live import LiveCalibrator, LiveOptions
from bot.mouse import RecordingMouse
from solver.cells import COVERED, FLAG

HERE = Path(__file__).parent / "gamelib"
SHA256 = {"fresh.png": "fa3bea51d2c50b72f70c4f0987945d8e491758fc5b8e1b91d27c2838a71c9554",
          "flag_playing.png": "b6ae4b265180ca5e95670d57cdae5379796c731d53865c54e4e7785a133c7270",
          "flag_lost.png": "c8d1a85a02aa9f9ba8484b8d5c795570db8ffe803982e248dff2a07718c5b740"}


def capture(name: str) -> np.ndarray:
    return read_checked(HERE / name, SHA256[name])


def test_a_flag_kept_where_the_numbers_count_no_mine_is_a_wrong_flag() -> None:
    log: list[str] = []
    screen = StillScreen(capture("fresh.png"))
    cal = LiveCalibrator(screen, RecordingMouse(size=screen.size()), LiveOptions(log=log.append))
    start = cal.find_board()
    cal.L.name(int(start[0, 0]), COVERED, weight=1000)  # (as learn_marks names them)
    playing, lost = capture("flag_playing.png"), capture("flag_lost.png")
    before, after = cal.ids(playing), cal.ids(lost)
    cal.L.name(int(before[8, 3]), FLAG, weight=100)
    assert before[8, 3] == after[8, 3]  # (drawn as it was)
    assert cal.judge(before, after, playing, lost, [(2, 8)])
    assert cal.mines == 40, log
    assert cal.L.known()[int(after[8, 3])] == FLAG  # (the look kept its name)
