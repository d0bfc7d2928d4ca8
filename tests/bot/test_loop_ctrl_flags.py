"""A game that flags by ctrl+click (minesweeper-for-web: a right-click opens the
browser's menu over the board). Its skin says ``flag_button: ctrl+left``
(``Reader.flag_button``), and every flag the loop plans is clicked so; a game that
needs every mine flagged to declare a win is then won."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from simgame import SimReader, SimScreen, sim_mouse

from bot.loop import PlayConfig, Player
from bot.mouse import Button
from bot.reader import SkinReader
from solver.game import BoardSize
from vision.geometry import BoardGeometry

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait


def play(flag_click: Button, tmp_path: Path) -> tuple[list[str], list[str], SimScreen]:
    screen = SimScreen(BoardSize.parse("beginner"), seed=3, needs_flags=True)
    screen.flag_click = "ctrl+left"
    reader = SimReader(needs_flags=True)
    reader.flag_click = flag_click
    config = PlayConfig(games=5, redraw_timeout=0.05, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0)
    results = Player(screen, sim_mouse(screen), reader, "exact", config).play()
    truth = [g.status for g in screen.finished] + [screen.game.status]
    return [r.outcome for r in results], truth, screen


def test_flags_are_placed_by_ctrl_click(tmp_path: Path) -> None:
    outcomes, truth, screen = play("ctrl+left", tmp_path)
    assert outcomes == truth
    assert len(outcomes) == 5 and outcomes.count("won") >= 2
    assert screen.wrong_flag_clicks == 0


def test_right_clicks_never_flag_such_a_game(tmp_path: Path) -> None:
    """What the skin's rule changes: flagged by right-clicks, no game is won."""
    outcomes, _, screen = play("right", tmp_path)
    assert "won" not in outcomes
    assert screen.wrong_flag_clicks > 0


@pytest.mark.parametrize(("status", "button"), [({"flag_button": "ctrl+left"}, "ctrl+left"),
                                                 ({}, "right"), ({"flag_button": "x"}, "right")])
def test_the_skin_says_how_to_flag(status: dict[str, str], button: str) -> None:
    skin = SimpleNamespace(name="learned", status=status)
    geometry = BoardGeometry("learned", 0.0, 0.0, 20.0, 20.0, 9, 9)
    assert SkinReader([skin]).flag_button(geometry) == button
