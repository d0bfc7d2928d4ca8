"""``calibrate --from`` given one capture of a game still in play (the commonest capture
of Windows Minesweeper a user has): no mine shown, no win. Before, such a capture named
nothing ("no look of a square could be named from these screenshots"). Now the game's
logic names what it settles: the covered look (the one plain look under which some
layout of mines fits every number; the 0 taken for it leaves numbers with nothing to
count) and each number every fitting layout agrees on. Marks stay unnamed, and no
square is read wrong."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from solver.cells import COVERED, UNKNOWN
from solver.textboard import parse_board
from vision.calibrate import learn_from_images, read_cells
from vision.in_play_labels import name_in_play

TESTS = Path(__file__).resolve().parent.parent
FIXTURES = TESTS / "fixtures"
IN_PLAY = {  # capture: what it shows besides the covered squares, 0s and numbers
    "xdemineur/intermediate_playing": "flags and question marks",
    "../vision/web_win7/playing": "Windows 7's glossy squares (shaded top to bottom)",
    "../vision/web_checkered/plain_playing": "Google's checkered board: two shades of each",
    "../vision/web_checkered/edges_playing": "Google's, with the opening's edges drawn",
    "xdemineur/expert_playing": "a 5 on one square",
    "gnome-mines/expert_1100x560_playing": "numbers drawn at two sub-pixel phases",
    "gnome-mines/hover_flag_700x700": "a flag lit under the pointer",
    "gnome-mines/screen_hover": "a covered square lit under the pointer, a whole screen",
    "winmine/expert_playing": "WineMine, Windows' look drawn by wine",
    "minegauler/standard/playing_9x9": "a Windows-look clone",
    "pygame-minesweeper/2000/playing_9x9": "Windows 2000's sprites; 0 and covered alike inside",
}


def learned_alone(name: str) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """The capture ``name`` read with what it alone teaches: (expected, read, states)."""
    path = FIXTURES / f"{name}.png"
    image = np.asarray(cv2.imread(str(path)), np.uint8)
    learned = learn_from_images([image], seconds=None)
    g = learned.boards[0]
    assert g is not None
    expected = parse_board(path.with_suffix(".board").read_text())
    return expected, read_cells(image, g, learned.cells), sorted(learned.cells)


@pytest.mark.parametrize("name", sorted(IN_PLAY))
def test_one_capture_in_play_names_covered_zero_and_numbers(name: str) -> None:
    expected, read, states = learned_alone(name)
    known = read != UNKNOWN
    assert np.argwhere(known & (read != expected)).tolist() == []
    assert {COVERED, 0, 1} <= set(states)
    assert known.mean() > 0.8


@pytest.mark.parametrize("name", ["xdemineur/expert_playing", "xdemineur/screen_openbox"])
def test_marks_of_a_capture_scaled_down_are_no_numbers(name: str) -> None:
    """Scaled by 0.8, a flag's and a question mark's rims are blurred 6-21 from the
    covered square's: taken for numbers, they made a wrong mapping the only fit (the
    flags named 5, a question mark 4, a 4 named 5). A glyph whose rim is nearer the
    covered square's than the open square's is a mark."""
    path = FIXTURES / f"{name}.png"
    image = cv2.resize(np.asarray(cv2.imread(str(path)), np.uint8), None, fx=0.8, fy=0.8,
                       interpolation=cv2.INTER_AREA)
    learned = learn_from_images([image], seconds=None)
    g = learned.boards[0]
    assert g is not None
    expected = parse_board(path.with_suffix(".board").read_text())
    read = read_cells(image, g, learned.cells)
    known = read != UNKNOWN
    assert np.argwhere(known & (read != expected)).tolist() == []
    assert known.mean() > 0.9


def test_marks_on_the_covered_square_stay_unknown() -> None:
    expected, read, _ = learned_alone("xdemineur/beginner_marks")
    marks = expected < COVERED  # flags and question marks
    assert marks.sum() == 5
    assert (read[marks] == UNKNOWN).all()
    assert ((read == expected) | (read == UNKNOWN)).all()


def _tile(value: int, raised: bool) -> np.ndarray:
    img = np.full((12, 12, 3), 190 if raised else 160, np.uint8)
    img[:2] = 250 if raised else 100  # a bevel, or a grid line
    img[4:9, 3:3 + value] = 0  # a glyph as wide as its number
    return img


def test_the_zero_taken_for_the_covered_square_makes_marks_of_every_number() -> None:
    """Under the 0 look as the covered square, the numbers (drawn on the open square)
    would be marks on it and the real covered look a 0: every layout fits. Such a
    reading is refused, so only the true one is left."""
    images = {9: _tile(0, True), 3: _tile(0, False), 1: _tile(1, False), 2: _tile(2, False)}
    ids = np.array([[9, 9, 9, 9, 9],
                    [9, 2, 1, 1, 9],
                    [9, 1, 3, 1, 9],
                    [9, 1, 1, 1, 9],
                    [9, 9, 9, 9, 9]])  # an opening round one 0
    names = name_in_play([ids], {}, images.__getitem__)
    assert names.get(9) == COVERED and names.get(3) == 0
    assert names.get(1, 1) == 1 and names.get(2, 2) == 2


def test_two_readings_that_both_fit_name_nothing() -> None:
    """Two plain looks, numbers between them drawn on a square of their own (a rim
    like neither): either may be the covered square, so nothing is named."""
    one = _tile(1, False)
    one[:2] = one[-2:] = one[:, :2] = one[:, -2:] = 175  # as far from either rim
    images = {9: _tile(0, True), 3: _tile(0, False), 1: one}
    ids = np.array([[9, 9, 9, 9],
                    [1, 1, 1, 1],
                    [3, 3, 3, 3]])
    assert name_in_play([ids], {}, images.__getitem__) == {}


def _flag() -> np.ndarray:
    img = _tile(0, True)
    img[4:8, 5:8] = (0, 0, 230)  # a red mark on the covered square
    return img


def test_numbers_named_already_count_among_the_glyphs_beside_the_marks() -> None:
    """With the numbers named (from a won board), a game in play's glyphs left to name
    were its flags alone: taken for most of the glyphs, they refused the true covered
    look (the pygame game's captures named no covered square)."""
    images = {9: _tile(0, True), 3: _tile(0, False), 1: _tile(1, False), 5: _flag()}
    ids = np.array([[5, 9, 9, 9, 5],
                    [9, 1, 1, 1, 9],
                    [9, 1, 3, 1, 9],
                    [9, 1, 1, 1, 9],
                    [5, 9, 9, 9, 5]])
    assert name_in_play([ids], {1: 1, 3: 0}, images.__getitem__) == {9: COVERED}
