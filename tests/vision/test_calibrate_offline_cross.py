"""``calibrate --from`` checks a lost frame's reading against the other captures of
the same cell size.

A dense lost WineMine game (9x9, 30 mines) fits game logic with the covered and the
shown-mine looks swapped: around a square of mines every look counts *some* number,
and that reading names more numbers than the right one, so it won. The playing capture
of the same game refutes it (its numbers would touch more shown mines than they say).
A reading's number names that another capture contradicts are taken back (a
question mark whose square happens to count 3 is no 3) before readings are compared.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_calibrate_offline_marks import _read_back  # (pytest puts this folder on sys.path)

from solver.cells import COVERED, MINE, UNKNOWN
from vision.calibrate import contradicted_numbers

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _misread(paths: list[Path]) -> tuple[set[int], list[tuple[str, int, int]]]:
    """What a skin learned from ``paths`` alone names, and per path (name, squares
    read wrong, squares read)."""
    states, reads = _read_back(paths)
    out = []
    for name, expected, read in reads:
        known = read != UNKNOWN
        out.append((name, int((read[known] != expected[known]).sum()), int(known.sum())))
    return states, out


@pytest.mark.parametrize("game, stem", [("winmine", "dense"),
                                        ("gnome-mines", "custom9x9_600x420")])
def test_a_lost_and_a_playing_capture_read_back_with_nothing_misread(
        game: str, stem: str) -> None:
    states, reads = _misread(sorted((FIXTURES / game).glob(f"{stem}_*.png")))
    assert {COVERED, MINE} <= states
    assert [(name, wrong) for name, wrong, _ in reads if wrong] == []
    assert all(read > 0 for _, _, read in reads)


def test_numbers_that_touch_more_shown_mines_than_they_say_are_contradicted() -> None:
    ids = np.array([[0, 1, 0],
                    [0, 2, 0]])
    assert contradicted_numbers(ids, {0: MINE, 1: 3, 2: 4}) == {1}  # 3 touching 4 mines
    assert contradicted_numbers(ids, {0: COVERED, 1: 3, 2: 5}) == {2}  # room for 4 only
    assert contradicted_numbers(ids, {0: COVERED, 1: 3, 2: 4}) == set()
