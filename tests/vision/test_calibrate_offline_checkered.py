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

from test_calibrate_offline_marks import _read_back  # (pytest puts this folder on sys.path)

from solver.cells import COVERED, FLAG, MINE, UNKNOWN

CAPTURES = Path(__file__).resolve().parent / "web_checkered"


def read_back(kind: str) -> tuple[set[int], int]:
    """Learn the four ``kind`` captures offline and read each back with what was
    learned: nothing misread. The states named, and the squares read."""
    paths = sorted(CAPTURES.glob(f"{kind}_*.png"))
    assert len(paths) == 4
    states, reads = _read_back(paths)
    named = 0
    for name, expected, read in reads:
        known = read != UNKNOWN
        assert (read[known] == expected[known]).all(), name
        named += int(known.sum())
    return states, named


def test_plain_checkered_captures_read_back_named_and_right() -> None:
    states, named = read_back("plain")
    assert {COVERED, MINE, FLAG, *range(5)} <= states
    assert named >= 1000  # of 4 x 252 squares
