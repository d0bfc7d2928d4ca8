"""Live calibration of a game whose loss recolours the gap between its tiles, like
PyMines (PyPI): its white window turns red at a loss, round every square, covered or
open, and only the mine hit is shown. Before, every square then took a new look: a
first click on a mine read as a whole board of 0s and was called won; a later loss
left no square covered and calibration "won" the dead board."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, SynthGame, SynthMouse, SynthScreen, cut, render  # noqa: E402

from bot.calibrate_live import LiveCalibrator, LiveOptions  # noqa: E402
from solver.cells import COVERED, EXPLODED, FLAG, MINE, WRONG_FLAG  # noqa: E402
from solver.game import BoardSize  # noqa: E402
from vision.calibrate import read_cells  # noqa: E402
from vision.lattice import find_lattice  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

LOOK = Look(pitch_x=22.0, pitch_y=22.0, origin=(51, 123), gap=3)
FRAME = np.array((150, 150, 150), np.uint8)  # calib_synth's frame and gap colour
RED = np.array((0, 0, 250), np.uint8)


def shown_at_loss(board: np.ndarray) -> np.ndarray:
    """What the game shows of a lost board: the mine hit, not the others; flags as
    they were."""
    out = board.copy()
    out[out == MINE] = COVERED
    out[out == WRONG_FLAG] = FLAG
    return out


def red_gap(img: np.ndarray) -> np.ndarray:
    out = img.copy()
    out[(img == FRAME).all(axis=2)] = RED
    return out


class HitOnlyGame(SynthGame):
    """A loss shows the mine hit and no other; the outcome of every game is kept."""

    outcomes: list[str]

    def new_game(self) -> None:
        if hasattr(self, "game") and self.game.status in ("won", "lost"):
            self.outcomes.append(self.game.status)
        elif not hasattr(self, "outcomes"):
            self.outcomes = []
        super().new_game()

    def grab(self, region=None):  # type: ignore[no-untyped-def]
        if self.game.status != "lost":
            return super().grab(region)
        self.ticks += 1
        img = render(shown_at_loss(self.game.board), self.look, "lost", self.ticks // 7)
        return cut(self.paint_loss(img), region)

    def paint_loss(self, img: np.ndarray) -> np.ndarray:
        return img


class RedGapGame(HitOnlyGame):
    """At a loss the frame and the gaps between tiles turn red, and only the mine hit
    shows; the outcome of every game ended is kept."""

    def paint_loss(self, img: np.ndarray) -> np.ndarray:
        return red_gap(img)


def test_a_loss_that_recolours_the_gaps_is_read_as_a_loss() -> None:
    size = BoardSize(8, 8, 10)
    game = RedGapGame(size, LOOK, rule="none", seed=11)
    opts = LiveOptions(games=4, max_games=12, time_limit=60.0, mines=10)
    calibrator = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts)
    learned = calibrator.run()
    truth = [*game.outcomes, game.game.status][:len(calibrator.results)]
    assert calibrator.results == truth and "lost" in truth
    assert {COVERED, EXPLODED, 0, 1, 2} <= set(learned.cells), sorted(learned.cells)
    # the learned skin reads a lost board (red gaps) and a board in play alike
    g = find_lattice(render(np.full((8, 8), COVERED, np.int8), LOOK))
    board = np.full((8, 8), COVERED, np.int8)
    board[0, :3] = (0, 1, 2)
    board[5, 5] = EXPLODED
    lost = red_gap(render(board, LOOK, "lost"))
    assert read_cells(lost, g, learned.cells).tolist() == board.tolist()
    playing = np.where(board == EXPLODED, COVERED, board).astype(np.int8)
    assert read_cells(render(playing, LOOK), g, learned.cells).tolist() == playing.tolist()
