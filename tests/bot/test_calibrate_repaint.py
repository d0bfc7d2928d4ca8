"""Live calibration of games that draw things the way gnome-mines' 'classic' and
'default' themes do (40.1), against the made-up game of tests/vision/calib_synth.py:

* at a loss the whole board is drawn anew (covered squares darker, open squares
  tinted), so every square changes, not only the mines shown: the calibrator took every
  covered square for a shown mine (``bot.calibrate_live.LiveCalibrator.judge`` now
  starts with ``vision.calibrate.Learner.unpaint``);
* a mark is drawn a little differently in some columns (the classic theme's detailed
  flag at another sub-pixel phase), so the flag the calibrator places to lose on purpose
  or to see a wrong flag can be a look it has not named: the right-click that placed it
  names it (``LiveCalibrator._name_marks``); before, the marks stayed on the board
  unknown, a wrong flag was named a mine and its look covered.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, SynthGame, SynthMouse, SynthScreen, render  # noqa: E402

from bot.calibrate_live import Learned, LiveCalibrator, LiveOptions  # noqa: E402
from solver.cells import COVERED, FLAG, MINE, WRONG_FLAG  # noqa: E402
from solver.game import BoardSize  # noqa: E402
from vision.calibrate import read_cells  # noqa: E402
from vision.geometry import BoardGeometry, PixelRect  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

LOOK = Look(pitch_x=23.4, pitch_y=23.4, origin=(51, 123), gap=2)
FLAG_RED = (0, 0, 230)
REPAINT = {LOOK.covered: (130, 82, 34),  # (BGR; the covered tiles' relief stays as it was)
           LOOK.opened: (196, 226, 232)}  # (tinted: not a grey shade)


def board_box(look: Look, size: BoardSize) -> tuple[int, int, int, int]:
    left, top, _, _ = look.cell_box(0, 0)
    _, _, right, bottom = look.cell_box(size.rows - 1, size.cols - 1)
    return left, top, right, bottom


@dataclass
class RepaintedLoss(SynthGame):
    """A loss draws every square of the board anew in other colours."""

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        img = super().grab()
        if self.status() == "lost":
            left, top, right, bottom = board_box(self.look, self.size)
            part = img[top:bottom, left:right]
            for old, new in REPAINT.items():
                part[(part == old).all(axis=2)] = new
        return crop(img, region)


@dataclass
class FlagPhases(SynthGame):
    """Flags in odd columns are drawn a shade darker (another look)."""

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        return crop(darken_odd_flags(super().grab(), self.look, self.size), region)


def darken_odd_flags(img: np.ndarray, look: Look, size: BoardSize) -> np.ndarray:
    """``img`` with the flags in odd columns drawn a shade darker (in place)."""
    for c in range(1, size.cols, 2):
        left, top, _, _ = look.cell_box(0, c)
        _, _, right, bottom = look.cell_box(size.rows - 1, c)
        part = img[top:bottom, left:right]
        part[(part == FLAG_RED).all(axis=2)] = (0, 40, 180)
    return img


def crop(img: np.ndarray, region: PixelRect | None) -> np.ndarray:
    if region is not None:
        r = region
        img = img[r.top:r.top + r.height, r.left:r.left + r.width]
    return np.ascontiguousarray(img)


def calibrate(game: SynthGame, log: list[str]) -> Learned:
    opts = LiveOptions(games=3, max_games=12, time_limit=60.0, log=log.append)
    return LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()


def geometry(size: BoardSize) -> BoardGeometry:
    x0, y0 = LOOK.origin
    return BoardGeometry("", x0, y0, LOOK.pitch_x, LOOK.pitch_y, size.rows, size.cols)


def test_a_loss_that_draws_the_board_anew_is_read_right() -> None:
    size = BoardSize(9, 9, 13)
    log: list[str] = []
    result = calibrate(RepaintedLoss(size, LOOK, rule="safe", seed=3), log)
    assert "lost" in result.games
    assert result.mine_counts and {n for _, n in result.mine_counts} == {13}
    assert not any("the game has" in m and "13 mines" not in m for m in log)
    # the learned templates read a lost board as drawn anew: covered, numbers, mines
    game = RepaintedLoss(size, LOOK, rule="safe", seed=11)
    game.game.open((4, 4))
    assert game.game.mines is not None
    mine = tuple(int(v) for v in np.argwhere(game.game.mines)[0])
    game.game.open((mine[0], mine[1]))
    read = read_cells(game.grab(), geometry(size), result.cells)
    truth = game.game.board
    assert (read == truth).all(), (read, truth)


def test_a_flag_of_a_look_not_named_yet_is_named_by_its_right_click() -> None:
    size = BoardSize(9, 9, 13)
    log: list[str] = []
    result = calibrate(FlagPhases(size, LOOK, rule="safe", seed=3), log)
    assert "lose on purpose with marks on the board" in log
    assert result.mine_counts and {n for _, n in result.mine_counts} == {13}
    # both flag colours are named flag (and a wrong flag, crossed out), neither covered
    # nor mine
    for code in (COVERED, MINE):
        for img in result.cells.get(code, ()):
            assert not (img == FLAG_RED).all(axis=2).any()
            assert not (img == (0, 40, 180)).all(axis=2).any()
    board = np.full((size.rows, size.cols), COVERED, np.int8)
    board[0, :2] = FLAG
    read = read_cells(render(board, LOOK), geometry(size), result.cells)
    assert read[0, 0] == FLAG  # (the board as FlagPhases draws it: column 1 darker)
    game = FlagPhases(size, LOOK, rule="safe", seed=11)
    game.game.board[0, :2] = FLAG
    assert (read_cells(game.grab(), geometry(size), result.cells)[0, :2] == FLAG).all()
    assert WRONG_FLAG in result.cells


@dataclass
class FlagsAtWin(SynthGame):
    """A win flags every mine (as gnome-mines does); those flags in odd columns are
    drawn a shade darker, a look the calibrator has not named."""

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        if self.status() == "won":
            assert self.game.mines is not None
            self.game.board[self.game.mines] = FLAG
        img = super().grab()
        if self.status() == "won":
            darken_odd_flags(img, self.look, self.size)
        return crop(img, region)


def test_the_flags_a_game_places_at_a_win_are_named() -> None:
    """Before, every win ended with 'the board did not read whole before the restart'
    (6 s lost each) and play stopped at an unread flag of a won board."""
    size = BoardSize(9, 9, 10)
    log: list[str] = []
    game = FlagsAtWin(size, LOOK, rule="safe", seed=3)
    opts = LiveOptions(games=3, max_games=12, time_limit=60.0, log=log.append,
                       uncover_timeout=1.0)
    result = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    assert "won" in result.games
    assert not any("did not read whole" in m for m in log), log
    darker = np.full((size.rows, size.cols), COVERED, np.int8)
    darker[0, 1] = FLAG
    image = render(darker, LOOK)
    image[(image == FLAG_RED).all(axis=2)] = (0, 40, 180)
    assert read_cells(image, geometry(size), result.cells)[0, 1] == FLAG


GREY = (128, 128, 128)
GREY_LOOK = Look(pitch_x=23.4, pitch_y=23.4, origin=(51, 123), gap=2, opened=GREY)


@dataclass
class GreyNumbersAtLoss(SynthGame):
    """A loss draws the numbers anew a dull grey (every value v of an open square to
    0.6 v + 51.2: its grey ground stays), as ikokkari's Java ``Minesweeper.java`` draws
    its numbers black in play and dark grey once a loss shows the whole board."""

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        img = super().grab()
        if self.status() == "lost":
            for r, c in np.argwhere((self.game.board >= 1) & (self.game.board <= 8)).tolist():
                left, top, right, bottom = self.look.cell_box(r, c)
                part = img[top:bottom, left:right].astype(np.float64)
                img[top:bottom, left:right] = np.round(part * 0.6 + 51.2).astype(np.uint8)
        return crop(img, region)


def test_numbers_a_loss_draws_anew_are_named_as_they_were_in_play() -> None:
    """The loss's grey numbers were named and the numbers of play were not: play met
    every number it opened as a look the skin could not name, and guessed blind
    (13 games of the Java game, none won). The numbers drawn anew are pairs of looks
    (:meth:`vision.calibrate.Learner.unpaint`): both looks of a number get its name."""
    size = BoardSize(9, 9, 13)
    log: list[str] = []
    result = calibrate(GreyNumbersAtLoss(size, GREY_LOOK, rule="safe", seed=3), log)
    assert "lost" in result.games
    g = BoardGeometry("", *GREY_LOOK.origin, GREY_LOOK.pitch_x, GREY_LOOK.pitch_y,
                      size.rows, size.cols)
    game = GreyNumbersAtLoss(size, GREY_LOOK, rule="safe", seed=11)
    game.game.open((4, 4))
    assert (read_cells(game.grab(), g, result.cells) == game.game.board).all()  # in play
    assert game.game.mines is not None
    mine = tuple(int(v) for v in np.argwhere(game.game.mines)[0])
    game.game.open((mine[0], mine[1]))
    read = read_cells(game.grab(), g, result.cells)
    assert (read == game.game.board).all(), (read, game.game.board)  # at the loss
