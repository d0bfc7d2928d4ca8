"""``calibrate --from`` gives up on a lost frame with too many readings to try, instead
of running for many minutes: Google's board draws an edge on each side an opened square
shares with a covered one, so each number has a look per edge variant (38 looks in the
edged captures, 3.9 million readings of one frame; before the cap the learner ran for
over 15 minutes on these four captures)."""

from __future__ import annotations

import numpy as np
import pytest
from test_calibrate_offline_checkered import read_back

import vision.calibrate as calibrate
from solver.cells import COVERED, EXPLODED, MINE
from vision.calibrate import loss_hypotheses


def test_edged_checkered_captures_are_learned_without_a_wrong_name() -> None:
    states, _ = read_back("edges")
    assert {COVERED, 0, 1, 2} <= states


# a lost frame by look ids: 0 covered, 1 a 1, 2 the hit mine, 3 a shown mine
LOSS = np.array([[2, 1, 0, 0],
                 [1, 1, 0, 3],
                 [0, 0, 0, 0]], np.int32)


def test_a_frame_with_more_readings_than_the_cap_gets_none(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert loss_hypotheses(LOSS, {})
    monkeypatch.setattr(calibrate, "MAX_READINGS", 3)
    assert loss_hypotheses(LOSS, {}) == []
    assert loss_hypotheses(LOSS, {0: COVERED, 2: EXPLODED, 3: MINE})  # few left to try
