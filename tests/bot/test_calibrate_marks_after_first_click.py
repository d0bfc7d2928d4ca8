"""A game that takes no flag before its first click: ``mfranceschi-minesweeper`` 0.2.3
(PyPI, Tk) ignores right-clicks until a left-click has laid its mines
(``on_right_click`` checks ``game_is_initiated``). Calibrate right-clicks the fresh
board, sees nothing change and stops, with no other click (a game that takes no
click at all, or a menu left open, looks the same then). Its message named
``--flag-button none`` only for "a mode button"; it now names it for a game that takes
no flag before its first click too, so a user of such a game knows the way on.

The game here is made up (:mod:`calib_synth`): right-clicks do nothing before the
first left-click of each game.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, SynthGame, SynthMouse, SynthScreen  # noqa: E402

from bot.calibrate_live import CalibrationError, LiveCalibrator, LiveOptions  # noqa: E402
from solver.cells import COVERED  # noqa: E402
from solver.game import BoardSize  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait


class FlagsAfterFirstClick(SynthGame):
    """Right-clicks on the board do nothing until the game's first left-click."""

    def new_game(self) -> None:
        super().new_game()
        self.started = False

    def click(self, p, button="left"):  # type: ignore[no-untyped-def]
        on_board = self.cell_at(p) is not None
        if button != "left" and on_board and not self.started:
            self.clicks.append((p, button))
            return
        if button == "left" and on_board:
            self.started = True
        super().click(p, button)


def _game() -> FlagsAfterFirstClick:
    return FlagsAfterFirstClick(BoardSize(9, 9, 10), Look(origin=(40, 110)), rule="opening",
                                seed=4)


def test_the_message_names_the_way_on_and_nothing_else_is_clicked() -> None:
    game = _game()
    opts = LiveOptions(games=3, max_games=8, time_limit=60.0, log=lambda _: None)
    with pytest.raises(CalibrationError,
                       match="or none before the game's first click: --flag-button none"):
        LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    # (a right-click, then the same held on the square: a game that polls the pointer)
    assert [button for _, button in game.clicks] == ["right", "right"]
    assert game.clicks[0][0] == game.clicks[1][0]


def test_with_no_flags_such_a_game_is_calibrated() -> None:
    game = _game()
    opts = LiveOptions(games=3, max_games=8, time_limit=60.0, log=lambda _: None,
                       flag_button="none")
    learned = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    assert {COVERED, 0, 1} <= set(learned.cells)
