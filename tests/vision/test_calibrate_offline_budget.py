"""``calibrate --from``'s check of looks only other cell sizes' templates named
(:func:`vision.calibrate.unsettle_seeded`, 6.7 s on gnome-mines scaled by 0.8) heeds
the time limit, and when the time is up leaves those looks unnamed rather than keep
names nothing weighed.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import vision.calibrate as calibrate
from solver.cells import FLAG, QUESTION
from vision.calibrate import (
    LEFT_UNCHECKED,
    Budget,
    Image,
    Learner,
    look_distance,
    time_limit,
    unsettle_seeded,
)


def _glyph(*boxes: tuple[int, int, int, int]) -> Image:
    img = np.full((12, 12, 3), 180, np.uint8)
    for r0, r1, c0, c1 in boxes:
        img[r0:r1, c0:c1] = 20
    return img


QUESTION_IMG = _glyph((2, 4, 3, 9), (4, 7, 7, 9), (8, 10, 5, 7))
ONE_IMG = _glyph((2, 10, 5, 7))
Seeded = tuple[Learner, int, int, dict[int, list[Image]]]


@pytest.fixture
def seeded() -> Iterator[Seeded]:
    """A learner whose board shows a question mark and a 1 that only seeded templates
    named, and every size's templates: a flag drawn like that question mark (one look,
    as gnome-mines' at 18 px), and the 1."""
    learner = Learner((12, 12))
    learner.seed({QUESTION: [QUESTION_IMG], 1: [ONE_IMG]})
    mark, one = (learner.bank.classify(img.copy()) for img in (QUESTION_IMG, ONE_IMG))
    assert learner.seed_named() == {mark: QUESTION, one: 1}
    assert look_distance(QUESTION_IMG, ONE_IMG) > calibrate.AMBIGUOUS_NEAR
    yield learner, mark, one, {QUESTION: [QUESTION_IMG.copy()], FLAG: [QUESTION_IMG.copy()],
                               1: [ONE_IMG.copy()]}


def test_with_time_the_ambiguous_look_alone_is_unnamed(seeded: Seeded) -> None:
    learner, mark, one, known = seeded
    with time_limit(Budget(None)) as budget:
        assert unsettle_seeded([learner], known, [[0, 1]])
    assert learner.unsettled == {mark}
    assert learner.known().get(one) == 1
    assert budget.counts() == ()


def test_time_up_leaves_every_unchecked_look_unnamed_at_once(
        seeded: Seeded, monkeypatch: pytest.MonkeyPatch) -> None:
    learner, mark, one, known = seeded
    templates = [id(img) for imgs in known.values() for img in imgs]
    calls: list[tuple[Image, Image]] = []

    def counted(a: Image, b: Image) -> float:
        if id(a) in templates or id(b) in templates:
            calls.append((a, b))
        return look_distance(a, b)

    monkeypatch.setattr(calibrate, "look_distance", counted)
    with time_limit(Budget(0.0)) as budget:
        assert unsettle_seeded([learner], known, [[3, 4]])
    assert not calls  # (no template compared once the time is up; before: all)
    assert learner.unsettled == {mark, one}  # (before: the 1 kept its name)
    assert mark not in learner.known() and one not in learner.known()
    assert budget.counts() == ((LEFT_UNCHECKED, 2),)
