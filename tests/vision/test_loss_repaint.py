"""A loss that draws the whole board anew: gnome-mines' 'default' and 'classic' themes
(40.1) tint every open square a shade greener and darken every covered square when a
game is lost, so at the loss every square changes, not only the mines it shows. The
calibrator took each darkened covered square for a shown mine ('the game has 255
mines' on a 16x16/40 board, the numbers counted wrong) and, in the default theme, the
tinted open squares for a dialog over the board (a win).
:meth:`vision.calibrate.Learner.unpaint` reads each repainted look as the look its
squares had before, so the loss shows changed only the squares it reveals.

Data: ``gnome_themes/THEME_before.png`` (the board before the losing click) and
``THEME_after.png`` (after it), cut from screenshots of gnome-mines 40.1 on Xvfb
(9x9/10 in a 600x420 window, 43.3 px squares); the lost board in ``THEME_after.board``,
checked by eye and by counting.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from solver.cells import COVERED, EXPLODED, MINE, Board
from solver.textboard import parse_board
from vision.calibrate import (
    CellBank,
    IdGrid,
    Learner,
    label_loss_transition,
    repaint_distance,
    whole_pixel,
)
from vision.lattice import find_lattice, template_size

DATA = Path(__file__).parent / "gnome_themes"
HIT = {"classic": (7, 7), "default": (6, 5)}


def image(name: str) -> np.ndarray:
    img = cv2.imread(str(DATA / name), cv2.IMREAD_COLOR)
    assert img is not None
    return img


def frames(theme: str) -> tuple[Learner, IdGrid, np.ndarray, Board]:
    """A learner that has seen the frame before the loss (its covered look named, as
    the calibrator names it at the start), that frame's looks, the image after, and
    the lost board."""
    truth = parse_board((DATA / f"{theme}_after.board").read_text())
    before_img, after_img = image(f"{theme}_before.png"), image(f"{theme}_after.png")
    g = find_lattice(after_img)  # (every square has an edge of its own there)
    learner = Learner(template_size(g), CellBank(strict=whole_pixel(g)))
    before = learner.ids(before_img, g)
    covered = np.isin(truth, (COVERED, MINE, EXPLODED))  # (the mines were covered)
    looks, counts = np.unique(before[covered], return_counts=True)
    learner.name(int(looks[np.argmax(counts)]), COVERED)
    return learner, before, after_img, truth


@pytest.mark.parametrize("theme", ["classic", "default"])
def test_a_loss_that_repaints_every_square_names_each_square_right(theme: str) -> None:
    learner, before, after_img, truth = frames(theme)
    g = find_lattice(after_img)
    after = learner.ids(after_img, g)
    assert (before != after).mean() > 0.9  # every square drawn anew
    after = learner.unpaint(before, after)
    names = label_loss_transition(before, after, learner.known(), [HIT[theme]])
    assert names is not None
    wrong = {cell: (code, int(truth[cell])) for cell, code in names.items()
             if code != truth[cell]}
    assert not wrong
    named = np.zeros(truth.shape, bool)
    for cell in names:
        named[cell] = True
    # every number and every shown mine is named; the covered squares stay as they were
    assert named[truth != COVERED].all()
    assert not (after != before)[truth == COVERED].any()


@pytest.mark.parametrize("theme", ["classic", "default"])
def test_the_repainted_looks_read_as_the_looks_they_were(theme: str) -> None:
    """Once noted, a repainted look gets its earlier look's name (and templates): the
    lost board reads as the board before it plus the mines shown."""
    learner, before, after_img, truth = frames(theme)
    g = find_lattice(after_img)
    raw = learner.ids(after_img, g)
    after = learner.unpaint(before, raw)
    assert (learner.unpaint(before, raw) == after).all()  # (the next loss alike)
    names = label_loss_transition(before, after, learner.known(), [HIT[theme]])
    assert names is not None
    for cell, code in names.items():
        learner.name(int(after[cell]), code, weight=2)
    known, templates = learner.known(), learner.templates()
    assert len(learner.alias) >= 4  # the covered square, the 0, the 1 and the 2
    for look, was in learner.alias.items():
        code = known[was]
        assert known[look] == code
        assert any(np.array_equal(img, learner.bank.mean_image(look)) for img in templates[code])
    assert learner.unnamed() == []
    read = learner.codes(raw, -99)  # the lost board as drawn reads whole and right
    assert (read == truth).all()


def test_a_frame_whose_open_squares_stay_is_no_repaint() -> None:
    learner, before, after_img, _ = frames("classic")
    moved = before.copy()
    moved[0, 0] = before[3, 0]  # a covered square opened, the open squares as they were
    assert learner.unpaint(before, moved) is moved
    assert learner.unpaint(before, before) is before
    assert learner.alias == {} and learner.repaints == set()


def test_a_look_named_already_is_restored_in_the_lost_frame_only() -> None:
    """gnome-mines' highlighted covered tile (under the pointer) looks like the default
    theme's tinted 0 after a loss: named covered, it stays so, and the loss counts the
    0s as 0s (the calibrator counted every 0 a shown mine)."""
    learner, before, after_img, truth = frames("default")
    g = find_lattice(after_img)
    after = learner.ids(after_img, g)
    tinted_zero = int(after[0, 0])
    learner.name(tinted_zero, COVERED)
    restored = learner.unpaint(before, after)
    assert tinted_zero not in learner.alias and learner.known()[tinted_zero] == COVERED
    for frame in (restored, after):  # (a step frame is read with the pairs noted)
        names = label_loss_transition(before, frame, learner.known(), [HIT["default"]],
                                      learner.repaints)
        assert names is not None
        assert all(code == truth[cell] for cell, code in names.items())
    # the next loss: its new looks read as before (aliases), but the tinted 0s must be
    # restored too, else they read as covered squares (the calibrator then took the
    # loss for a dialog over the board: a win)
    again = learner.ids(after_img, g)
    assert (again != before)[truth == 0].all()
    assert (learner.unpaint(before, again) == restored).all()


@pytest.mark.parametrize("theme", ["classic", "default"])
def test_a_number_first_drawn_anew_at_a_later_loss_is_restored_too(theme: str) -> None:
    """The first loss showed no 2 (say), the next one does: the 2s drawn anew are
    restored then (the calibrator took a tinted 4 for a shown mine at its second loss,
    every number around it counted wrong, and played on, clicking a finished game)."""
    learner, before, after_img, truth = frames(theme)
    raw = learner.ids(after_img, find_lattice(after_img))
    first = raw.copy()
    first[truth == 2] = before[truth == 2]  # (no 2 drawn anew at the first loss)
    learner.unpaint(before, first)
    assert (learner.unpaint(before, raw) == before)[truth >= 0].all()


def test_a_white_8_drawn_anew_at_a_loss_is_restored() -> None:
    """The classic theme draws its 8 white on the light grey open square: too light to
    tell from the square by a fixed ink threshold (vision.shade.ink_distance saw an 8
    on the tinted square and none on the light one), so the calibrator took a lost
    dense board's 8 for a shown mine and named the light 8 covered. Data: cells of a
    live calibration (49 px; an 8 before and after a loss, a covered square before and
    after), checked by eye."""
    eight, eight_lost = image("classic_8_open.png"), image("classic_8_lost.png")
    covered, covered_lost = image("classic_covered_open.png"), image("classic_covered_lost.png")
    assert repaint_distance(eight, eight_lost) <= 1.0
    assert repaint_distance(covered, eight_lost) > 1.0
    learner = Learner((eight.shape[1], eight.shape[0]))
    looks = [learner.bank.classify(img) for img in (covered, eight, covered_lost, eight_lost)]
    learner.name(looks[0], COVERED)
    before = np.array([[looks[0], looks[1]]], np.int32)
    after = learner.unpaint(before, np.array([[looks[2], looks[3]]], np.int32))
    assert (after == before).all()
