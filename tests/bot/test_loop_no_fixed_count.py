"""Play a game of no fixed mine count: each square a mine with a fixed chance, so the
count varies from game to game, and a win shows nothing (the game just takes no more
clicks), like react-minesweeper from npm. Calibrate records such a size with no count
and the share of mines it saw; play takes each square a mine with that chance
(``solver.density``) instead of stopping with "pass --mines"."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from simgame import SideFloodGame, SimReader, SimScreen, sim_mouse

from bot.loop import PlayConfig, Player
from bot.mouse import Button
from bot.screen import Image, ScreenPoint
from solver.game import BoardSize, Game
from vision.geometry import PixelRect

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

CHANCE = 0.15


class ChanceScreen(SimScreen):
    """Each game lays a binomial count of mines; its face never shows a win."""

    def new_game(self) -> None:
        super().new_game()
        rows, cols = self.board_size.rows, self.board_size.cols
        mines = int(self.seeds.binomial(rows * cols, CHANCE))
        self.game = SideFloodGame(BoardSize(rows, cols, mines), self.rule,
                                  seed=int(self.seeds.integers(2**31)))

    def status(self) -> str:
        return "playing" if self.game.status == "won" else super().status()


class ChanceReader(SimReader):
    """A skin that saw different counts on this size, and the share of mines."""

    share: float | None = CHANCE
    side_flood_game = True

    def mines_vary(self, geometry: object) -> bool:
        return True

    def mine_share(self, geometry: object) -> float | None:
        return self.share


def play(tmp_path: Path, reader: ChanceReader, games: int = 10,
         chance: float | None = None) -> tuple[list[str], list[str], list[str], Player]:
    """Outcomes, the game's own truth, the reasons and the player."""
    screen = ChanceScreen(BoardSize(12, 12, 1), rule="none", seed=4)
    config = PlayConfig(games=games, redraw_timeout=0.05, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0, mine_chance=chance)
    mouse = sim_mouse(screen)
    player = Player(screen, mouse, reader, "exact", config)
    results = player.play()
    player.recorded = mouse  # type: ignore[attr-defined]
    truth = [g.status for g in screen.finished] + [screen.game.status]
    return [r.outcome for r in results], truth, [r.reason for r in results], player


def test_games_of_varying_counts_are_played_to_their_ends(tmp_path: Path) -> None:
    outcomes, truth, reasons, player = play(tmp_path, ChanceReader())
    assert "aborted" not in outcomes, reasons
    assert outcomes == truth
    assert outcomes.count("won") >= 2 and outcomes.count("lost") >= 1
    assert player.mines is None and player.mine_share == pytest.approx(CHANCE)
    counts = [r.mines for r in player.results]
    assert len(set(counts)) > 1  # each game's own count, as its end showed it
    assert all(r.death_p is None or r.death_p >= 0.001 for r in player.results)


def test_no_share_known_stops_play_before_a_click(tmp_path: Path) -> None:
    reader = ChanceReader()
    reader.share = None
    outcomes, _, reasons, player = play(tmp_path, reader, games=1)
    assert outcomes == ["aborted"] and "--mine-chance" in reasons[0]
    assert not player.recorded.clicks  # type: ignore[attr-defined]


def test_mine_chance_overrides_the_skin(tmp_path: Path) -> None:
    reader = ChanceReader()
    reader.share = None
    outcomes, truth, reasons, player = play(tmp_path, reader, games=3, chance=0.2)
    assert "aborted" not in outcomes, reasons
    assert outcomes == truth and player.mine_share == 0.2


class PocketScreen(ChanceScreen):
    """Mines on the 2x2 bottom-right corner: once the rest is open, the corner square has
    no number beside it, so nothing proves it a mine, and the won game ignores a
    click on it."""

    def new_game(self) -> None:
        super().new_game()
        mines = np.zeros((6, 6), bool)
        mines[4:, 4:] = True
        self.game = Game(BoardSize(6, 6, 4), "none")
        self.game.set_mines(mines)


def test_a_win_that_shows_nothing_with_a_mine_nothing_proves(tmp_path: Path) -> None:
    screen = PocketScreen(BoardSize(6, 6, 4), rule="none", seed=1)
    config = PlayConfig(games=2, redraw_timeout=0.05, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0)
    reader = ChanceReader()
    reader.side_flood_game = False
    results = Player(screen, sim_mouse(screen), reader, "exact", config).play()
    assert [r.outcome for r in results] == ["won", "won"], [r.reason for r in results]
    assert [g.status for g in screen.finished] == ["won"] and screen.game.status == "won"
    assert [r.mines for r in results] == [4, 4]


class LateNewGame(ChanceScreen):
    """A new game appears only a few screen grabs after the click that asks for it
    (a browser page mounting a fresh component)."""

    pending = 0

    def click(self, p: ScreenPoint, button: Button) -> None:
        x, y = int(p.x), int(p.y)
        if self.left <= x < self.left + 10 and self.top - 30 <= y < self.top - 20:
            self.pending = 4
            return
        super().click(p, button)

    def grab(self, region: PixelRect | None = None) -> Image:
        if self.pending:
            self.pending -= 1
            if not self.pending:
                if self.game.status != "playing":
                    self.finished.append(self.game)
                self.new_game()
        return super().grab(region)


def test_a_won_board_is_not_taken_for_the_next_game(tmp_path: Path) -> None:
    """A won game of no fixed count shows nothing, so its board looks like a game in
    play; while the next game is not there yet, the loop waits for it instead of
    playing the old board again (a "won" game of no clicks)."""
    screen = LateNewGame(BoardSize(12, 12, 1), rule="none", seed=4)
    config = PlayConfig(games=6, redraw_timeout=0.05, restart_timeout=2.0,
                        bug_dir=tmp_path / "bugs", seed=0)
    results = Player(screen, sim_mouse(screen), ChanceReader(), "exact", config).play()
    truth = [g.status for g in screen.finished] + [screen.game.status]
    assert [r.outcome for r in results] == truth, [r.reason for r in results]
    assert "won" in truth and all(r.clicks > 0 for r in results)
