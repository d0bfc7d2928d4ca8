"""A board whose covered squares come in two shades, alternating like a checkerboard's,
each shade with a highlight of its own under the pointer (Google's look; minex, a
Textual game from PyPI, which also keeps a highlight on the square clicked last into
the next game).

Before: with ``--flag-button none`` calibrate refused the fresh board ("needs a fresh
game with every square covered": neither shade covers 95 % of it), and with flags it
learned the highlight of one shade only, so a board showing the other's highlight read
that square as unknown (minex: play stopped at "no new game appeared").

minex also starts a game at any click, a right-click too, and keeps the squares around
the first one free. The right-click that learns the flag on the fresh board starts the
first game: that game tells nothing of a first click. Before, it counted as a game that
opened squares by itself, so no protection could ever be learned ("none").
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, RecordsOutcomes, SynthGame, SynthMouse, SynthScreen, cut, render  # noqa: E402,E501

from bot.calibrate_live import Learned, LiveCalibrator, LiveOptions  # noqa: E402
from bot.reader import SkinReader  # noqa: E402
from bot.screen import ScreenPoint  # noqa: E402
from solver.cells import COVERED, FLAG, QUESTION, WRONG_FLAG  # noqa: E402
from solver.game import BoardSize  # noqa: E402
from vision.geometry import PixelRect  # noqa: E402
from vision.skin import Skin  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

SIZE = BoardSize(9, 9, 10)
LOOK = Look()
SHADES = (LOOK.covered, (160, 95, 30))  # (B, G, R) of squares whose row + column is even, odd
HIGHLIGHTS = ((225, 160, 95), (205, 140, 75))


@dataclass
class CheckerGame(RecordsOutcomes, SynthGame):
    """:class:`SynthGame` with its covered squares in two shades by the parity of row +
    column, the one under the pointer highlighted in its shade's own colour."""

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        self.ticks += 1
        img = render(self.game.board, self.look, self.status(), self.ticks // 7)
        board, pointer = self.game.board, self.cell_at(self.position())
        for r, c in np.argwhere(np.isin(board, (COVERED, FLAG, QUESTION, WRONG_FLAG))):
            parity = int(r + c) % 2
            colour = (HIGHLIGHTS if (r, c) == pointer else SHADES)[parity]
            left, top, right, bottom = self.look.cell_box(int(r), int(c))
            tile = img[top:bottom, left:right]
            tile[(tile == self.look.covered).all(axis=2)] = colour
        return cut(img, region)


@dataclass
class StartsAtAnyClick(CheckerGame):
    """A right-click on a fresh board starts the game as a left click does."""

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        cell = self.cell_at(p)
        fresh = (self.game.board == COVERED).all() and self.game.status == "playing"
        super().click(p, "left" if cell is not None and fresh else button)


def calibrate(game: CheckerGame, flag_button: str, games: int = 2) -> Learned:
    opts = LiveOptions(games=games, max_games=max(12, games), time_limit=120.0,
                       mines=SIZE.mines, flag_button=flag_button, redraw_timeout=0.3)
    return LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()


def fresh_reading(learned: Learned, pointer: tuple[int, int]) -> np.ndarray:
    """A fresh board with the pointer on square ``pointer``, read with the skin."""
    game = CheckerGame(SIZE, LOOK, rule="safe", seed=50)
    game.move(ScreenPoint(*(float(v) for v in game.look.cell_box(*pointer)[:2])))
    game.move(ScreenPoint(game.position().x + 12, game.position().y + 12))
    image = game.grab()
    skin = Skin("checker", "test", learned.cell_size, learned.cells, learned.status,
                learned.restart)
    reader = SkinReader([skin])
    return reader.read(image, reader.locate(image))


@pytest.mark.parametrize("flag_button", ["auto", "none"])
def test_both_shades_and_their_highlights_are_covered(flag_button: str) -> None:
    game = CheckerGame(SIZE, LOOK, rule="safe", seed=4)
    learned = calibrate(game, flag_button)
    assert {"won", "lost"} <= set(learned.games), learned.games
    assert game.outcomes()[:len(learned.games)] == list(learned.games)
    for pointer in [(4, 4), (4, 5)]:  # an even square, an odd one
        board = fresh_reading(learned, pointer)
        assert (board == COVERED).all(), (pointer, board)


def test_a_game_started_by_the_marks_right_click_is_no_first_click() -> None:
    game = StartsAtAnyClick(SIZE, LOOK, rule="opening", seed=7)
    learned = calibrate(game, "auto", games=20)  # (corners first: 18 openings prove it)
    assert FLAG in learned.cells, sorted(learned.cells)
    # (20 first clicks on corners, each opening a region, prove a protection; that each
    # clicked square was a 0 takes more: "safe" or "opening" are both true of it)
    assert learned.status.get("first_click_rule") in ("safe", "opening"), \
        (learned.status, learned.games)
