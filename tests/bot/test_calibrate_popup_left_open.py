"""A right-click that opens a popup calibration does not take for a menu (one that opens
away from the pointer's corner, past the board's edge) leaves it open when calibration
stops: the user is now told so, and nothing is pressed to close it (a key could reach
the game itself). A right-click that changes nothing anywhere says nothing of a popup.

Before: the message said only that the right-click changed nothing.
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

SIZE = BoardSize(9, 9, 10)


@dataclass
class PopupGame(SynthGame):
    """A right-click on the board opens a light box 30 px right of and below the
    pointer, reaching past the board's right edge (``popup`` False: it changes
    nothing at all); it stays open."""

    popup: bool = True
    opened_at: tuple[int, int] | None = None

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        self.clicks.append((p, button))
        if button == "right" and self.cell_at(p) is not None and self.popup:
            self.opened_at = (round(p.x) + 30, round(p.y) + 30)

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        img = super().grab()
        if self.opened_at is not None:
            x, y = self.opened_at
            img[y:y + 120, x:x + 200] = (235, 235, 235)
            img[y + 10:y + 110:20, x + 10:x + 150] = (40, 40, 40)  # its lines of text
        return cut(img, region)


@pytest.mark.parametrize("popup", [True, False])
def test_a_popup_left_open_is_said(popup: bool) -> None:
    game = PopupGame(SIZE, Look(), seed=1, popup=popup)
    opts = LiveOptions(games=2, max_games=10, time_limit=40.0)
    with pytest.raises(CalibrationError, match="right-click on the board changed nothing") \
            as caught:
        LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    assert ("still there (a menu?)" in str(caught.value)) == popup, str(caught.value)
    assert {button for _, button in game.clicks} == {"right"}  # no key, no other click
    assert all(not b.startswith("key:") for _, b in game.clicks)
