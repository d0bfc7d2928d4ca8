"""kmines' graveyard-mayhem theme: a number the calibrated skin lacks is left unread and
learned in play, never read or named as a number it knows (vision/read.py, bot/learn.py).

The theme draws a small green digit on a tombstone over a large grass tile, so two
digits differ in a few pixels: by the reader's distance an unseen 5 lay 7.6 from a 3
and 10.2 from a 2 (read as the 3: margin 0.745 < 0.75), and by the distances that
forgive a pixel's shift (``look_distance``, ``shade_distance``, ``ink_distance``) a 4
lies within 0.7 of a 2 at 19 px, so play named it "the skin's 2 on another background
shade". Both stopped play in game 1 (22 Nov, kmines 22.12.3 on Xvfb, skins calibrated
from scratch at e781db3 by ``benchmarks/unseen_games.py --theme graveyard-mayhem``).

Data in ``kmines_graveyard/`` (the skins as calibrate wrote them, contact sheet left
out; the 16x16 skin without the two "2" templates play added from the 4):

* ``skin9/`` + ``board9_five.png``: 9x9/10, 32 px squares, board at (32, 32) of the bug
  image; the skin has 0-3, no 4 or 5. ``board9_five.board`` by eye: a 5 at (6, 6)
  (its five covered neighbours all mines: the 2s at (4, 5), (4, 6) and the 3s at
  (6, 5), (7, 6) agree); play read it as a 3: "needs at least 5 mines but the game has
  4 left".
* ``skin16/`` + ``board16_four.png``: 16x16/40, 19 px squares at (19, 19); the skin has
  0-3. ``board16_four.board`` by eye: a 4 at (2, 9) (the 1 at (0, 8) makes (1, 8) a
  mine, the 2 at (2, 8) then (3, 9); the 3 at (1, 9) needs two of (0, 10), (1, 10),
  (2, 10), so (2, 9) sees at least three); play named it 2: "numbers no layout of 40
  mines satisfies (the number at (1, 9))".
"""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.learn import NumberLearner
from bot.reader import SkinReader
from solver.cells import COVERED, UNKNOWN, Board
from solver.probability import InconsistentBoard, analyse
from solver.textboard import parse_board, parse_comments
from vision.geometry import BoardGeometry
from vision.read import read_board
from vision.skin import load_skin

DATA = Path(__file__).parent / "kmines_graveyard"
CASES = {  # name: (skin, squares, pitch, the unseen number's square, what play made of it)
    "board9_five": ("skin9", 9, 32.0, (6, 6), 3),
    "board16_four": ("skin16", 16, 19.0, (2, 9), 2),
}


def case(name: str) -> tuple[np.ndarray, BoardGeometry, Board, int]:
    _, n, pitch, _, _ = CASES[name]
    image = cv2.imread(str(DATA / f"{name}.png"), cv2.IMREAD_COLOR)
    assert image is not None
    text = (DATA / f"{name}.board").read_text()
    geometry = BoardGeometry("kmines", pitch, pitch, pitch, pitch, n, n)
    return image, geometry, parse_board(text), int(parse_comments(text)["mines"])


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_expected_boards_fit_their_mine_counts(name: str) -> None:
    _, _, truth, mines = case(name)
    analyse(truth, mines)  # consistent as read by eye
    _, _, _, cell, misread = CASES[name]
    wrong = truth.copy()
    wrong[cell] = misread  # as play took it: no layout fits
    with pytest.raises(InconsistentBoard):
        analyse(wrong, mines)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_unseen_number_is_read_as_nothing_known(name: str) -> None:
    skin_dir, _, _, cell, _ = CASES[name]
    image, geometry, truth, _ = case(name)
    board = read_board(image, geometry, load_skin(DATA / skin_dir))
    expected = truth.copy()
    expected[cell] = UNKNOWN
    assert board.tolist() == expected.tolist()


def learn(name: str, tmp_path: Path) -> tuple[NumberLearner, Board, list[str], Board]:
    """Play's learner on the capture seen twice, the unseen square just opened."""
    skin_dir, _, _, cell, _ = CASES[name]
    shutil.copytree(DATA / skin_dir, tmp_path / "kmines")
    reader = SkinReader([load_skin(tmp_path / "kmines")])
    image, geometry, truth, mines = case(name)
    notes: list[str] = []
    learner = NumberLearner(reader, notes.append)
    board = reader.read(image, geometry)
    known = np.where(board == UNKNOWN, COVERED, board).astype(np.int8)
    for _ in range(2):
        got = learner.unseen(image, geometry, board, known, {cell}, mines)
    return learner, got.board, notes, truth


def test_the_unseen_five_waits_as_a_4_or_5(tmp_path: Path) -> None:
    learner, board, notes, truth = learn("board9_five", tmp_path)
    assert notes == []  # nothing named
    assert [(w.look.cells, w.names) for w in learner.waiting] == [(((6, 6),), (4, 5))]
    assert (board == truth)[truth != 5].all()


def test_the_unseen_four_is_learned_as_a_4(tmp_path: Path) -> None:
    _, board, notes, truth = learn("board16_four", tmp_path)
    assert len(notes) == 1 and notes[0].startswith("learned the look of 4 at (2, 9)"), notes
    assert board.tolist() == truth.tolist()
