"""A game that dims its whole board at a loss, digits and all (kivy-mines-package
disables every button: tiles, digits and covered squares drawn at a third of their
brightness), with its mines shown undimmed. Calibration must still see that the loss
changed only the mines' squares: every other square is the one it was, dimmed
(:func:`vision.calibrate.dimmed_pairs`). Before, every dimmed square was new to the
board at the loss, and the mines were counted wrong (kivy-mines: 81 on a board of 10).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import (  # noqa: E402
    Look,
    RecordsOutcomes,
    SynthGame,
    SynthMouse,
    SynthScreen,
    cut,
)

from bot.calibrate_live import LiveCalibrator, LiveOptions  # noqa: E402
from bot.loop import PlayConfig, Player  # noqa: E402
from bot.reader import SkinReader  # noqa: E402
from solver.cells import COVERED, MINE  # noqa: E402
from solver.game import BoardSize  # noqa: E402
from vision.geometry import PixelRect  # noqa: E402
from vision.skin import Skin  # noqa: E402

SIZE = BoardSize(9, 9, 10)


@dataclass
class DimsAtLoss(RecordsOutcomes, SynthGame):
    """At a loss every square but the mines is drawn at DIM of its brightness."""

    dim: float = 0.33

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        img = super().grab()
        if self.game.status == "lost":
            board = self.game.board
            for r in range(self.size.rows):
                for c in range(self.size.cols):
                    if board[r, c] != MINE:
                        left, top, right, bottom = self.look.cell_box(r, c)
                        part = img[top:bottom, left:right].astype(np.float64)
                        img[top:bottom, left:right] = (part * self.dim - 2).clip(0, 255)
        return cut(img, region)


class Quiet:
    def on_board(self, player: object) -> None: ...
    def on_turn(self, *args: object) -> None: ...
    def on_game(self, *args: object) -> None: ...
    def on_note(self, player: object, message: str) -> None: ...


@pytest.mark.parametrize("seed", [1, 4])
def test_a_board_dimmed_at_a_loss_shows_only_its_mines_changed(seed: int) -> None:
    game = DimsAtLoss(SIZE, Look(), rule="safe", seed=seed)
    log: list[str] = []
    opts = LiveOptions(games=3, max_games=20, time_limit=90.0, want=(0, 1, 2),
                       log=log.append, redraw_timeout=0.3)
    learned = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    assert "the game has 10 mines" in log, log
    assert learned.mine_counts and {n for _, n in learned.mine_counts} == {10}, learned.mine_counts
    assert list(learned.games) == game.outcomes()[:len(learned.games)], log
    assert "lost" in learned.games
    assert {COVERED, MINE, 0, 1, 2} <= set(learned.cells), sorted(learned.cells)
    skin = Skin("dims", "test", learned.cell_size, learned.cells, learned.status,
                learned.restart)
    before = len(game.outcomes())
    played = Player(SynthScreen(game), SynthMouse(game), SkinReader([skin]), "exact",
                    PlayConfig(games=6, mines=SIZE.mines, seed=1, restart_timeout=4.0),
                    observer=Quiet()).play()  # type: ignore[arg-type]
    outcomes = [r.outcome for r in played]
    assert outcomes == game.outcomes()[before:] and len(outcomes) == 6, outcomes
    assert all(r.death_p is not None and r.death_p >= 0.001
               for r in played if r.outcome == "lost"), played
