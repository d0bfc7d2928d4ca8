"""``calibrate --from``'s check of looks only other cell sizes' templates named
(:func:`vision.calibrate.unsettle_seeded`, 6.7 s on gnome-mines scaled by 0.8) heeds
the time limit, and when the time is up leaves those looks unnamed rather than keep
names nothing weighed. A share of the limit is kept for it (``Budget.reserve``,
``CHECK_SHARE``): the steps before it give up that much early, so the check still runs
when they would take the whole limit (gnome-mines JPEGs at quality 90: 1016 squares
unknown with the check cut, 813 with it run).
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


class FakeClock:
    """Seconds that pass only when a test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_check_runs_in_its_reserve_when_the_steps_before_took_their_time(
        seeded: Seeded) -> None:
    learner, mark, one, known = seeded
    clock = FakeClock()
    budget = Budget(80.0, reserve=10.0, clock=clock)
    clock.now += 75.0  # (the learning before the check gave up at 70 s)
    with time_limit(budget):
        assert budget.over()
        assert unsettle_seeded([learner], known, [[3, 4]])
        assert budget.over()  # (after the check: the steps after it get no reserve)
    assert learner.unsettled == {mark}  # (before: both unnamed unchecked)
    assert learner.known().get(one) == 1
    assert budget.counts() == ()


def test_past_the_whole_limit_the_check_leaves_every_look_unnamed(seeded: Seeded) -> None:
    learner, mark, one, known = seeded
    clock = FakeClock()
    budget = Budget(80.0, reserve=10.0, clock=clock)
    clock.now += 80.5
    with time_limit(budget):
        assert unsettle_seeded([learner], known, [[3, 4]])
    assert learner.unsettled == {mark, one}
    assert budget.counts() == ((LEFT_UNCHECKED, 2),)


def test_the_check_stops_at_the_whole_limit_not_before(
        seeded: Seeded, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reserve is a slice of the limit, not time added to it: a check still under
    way when the whole limit is up leaves what it has not checked unnamed."""
    learner, mark, one, known = seeded
    clock = FakeClock()
    budget = Budget(80.0, reserve=10.0, clock=clock)
    clock.now += 72.0
    calls: list[float] = []

    def slow(a: Image, b: Image) -> float:
        calls.append(clock.now - budget.start)
        clock.now += 9.0  # (each comparison takes 9 s)
        return look_distance(a, b)

    monkeypatch.setattr(calibrate, "look_distance", slow)
    with time_limit(budget):
        assert unsettle_seeded([learner], known, [[3, 4]])
    assert calls == [72.0]  # (none begun past the limit)
    assert learner.unsettled == {mark, one}  # (a look not cleared in time is unnamed)
    assert budget.counts() == ((LEFT_UNCHECKED, 2),)


def test_learn_from_images_keeps_a_share_of_its_limit_for_the_check(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The steps before the check stop :data:`CHECK_SHARE` of the limit early; the
    check has the whole limit (:func:`unsettle_seeded` replaced by a recorder)."""
    seen: list[tuple[float | None, float]] = []

    def record(*args: object, **kwargs: object) -> bool:
        budget = calibrate._budget()
        seen.append((budget.seconds, budget.reserve))
        return False

    monkeypatch.setattr(calibrate, "unsettle_seeded", record)
    img = np.full((160, 160, 3), 192, np.uint8)
    img[::16] = img[:, ::16] = 128  # (a lattice of 16 px squares, all alike)
    calibrate.learn_from_images([img], seconds=80.0)
    assert seen == [(80.0, 80.0 * calibrate.CHECK_SHARE)]
    assert 0.0 < calibrate.CHECK_SHARE < 0.5
