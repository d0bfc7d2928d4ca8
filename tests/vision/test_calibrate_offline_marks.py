"""``calibrate --from`` on WineMine captures: the hit mine and the wrong flags.

A lost WineMine game shows the hit mine (a mine on red) and each wrong flag (a mine
crossed out) on one square each; a lone wrong flag that touches no number fits game
logic as the hit mine just as well. The offline learner named the crossed-out look
"exploded" and the red one "wrong_flag" (a tie split by which looks more like a mine).
Now a look some frame shows on several squares is no hit mine, the lost frames' shared
candidate is, and a tie that nothing splits names neither look.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from solver.cells import EXPLODED, MINE, UNKNOWN, WRONG_FLAG
from solver.textboard import parse_board
from vision.calibrate import learn_from_images, read_cells

WINMINE = Path(__file__).resolve().parent.parent / "fixtures" / "winmine"


Read = tuple[str, np.ndarray, np.ndarray]


def _learn_and_read(names: list[str]) -> tuple[set[int], list[Read]]:
    return _read_back([WINMINE / f"{n}.png" for n in names])


def _read_back(paths: list[Path]) -> tuple[set[int], list[Read]]:
    """What a skin learned from ``paths`` alone names, and each path read back with it
    (name, expected board, read board)."""
    images = [np.asarray(cv2.imread(str(p)), np.uint8) for p in paths]
    learned = learn_from_images(images)
    out = []
    for path, image, g in zip(paths, images, learned.boards, strict=True):
        assert g is not None, path.name
        expected = parse_board(path.with_suffix(".board").read_text())
        out.append((path.name, expected, read_cells(image, g, learned.cells)))
    return set(learned.cells), out


def test_every_winmine_capture_reads_back_with_the_hit_mine_named() -> None:
    """The expert loss shows 3 wrong flags: that look is no hit mine, so the mine on red
    is. No number counts a mine under any wrong flag in these games, and a lost frame
    fits them as mines drawn their own way as well as marks: they stay unknown, never
    misread."""
    states, reads = _learn_and_read(sorted(p.stem for p in WINMINE.glob("*.png")))
    assert EXPLODED in states
    for name, expected, read in reads:
        known = read != UNKNOWN
        assert (read[known] == expected[known]).all(), name
        assert (expected[~known] == WRONG_FLAG).all(), name


def test_two_losses_that_cannot_tell_the_hit_mine_from_a_wrong_flag_name_neither() -> None:
    """In both of these lost games the one wrong flag touches no number: nothing
    tells its look from the hit mine's, so neither is named (read as unknown)."""
    states, reads = _learn_and_read(["intermediate_lost", "intermediate_playing",
                                     "dense_lost", "dense_playing"])
    assert EXPLODED not in states and WRONG_FLAG not in states
    for name, expected, read in reads:
        known = read != UNKNOWN
        assert (read[known] == expected[known]).all(), name
        assert not known[np.isin(expected, (EXPLODED, WRONG_FLAG))].any(), name


GNOME = WINMINE.parent / "gnome-mines"


def _gnome_9x9_reads() -> list[Read]:
    cases = [GNOME / "dense_lost_1.png", GNOME / "custom9x9_600x420_lost.png",
             GNOME / "custom9x9_600x420_playing.png"]
    return _read_back(cases)[1]


def test_a_lone_question_mark_that_fits_a_count_is_not_named_a_number() -> None:
    """The lost 9x9 game shows a question mark whose square happens to count 3 mines
    (and no real 3); the same look sits among opened numbers in the game before the
    loss, where no 3 fits. It is no number, and the 1s around it stay 1s."""
    for name, expected, read in _gnome_9x9_reads():
        as_number = (read >= 0) & (read <= 8)
        assert (read[as_number] == expected[as_number]).all(), name


def test_a_question_marked_mine_shown_at_a_loss_is_a_mine_not_a_flag() -> None:
    """gnome-mines draws a question-marked mine its own way at a loss; as the second
    mine look of the lost frame it was taken for a flag, though the game's flags show
    while it is played (20x12: two such mines). Every square reads right or unknown."""
    cases = [GNOME / "custom20x12_1000x650_lost.png", GNOME / "custom20x12_1000x650_playing.png"]
    images = [np.asarray(cv2.imread(str(p)), np.uint8) for p in cases]
    learned = learn_from_images(images)
    for path, image, g in zip(cases, images, learned.boards, strict=True):
        assert g is not None, path.name
        expected = parse_board(path.with_suffix(".board").read_text())
        read = read_cells(image, g, learned.cells)
        known = read != UNKNOWN
        assert (read[known] == expected[known]).all(), path.name
    lost = read_cells(images[0], learned.boards[0], learned.cells)  # type: ignore[arg-type]
    assert lost[4, 1] == lost[8, 13] == MINE
