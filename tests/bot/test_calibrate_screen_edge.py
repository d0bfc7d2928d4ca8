"""A game window at the screen's left edge (no window manager, or a maximised window):
there is no room left of the board to park the pointer. The X server keeps the pointer
on the screen, so a move to x < 0 lands at x = 0, and calibrate, seeing the pointer
somewhere it did not send it, used to stop with "the pointer was moved by someone else"
before its first click (minesweeper-python 0.0.4 from PyPI, a tk window at (0, 0))."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, SynthGame, SynthMouse, SynthScreen  # noqa: E402

from bot.calibrate_live import LiveCalibrator, LiveOptions  # noqa: E402
from bot.screen import ScreenPoint  # noqa: E402
from solver.game import BoardSize  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

AT_EDGE = Look(pitch_x=24.0, pitch_y=24.0, origin=(0, 110), gap=2)


class ScreenBoundMouse(SynthMouse):
    """Moves as the X server does: the pointer never leaves the screen."""

    def move(self, p: ScreenPoint) -> None:
        w, h = self.size()
        super().move(ScreenPoint(min(max(p.x, 0), w - 1), min(max(p.y, 0), h - 1)))


def test_calibrates_a_board_at_the_screens_left_edge() -> None:
    game = SynthGame(BoardSize(9, 9, 10), AT_EDGE, rule="safe", seed=3)
    opts = LiveOptions(games=2, max_games=6, want=(0, 1, 2), time_limit=40.0,
                       redraw_timeout=0.4, mines=10)
    learned = LiveCalibrator(SynthScreen(game), ScreenBoundMouse(game), opts).run()
    assert len(learned.games) >= 2
    w, h = AT_EDGE.size
    moves = [p for p, _ in game.clicks]
    assert all(0 < p.x < w and 0 < p.y < h for p in moves)
