"""Live calibration of a game whose new game is drawn slowly (ace-minesweeper on a
loaded machine: its penguin starts a new game, and the squares are covered again row
by row). CI once saw the click on the penguin start a game that was still being drawn
when the calibrator gave up on that control, and then "cannot find how to start a new
game". A control whose click begins to change the board gets longer to draw its game."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, SynthGame, SynthMouse, SynthScreen, cut, render  # noqa: E402

from bot.calibrate_live import FRESH_TIMEOUT, LiveCalibrator, LiveOptions  # noqa: E402
from bot.screen import ScreenPoint  # noqa: E402
from solver.cells import COVERED  # noqa: E402
from solver.game import BoardSize  # noqa: E402
from vision.geometry import PixelRect  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

LOOK = Look(pitch_x=23.4, pitch_y=23.4, origin=(51, 123), gap=2)
ROW_SECONDS = 0.15
"""How long the slow game takes to cover each row of its new game."""


class SlowNewGame(SynthGame):
    """After a click on the face, the ended board stays for a moment, then its rows are
    covered one by one, top first (:data:`ROW_SECONDS` each)."""

    ended: np.ndarray | None = None
    since = 0.0

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        board = self.game.board.copy()
        games = self.games
        super().click(p, button)
        if self.games != games:
            self.ended, self.since = board, time.monotonic()

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        if self.ended is None:
            return super().grab(region)
        rows = int((time.monotonic() - self.since) / ROW_SECONDS) - 1
        if rows >= self.size.rows:
            self.ended = None
            return super().grab(region)
        shown = self.ended.copy()
        shown[:max(0, rows)] = COVERED
        self.ticks += 1
        img = render(shown, self.look, self.status(), self.ticks // 7)
        return cut(img, region)


def test_a_new_game_drawn_slowly_is_waited_for() -> None:
    size = BoardSize(9, 9, 10)
    assert (size.rows + 1) * ROW_SECONDS > FRESH_TIMEOUT  # (slower than a control's wait)
    game = SlowNewGame(size, LOOK, rule="safe", seed=3)
    opts = LiveOptions(games=2, max_games=6, time_limit=60.0)
    learned = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    assert learned.restart["kind"] == "click"
    assert len(learned.games) >= 2
