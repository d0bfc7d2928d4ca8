"""Live calibration of a game that shows the whole board when a game ends (xbomb): every
mine, and under every other square its number. Numbers not yet seen in play (a 3, a 4)
come as new looks beside the mines; a block of them must not be taken for a panel over
the board, nor named mine. CI once saw xbomb's calibration name its 4 and 5 "mine" and
then take every later game for lost."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, SynthGame, SynthMouse, SynthScreen, cut, render  # noqa: E402

from bot.calibrate_live import LiveCalibrator, LiveOptions  # noqa: E402
from solver.cells import COVERED, EXPLODED, FLAG, MINE, WRONG_FLAG  # noqa: E402
from solver.game import BoardSize, Game  # noqa: E402
from vision.calibrate import read_cells  # noqa: E402
from vision.lattice import find_lattice  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

LOOK = Look(pitch_x=22.0, pitch_y=22.0, origin=(51, 123), gap=2)


class RevealAllGame(SynthGame):
    """At a loss every square shows: mines (the hit one exploded), wrong flags, and
    every other square's number."""

    def grab(self, region=None):  # type: ignore[no-untyped-def]
        if self.game.status != "lost":
            return super().grab(region)
        g = self.game
        assert g.mines is not None
        shown = np.where(g.mines, MINE, g.counts).astype(np.int8)
        shown[(g.board == FLAG) & ~g.mines] = WRONG_FLAG
        shown[g.board == EXPLODED] = EXPLODED
        self.ticks += 1
        img = render(shown, self.look, "lost", self.ticks // 7)
        return cut(img, region)


def revealed(game: Game) -> np.ndarray:
    assert game.mines is not None
    return np.where(game.mines, MINE, game.counts).astype(np.int8)


def test_a_whole_board_shown_at_a_loss_names_numbers_as_numbers() -> None:
    """Dense mines (36 on 12x12): the first loss shows blocks of 3s and 4s never seen
    in play next to mines. Every learned template then reads fully revealed boards
    right (a number named mine would read as one)."""
    size = BoardSize(12, 12, 36)
    game = RevealAllGame(size, LOOK, rule="opening", seed=3)
    opts = LiveOptions(games=3, max_games=12, time_limit=60.0, mines=36)
    learned = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    assert {MINE, 0, 1, 2, 3} <= set(learned.cells), sorted(learned.cells)
    g = find_lattice(render(np.full((12, 12), COVERED, np.int8), LOOK))
    for seed in range(40, 46):
        truth = Game(size, "opening", seed=seed)
        truth.open((6, 6))
        board = revealed(truth)
        read = read_cells(render(board, LOOK, "lost"), g, learned.cells)
        known = np.isin(board, list(learned.cells))
        wrong = np.argwhere(known & (read != board))
        assert not len(wrong), [(tuple(w), int(board[tuple(w)]), int(read[tuple(w)]))
                                for w in wrong]
