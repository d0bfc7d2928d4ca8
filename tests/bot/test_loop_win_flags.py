"""A game that flags its mines itself at a win (gnome-mines), one of them drawn in a
look the skin never saw (gnome-mines' classic theme, at a sub-pixel phase calibration
did not meet): the win is still seen, also when the last move was a guess (no certain
batch to vouch for it), and never a loss taken for a win."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from simgame import SimReader, SimScreen, sim_mouse

from bot.loop import PlayConfig, Player
from solver.cells import COVERED, FLAG
from solver.game import BoardSize

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait


class FlagsAtWin(SimScreen):
    """At a win every mine left covered is flagged by the game, and the flag on the
    last of them (in reading order) is drawn unreadably."""

    def render(self) -> np.ndarray:
        g = self.game
        self.garble = set()
        if g.status == "won":
            mines = np.argwhere(g.board == COVERED)
            g.board[g.board == COVERED] = FLAG
            hidden = np.argwhere(g.board == FLAG)
            if len(mines) or len(hidden):
                r, c = (mines if len(mines) else hidden)[-1]
                self.garble = {(int(r), int(c))}
        return super().render()


def test_a_won_board_with_an_unreadable_flag_is_won(tmp_path: Path) -> None:
    """Expert-density 12x12 boards: many wins come right after a guess. Every game is
    reported as it ended (none aborted, which stops play), in as many games as asked."""
    screen = FlagsAtWin(BoardSize.parse("12x12/30"), seed=11)
    config = PlayConfig(games=16, mines=30, redraw_timeout=0.2, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0)
    player = Player(screen, sim_mouse(screen), SimReader(), "exact", config)
    results = player.play()
    truth = [g.status for g in screen.finished] + [screen.game.status]
    assert [r.outcome for r in results] == truth
    assert len(results) == 16
    assert [r.outcome for r in results].count("won") >= 3
