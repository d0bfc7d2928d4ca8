"""A flag drawn late does not stop play.

xbomb's last flag wins the game, and xbomb reads its high-score file and the password
database (strace: /var/games/xbomb/xbomb4.hi, /etc/nsswitch.conf, /etc/passwd) before it
draws that flag; the rest of the batch is drawn at once. In CI, with the whole suite
busy on a 2-core machine, the loop read the board in between, took the missing flag for
a contradiction ("flagged square (15, 14) shows no flag") and stopped after 0.18 s of
re-reads. Simulated here: every flag shows ``LAG`` seconds after its click, while opened
squares show at once."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from simgame import PITCH, SimReader, SimScreen, level, sim_mouse

from bot.loop import PlayConfig, Player
from bot.mouse import Button
from bot.screen import Image, ScreenPoint
from solver.cells import COVERED, FLAG
from solver.game import BoardSize

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

LAG = 0.3


class LateFlags(SimScreen):
    """Draws each flag LAG seconds after the click that placed it."""

    def __init__(self, size: BoardSize, seed: int) -> None:
        super().__init__(size, seed=seed, needs_flags=True)
        self.flagged_at: dict[tuple[int, int], float] = {}

    def new_game(self) -> None:
        super().new_game()
        self.flagged_at = {}

    def click(self, p: ScreenPoint, button: Button) -> None:
        super().click(p, button)
        r, c = (int(p.y) - self.top) // PITCH, (int(p.x) - self.left) // PITCH
        if button == "right" and 0 <= r < self.board_size.rows and 0 <= c < self.board_size.cols \
                and self.game.board[r, c] == FLAG:
            self.flagged_at[(r, c)] = time.monotonic()

    def render(self) -> Image:
        image = super().render()
        now = time.monotonic()
        for (r, c), when in self.flagged_at.items():
            if now < when + LAG and self.game.board[r, c] == FLAG and not self.dialog_open:
                y, x = self.top + r * PITCH, self.left + c * PITCH
                image[y:y + PITCH, x:x + PITCH] = level(COVERED)
        return image


def test_flags_drawn_late_are_waited_for(tmp_path: Path) -> None:
    screen = LateFlags(BoardSize.parse("beginner"), seed=5)
    config = PlayConfig(games=3, redraw_timeout=1.0, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0)
    reader = SimReader(needs_flags=True, chord="middle")
    mouse = sim_mouse(screen)
    results = Player(screen, mouse, reader, "exact", config).play()
    assert [r.reason for r in results if r.outcome == "aborted"] == []
    truth = [g.status for g in screen.finished] + [screen.game.status]
    assert [r.outcome for r in results] == truth
    assert sum(c.button == "right" for c in mouse.clicks) >= 10  # flags were placed
