"""A game whose opened 0s open only the four squares beside them.

react-minesweeper (npm) floods that way: a settled board shows 0s with a covered square
diagonal to them, which the loop took for a redraw caught half-way ("open square (2, 14)
shows 0 next to a covered square") and stopped after one or two clicks. With the skin's
``zero_opens: sides`` (``Reader.side_flood``) such a board is a board at rest; a 0 beside
a covered square on its side is still a contradiction.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from simgame import SideFloodGame, SimReader, SimScreen, sim_mouse

from bot.loop import PlayConfig, Player
from solver.game import BoardSize

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait


class SideFloodScreen(SimScreen):
    def new_game(self) -> None:
        super().new_game()
        self.game = SideFloodGame(self.board_size, self.rule,
                                  seed=int(self.seeds.integers(2**31)))


def play(side_flood: bool, tmp_path: Path) -> tuple[list[str], list[str], list[str]]:
    screen = SideFloodScreen(BoardSize.parse("intermediate"), seed=2)
    reader = SimReader()
    reader.side_flood_game = side_flood
    config = PlayConfig(games=6, redraw_timeout=0.05, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0)
    results = Player(screen, sim_mouse(screen), reader, "exact", config).play()
    truth = [g.status for g in screen.finished] + [screen.game.status]
    return [r.outcome for r in results], truth, [r.reason for r in results]


def test_zeros_beside_diagonal_covered_squares_are_played(tmp_path: Path) -> None:
    outcomes, truth, reasons = play(True, tmp_path)
    assert "aborted" not in outcomes, reasons
    assert outcomes == truth
    assert len(outcomes) == 6 and outcomes.count("won") >= 2


def test_without_the_rule_such_a_board_stops_play(tmp_path: Path) -> None:
    """The check the rule relaxes: the same games, read as an all-round flood."""
    outcomes, _, reasons = play(False, tmp_path)
    assert outcomes[-1] == "aborted" and "shows 0 next to a covered square" in reasons[-1]
