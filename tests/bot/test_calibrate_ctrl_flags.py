"""Live calibration of a game that flags by ctrl+click, where a right-click opens the
browser's context menu over the board (minesweeper-for-web from npm in Chromium).
Before, calibrate stopped at its first right-click ("changed nothing (or changed squares
far from it)"); now it closes the menu with Escape, learns the marks by ctrl+click and
writes ``flag_button: ctrl+left`` into the skin's status."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, SynthGame, SynthMouse, SynthScreen, cut  # noqa: E402

from bot.calibrate_live import CalibrationError, LiveCalibrator, LiveOptions  # noqa: E402
from bot.screen import ScreenPoint  # noqa: E402
from solver.cells import FLAG  # noqa: E402
from solver.game import BoardSize  # noqa: E402
from vision.geometry import PixelRect  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

MENU = (170, 210)  # width, height of the browser's menu


@dataclass
class MenuGame(SynthGame):
    """A right-click opens a menu with its top-left corner at the pointer; Escape or a
    click anywhere closes it (that click goes no further). A ctrl+click marks a square
    (flag, question mark, none) when ``ctrl_marks``, else it opens it."""

    ctrl_marks: bool = True
    menu: tuple[int, int] | None = None
    gestures: list[str] = field(default_factory=list)
    clicks_on_menu: int = 0

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        img = super().grab()
        if self.menu is not None:
            x, y = self.menu
            img[y:y + MENU[1], x:x + MENU[0]] = (245, 245, 245)
            for k in range(6):
                cv2.putText(img, f"Item {k}", (x + 12, y + 28 + 32 * k),
                            cv2.FONT_HERSHEY_SIMPLEX, 0.6, (40, 40, 40), 1)
        return cut(img, region)

    def key(self, keys: str) -> None:
        super().key(keys)
        if keys == "Escape":
            self.menu = None

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        self.gestures.append(button)
        if self.menu is not None:
            self.menu = None
            self.clicks_on_menu += 1
            return
        if button == "right":
            self.menu = (round(p.x) + 1, round(p.y) + 1)
            return
        if button == "ctrl+left":
            button = "right" if self.ctrl_marks else "left"
        super().click(p, button)


def test_flags_are_learned_by_ctrl_click() -> None:
    game = MenuGame(BoardSize(9, 9, 10), Look(), seed=2)
    opts = LiveOptions(games=2, max_games=10, time_limit=60.0)
    learned = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    assert learned.status.get("flag_button") == "ctrl+left", learned.status
    assert FLAG in learned.cells
    assert game.gestures.count("right") == 1  # the one that opened the menu
    assert game.clicks_on_menu == 0
    assert any("ctrl+click" in note for note in learned.notes), learned.notes


def test_a_right_click_game_writes_no_flag_button() -> None:
    game = SynthGame(BoardSize(9, 9, 10), Look(), seed=2)
    opts = LiveOptions(games=2, max_games=10, time_limit=60.0)
    learned = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    assert "flag_button" not in learned.status
    assert {button for _, button in game.clicks} <= {"left", "right"}


def test_a_game_with_no_flag_gesture_stops_with_a_message() -> None:
    """The menu opens and ctrl+click opens the square: no way to flag is known."""
    game = MenuGame(BoardSize(9, 9, 10), Look(), seed=2, ctrl_marks=False)
    opts = LiveOptions(games=2, max_games=10, time_limit=60.0)
    with pytest.raises(CalibrationError, match="ctrl\\+click did not mark"):
        LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    assert game.gestures[0] == "right" and set(game.gestures[1:]) == {"ctrl+left"}
    assert len({p for p, b in game.clicks if b == "left"}) == 1  # all on the one square
    assert game.clicks_on_menu == 0
