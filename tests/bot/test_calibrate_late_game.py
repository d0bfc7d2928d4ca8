"""Live calibration of a game whose new game is seen late, with nothing changing
before (minesweeper-mvc on a loaded machine: its board came a second after the click
on its MEDIUM button, but calibrate read each frame for seconds). The calibrator gave
up on that control after its wait, so the control it clicked next, a patch of grass
below the menu, was learned as the new-game control, and the next restart found none:
"cannot find how to start a new game". A new game on the screen before the next
control is tried now goes to the last control tried."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, SynthGame, SynthMouse, SynthScreen, cut  # noqa: E402

from bot.calibrate_live import FRESH_TIMEOUT, LiveCalibrator, LiveOptions  # noqa: E402
from bot.screen import ScreenPoint  # noqa: E402
from solver.game import BoardSize  # noqa: E402
from vision.geometry import PixelRect  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

LOOK = Look(pitch_x=24.0, pitch_y=24.0, origin=(40, 110), gap=2)
LATE = FRESH_TIMEOUT + 0.6
"""Seconds from the click on the face to the new game on the screen."""


class LateNewGame(SynthGame):
    """A click on the face starts the next game :data:`LATE` seconds later; until
    then the screen shows the ended game as it was."""

    due = 0.0

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        f = self.look.face_rect(self.size.cols)
        if f.left <= p.x < f.left + f.width and f.top <= p.y < f.top + f.height:
            self.clicks.append((p, button))
            if self.game.status != "playing" and not self.due:
                self.due = time.monotonic() + LATE
            return
        super().click(p, button)

    def grab(self, region: PixelRect | None = None) -> object:
        if self.due and time.monotonic() >= self.due:
            self.due = 0.0
            self.new_game()
        return super().grab(region)


class LateNewGameAndLamp(LateNewGame):
    """... and a lamp to the right of the face that turns red when a game ends: a
    control tried after the face. Before, the game drawn late came during the wait
    after the click on the lamp (or on the clock, when the clock had changed), and the
    lamp was learned; now the next control is clicked 2 s after the last at the
    earliest (``LATE_GAME_WAIT``)."""

    def grab(self, region: PixelRect | None = None) -> object:
        img = np.array(super().grab(None))
        f = self.look.face_rect(self.size.cols)
        colour = (40, 40, 200) if self.game.status != "playing" else (90, 90, 90)
        cv2.rectangle(img, (f.left + 70, f.top + 4), (f.left + 96, f.top + 30), colour, -1)
        return cut(img, region)


@pytest.mark.parametrize("game_type", [LateNewGame, LateNewGameAndLamp],
                         ids=["face", "face-and-lamp"])
def test_a_new_game_drawn_late_goes_to_the_control_clicked(game_type: type[LateNewGame]) -> None:
    game = game_type(BoardSize(9, 9, 10), LOOK, rule="safe", seed=3)
    notes: list[str] = []
    opts = LiveOptions(games=3, max_games=6, time_limit=90.0, log=notes.append)
    calibrator = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts)
    learned = calibrator.run()
    assert learned.restart["kind"] == "click", notes
    assert len(learned.games) >= 3, notes
    assert "the last control tried started a game, drawn late" in notes
    face = LOOK.face_rect(9)
    for rect in calibrator.restart_rects:  # (grown round the control clicked)
        x, y = rect.left + rect.width / 2, rect.top + rect.height / 2
        assert face.left - 8 <= x <= face.left + face.width + 8, (rect, face)
        assert face.top - 8 <= y <= face.top + face.height + 8, (rect, face)
