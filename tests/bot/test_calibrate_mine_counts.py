"""Calibrate records the mine count it sees at the ends of games, per board size, in
the skin (live against the made-up game of tests/vision/calib_synth.py, and offline
from screenshots); games of one size with different counts record none."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, SynthGame, SynthMouse, SynthScreen, cut, lost_screen  # noqa: E402

from bot.calibrate_live import LiveCalibrator, LiveOptions  # noqa: E402
from bot.cli import main  # noqa: E402
from bot.cmd_calibrate import mine_counts  # noqa: E402
from solver.game import BoardSize  # noqa: E402
from vision.geometry import PixelRect  # noqa: E402
from vision.skin import load_skin  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

LOOK = Look(pitch_x=23.4, pitch_y=23.4, origin=(51, 123), gap=2)


def calibrate(game: SynthGame) -> object:
    opts = LiveOptions(games=3, max_games=10, time_limit=60.0)
    return LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()


def test_live_calibration_records_the_count_of_its_games() -> None:
    """9x9 with 13 mines (not the 9x9 preset's 10): every game whose end proved a
    count proved 13, and at least one did."""
    result = calibrate(SynthGame(BoardSize(9, 9, 13), LOOK, rule="safe", seed=3))
    seen = result.mine_counts  # type: ignore[attr-defined]
    assert seen and set(seen) == {((9, 9), 13)}
    notes: list[str] = []
    assert mine_counts(None, seen, notes) == ({(9, 9): 13}, {})
    assert any("13 on boards of 9x9" in n for n in notes)


@dataclass
class ChangingCount(SynthGame):
    """A game of one size whose mine count changes from game to game."""

    def new_game(self) -> None:
        self.size = BoardSize(9, 9, (10, 13)[self.games % 2])
        super().new_game()


def test_live_games_of_one_size_with_other_counts_record_none() -> None:
    result = calibrate(ChangingCount(BoardSize(9, 9, 10), LOOK, rule="safe", seed=5))
    seen = result.mine_counts  # type: ignore[attr-defined]
    assert {n for _, n in seen} == {10, 13}  # both kinds of game ended provably
    notes: list[str] = []
    counts, shares = mine_counts(None, seen, notes)
    assert counts == {(9, 9): None}
    assert any("had 10 and 13 mines: no fixed count" in n for n in notes)
    # play takes each square a mine with the mean share of the games seen
    assert shares == {(9, 9): pytest.approx(np.mean([n for _, n in seen]) / 81)}
    assert 10 / 81 < shares[(9, 9)] < 13 / 81


def test_calibrate_from_screenshots_records_the_count_and_extends_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "skin"
    shots = [lost_screen(tmp_path, seed, 45) for seed in (31, 32)]
    assert main(["calibrate", "--name", "synth", "--from", *shots, "--out", str(out)]) == 0
    assert load_skin(out).mine_counts == {(16, 16): 45}
    assert "mine count: 45 on boards of 16x16" in capsys.readouterr().out
    # calibrating again with another count for that size: the size has no fixed count
    other = lost_screen(tmp_path, 33, 40)
    assert main(["calibrate", "--name", "synth", "--from", other, "--out", str(out)]) == 0
    assert load_skin(out).mine_counts == {(16, 16): None}
    assert load_skin(out).mine_shares == {(16, 16): pytest.approx(40 / 256, abs=1e-4)}
    assert "had 40 and 45 mines: no fixed count recorded" in capsys.readouterr().out


@dataclass
class LossDialog(SynthGame):
    """A loss shows every mine, then (a few frames later) a box over the board's
    middle, as kmines' "You have lost" dialog: the last frame proves no count."""

    lost_at: int = -1

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        img = super().grab()
        if self.status() != "lost":
            self.lost_at = -1
        else:
            self.lost_at = self.ticks if self.lost_at < 0 else self.lost_at
            if self.ticks - self.lost_at >= 4:
                left, top, _, _ = self.look.cell_box(3, 2)
                _, _, right, bottom = self.look.cell_box(5, 6)
                img[top:bottom, left:right] = (200, 60, 200)
        return cut(img, region)


def test_a_dialog_over_a_lost_board_records_no_wrong_count() -> None:
    """The loss readings of this game count the box's squares as mines (24-26 of 13)
    and were once taken for counts; only what a game's end proves is recorded."""
    result = calibrate(LossDialog(BoardSize(9, 9, 13), LOOK, rule="safe", seed=3))
    seen, games = result.mine_counts, result.games  # type: ignore[attr-defined]
    assert games.count("lost") >= 3
    assert all(n == 13 for _, n in seen), seen
