"""Squares stretched with their window: a game that lays its board out to fill the
window (kivy-mines-package, PyPI: Kivy buttons of 84 x 37 px in a 9 x 9 game) draws
tiles over twice as wide as high. The lattice search wanted tiles within 2:1, and
calibration stopped at once: "no Minesweeper board found". Such tiles are now looked
for last (``vision.lattice.STRETCHED_ASPECT``), so a board found before is found as
it was."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, SynthGame, SynthMouse, SynthScreen  # noqa: E402

from bot.calibrate_live import LiveCalibrator, LiveOptions  # noqa: E402
from bot.loop import PlayConfig, Player  # noqa: E402
from bot.reader import SkinReader  # noqa: E402
from solver.game import BoardSize  # noqa: E402
from vision.skin import Skin  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait


class Quiet:
    def on_board(self, player: object) -> None: ...
    def on_turn(self, *args: object) -> None: ...
    def on_game(self, *args: object) -> None: ...
    def on_note(self, player: object, message: str) -> None: ...


class Recorded(SynthGame):
    """Each ended game's status, as the game knows it."""

    def new_game(self) -> None:
        if hasattr(self, "game"):
            self.ended.append(self.game.status)
        else:
            self.ended: list[str] = []
        super().new_game()


@pytest.mark.parametrize("pitch", [(56.0, 22.0), (22.0, 56.0)], ids=["wide", "tall"])
def test_a_game_of_stretched_squares_is_calibrated_and_played(
        pitch: tuple[float, float]) -> None:
    look = Look(pitch_x=pitch[0], pitch_y=pitch[1], origin=(40, 110), size=(800, 800))
    game = Recorded(BoardSize(9, 9, 10), look, rule="safe", seed=3)
    opts = LiveOptions(games=2, max_games=8, time_limit=60.0, log=lambda _: None)
    learned = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    assert learned.cell_size == pitch
    skin = Skin("stretched", "test", learned.cell_size, learned.cells, learned.status,
                learned.restart)
    played = len(game.ended)
    results = Player(SynthScreen(game), SynthMouse(game), SkinReader([skin]), "exact",
                     PlayConfig(games=6, seed=1), observer=Quiet()).play()  # type: ignore[arg-type]
    truth = [*game.ended[played:], game.game.status][:len(results)]
    assert [r.outcome for r in results] == truth and len(results) == 6 and "won" in truth
    assert all(r.death_p is None or r.death_p >= 0.001 for r in results)
