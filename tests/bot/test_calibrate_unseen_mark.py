"""Live calibration of a game that keeps marks it does not draw, like PyMines (PyPI):
a square flagged when a game ends stays flagged, unseen, in the next game (its
``new_game`` does not clear the list). A left click there does nothing; a right click
takes the mark off without a change on the screen. PyMines also shows no win, and
its loss turns the gaps between tiles red (``test_calibrate_gap_recolour``).
Calibration stopped with "the game stopped responding" at the first such square."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import SynthMouse, SynthScreen  # noqa: E402
from test_calibrate_gap_recolour import LOOK, RedGapGame  # noqa: E402

from bot.calibrate_live import LiveCalibrator, LiveOptions  # noqa: E402
from bot.screen import ScreenPoint  # noqa: E402
from solver.cells import COVERED, FLAG  # noqa: E402
from solver.game import BoardSize  # noqa: E402


class UnseenMarks(RedGapGame):
    """PyMines' flags: a right click toggles a flag; the squares flagged when a game
    ends stay marked, undrawn, in later games; no win is shown."""

    unseen: set[tuple[int, int]]

    def new_game(self) -> None:
        if not hasattr(self, "unseen"):
            self.unseen = set()
        if hasattr(self, "game"):
            self.unseen |= {(int(r), int(c)) for r, c in np.argwhere(self.game.board == FLAG)}
        super().new_game()

    def status(self) -> str:
        return "playing" if self.game.status == "won" else self.game.status

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        cell = self.cell_at(p)
        if cell is None or self.status() != "playing":
            super().click(p, button)
            return
        board = self.game.board
        if board[cell] == COVERED and cell in self.unseen:
            self._pos = p
            self.clicks.append((p, button))
            if button != "left":
                self.unseen.discard(cell)  # the mark goes, nothing shows
            return
        if button != "left" and board[cell] == FLAG:
            self._pos = p
            self.clicks.append((p, button))
            board[cell] = COVERED  # a toggle: no question mark
            return
        super().click(p, button)


@pytest.mark.parametrize("seed", [101, 103])
def test_a_mark_the_game_keeps_unseen_is_cleared(seed: int) -> None:
    game = UnseenMarks(BoardSize(8, 8, 10), LOOK, rule="none", seed=seed)
    notes: list[str] = []
    opts = LiveOptions(games=4, max_games=12, time_limit=60.0, mines=10, log=notes.append)
    calibrator = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts)
    calibrator.run()
    truth = [*game.outcomes, game.game.status][:len(calibrator.results)]
    assert calibrator.results == truth and {"won", "lost"} <= set(truth)
    assert any("kept a mark there it did not draw" in n for n in notes), notes
