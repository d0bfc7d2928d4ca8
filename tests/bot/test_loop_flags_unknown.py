"""A skin that does not know whether its game wants every mine flagged to declare a win
(calibrated on lost games only: no win display, no ``win_needs_flags``). DangerUXB (PyPI,
Tk) declares a win only once every mine is flagged; play with such a skin counted four
boards with every safe square open as won, and the game had ended none of them. Each
game now flags the mines left once, when every safe square is open and no win shows."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from simgame import PITCH, SimReader, SimScreen, sim_mouse

from bot.loop import PlayConfig, Player
from bot.reader import SkinReader
from bot.screen import ScreenPoint
from solver.cells import COVERED, FLAG
from solver.game import BoardSize
from vision.geometry import BoardGeometry

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait


class NotKnownReader(SimReader):
    """Reads the simulated game with no word on whether a win wants flags."""

    def needs_flags(self, geometry: BoardGeometry) -> bool | None:  # type: ignore[override]
        return None


class SilentScreen(SimScreen):
    """A game that shows nothing at a win (its face stays "playing") and takes no
    click once won (PyMines shows nothing; react-minesweeper takes no click)."""

    def status(self) -> str:
        return "playing" if self.game.status == "won" else super().status()

    def click(self, p: ScreenPoint, button: str) -> None:  # type: ignore[override]
        if self.game.status == "won" and button == "right":
            return
        super().click(p, button)  # type: ignore[arg-type]


def _play(screen: SimScreen, tmp_path: Path, games: int) -> tuple[list, list]:
    mouse = sim_mouse(screen)
    config = PlayConfig(games=games, redraw_timeout=0.2, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0)
    results = Player(screen, mouse, NotKnownReader(), "csp", config).play()
    return results, mouse.clicks


def test_a_game_that_wants_flags_is_won_by_flagging_when_that_is_not_known(
        tmp_path: Path) -> None:
    screen = SimScreen(BoardSize.parse("beginner"), seed=11, needs_flags=True)
    results, clicks = _play(screen, tmp_path, games=6)
    games = [*screen.finished, screen.game]
    assert any(r.outcome == "won" for r in results)
    for r, g in zip(results, games, strict=True):
        if r.outcome == "won":  # (the game declared it: every mine flagged)
            assert g.mines is not None and (g.board[g.mines] == FLAG).all()
        else:
            assert r.outcome == "lost" and g.status == "lost"


def test_a_game_that_shows_its_win_gets_no_flag(tmp_path: Path) -> None:
    screen = SimScreen(BoardSize.parse("beginner"), seed=11)
    results, clicks = _play(screen, tmp_path, games=4)
    assert any(r.outcome == "won" for r in results)
    assert all(a.button == "left" for a in clicks)


def test_a_silent_win_that_takes_no_flag_is_flagged_once_and_counted(tmp_path: Path) -> None:
    screen = SilentScreen(BoardSize.parse("beginner"), seed=11)
    results, clicks = _play(screen, tmp_path, games=4)
    games = [*screen.finished, screen.game]
    assert [r.outcome for r in results] == [g.status for g in games]
    won = [g for g in games if g.status == "won"]
    assert won and all((g.board == COVERED).sum() == g.size.mines for g in won)
    flags = [a for a in clicks if a.button == "right"]
    assert len(flags) == sum(g.size.mines for g in won)  # (one round of flags a game)
    for a in clicks:
        assert a.point is not None
        x, y = a.point
        assert screen.left <= x < screen.left + 9 * PITCH + 10  # (board or face)


@pytest.mark.parametrize(("status", "known"), [
    ({"method": "face", "templates": {"playing": [], "lost": []}}, None),
    ({"method": "face", "templates": {"playing": [], "won": [], "lost": []}}, False),
    ({"method": "face", "templates": {"lost": []}, "win_needs_flags": True}, True),
    ({"method": "board"}, None)])
def test_whether_a_skin_knows_if_a_win_wants_flags(status: dict, known: bool | None) -> None:
    skin = SimpleNamespace(name="x", status=status, restart={})
    g = BoardGeometry("x", 0.0, 0.0, 20.0, 20.0, 9, 9)
    reader = SkinReader([skin])  # type: ignore[list-item]
    assert reader.needs_flags(g) is known


def test_the_control_named_in_calibrate_starts_a_game_no_learned_look_shows() -> None:
    """DangerUXB's face grins at a win; calibrated at ``--restart-at`` on lost games
    only, play found no look of it after its first win and stopped ("cannot see how to
    start a new game")."""
    import numpy as np

    from bot.calibrate_live import told_point
    from vision.geometry import PixelRect
    from vision.skin import Skin

    g = BoardGeometry("t", 10.0, 50.0, 20.0, 20.0, 9, 9)
    face = np.full((30, 30, 3), 200, np.uint8)
    restart = {"kind": "click", "templates": [face], "region": [[0, 80, 0, 0], [0, 130, 0, 45]]}
    screen = np.zeros((300, 300, 3), np.uint8)  # (no face at all: a grin, say)
    plain = SkinReader([Skin("t", "", (20.0, 20.0), {}, {}, restart)])
    assert plain.restart_idle(screen, g) is None
    told = {**restart, "told": told_point(PixelRect(90, 10, 30, 30), g)}
    reader = SkinReader([Skin("t", "", (20.0, 20.0), {}, {}, told)])
    found = reader.restart_idle(screen, g)
    assert found is not None and found.point == (105.0, 25.0)
    other = BoardGeometry("t", 10.0, 50.0, 20.0, 20.0, 16, 16)  # (another size: not there)
    assert reader.restart_idle(screen, other) is None
