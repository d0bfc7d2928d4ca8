"""Live calibration of a game that lays each square a mine with a fixed chance, so its
count varies from game to game, and shows nothing at a win but stops taking clicks
(react-minesweeper from npm). Calibration once kept the first loss's count, took a
later game of fewer mines for "only mines left" when that many squares were still
covered, flagged them and called a game won that was not (and wrote
``win_needs_flags``). Every game must end as the game itself says."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, SynthGame, SynthMouse, SynthScreen, cut, render  # noqa: E402

from bot.calibrate_live import LiveCalibrator, LiveOptions  # noqa: E402
from solver.game import BoardSize, Game  # noqa: E402
from solver.textboard import parse_board  # noqa: E402
from vision.geometry import PixelRect  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

LOOK = Look(pitch_x=23.4, pitch_y=23.4, origin=(51, 123), gap=2)
CHANCE = 0.16


class ChanceGame(SynthGame):
    """Each new game has a binomial count of mines; a win draws the face as in play."""

    truth: list[str]
    game: Game

    def new_game(self) -> None:
        if not hasattr(self, "truth"):
            self.truth = []
        elif self.game.status != "playing":
            self.truth.append(self.game.status)
        rng = np.random.default_rng(1000 + self.seed + self.games)
        rows, cols = self.size.rows, self.size.cols
        mines = int(rng.binomial(rows * cols, CHANCE))
        self.game = Game(BoardSize(rows, cols, mines), self.rule, seed=self.seed + self.games)
        self.games += 1

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        self.ticks += 1
        face = "playing" if self.game.status == "won" else self.status()
        return cut(render(self.game.board, LOOK, face, self.ticks // 7), region)


def test_games_of_different_counts_end_as_the_game_says() -> None:
    game = ChanceGame(BoardSize(16, 16, 0), LOOK, rule="none", seed=7)
    opts = LiveOptions(games=12, max_games=12, time_limit=200.0, seed=3)
    learned = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    truth = game.truth + ([game.game.status] if game.game.status != "playing" else [])
    assert learned.games == truth[:len(learned.games)]
    assert "won" in truth and "lost" in truth
    assert len({n for _, n in learned.mine_counts}) > 1, learned.mine_counts
    assert not learned.status.get("win_needs_flags"), learned.status


def test_a_count_the_board_contradicts_is_not_taken_for_a_win() -> None:
    """5 mines proved by an earlier game and 5 squares covered, yet the 2 at (0, 1) has
    three covered squares beside it, so one of them is safe: the game is not won (this
    one has 3 or 4 mines). The calibrator opens a square instead of flagging the rest."""
    board = parse_board(".2..\n.22.")
    game = ChanceGame(BoardSize(2, 4, 0), LOOK, rule="none")
    calibrator = LiveCalibrator(SynthScreen(game), SynthMouse(game), LiveOptions(mines=5))
    cells, _ = calibrator.choose(board)
    assert cells
    assert all(board[c] < 0 for c in cells)  # covered squares
