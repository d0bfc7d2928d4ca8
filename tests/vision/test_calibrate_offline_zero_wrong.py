"""``calibrate --from`` names no square wrong where the evidence cannot settle a look.

Three gnome-mines captures (or pairs) learned alone each misread squares:

- ``medium_700x700`` (a loss and the same game in play): the loss fits two readings
  that name the same numbers: the true one (the mine on red is the hit mine; the red
  flag, a wrong flag, and the flags with a "?", question marks, left unexplained) and
  one that takes the red flag for the hit mine, the mine on red for a mark and the
  question marks for flags, which leaves one look fewer unexplained and won. Readings
  that name the same numbers on the same covered look now all count: they agree on
  the numbers, the covered look, the mine and the flag, and name nothing else.
- ``dense_lost_1`` (a 10x10 loss with 80 mines): its two loss readings disagree on the
  hit mine, and it fit a won game too (covered squares and mines the hidden looks),
  which named its 7 and its hit mine 8 and its 4 a 5: two looks given one number. A
  win reading that gives two looks of different glyphs one number is no fit.
- ``custom20x12_1000x650_lost``: the loss shows the mine, a flag and a
  question-marked mine (a flag with a "?" on a mine's ground), both the last counted
  as mines; the second and third looks were both named flag. With two such looks a
  frame cannot tell a flag from a mine drawn its own way: neither is named, unless a
  game in play shows one (then it is the flag, and the other a mine).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_calibrate_offline_marks import _read_back  # (pytest puts this folder on sys.path)

from solver.cells import COVERED, FLAG, MINE, QUESTION, UNKNOWN
from vision.calibrate import win_numbers

GNOME = Path(__file__).resolve().parent.parent / "fixtures" / "gnome-mines"


def _wrong(paths: list[Path]) -> tuple[set[int], dict[str, int], int]:
    """States named, squares read wrong per capture, squares read in all."""
    states, reads = _read_back(paths)
    wrong = {name: int((read[read != UNKNOWN] != expected[read != UNKNOWN]).sum())
             for name, expected, read in reads}
    return states, wrong, sum(int((read != UNKNOWN).sum()) for _, _, read in reads)


@pytest.mark.parametrize("glob, states", [
    ("medium_700x700_*.png", {COVERED, MINE, FLAG, 1, 2, 3, 4}),
    ("dense_lost_1.png", {COVERED, MINE, 3, 5}),
    ("custom20x12_1000x650_lost.png", {COVERED, MINE, 1, 2, 3}),
    ("custom20x12_1000x650_*.png", {COVERED, MINE, FLAG, 1, 2, 3}),
])
def test_gnome_mines_captures_learned_alone_read_back_with_nothing_misread(
        glob: str, states: set[int]) -> None:
    paths = sorted(GNOME.glob(glob))
    named, wrong, read = _wrong(paths)
    assert wrong == dict.fromkeys(wrong, 0)
    assert states <= named
    assert read >= 0.9 * sum(256 if "medium" in p.name else 100 if "dense" in p.name else 240
                             for p in paths)


def test_a_question_mark_in_play_is_no_flag_when_readings_cannot_place_it() -> None:
    """The pair's question marks stay unknown (the loss cannot tell them from flags);
    its placed flags are still named flags."""
    _, reads = _read_back(sorted(GNOME.glob("medium_700x700_*.png")))
    for _, expected, read in reads:
        assert (read[expected == QUESTION] == UNKNOWN).all()
        assert (read[expected == FLAG] == FLAG).all()


def test_a_win_reading_gives_one_number_to_one_glyph() -> None:
    ids = np.array([[1, 2, 0, 3, 2],
                    [1, 2, 4, 3, 0],
                    [1, 1, 1, 2, 2]])  # 4 counts 1 mine, as 2 does
    assert win_numbers(ids, {}) is None
    assert win_numbers(ids, {}, alike=lambda a, b: {a, b} == {2, 4}) == \
        ((0,), {1: 0, 2: 1, 3: 2, 4: 1})
