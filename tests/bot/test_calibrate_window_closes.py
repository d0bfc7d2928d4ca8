"""A game that closes its window at the end of its first game (cave-sweeper, PyPI:
its loss message answered, the window is destroyed; there is no new game), calibrated
from the command line. Calibration cannot go on, but nothing learned is lost: the skin
of the game it played is written, with the error and what to do next, exit code 2.
Before, the error alone: nothing written."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import GoneOnQuit, Look, SynthGame, SynthMouse, SynthScreen  # noqa: E402

from bot.cli import main  # noqa: E402
from solver.cells import COVERED  # noqa: E402
from solver.game import BoardSize  # noqa: E402
from vision.geometry import PixelRect  # noqa: E402
from vision.skin import load_skin  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

SIZE = BoardSize(9, 9, 10)


@dataclass
class ClosesAtEnd(GoneOnQuit, SynthGame):
    """Its window goes a few frames after its first game ends."""

    shown_ended: int = 0

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        if self.game.status != "playing" and not self.quit:
            self.shown_ended += 1
            self.quit = self.shown_ended > 6
        return super().grab(region)


def test_a_game_that_closes_at_its_end_leaves_its_skin_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    game = ClosesAtEnd(SIZE, Look(), rule="safe", seed=2)
    monkeypatch.setattr("bot.screen.MssScreen", lambda display=None: SynthScreen(game))
    monkeypatch.setattr("bot.screen.prepare_platform", lambda: None)
    monkeypatch.setattr("bot.mouse.make_mouse", lambda kind, display=None: SynthMouse(game))
    out = tmp_path / "closes"
    code = main(["calibrate", "--name", "closes", "--out", str(out), "--time-limit", "60"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert game.quit and game.games == 1, err
    assert "calibration stopped at a new game" in err, err
    assert err.strip().splitlines()[-1].startswith("sweepbot calibrate: "), err
    skin = load_skin(out)
    assert COVERED in skin.cells and any(0 <= code <= 8 for code in skin.cells), \
        sorted(skin.cells)
    assert (out / "contact_sheet.png").is_file()
    assert skin.restart.get("kind") is None, skin.restart  # no way to start a game learned
