"""Calibrate pointed at a lattice that is no game: a terminal showing a grid of one
character (``  #  #  #``) where a right-click highlights text from the top-left to the
pointer (xterm extends its selection) and a left-click clears the highlight. Before,
calibrate took the highlight for a flag, read the next change as a lost game ("the game
has 0 mines"), played ten "games" on the terminal and wrote a skin (exit 0). A mark
changes its own square only; a loss shows at least the mine hit.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, SynthGame, SynthMouse, SynthScreen, cut  # noqa: E402

from bot.calibrate_live import CalibrationError, LiveCalibrator, LiveOptions  # noqa: E402
from bot.screen import ScreenPoint  # noqa: E402
from solver.game import BoardSize  # noqa: E402
from vision.geometry import PixelRect  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait


@dataclass
class SelectionOnly(SynthGame):
    """A board that opens nothing: a right-click highlights (inverts) every square
    from (0, 0) to the one clicked, in reading order; a left-click clears it."""

    selected_to: int | None = None

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        self.game.board[:] = -1  # (never opened: every square stays covered)
        img = super().grab()
        if self.selected_to is not None:
            cols = self.size.cols
            for k in range(self.selected_to + 1):
                left, top, right, bottom = self.look.cell_box(k // cols, k % cols)
                img[top:bottom, left:right] = 255 - img[top:bottom, left:right]
        return cut(img, region)

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        self.clicks.append((p, button))
        cell = self.cell_at(p)
        if button == "right" and cell is not None:
            self.selected_to = cell[0] * self.size.cols + cell[1]
        elif button == "left":
            self.selected_to = None


def test_a_highlight_is_no_lost_game() -> None:
    log: list[str] = []
    game = SelectionOnly(BoardSize(9, 9, 10), Look(), seed=1)
    opts = LiveOptions(games=2, max_games=10, time_limit=40.0, log=log.append)
    with pytest.raises(CalibrationError, match="right-click on the board changed nothing"):
        LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    assert not any(m.startswith("game ") for m in log), log
    assert {button for _, button in game.clicks} == {"right"}  # nothing opened, no restart


class RightOpens(SynthGame):
    """A right-click opens the square as a left click does (kivy-mines-package: Kivy
    buttons press on either button; it flags through a "Flagging" mode button)."""

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        super().click(p, "left" if button == "right" else button)


@pytest.mark.parametrize("seed, opens", [(2, "one square"), (1, "a region")])
def test_a_right_click_that_opens_is_no_flag(seed: int, opens: str) -> None:
    """Before, a right-click that opened one square (a number) was learned as the flag;
    then the loss's mines were counted wrong ("the game has 44 mines" on a 9 x 9 board
    of 10). Now calibration stops after a second right-click on the same square finds
    it opened; one that opens a region is refused as before."""
    game = RightOpens(BoardSize(9, 9, 10), Look(), rule="safe", seed=seed)
    calibrator = LiveCalibrator(SynthScreen(game), SynthMouse(game), LiveOptions())
    with pytest.raises(CalibrationError, match="opened"):
        calibrator.run()
    opened = int((game.game.board >= 0).sum())
    assert (opened == 1) == (opens == "one square") and opened > 0
    clicked = {p for p, _ in game.clicks}
    assert len(clicked) == 1 and len(game.clicks) <= 3  # that square only
