"""A number learned in play on one of kmines' background shades is read on the others,
and a look like a known number is never named another (bot/learn.py, vision/shade.py).

kmines draws its open squares translucent over the window's shaded background (rows 0-3
lighter than the rest), so one number has a look per shade. Data (kmines 22.12 on Xvfb,
22 Nov 2026): ``kmines/skin/`` is a skin calibrated live (0-3 at every shade seen, the
covered, flag, question, mine, exploded and wrong-flag looks; the 4 and 5 play learned
in that session left out); ``kmines/lighter_four.png`` the board of a game of that
session one move before a loss on a square rated safe: a 4 at (4, 6) on the darkest
shade (173 grey) and a 4 at (2, 5) on a lighter row (184), which play had named "5"
(``kmines/lighter_four.board``, checked by eye and by the mine count: (6, 0) and (8, 6)
are the mines of the 1s beside them, the 4 at (4, 6) has exactly four covered
neighbours); ``kmines/four_173.png`` the template of 4 that play wrote in that session
(from (4, 6)'s shade).
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.learn import NumberLearner, add_templates
from bot.reader import SkinReader
from solver.cells import COVERED, UNKNOWN, Board
from solver.textboard import parse_board
from vision.geometry import BoardGeometry
from vision.lattice import cut, find_lattice
from vision.shade import background, ink_distance, resembles, shade_distance
from vision.skin import load_skin

DATA = Path(__file__).parent / "kmines"
MINES = 10
LIGHT, DARK = (2, 5), (4, 6)  # the two 4s


def capture() -> np.ndarray:
    img = cv2.imread(str(DATA / "lighter_four.png"), cv2.IMREAD_COLOR)
    assert img is not None
    return img


def truth() -> Board:
    return parse_board((DATA / "lighter_four.board").read_text())


def geometry(img: np.ndarray) -> BoardGeometry:
    g = replace(find_lattice(img), skin="kmines")
    assert (g.rows, g.cols, g.pitch_x) == (9, 9, 32.0)
    return g


def paste(img: np.ndarray, g: BoardGeometry, dst: tuple[int, int], src: np.ndarray
          ) -> np.ndarray:
    """``img`` with the square ``dst`` replaced by ``src`` (a cut of the same size)."""
    out = img.copy()
    x, y = round(g.x0 + dst[1] * g.pitch_x), round(g.y0 + dst[0] * g.pitch_y)
    out[y:y + src.shape[0], x:x + src.shape[1]] = src
    return out


def learner_on(skin_dir: Path, tmp_path: Path, extra: str | None = None
               ) -> tuple[NumberLearner, SkinReader, list[str]]:
    """A learner and reader on a copy of the calibrated skin (plus the template
    ``extra`` as the skin's 4, written as play wrote it before)."""
    shutil.copytree(DATA / "skin", skin_dir)
    skin = load_skin(skin_dir)
    if extra is not None:
        four = np.asarray(cv2.imread(str(DATA / extra), cv2.IMREAD_COLOR), np.uint8)
        skin = add_templates(skin, {4: [four]})
    reader = SkinReader([skin])
    notes: list[str] = []
    learner = NumberLearner.for_reader(reader, notes.append)
    assert learner is not None
    return learner, reader, notes


def unseen_twice(learner: NumberLearner, reader: SkinReader, img: np.ndarray,
                 g: BoardGeometry, known: Board, opening: set[tuple[int, int]]) -> Board:
    """What the learner makes of two captures of ``img`` (it names a new look on the
    second capture with the same pixels)."""
    for _ in range(2):
        got = learner.unseen(img, g, reader.read(img, g), known, opening, MINES)
    assert got.boards == ()
    return got.board


def test_the_data_shows_one_glyph_on_two_shades() -> None:
    img = capture()
    g = geometry(img)
    light, dark = cut(img, g, LIGHT), cut(img, g, DARK)
    assert background(light).tolist() == [184.0] * 3 and background(dark).tolist() == [173.0] * 3
    four = np.asarray(cv2.imread(str(DATA / "four_173.png"), cv2.IMREAD_COLOR), np.uint8)
    assert shade_distance(four, dark) <= 1.0 and shade_distance(four, light) <= 1.0
    assert ink_distance(four, light) <= 1.0
    skin = load_skin(DATA / "skin")
    assert resembles(light, skin.cells, tuple(skin.cells)) == {}  # no number the skin has


def test_a_four_learned_on_the_dark_rows_reads_on_a_lighter_row(tmp_path: Path) -> None:
    """Play learns the 4 at (4, 6) (its last move opened it; (2, 5) still covered), then
    meets the 4 at (2, 5) on a lighter row: the skin reads it as 4 (it named it "5" and
    lost on a square it rated safe)."""
    img = capture()
    g = geometry(img)
    learner, reader, notes = learner_on(tmp_path / "skin", tmp_path)
    first = paste(img, g, LIGHT, cut(img, g, (1, 5)))  # (2, 5) not opened yet
    known = truth()
    known[LIGHT] = known[DARK] = COVERED
    board = unseen_twice(learner, reader, first, g, known, {DARK})
    assert learner.learned == [(4, DARK)], notes
    assert board[DARK] == 4 and board[LIGHT] == COVERED
    known[DARK] = 4
    read = reader.read(img, g)
    assert (read == truth()).all(), read
    board = unseen_twice(learner, reader, img, g, known, {LIGHT})
    assert (board == truth()).all() and learner.learned == [(4, DARK)]
    # and a later session reads both 4s with the skin as written
    again = SkinReader([load_skin(tmp_path / "skin")])
    assert (again.read(img, g) == truth()).all()


def test_a_skin_with_a_four_on_one_shade_reads_it_on_another(tmp_path: Path) -> None:
    """A skin written before the fix (its learned 4 on the darkest shade alone): the
    lighter 4 is unreadable to the reader, and play names it 4 by its shade, never 5."""
    img = capture()
    g = geometry(img)
    learner, reader, notes = learner_on(tmp_path / "skin", tmp_path, "four_173.png")
    read = reader.read(img, g)
    assert read[LIGHT] == UNKNOWN and read[DARK] == 4
    known = truth()
    known[LIGHT] = COVERED
    board = unseen_twice(learner, reader, img, g, known, {LIGHT})
    assert (board == truth()).all(), board
    assert learner.learned == [(4, LIGHT)] and "another background shade" in notes[0]
    assert (reader.read(img, g) == truth()).all()  # from the templates written


@pytest.mark.parametrize("step", [12, 30])
def test_a_four_on_a_background_no_shade_fits_is_left_unread(tmp_path: Path,
                                                               step: int) -> None:
    """The lighter 4 with the top-left half of its background lighter still (a sharp
    swoosh edge across the square): no template matches it even but for the shade, and
    it is like the skin's 4, so play leaves it unknown rather than name it 5."""
    img = capture()
    g = geometry(img)
    learner, reader, notes = learner_on(tmp_path / "skin", tmp_path, "four_173.png")
    light = cut(img, g, LIGHT).copy()
    flat = np.abs(light.astype(np.int16) - background(light)).max(axis=2) <= 10
    yy, xx = np.mgrid[:light.shape[0], :light.shape[1]]
    edged = flat & (xx + yy < 28)
    light[edged] = np.clip(light[edged].astype(np.int16) + step, 0, 255).astype(np.uint8)
    odd = paste(img, g, LIGHT, light)
    four = load_skin(tmp_path / "skin").cells[4][0]
    assert shade_distance(four, light) > 1.0  # (not named by shade)
    known = truth()
    known[LIGHT] = COVERED
    board = unseen_twice(learner, reader, odd, g, known, {LIGHT})
    assert board[LIGHT] == UNKNOWN and learner.learned == [], notes
    assert not list((tmp_path / "skin").glob("5*"))
