"""A game that redraws the flags it keeps on mines at its end: the look is a flag's.

Real UXBgtk captures (``tests/bot/uxbgtk/README.md``): at a loss, and at a win, the game
greys each flag on a mine. Calibration named the greyed flag a mine (the whole board
is shown, and the numbers count a mine there), so every game play won, with the mines
flagged and greyed, was read as a loss on a square the solver called safe: 0 of 10
won by play's count, 9 of them won on the screen.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from checked_image import StillScreen, read_checked

from bot.calibrate_live import LiveCalibrator, LiveOptions
from bot.mouse import RecordingMouse
from solver.cells import COVERED, EXPLODED, FLAG, MINE

HERE = Path(__file__).parent / "uxbgtk"
SHA256 = {"flag_kept_before.png":
              "2921adfdbfd1ca851c8317c317eeba20258ba17126031cb13c5970c22016f198",
          "flag_kept_after.png": "36925ccb0ef6efc772b50246db3407d84bb19fd8931c86de216753a7db688fb8"}


def capture(name: str) -> np.ndarray:
    return read_checked(HERE / name, SHA256[name])


def test_a_flag_greyed_on_a_mine_at_the_end_is_named_a_flag() -> None:
    before, after = capture("flag_kept_before.png"), capture("flag_kept_after.png")
    log: list[str] = []
    screen = StillScreen(before)
    cal = LiveCalibrator(screen, RecordingMouse(size=screen.size()), LiveOptions(log=log.append))
    start = cal.find_board()
    assert start.shape == (16, 16)
    cal.L.name(int(start[15, 0]), COVERED, weight=1000)  # (as learn_marks names them)
    ids_before, ids_after = cal.ids(before), cal.ids(after)
    for cell in ((2, 1), (2, 7)):
        cal.L.name(int(ids_before[cell]), FLAG, weight=100)
    assert cal._revealed_end(ids_before, ids_after, [(3, 6)]) == "lost"
    known = cal.L.known()
    assert known[int(ids_after[2, 7])] == FLAG  # the flag greyed (before: mine)
    assert known[int(ids_after[1, 0])] == MINE  # a bomb, by eye
    assert known[int(ids_after[3, 6])] == EXPLODED
    assert cal.mines == 40, log  # 39 bombs and the flag kept
