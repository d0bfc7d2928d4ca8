"""A game that draws every mine at a win in the look the skin names a mine
(deboditray2004's web Minesweeper, tried as a new user: green at a win, red at a loss,
both named mine by calibrate). Play took each win for a loss, "lost on a square the
solver called safe: a bug". A win seen after a batch of certainly safe squares that
opened every other square is a win, whatever the mines look like; a loss stays a loss."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from simgame import SimReader, SimScreen, sim_mouse

from bot.loop import PlayConfig, Player
from solver.cells import COVERED, MINE
from solver.game import BoardSize

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait


class MinesAtWin(SimScreen):
    """At a win every mine left covered is drawn as a mine shown."""

    def render(self) -> np.ndarray:
        g = self.game
        if g.status == "won":
            g.board[g.board == COVERED] = MINE
        return super().render()


def test_a_win_that_shows_its_mines_is_won(tmp_path: Path) -> None:
    screen = MinesAtWin(BoardSize.parse("9x9/10"), seed=5)
    config = PlayConfig(games=12, mines=10, redraw_timeout=0.2, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0)
    results = Player(screen, sim_mouse(screen), SimReader(), "exact", config).play()
    truth = [g.status for g in screen.finished] + [screen.game.status]
    assert [r.outcome for r in results] == truth, [(r.outcome, r.reason) for r in results]
    assert [r.outcome for r in results].count("won") >= 4
    assert not any("bug" in r.reason for r in results)
