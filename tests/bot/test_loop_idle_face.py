"""The play loop starts the next game at a face that was not redrawn at the game's end.

pygame-minesweeper draws its face only when a frame's last mouse event changes it;
after a batch of fast clicks a won (or lost) game may still show the in-play face, which
matches none of the end looks calibrate learned for the restart control. The reader's
``restart_idle`` finds the face in its in-play look; the loop asks it only when no
restart look shows. Simulated here: the end face never shows.
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


class IdleFaceReader(SimReader):
    """The restart control never shows an end look; ``restart_idle`` finds it."""

    def __init__(self) -> None:
        super().__init__()
        self.idle_asked = 0

    def restart(self, image: Image, geometry: BoardGeometry) -> Restart | None:
        return None

    def restart_idle(self, image: Image, geometry: BoardGeometry) -> Restart | None:
        self.idle_asked += 1
        return super().restart(image, geometry)


class NoFaceReader(SimReader):
    """No restart control at all, in any look."""

    def restart(self, image: Image, geometry: BoardGeometry) -> Restart | None:
        return None


def play(reader: SimReader, tmp_path: Path) -> tuple[list[str], list[str]]:
    screen = SimScreen(BoardSize.parse("beginner"), seed=5)
    config = PlayConfig(games=4, redraw_timeout=0.2, restart_timeout=0.2,
                        bug_dir=tmp_path / "bugs", seed=0)
    results = Player(screen, sim_mouse(screen), reader, "csp", config).play()
    truth = [g.status for g in screen.finished] + [screen.game.status]
    return [r.outcome for r in results], truth


def test_a_face_left_in_its_in_play_look_starts_the_next_game(tmp_path: Path) -> None:
    reader = IdleFaceReader()
    outcomes, truth = play(reader, tmp_path)
    assert len(outcomes) == 4 and outcomes == truth
    assert reader.idle_asked == 3  # after every game but the last


def test_without_it_play_stops_after_the_first_game(tmp_path: Path) -> None:
    outcomes, _ = play(NoFaceReader(), tmp_path)
    assert outcomes[-1] == "aborted" and len(outcomes) == 2
