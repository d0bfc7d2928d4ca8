"""Play stops, clicking nothing more, once the game's window has closed, even where
what shows in its place still looks like a board: another game's window behind it
(where the backend can tell which window is at a point; X11). Before, play went on
clicking the other program."""

from __future__ import annotations

from pathlib import Path

import pytest
from simgame import SimReader, SimScreen

from bot.loop import PlayConfig, Player
from bot.mouse import Button, RecordingMouse
from bot.screen import ScreenPoint
from solver.game import BoardSize

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait


class FrontWindow:
    """The game's window as the window system tells it: there until it closes."""

    def __init__(self) -> None:
        self.open = True

    def present(self) -> bool:
        return self.open


class WindowMouse(RecordingMouse):
    """A recording mouse that tells which window shows a point (as XTestMouse)."""

    def __init__(self, screen: SimScreen, window: FrontWindow, close_after: int) -> None:
        super().__init__(size=(800, 600), on_click=self._click, on_key=screen.key)
        self.screen, self.window, self.close_after = screen, window, close_after
        self.after_close: list[ScreenPoint | None] = []

    def window_at(self, p: ScreenPoint) -> FrontWindow:
        return self.window

    def _click(self, p: ScreenPoint, button: Button) -> None:
        if not self.window.open:
            self.after_close.append(p)
        self.screen.click(p, button)  # (the game behind takes it just the same)
        if len(self.clicks) == self.close_after:
            self.window.open = False  # closed; the board behind shows at its place


@pytest.mark.parametrize("close_after", [1, 3])
def test_play_stops_when_the_game_window_closes_over_another_board(
        tmp_path: Path, close_after: int) -> None:
    screen = SimScreen(BoardSize.parse("intermediate"), seed=2)
    mouse = WindowMouse(screen, FrontWindow(), close_after)
    config = PlayConfig(games=3, redraw_timeout=0.2, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0)
    player = Player(screen, mouse, SimReader(), "csp", config)
    results = player.play()
    assert mouse.after_close == []
    assert len(mouse.clicks) == close_after
    assert results[-1].outcome == "aborted"
    assert "window has closed" in results[-1].reason


class SilentWindowSystem(RecordingMouse):
    """A mouse whose window system fails to say which window is at a point."""

    def window_at(self, p: ScreenPoint) -> FrontWindow:
        raise RuntimeError("the X connection broke")


def test_a_window_system_that_cannot_tell_leaves_play_unwatched(tmp_path: Path) -> None:
    screen = SimScreen(BoardSize.parse("beginner"), seed=3)
    mouse = SilentWindowSystem(size=(800, 600), on_click=screen.click, on_key=screen.key)
    config = PlayConfig(games=2, redraw_timeout=0.2, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0)
    results = Player(screen, mouse, SimReader(), "csp", config).play()
    assert [r.outcome for r in results] == [g.status for g in screen.finished] + \
        [screen.game.status]
