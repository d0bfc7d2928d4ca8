"""A game that closes its window at the end of its first game (cave-sweeper, PyPI:
its loss message answered, the window is destroyed; there is no new game), calibrated
from the command line. Calibration cannot go on, but nothing learned is lost: the skin
of the game it played is written, with the error and what to do next, exit code 2.
Before, the error alone: nothing written.

Where the mouse can tell which window shows the board (X11), nothing is clicked or
pressed once that window has gone: what shows there is the desktop or another
program. Before, calibration clicked what had changed there and pressed Escape."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import GoneOnQuit, Look, SynthGame, SynthMouse, SynthScreen  # noqa: E402

from bot.cli import main  # noqa: E402
from bot.screen import ScreenPoint  # noqa: E402
from solver.cells import COVERED  # noqa: E402
from solver.game import BoardSize  # noqa: E402
from vision.geometry import PixelRect  # noqa: E402
from vision.skin import load_skin  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

SIZE = BoardSize(9, 9, 10)


class GameWindowShown:
    """The game's window, as the mouse backend tells it: there until the game quits."""

    def __init__(self, game: SynthGame) -> None:
        self.game = game

    def present(self) -> bool:
        return not getattr(self.game, "quit", False)


class WindowMouse(SynthMouse):
    """A mouse that can tell which window is at a point (as :class:`XTestMouse`)."""

    def window_at(self, p: ScreenPoint) -> GameWindowShown:
        return GameWindowShown(self.game)


@dataclass
class ClosesAtEnd(GoneOnQuit, SynthGame):
    """Its window goes a few frames after its first game ends."""

    shown_ended: int = 0

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        if self.game.status != "playing" and not self.quit:
            self.shown_ended += 1
            self.quit = self.shown_ended > 6
        return super().grab(region)


def calibrate_cli(game: ClosesAtEnd, mouse: SynthMouse, out: Path,
                  monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> str:
    """``sweepbot calibrate`` on ``game`` through ``mouse``, which stops when the game
    closes, its skin written to ``out``; what it printed to stderr."""
    monkeypatch.setattr("bot.screen.MssScreen", lambda display=None: SynthScreen(game))
    monkeypatch.setattr("bot.screen.prepare_platform", lambda: None)
    monkeypatch.setattr("bot.mouse.make_mouse", lambda kind, display=None: mouse)
    code = main(["calibrate", "--name", "closes", "--out", str(out), "--time-limit", "60"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert game.quit and game.games == 1, err
    assert "calibration stopped early" in err, err
    return err


def test_a_game_that_closes_at_its_end_leaves_its_skin_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    game = ClosesAtEnd(SIZE, Look(), rule="safe", seed=2)
    out = tmp_path / "closes"
    err = calibrate_cli(game, SynthMouse(game), out, monkeypatch, capsys)
    assert err.strip().splitlines()[-1].startswith("sweepbot calibrate: "), err
    skin = load_skin(out)
    assert COVERED in skin.cells and any(0 <= code <= 8 for code in skin.cells), \
        sorted(skin.cells)
    assert (out / "contact_sheet.png").is_file()
    assert skin.restart.get("kind") is None, skin.restart  # no way to start a game learned


def test_nothing_is_clicked_or_pressed_once_the_game_window_has_gone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    game = ClosesAtEnd(SIZE, Look(), rule="safe", seed=2)
    after_close: list[object] = []
    record = game.click

    def click(p: ScreenPoint, button: str = "left") -> None:
        if game.quit:
            after_close.append((p, button))
        record(p, button)

    monkeypatch.setattr(game, "click", click)
    monkeypatch.setattr(game, "key", lambda keys: after_close.append(keys) if game.quit
                        else SynthGame.key(game, keys))
    out = tmp_path / "closes"
    err = calibrate_cli(game, WindowMouse(game), out, monkeypatch, capsys)
    assert after_close == [], after_close
    assert "the game's window has closed" in err.strip().splitlines()[-1], err
    skin = load_skin(out)  # what the game taught is kept here too
    assert COVERED in skin.cells and any(0 <= code <= 8 for code in skin.cells), \
        sorted(skin.cells)
