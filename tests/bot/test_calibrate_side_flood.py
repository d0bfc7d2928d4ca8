"""Live calibration tells a game whose opened 0s open only the squares beside them
(react-minesweeper from npm) and writes ``zero_opens: sides`` into the skin's status;
a game that opens all round gets no such line."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, SynthGame, SynthMouse, SynthScreen  # noqa: E402
from simgame import SideFloodGame  # noqa: E402

from bot.calibrate_live import LiveCalibrator, LiveOptions  # noqa: E402
from solver.game import BoardSize  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

LOOK = Look(pitch_x=23.4, pitch_y=23.4, origin=(51, 123), gap=2)


class SideFloodSynth(SynthGame):
    def new_game(self) -> None:
        self.game = SideFloodGame(self.size, self.rule, seed=self.seed + self.games)
        self.games += 1


def status_of(game: SynthGame) -> dict[str, object]:
    opts = LiveOptions(games=2, max_games=10, time_limit=60.0)
    learned = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    return dict(learned.status)


def test_a_side_flood_is_learned() -> None:
    status = status_of(SideFloodSynth(BoardSize(12, 12, 20), LOOK, rule="opening", seed=4))
    assert status.get("zero_opens") == "sides", status


def test_an_all_round_flood_writes_no_rule() -> None:
    status = status_of(SynthGame(BoardSize(12, 12, 20), LOOK, rule="opening", seed=4))
    assert "zero_opens" not in status, status
