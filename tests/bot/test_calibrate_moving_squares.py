"""A game whose squares move as it is played: ``mfranceschi-minesweeper`` 0.2.3 (PyPI,
Tk buttons) sizes each button to its text, so a column that shows a digit grows by
4 px and every square right of it moves. Tried as a new user would, calibrate cut
every square where it first was, took the half squares for the games' ends (14 "won",
7 "lost" of 21 games that never ended), and exited 0 with a skin of split squares;
play then lost its first game on a 0 read as a mine. Calibration now finds the board
again before it reads a game's end (:mod:`vision.moved_squares`) and stops with a
message that says why.

Here a made-up game of 24 px squares (:mod:`calib_synth`) widens every column that
shows a number by 4 px, as the Tk game does.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, SynthGame, SynthMouse, SynthScreen  # noqa: E402

from bot.calibrate_live import CalibrationError, LiveCalibrator, LiveOptions  # noqa: E402
from bot.screen import ScreenPoint  # noqa: E402
from solver.cells import NUMBERS  # noqa: E402
from solver.game import BoardSize  # noqa: E402
from vision.geometry import BoardGeometry  # noqa: E402
from vision.moved_squares import squares_moved  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait


@dataclass(frozen=True)
class GrowingLook(Look):
    """Columns in ``wide`` are ``grow`` px wider; the squares right of them move."""

    wide: frozenset[int] = frozenset()
    grow: int = 4

    def cell_box(self, r: int, c: int) -> tuple[int, int, int, int]:
        left, top, right, bottom = super().cell_box(r, c)
        shift = self.grow * sum(1 for k in self.wide if k < c)
        return left + shift, top, right + shift + (self.grow if c in self.wide else 0), bottom


class GrowingGame(SynthGame):
    """A :class:`SynthGame` whose columns showing a number grow."""

    def click(self, p, button="left"):  # type: ignore[no-untyped-def]
        super().click(p, button)
        shown = np.isin(self.game.board, list(NUMBERS)).any(axis=0)
        self.look = replace(self.look, wide=frozenset(np.flatnonzero(shown).tolist()))

    def new_game(self) -> None:
        super().new_game()
        if isinstance(self.look, GrowingLook):
            self.look = replace(self.look, wide=frozenset())


def test_squares_that_move_stop_calibration_with_a_reason() -> None:
    game = GrowingGame(BoardSize(9, 9, 10), GrowingLook(origin=(40, 110)), rule="safe", seed=2)
    opts = LiveOptions(games=3, max_games=8, time_limit=60.0, log=lambda _: None)
    with pytest.raises(CalibrationError, match="squares moved during the game"):
        LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    assert game.games == 1  # (no game after it was seen)


@dataclass(frozen=True)
class ShortRowLook(Look):
    """Row ``short`` 8 px shorter, the rows above it 5 px lower and those below 3 px
    higher: DangerUXB (Tk) draws a row of numbers alone so, as at a loss that shows
    its whole board."""

    short: int | None = None

    def cell_box(self, r: int, c: int) -> tuple[int, int, int, int]:
        left, top, right, bottom = super().cell_box(r, c)
        if self.short is None:
            return left, top, right, bottom
        if r <= self.short:
            return left, top + 5, right, bottom + (5 if r < self.short else -3)
        return left, top - 3, right, bottom - 3


class ShortRowGame(SynthGame):
    """A :class:`SynthGame` whose rows move at the first loss after its first game."""

    moved = 0  # the game whose rows moved

    def click(self, p, button="left"):  # type: ignore[no-untyped-def]
        super().click(p, button)
        if self.game.status == "lost" and self.games >= 2 and not self.moved:
            self.moved = self.games
            self.look = replace(self.look, short=4)

    def new_game(self) -> None:
        super().new_game()
        if isinstance(self.look, ShortRowLook):
            self.look = replace(self.look, short=None)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_game_whose_rows_moved_at_its_loss_is_left_unread(seed: int) -> None:
    """Before: "the board's squares moved during the game", exit 2 (DangerUXB, 1 run
    in 5). Now the game is left and the next one, laid out as the first, is played."""
    game = ShortRowGame(BoardSize(9, 9, 10), ShortRowLook(origin=(40, 110)), rule="safe",
                        seed=seed)
    log: list[str] = []
    opts = LiveOptions(games=3, max_games=12, time_limit=60.0, log=log.append)
    learned = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    assert game.moved == 2, log  # (the rows moved in the second game)
    assert "game 2: the board's squares moved (at its end, or in it): the game is left " \
        "unread, and a new one started" in log
    assert len(learned.games) == game.games - 2  # (not the one left, nor the fresh one)
    assert learned.cell_size == (24.0, 24.0) and set(learned.mine_counts) == {((9, 9), 10)}
    assert {0, 1, 2, 3}.issubset(learned.cells)


def test_squares_that_move_in_every_game_stop_calibration_at_the_second() -> None:
    """With a known way to start a game, one game whose squares moved is left; a second
    in a row stops calibration."""
    game = GrowingGame(BoardSize(9, 9, 10), GrowingLook(origin=(40, 110)), rule="safe", seed=2)
    face = game.look.face_rect(9)
    opts = LiveOptions(games=3, max_games=8, time_limit=60.0, log=lambda _: None,
                       restart_point=ScreenPoint(face.left + 17, face.top + 17))
    with pytest.raises(CalibrationError, match="squares moved during the game"):
        LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    assert game.games == 2


def test_squares_that_stay_are_calibrated() -> None:
    game = SynthGame(BoardSize(9, 9, 10), Look(origin=(40, 110)), rule="safe", seed=2)
    opts = LiveOptions(games=3, max_games=8, time_limit=60.0, log=lambda _: None)
    learned = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    assert learned.cell_size == (24.0, 24.0)


def test_a_board_found_again_in_part_is_no_move() -> None:
    g = BoardGeometry("", 40.0, 110.0, 24.0, 24.0, 9, 9)
    assert not squares_moved(BoardGeometry("", 40.0, 110.0, 24.0, 24.0, 9, 4), g)
    assert not squares_moved(BoardGeometry("", 41.0, 111.0, 24.1, 24.0, 9, 9), g)
    moved = BoardGeometry("", 40.0, 110.0, 24.0, 24.0, 9, 9,
                          lefts=tuple(40.0 + 24 * c + 4 * (c > 3) for c in range(9)))
    assert squares_moved(moved, g)
