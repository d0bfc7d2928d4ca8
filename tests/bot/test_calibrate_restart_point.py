"""A control that starts a new game but looks the same all along (Google's restart
arrow; tests/vision/calib_synth.py's game with a face that never changes): calibrate
finds no control that changed at a game's end, so it asks the user once, who points
at the control, or names it with ``restart_point`` (``--restart-at X,Y``)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import GoneOnQuit, Look, SynthGame, SynthMouse, SynthScreen, cut, render  # noqa: E402

from bot.calibrate_live import ASK_RESTART, CalibrationError, LiveCalibrator, LiveOptions  # noqa: E402
from bot.screen import ScreenPoint  # noqa: E402
from solver.game import BoardSize  # noqa: E402
from vision.geometry import PixelRect  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

LOOK = Look(pitch_x=24.0, pitch_y=24.0, origin=(40, 110), gap=2)


class SameFaceGame(SynthGame):
    """The face never shows how the game went, and the timer stands still: nothing
    outside the board changes when a game ends."""

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        img = render(self.game.board, self.look, "playing", 0)
        return cut(img, region)


def face_centre(game: SynthGame) -> ScreenPoint:
    """The face's middle, a screen point (the made-up screen's pixels are points)."""
    return ScreenPoint(*game.look.face_rect(game.size.cols).centre())


def options(**kw: object) -> LiveOptions:
    base = dict(games=3, max_games=8, want=(0, 1, 2), time_limit=40.0, redraw_timeout=0.4,
                mines=10)
    base.update(kw)
    return LiveOptions(**base)  # type: ignore[arg-type]


def test_the_user_points_at_the_control_once() -> None:
    game = SameFaceGame(BoardSize(9, 9, 10), LOOK, rule="safe", seed=2)
    asked: list[str] = []

    def ask(question: str) -> str:  # the user moves the pointer there, presses Enter
        asked.append(question)
        game.move(face_centre(game))
        return "\n"

    learned = LiveCalibrator(SynthScreen(game), SynthMouse(game), options(ask=ask)).run()
    assert asked == [ASK_RESTART]
    assert len(learned.games) >= 3 and game.games >= len(learned.games)
    assert learned.restart["kind"] == "click" and learned.restart["templates"]
    off_board = [p for p, button in game.clicks
                 if not button.startswith("key") and game.cell_at(p) is None]
    f = LOOK.face_rect(9)
    assert off_board and all(f.left <= p.x < f.left + f.width and f.top <= p.y < f.top + f.height
                             for p in off_board)


def test_a_point_given_on_the_command_line_asks_nothing() -> None:
    game = SameFaceGame(BoardSize(9, 9, 10), LOOK, rule="safe", seed=4)

    def ask(question: str) -> str:
        raise AssertionError("asked: " + question)

    opts = options(ask=ask, restart_point=face_centre(game), games=2)
    learned = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    assert len(learned.games) >= 2 and learned.restart["kind"] == "click"


def test_pointing_at_the_board_is_refused_with_no_click_there() -> None:
    game = SameFaceGame(BoardSize(9, 9, 10), LOOK, rule="safe", seed=2)
    left, top, right, bottom = LOOK.cell_box(4, 4)
    on_board = ScreenPoint((left + right) / 2, (top + bottom) / 2)
    cal = LiveCalibrator(SynthScreen(game), SynthMouse(game),
                         options(restart_point=on_board, games=2))
    with pytest.raises(CalibrationError, match="on the board"):
        cal.run()
    assert game.games == 1  # no new game was started
    clicks_at_the_point = [p for p, _ in game.clicks if p == on_board]
    assert clicks_at_the_point == []


def test_with_no_way_to_ask_the_message_names_both_options() -> None:
    game = SameFaceGame(BoardSize(9, 9, 10), LOOK, rule="safe", seed=2)
    cal = LiveCalibrator(SynthScreen(game), SynthMouse(game), options(games=2))
    with pytest.raises(CalibrationError, match="--restart-key KEY or --restart-at X,Y"):
        cal.run()
    assert game.games == 1


def test_the_time_the_user_takes_to_answer_is_not_calibration_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A user who takes 10 minutes to answer still gets the games of --time-limit."""
    import bot.calibrate_live as live

    game = SameFaceGame(BoardSize(9, 9, 10), LOOK, rule="safe", seed=2)
    away = [0.0]
    real = time.monotonic
    monkeypatch.setattr(live.time, "monotonic", lambda: real() + away[0])

    def ask(question: str) -> str:
        away[0] += 600.0
        game.move(face_centre(game))
        return ""

    learned = LiveCalibrator(SynthScreen(game), SynthMouse(game), options(ask=ask)).run()
    assert len(learned.games) >= 3


class QuitsOnEscape(GoneOnQuit, SameFaceGame):
    """A :class:`SameFaceGame` that quits at the Escape key, as pygame and Kivy games
    do."""

    def key(self, keys: str) -> None:
        super().key(keys)
        self.quit = self.quit or keys.lower() == "escape"


def test_no_escape_is_pressed_when_nothing_is_over_the_ended_board() -> None:
    """Escape closes a dialog; with none on screen (nothing changed outside the board
    at the end, no window over it) it is a surprise key, and it quits many games
    (pygame's, Kivy's). Before, Escape was pressed once no control was found, the game
    quit, and the user was asked to point at a control of a game that was gone."""
    game = QuitsOnEscape(BoardSize(9, 9, 10), LOOK, rule="safe", seed=2)
    asked: list[str] = []

    def ask(question: str) -> str:
        asked.append(question)
        game.move(face_centre(game))
        return ""

    learned = LiveCalibrator(SynthScreen(game), SynthMouse(game), options(ask=ask)).run()
    assert asked == [ASK_RESTART] and not game.quit
    assert len(learned.games) >= 3
    assert [b for _, b in game.clicks if b.startswith("key")] == []


class GreyedAtEnd(QuitsOnEscape):
    """At its end the game shows its board (the mines at a loss) for ``shown`` s, then
    greys it over, every square, until the face is clicked (kivy-mines-package disables
    every button: that reads as a window over the board); it quits at Escape."""

    shown = 0.6
    ended_at: float | None = None

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        img = super().grab()
        if self.quit or self.game.status == "playing":
            self.ended_at = None
            return cut(img, region)
        self.ended_at = self.ended_at or time.monotonic()
        if time.monotonic() - self.ended_at >= self.shown:
            left, top, _, _ = self.look.cell_box(0, 0)
            _, _, right, bottom = self.look.cell_box(self.size.rows - 1, self.size.cols - 1)
            img[top:bottom, left:right] = (90, 90, 90)
        return cut(img, region)


def test_the_users_restart_point_comes_before_any_escape() -> None:
    """``--restart-at`` on the face of a game that greys its board over at its end:
    the face is clicked at each end, no key is pressed. Before, the grey was taken for
    a dialog, and the Escape that was to close it quit the game."""
    game = GreyedAtEnd(BoardSize(9, 9, 10), LOOK, rule="safe", seed=2)
    learned = LiveCalibrator(SynthScreen(game), SynthMouse(game),
                             options(restart_point=face_centre(game))).run()
    assert not game.quit
    assert len(learned.games) >= 3 and learned.restart["kind"] == "click"
    assert [b for _, b in game.clicks if b.startswith("key")] == []
