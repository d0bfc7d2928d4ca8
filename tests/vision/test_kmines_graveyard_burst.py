"""kmines' graveyard-mayhem: the burst of the hit mine spills into the square above it
(a red and white flash and the zombie's head along the bottom edge, 63-66 % of it).
Calibrate took those covered squares for shown mines: 2 of the 6 'mine' templates of a
9x9 calibration, 1 of 16 at 16x16 (22 Nov, skins calibrated live from scratch at
e781db3; ``tests/bot/kmines_graveyard/skin9``, ``skin16``). Those templates are the
plain covered tile but for that strip (checked by eye on an 8x zoom);
:meth:`vision.calibrate.Learner.unspill` now reads such a square as the covered
square it was (``SPILL_ALONG``).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from solver.cells import COVERED, MINE
from vision.calibrate import Learner, spill_side

SKINS = Path(__file__).resolve().parent.parent / "bot" / "kmines_graveyard"
CASES = {  # skin: (square side, the plain covered tile, the burst-spilt one, a shown mine)
    "skin9": (32, "covered_0.png", "mine_4.png", "mine_0.png"),
    "skin16": (19, "covered_0.png", "mine_15.png", "mine_0.png"),
}


def image(skin: str, name: str) -> np.ndarray:
    img = cv2.imread(str(SKINS / skin / name), cv2.IMREAD_COLOR)
    assert img is not None
    return img


@pytest.mark.parametrize("skin", sorted(CASES))
def test_the_burst_is_a_spill_along_the_bottom_edge(skin: str) -> None:
    _, covered, spilt, _ = CASES[skin]
    a, b = image(skin, covered), image(skin, spilt)
    changed = np.abs(a.astype(int) - b.astype(int)).max(axis=2) > 32
    rows = np.nonzero(changed.any(axis=1))[0]
    assert rows.min() >= 0.8 * a.shape[0]  # only the bottom strip differs
    assert spill_side(a, b) == (1, 0)


@pytest.mark.parametrize("skin", sorted(CASES))
def test_the_square_above_the_hit_mine_stays_covered(skin: str) -> None:
    side, covered, spilt, mine = CASES[skin]
    learner = Learner((side, side))
    c, s, m = (learner.bank.classify(image(skin, n)) for n in (covered, spilt, mine))
    learner.name(c, COVERED)
    learner.name(m, MINE)
    before, after = np.array([[c], [c]]), np.array([[s], [m]])  # the mine below it shown
    assert learner.unspill(before, after).tolist() == [[c], [m]]
    assert learner.known()[s] == COVERED
