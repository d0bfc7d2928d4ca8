"""Thin glyphs on small squares: ace-minesweeper's 32x32 level draws 12 px squares with
one-pixel digits, and a 2 lies inside a 3 grown by a pixel (and the other way round), so
:func:`vision.calibrate.look_distance` calls them one look. On a whole-pixel board a
strict :class:`vision.calibrate.CellBank` keeps them apart, and still puts a square cut
one pixel off with its look."""

from __future__ import annotations

import numpy as np

from vision.calibrate import CellBank, Learner, look_distance, shifted_mismatch, whole_pixel
from vision.geometry import BoardGeometry

# the two squares as captured (rows of 12 px: '#' white, '.' green, ' ' dark green dots)
TWO = [" . . . . . .", "............", " ...........", ".....###....",
       " ...#...#...", "........#...", " ......#....", "......#.....",
       " ....#......", "....#####...", " ...........", "............"]
THREE = [" . . . . . .", "............", " ...........", ".....###....",
         " ...#...#...", "........#...", " .....##....", "........#...",
         " ...#...#...", ".....###....", " ...........", "............"]
COLOURS = {"#": (255, 255, 255), ".": (0, 102, 0), " ": (0, 51, 0)}  # BGR


def square(rows: list[str]) -> np.ndarray:
    return np.array([[COLOURS[ch] for ch in row] for row in rows], np.uint8)


def test_look_distance_alone_merges_the_thin_digits() -> None:
    assert look_distance(square(TWO), square(THREE)) <= 1.0  # why strict is needed


def test_a_strict_bank_keeps_a_two_and_a_three_apart() -> None:
    bank = CellBank(strict=True)
    two, three = square(TWO), square(THREE)
    assert bank.classify(two) != bank.classify(three)
    assert bank.classify(two) == bank.classify(two.copy())
    assert shifted_mismatch(two, three) >= 3


def test_a_strict_bank_keeps_a_square_cut_one_pixel_off_with_its_look() -> None:
    bank = CellBank(strict=True)
    two = square(TWO)
    shifted = np.roll(two, 1, axis=1)
    assert bank.classify(two) == bank.classify(shifted)


def test_only_a_whole_pixel_board_is_strict() -> None:
    assert whole_pixel(BoardGeometry("", 128.0, 124.0, 12.0, 12.0, 32, 32))
    assert not whole_pixel(BoardGeometry("", 25.0, 73.0, 43.3, 43.3, 9, 9))
    assert not whole_pixel(BoardGeometry("", 25.0, 73.0, 40.0, 40.0, 1, 3,
                                         lefts=(25.0, 65.5, 105.0)))


def test_a_strict_learner_gives_no_look_the_name_of_a_thin_glyph_it_merely_resembles() -> None:
    """A look with no votes takes the name of a look it matches but for the shade of
    its background (kmines: :func:`vision.shade.spread_names`); a 3 is no shaded 2."""
    learner = Learner((12, 12), CellBank(strict=True))
    two = learner.bank.classify(square(TWO))
    three = learner.bank.classify(square(THREE))
    learner.name(two, 2, weight=4)
    assert learner.known() == {two: 2}
    learner.bank.strict = False  # what the shade rule alone says
    learner._shade_memo.clear()
    assert learner.known() == {two: 2, three: 2}
