"""The Ace of Penguins' minesweeper (apt ``ace-of-penguins``), a game the project ships
no skin for, tried as a new user would: ``sweepbot calibrate`` with an empty templates
folder, then ``sweepbot play`` with what it learned, each a separate process on a private
Xvfb display (no window manager: the penguin above the board starts a new game).

Its level 3 is 16x16 with 45 mines and 24 px squares: open squares are the window's own
green with white digits, every question mark stays as it is when a game is lost (mine
or not), the first click is not protected, and a win wants every mine flagged. Play
needs ``--mines 45``: with no counter reader, a 16x16 board is taken for 40 mines.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from test_other_games import check_games, learned_states, played, sweepbot

from bot.othergames import ACE_MINESWEEPER

pytestmark = [
    pytest.mark.live,
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("Xvfb") is None or shutil.which("dbus-daemon") is None,
                       reason="Xvfb and dbus-daemon are needed (apt: xvfb dbus)"),
    pytest.mark.skipif(not Path(ACE_MINESWEEPER).exists(),
                       reason="ace-minesweeper is needed (apt: ace-of-penguins)"),
]


def test_ace_minesweeper_from_scratch(tmp_path: Path) -> None:
    from bot.othergames import launch_ace_minesweeper
    from bot.realgames import VirtualDisplay

    templates, log = tmp_path / "templates", tmp_path / "play.jsonl"
    templates.mkdir()
    with VirtualDisplay() as vd:
        launch_ace_minesweeper(vd, 16, 16, 45).move(120, 90)
        time.sleep(0.5)
        cal = sweepbot(["calibrate", "--name", "ace", "--time-limit", "60"],
                       vd.display, templates, 180)
        assert cal.returncode == 0, cal.stdout + cal.stderr
        assert {"covered", "flag", "question", "mine", "exploded", "wrong_flag",
                "0", "1", "2", "3"} <= learned_states(templates, "ace"), cal.stderr
        out = sweepbot(["play", "--skin", "ace", "--games", "8", "--mines", "45", "--log",
                        str(log), "--bug-dir", str(tmp_path / "bugs")],
                       vd.display, templates, 120)
    assert out.returncode in (0, 1), out.stdout + out.stderr  # 1: a game stopped
    games = played(log)
    check_games(games, 8)
    assert any(g["outcome"] == "won" for g in games), games
