"""Live calibration, with no mine count given, of a game whose loss shows only the
mine hit, like the PyQt5 ``minesweeper`` (PyPI): no loss shows the count. Before,
calibration then picked squares at random in every game, since the solver wants the
count: on that game at 16x16 it lost all 40 games it may play, learned no win and no
count. Now, once a loss has hidden its mines, it plays by density at the board size's
usual share (:func:`bot.reader.preset_mines`), and a win proves the count."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, SynthMouse, SynthScreen  # noqa: E402
from test_calibrate_gap_recolour import HitOnlyGame  # noqa: E402

from bot.calibrate_live import LiveCalibrator, LiveOptions  # noqa: E402
from solver.game import BoardSize  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait


@pytest.mark.parametrize("seed", [7, 8])
def test_a_game_whose_losses_hide_the_count_is_won_and_its_count_learned(seed: int) -> None:
    game = HitOnlyGame(BoardSize(9, 9, 10), Look(), rule="none", seed=seed)
    notes: list[str] = []
    opts = LiveOptions(games=3, max_games=12, time_limit=60.0, want=(0, 1, 2),
                       log=notes.append)
    calibrator = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts)
    calibrator.run()
    truth = [*game.outcomes, game.game.status][:len(calibrator.results)]
    assert calibrator.results == truth, notes
    assert "won" in truth, notes
    assert set(calibrator.seen_mine_counts()) == {((9, 9), 10)}, notes
