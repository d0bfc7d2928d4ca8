"""Live calibration of a game whose squares ripple at a click, like the buttons of
nicegui-minesweeper (PyPI), and whose loss shows only the mine hit. The game takes no
click once it has ended, but each click still ripples over its square for a moment
and leaves it as it was. Before, such a click counted as a move (the board changed),
so the loss before it was never seen: calibration clicked on until "the game did not
end within 90 s". Now a move whose change went away again is a click the game did not
take (:meth:`LiveCalibrator.play_game`: at once, or when a wait that ended mid-ripple
is followed by the board as it was), and the move before is judged as when nothing
changes."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, SynthMouse, SynthScreen, render  # noqa: E402
from test_calibrate_gap_recolour import HitOnlyGame  # noqa: E402

from bot.calibrate_live import LiveCalibrator, LiveOptions  # noqa: E402
from bot.screen import ScreenPoint  # noqa: E402
from solver.cells import COVERED, FLAG, QUESTION  # noqa: E402
from solver.game import BoardSize  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

RIPPLE = 0.2  # seconds


class RippleGame(HitOnlyGame):
    """A click on a square lightens it for :data:`RIPPLE` seconds, in steps (one
    every 16 ms); with ``pause``, none from 0.08 s to 0.15 s (live, Chromium painted
    nothing for up to 66 ms mid-ripple: a wait for the board to settle may end there),
    or over ``pause_span``."""

    ripples: dict[tuple[int, int], float]
    pause = False
    pause_span = (0.08, 0.15)

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        cell = self.cell_at(p)
        if cell is not None:
            if not hasattr(self, "ripples"):
                self.ripples = {}
            self.ripples[cell] = time.monotonic()
        super().click(p, button)

    def grab(self, region=None):  # type: ignore[no-untyped-def]
        image = super().grab(None).copy()
        now = time.monotonic()
        for cell, t0 in list(getattr(self, "ripples", {}).items()):
            if now - t0 >= RIPPLE:
                del self.ripples[cell]
                continue
            left, top, right, bottom = self.look.cell_box(*cell)
            t = now - t0
            p0, p1 = self.pause_span
            step = int((p0 if self.pause and p0 <= t < p1 else t) / 0.016)
            tile = image[top:bottom, left:right]
            tile[:] = (tile * 0.5 + 100 + 5 * step).clip(0, 255).astype(np.uint8)
        if region is None:
            return image
        r = region
        return np.ascontiguousarray(image[r.top:r.top + r.height, r.left:r.left + r.width])


SHORT, LONG = (0.08, 0.15), (0.05, 0.17)  # a pause a settle may end in, one it ends in


@pytest.mark.parametrize(("seed", "pause"), [(3, None), (4, None), (3, SHORT), (4, SHORT),
                                             (4, LONG)],
                         ids=["3-steady", "4-steady", "3-short", "4-short", "4-long"])
def test_a_loss_is_seen_past_the_ripples_of_clicks_the_game_ignores(
        seed: int, pause: tuple[float, float] | None) -> None:
    game = RippleGame(BoardSize(9, 9, 10), Look(), rule="none", seed=seed)
    if pause is not None:
        game.pause, game.pause_span = True, pause
    notes: list[str] = []
    opts = LiveOptions(games=2, max_games=8, time_limit=60.0, mines=10, want=(0, 1, 2),
                       log=notes.append)
    calibrator = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts)
    calibrator.run()
    truth = [*game.outcomes, game.game.status][:len(calibrator.results)]
    assert calibrator.results == truth and "lost" in truth, notes


def misread_marks(calibrator: LiveCalibrator) -> str:
    """How a fresh 9x9 board of the test's look with a flag and a question mark on it
    reads wrong with what ``calibrator`` learned ("" when it reads as drawn)."""
    board = np.full((9, 9), COVERED, np.int8)
    board[0, 0], board[0, 1] = FLAG, QUESTION
    read = calibrator.knowledge(calibrator.ids(render(board, Look())))
    if read.tolist() == board.tolist():
        return ""
    return f"a flag and a question mark read {int(read[0, 0])}, {int(read[0, 1])}; " \
        f"{int((read[board == COVERED] != COVERED).sum())} covered squares not covered"


def test_a_mark_is_learned_past_a_ripple_that_pauses() -> None:
    """The ripple pauses for 120 ms from 0.05 s, twice a settle's 60 ms: the wait after
    each right-click settles on a rippled square. Before, those looks were learned as
    the flag's and the question mark's (in CI, a game then showed a real flag no look
    named, and calibration stopped: "a click on the board changed nothing"); now a
    mark's look is taken once it has lasted :data:`MARK_LASTING` s."""
    marks_learned_past_long_pauses()


def marks_learned_past_long_pauses() -> tuple[RippleGame, LiveCalibrator]:
    """A game whose ripples pause long, and a calibrator that has learned its marks
    (and read them right)."""
    game = RippleGame(BoardSize(9, 9, 10), Look(), rule="none", seed=4)
    game.pause, game.pause_span = True, LONG
    opts = LiveOptions(games=1, max_games=1, time_limit=60.0, mines=10, log=lambda _: None)
    calibrator = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts)
    calibrator.learn_marks(calibrator.find_board())
    assert misread_marks(calibrator) == ""
    return game, calibrator


def test_one_random_flag_a_game_when_it_is_drawn_late() -> None:
    """On a loaded machine (the solver's choice takes 0.25 s) the random flag of a
    game's second move ripples on after its wait settled, so the board is read again
    with the move count unchanged. Before, each such read placed another random flag,
    until every covered square was flagged and read as a won game (then "cannot find
    how to start a new game", as the game had not ended); now one a game."""
    game = RippleGame(BoardSize(9, 9, 10), Look(), rule="none", seed=3)
    game.pause, game.pause_span = True, LONG
    opts = LiveOptions(games=2, max_games=8, time_limit=60.0, mines=10, want=(0, 1, 2),
                       log=lambda _: None)
    calibrator = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts)
    choose = calibrator.choose

    def slow_choose(board: np.ndarray) -> tuple[list[tuple[int, int]], float]:
        time.sleep(0.25)
        return choose(board)

    calibrator.choose = slow_choose  # type: ignore[method-assign]
    calibrator.run()
    truth = [*game.outcomes, game.game.status][:len(calibrator.results)]
    assert calibrator.results == truth and {"won", "lost"} <= set(truth)


def test_a_mark_that_shows_after_a_paused_ripple_is_taken_off() -> None:
    """A covered square that ignored two left clicks is right-clicked in case the game
    keeps a mark there it does not draw; a game that draws its marks is clicked
    through its mark cycle back to covered. Before, the look the right-click showed
    was read where the wait settled: mid-ripple, it was no mark, and the flag was
    left on the square."""
    game, calibrator = marks_learned_past_long_pauses()
    time.sleep(RIPPLE)
    cell = (4, 4)
    assert game.game.board[cell] == COVERED
    assert calibrator._clear_unseen_mark(cell, calibrator.grab()) is None
    assert game.game.board[cell] == COVERED and not calibrator.keeps_unseen_marks
