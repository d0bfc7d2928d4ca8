"""Calibrate's first clicks prove a game's first-click protection in fewer games.

A game that opens a region at every first click (gnome-mines, minex, Google's) is told
from one that protects nothing only by how unlikely so many openings would be without
protection (:func:`solver.first_click.first_click_rule`). The solver's first click is a
corner, which opens a region by chance 2 times in 3 at 9x9/10, so 24 games were needed
(18 to prove some protection) and the default calibration (17 games of minex) learned
"none". A square with 8 neighbours opens by chance 1 time in 3: 9 games prove it.

Calibration also plays on, within its time and game limits, while every first click
has opened a region and too few have to prove it: a few games more prove it or show a
first click that opens one square (then "opening" cannot be proved).

Before: after 10 games of a made-up 9x9/10 game that opens at every first click, the
rule learned was "none" (every first click on square (0, 0)); with the default
``--games 2`` calibration stopped once every common look was named (4 games: "none").
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, SynthGame, SynthMouse, SynthScreen  # noqa: E402

from bot.calibrate_live import Learned, LiveCalibrator, LiveOptions  # noqa: E402
from bot.screen import ScreenPoint  # noqa: E402
from solver.cells import COVERED  # noqa: E402
from solver.game import BoardSize  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

SIZE = BoardSize(9, 9, 10)


@dataclass
class FirstClicks(SynthGame):
    """:class:`SynthGame` that keeps each game's first click on the board, as the game
    saw it, and how many squares it opened."""

    firsts: list[tuple[tuple[int, int], int]] = field(default_factory=list)

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        cell = self.cell_at(p)
        first = button == "left" and cell is not None and self.game.status == "playing" \
            and (self.game.board == COVERED).all()
        super().click(p, button)
        if first and cell is not None:
            self.firsts.append((cell, int((self.game.board != COVERED).sum())))


def calibrate(game: SynthGame, games: int, max_games: int | None = None) -> Learned:
    opts = LiveOptions(games=games, max_games=max_games or games, time_limit=120.0,
                       mines=SIZE.mines, redraw_timeout=0.3)
    return LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()


def interior(cell: tuple[int, int]) -> bool:
    return 0 < cell[0] < SIZE.rows - 1 and 0 < cell[1] < SIZE.cols - 1


def test_a_game_that_opens_every_first_click_is_proved_in_ten_games() -> None:
    game = FirstClicks(SIZE, Look(), rule="opening", seed=11)
    learned = calibrate(game, games=10)
    assert len(learned.games) == 10, learned.games
    assert learned.status.get("first_click_rule") == "opening", (learned.status, game.firsts)
    assert all(opened > 1 for _, opened in game.firsts), game.firsts  # (the game's rule)
    assert all(interior(cell) for cell, _ in game.firsts[:9]), game.firsts
    assert len({cell for cell, _ in game.firsts}) > 1, game.firsts  # (not one square)


def test_once_a_first_click_opens_one_square_the_solver_picks_again() -> None:
    # a game that keeps only the first square safe opens a single number at once: no
    # count of openings can prove "opening" any more, so the probe stops
    game = FirstClicks(SIZE, Look(), rule="safe", seed=5)
    learned = calibrate(game, games=8)
    single = next(i for i, (_, opened) in enumerate(game.firsts) if opened == 1)
    assert all(interior(cell) for cell, _ in game.firsts[:single + 1]), game.firsts
    assert [cell for cell, _ in game.firsts[single + 1:]] == \
        [(0, 0)] * (len(game.firsts) - single - 1), game.firsts
    assert single + 1 < len(game.firsts), game.firsts
    assert learned.status.get("first_click_rule") == "none", learned.status  # (8 games)


def test_calibration_plays_on_until_the_openings_prove_the_rule() -> None:
    game = FirstClicks(SIZE, Look(), rule="opening", seed=11)
    learned = calibrate(game, games=2, max_games=30)
    assert learned.status.get("first_click_rule") == "opening", (learned.status, game.firsts)
    assert 9 <= len(learned.games) <= 12, learned.games  # (9 openings prove it)
    said = [n for n in learned.notes if n.startswith("first click:")]
    assert len(said) == 1 and "every one of" in said[0], learned.notes

