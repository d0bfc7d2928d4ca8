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
from solver.cells import COVERED, EXPLODED, FLAG, MINE, UNKNOWN

HERE = Path(__file__).parent / "uxbgtk"
SHA256 = {"won_flags.png": "626e90d22a6e742cdc857a986664d4196792f51404109fe0aa389b0b80b57587",
          "won_greyed.png": "ad5bdd81e9b4b0e586172a1af1e4d95f6d0bdae11b621e9c82934548825ac241",
          "flag_kept_before.png":
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


def test_the_flags_greyed_at_a_win_are_named_flags() -> None:
    """At a win calibrate flagged the last mines; a moment later the game greyed every
    flag. With no loss that greyed a flag (at 700x800, one run), the look had no name,
    and play stopped at every win: "the board was found elsewhere ..., partly covered
    or unreadable"."""
    flags, greyed = capture("won_flags.png"), capture("won_greyed.png")
    log: list[str] = []
    screen = StillScreen(capture("flag_kept_before.png"))  # (a game in play, same window)
    cal = LiveCalibrator(screen, RecordingMouse(size=screen.size()), LiveOptions(log=log.append))
    start = cal.find_board()
    ids_flags, ids_greyed = cal.ids(flags), cal.ids(greyed)
    flagged = ids_greyed == ids_greyed[0, 0]  # (0, 0): a flag greyed, by eye
    assert int(flagged.sum()) == 40
    for look in set(ids_flags[flagged].tolist()):  # (as calibrate's marks name them)
        cal.L.name(int(look), FLAG, weight=100)
    cal.L.name(int(start[15, 0]), COVERED, weight=1000)
    cells = [(int(r), int(c)) for r, c in np.argwhere(flagged)]
    assert (cal.knowledge(ids_greyed)[flagged] == UNKNOWN).all()
    assert cal.name_kept_flags(ids_greyed, cells[1:]) == []  # (it shows off those flags)
    assert cal.name_kept_flags(ids_greyed, cells) == [int(ids_greyed[0, 0])]
    assert (cal.knowledge(ids_greyed)[flagged] == FLAG).all()
