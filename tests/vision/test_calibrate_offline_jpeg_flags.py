"""``calibrate --from`` on gnome-mines JPEGs (quality 75) names no placed flag a mine.

A loss no reading fits is solved for its mine looks (``Learner._solve_loss``): every
look a choice of mines needs that no other frame shows alone was named a mine. Beside
a look named the mine, such a look is a flag or a mine drawn its own way (gnome-mines'
question-marked mine): the frame cannot tell which, so it is left to
:func:`vision.calibrate.name_mine_looks` (a game in play showing it makes it a flag).
``custom20x12_1000x650_lost`` named its two flags a mine, and the capture in play of
the same game, at another cell size, then read every flag as a mine (7 wrong squares
with ``expert_1430x700``; 45 in the whole set of 29).
"""

from __future__ import annotations

from test_lossy_calibrate import learn_jpegs, wrong_unknown  # (this folder is on sys.path)


def test_flags_in_gnome_mines_jpegs_are_not_named_mines() -> None:
    stems = ["expert_1430x700_lost", "expert_1430x700_playing",
             "custom20x12_1000x650_lost", "custom20x12_1000x650_playing"]
    learned, images = learn_jpegs("gnome-mines", stems, 75, seconds=None)
    wrong, unknown = wrong_unknown("gnome-mines", stems, learned, images)
    assert wrong == 0
    assert unknown <= 100  # of 1440
