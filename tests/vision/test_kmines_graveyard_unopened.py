"""kmines' graveyard-mayhem draws its covered tiles translucent over the window's
background: the tiles over a ghost (here (1, 0), (2, 0), (11, 13) and (11, 14)) are a
look of their own, with no name at the first losses of a calibration. A loss counted
them as opened squares, and where their squares happened to count the same number
they were named it (16x16/40: 7 of the 12 "3" templates of a calibrated skin were
covered tiles; play read a fresh board as 3s and stopped). No square opens into the
look it had covered, so a square that shows the look it had at the start of the game
was never opened (:func:`vision.calibrate.never_opened`): it gets no number. Also the
zombie's head of a shown mine lies in the bottom edge of the covered square above it;
that look was first seen beside the dialog's edge, so its first image was no spill,
and the square was counted a shown mine (:meth:`vision.calibrate.Learner.unspill`
now judges each image seen of the look).

Data: ``kmines_graveyard/lossopen16_start.png`` (the fresh 16x16/40 board, 19 px
squares), ``lossopen16_before.png`` (before the losing click at (8, 6)) and
``lossopen16_after.png`` (the frame the live calibration named this loss from: the
mines shown, the "Reset the Game?" dialog coming over rows 3-9), one game of a live
calibration (22 Nov, kmines 22.12.3 on Xvfb). ``OPEN`` is the board before the click,
read by eye (``o`` opened, ``.`` covered).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from bot.calibrate_live import window_over
from solver.cells import COVERED, MINE
from vision.calibrate import CellBank, IdGrid, Learner, label_loss_transition
from vision.geometry import BoardGeometry

DATA = Path(__file__).parent / "kmines_graveyard"
G = BoardGeometry("", 0.0, 0.0, 19.0, 19.0, 16, 16)
CLICKED = (8, 6)
GHOST = ((1, 0), (2, 0), (11, 13), (11, 14))
OPEN = """
................
................
................
................
.........ooo....
.........ooooo..
.........ooooo..
........oooooo..
........oooooo..
........ooo.....
.......oooooo...
.......oooooo...
....ooooooooo...
....oooooooo....
....ooooooooo...
......ooooooo...
"""


def shot(name: str) -> np.ndarray:
    img = cv2.imread(str(DATA / f"lossopen16_{name}.png"), cv2.IMREAD_COLOR)
    assert img is not None
    return img


def loss(with_start: bool, unpaint: bool = True,
         ) -> tuple[dict[tuple[int, int], int], IdGrid, np.ndarray]:
    """The loss's names as live calibration reads them (the window over the board
    read as unchanged, see bot.calibrate_live._loss_reading), the start frame given
    or not, the heads taken for spills (``unpaint``) or not; also the frame before and
    the grid by eye."""
    grid = np.array([list(line) for line in OPEN.split()])
    learner = Learner((19, 19), CellBank(strict=True))
    start, before, after = (learner.ids(shot(n), G) for n in ("start", "before", "after"))
    learner.name(int(start[0, 0]), COVERED)
    known = learner.known()
    if unpaint:
        after = learner.unpaint(before, after)
    over = window_over(after, known, before)
    seen = np.where(over, before, after)
    names = label_loss_transition(before, seen, known, [CLICKED], learner.repaints, over,
                                  start if with_start else None)
    assert names is not None
    near = over | (cv2.dilate(over.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0)
    return {cell: code for cell, code in names.items() if not near[cell]}, before, grid


def test_ghost_tiles_are_a_look_of_their_own_never_changed() -> None:
    _names, before, grid = loss(True)
    start = Learner((19, 19), CellBank(strict=True)).ids(shot("start"), G)
    assert len(np.unique(start)) == 3  # the covered tile, over the ghost, the bottom row
    assert {int(start[c]) for c in GHOST} == {1}
    opened = grid == "o"
    learner = Learner((19, 19), CellBank(strict=True))
    start, before = (learner.ids(shot(n), G) for n in ("start", "before"))
    assert np.array_equal(start != before, opened)  # by eye = as read


def test_no_covered_square_is_named_a_number() -> None:
    names, _before, grid = loss(True)
    numbers = {cell for cell, code in names.items() if 0 <= code <= 8}
    assert numbers and all(grid[cell] == "o" for cell in numbers)
    assert not any(cell in names for cell in GHOST)


def test_the_start_frame_alone_keeps_numbers_off_the_ghost_tiles() -> None:
    """With the head at (3, 0) still taken for a mine (no unspill) the ghost tiles
    count 1 (the cause: named 1 in the live run); the start frame alone keeps them
    unnamed."""
    names, _before, _grid = loss(False, unpaint=False)
    assert {names.get(cell) for cell in GHOST} == {1} and names[(3, 0)] == MINE
    names, _before, _grid = loss(True, unpaint=False)
    assert not any(cell in names for cell in GHOST)


def test_each_opened_look_gets_one_number() -> None:
    names, before, grid = loss(True)
    by_look: dict[int, set[int]] = {}
    for cell, code in names.items():
        if grid[cell] == "o":
            by_look.setdefault(int(before[cell]), set()).add(code)
    assert by_look and all(len(codes) == 1 for codes in by_look.values())


def test_a_head_in_the_square_above_is_no_mine() -> None:
    """(3, 0): the zombie's head of the mine shown at (4, 0) in its bottom edge."""
    names, _before, _grid = loss(True)
    assert names.get((4, 0)) == MINE and names.get((3, 0)) != MINE
