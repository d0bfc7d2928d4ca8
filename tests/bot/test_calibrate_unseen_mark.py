"""Live calibration of a game that keeps marks it does not draw, like PyMines (PyPI):
a square flagged when a game ends stays flagged, unseen, in the next game (its
``new_game`` does not clear the list). A left click there does nothing; a right click
takes the mark off without a change on the screen. PyMines also shows no win, and
its loss turns the gaps between tiles red (``test_calibrate_gap_recolour``).
Calibration stopped with "the game stopped responding" at the first such square.

Then play stopped in its first game ("0 next to a covered square": the game's flood
passes over a kept mark): calibration flags squares to learn the flag and left them
marked, and it took the flags its silent win still accepts for a game that wants every
mine flagged (``win_needs_flags``), so play flagged every mine at each win, marking
more squares for the next game. Calibration now takes its kept marks off before it
ends, and wants flags at a win only when the last flag brings a win display."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import SynthMouse, SynthScreen  # noqa: E402
from test_calibrate_gap_recolour import LOOK, RedGapGame  # noqa: E402

from bot.calibrate_live import LiveCalibrator, LiveOptions  # noqa: E402
from bot.loop import PlayConfig, Player  # noqa: E402
from bot.reader import SkinReader  # noqa: E402
from bot.screen import ScreenPoint  # noqa: E402
from solver.cells import COVERED, FLAG  # noqa: E402
from solver.game import BoardSize  # noqa: E402
from vision.skin import Skin  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait


class UnseenMarks(RedGapGame):
    """PyMines' flags: a right click toggles a flag; the squares flagged when a game
    ends stay marked, undrawn, in later games; no win is shown."""

    unseen: set[tuple[int, int]]

    def new_game(self) -> None:
        if not hasattr(self, "unseen"):
            self.played: list[str] = []
            self.unseen = set()
        if hasattr(self, "game"):
            self.played.append(self.status())
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


class Quiet:
    def on_board(self, player: object) -> None: ...
    def on_turn(self, *args: object) -> None: ...
    def on_game(self, *args: object) -> None: ...
    def on_note(self, player: object, message: str) -> None: ...


@pytest.mark.parametrize("seed", [101, 107])
def test_play_after_calibration_meets_no_kept_mark(seed: int) -> None:
    game = UnseenMarks(BoardSize(8, 8, 10), LOOK, rule="none", seed=seed)
    opts = LiveOptions(games=4, max_games=12, time_limit=60.0, mines=10)
    learned = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    assert learned.status["win_needs_flags"] is False, learned.status
    assert not game.unseen and (game.game.board == COVERED).all()
    skin = Skin("pymines", "test", learned.cell_size, learned.cells, learned.status,
                learned.restart)
    config = PlayConfig(games=8, mines=10, seed=1, restart_timeout=3.0)
    played = len(game.played)
    results = Player(SynthScreen(game), SynthMouse(game), SkinReader([skin]), "exact",
                     config, observer=Quiet()).play()  # type: ignore[arg-type]
    outcomes = [r.outcome + (f" ({r.reason})" if r.reason else "") for r in results]
    # the game shows no win: a won game is one whose safe squares are all open
    truth = [*game.played[played:], game.status()]
    truth = ["won" if o == "playing" else o for o in truth]
    assert outcomes == truth[:len(outcomes)] and len(outcomes) == 8, (outcomes, truth)
    assert "won" in outcomes and not game.unseen
