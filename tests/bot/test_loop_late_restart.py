"""The play loop waits briefly for a restart control drawn a moment after the board.

WineMine flags every mine at a win and redraws the board, then draws the face that
starts the next game; a loop that looked for the face once, at once, stopped after the
first win. Simulated here: the face is missing from the first frames after each game.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from simgame import SimReader, SimScreen, sim_mouse

from bot.loop import PlayConfig, Player
from bot.reader import Restart
from bot.screen import Image
from solver.game import BoardSize
from vision.geometry import BoardGeometry

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait


class LateFaceReader(SimReader):
    """Shows no restart control in the first ``late`` frames asked after each game."""

    def __init__(self, late: int) -> None:
        super().__init__()
        self.late, self.missed = late, 0
        self._left = late

    def restart(self, image: Image, geometry: BoardGeometry) -> Restart | None:
        if self._left > 0:
            self._left -= 1
            self.missed += 1
            return None
        self._left = self.late
        return super().restart(image, geometry)


def play(late: int, restart_timeout: float, tmp_path: Path) -> tuple[list[str], list[str],
                                                                      LateFaceReader]:
    screen = SimScreen(BoardSize.parse("beginner"), seed=3)
    reader = LateFaceReader(late)
    config = PlayConfig(games=5, redraw_timeout=0.2, restart_timeout=restart_timeout,
                        bug_dir=tmp_path / "bugs", seed=0)
    results = Player(screen, sim_mouse(screen), reader, "csp", config).play()
    truth = [g.status for g in screen.finished] + [screen.game.status]
    return [r.outcome for r in results], truth, reader


def test_a_face_drawn_late_still_starts_the_next_game(tmp_path: Path) -> None:
    outcomes, truth, reader = play(late=3, restart_timeout=1.0, tmp_path=tmp_path)
    assert len(outcomes) == 5 and outcomes == truth
    assert reader.missed == 3 * 4  # looked again after every game but the last


def test_a_face_that_never_comes_still_stops_play(tmp_path: Path) -> None:
    outcomes, _, _ = play(late=10**6, restart_timeout=0.2, tmp_path=tmp_path)
    assert outcomes[-1] == "aborted" and len(outcomes) == 2
