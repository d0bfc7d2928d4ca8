"""A skin whose first-click rule is wrong: it says the game protects the first click
("safe"), the game does not (ace-minesweeper: a short calibration that saw its first
clicks survive by chance once wrote so). The first such click lost shows it, and play
takes the next games' first clicks as unprotected: never again a loss on a first click
it called safe."""

from __future__ import annotations

from pathlib import Path

import pytest
from simgame import SimReader, SimScreen, sim_mouse

from bot.loop import PlayConfig, Player
from bot.results import GameResult
from solver.game import BoardSize

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait


def play(skin_rule: str, tmp_path: Path, games: int = 30) -> list[GameResult]:
    screen = SimScreen(BoardSize(9, 9, 24), rule="none", seed=5)
    config = PlayConfig(games=games, mines=24, redraw_timeout=0.05, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0)
    return Player(screen, sim_mouse(screen), SimReader(rule=skin_rule), "exact", config).play()


def first_click_losses(results: list[GameResult]) -> list[GameResult]:
    return [r for r in results if r.outcome == "lost" and r.moves == 1]


def test_a_lost_first_click_disproves_the_rule(tmp_path: Path) -> None:
    results = play("safe", tmp_path)
    assert len(results) == 30 and "aborted" not in {r.outcome for r in results}
    lost = first_click_losses(results)
    assert len(lost) >= 2, "the seed must lose a first click after the rule is disproved"
    assert lost[0].death_p == 0.0 and "does not protect it" in lost[0].reason
    for r in lost[1:]:
        assert r.death_p is not None and r.death_p >= 0.001 and not r.reason, r
    assert not (tmp_path / "bugs").exists()  # no solver bug to report


def test_a_right_rule_stays(tmp_path: Path) -> None:
    """The same skin rule on a game that does protect the first click: no first click
    is lost, so nothing changes."""
    screen = SimScreen(BoardSize(9, 9, 24), rule="safe", seed=5)
    config = PlayConfig(games=10, mines=24, redraw_timeout=0.05, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0)
    player = Player(screen, sim_mouse(screen), SimReader(rule="safe"), "exact", config)
    results = player.play()
    assert not first_click_losses(results) and player.rule == "safe"
