"""Play without --mines takes the mine count the skin learned for the board's size
(calibrate writes it) before the size's usual preset: a 16x16 board of 45 mines (the
16x16 preset says 40)."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest
from simgame import sim_mouse
from skinsim import SkinScreen, SkinSimReader, truth_skin

from bot.cmd_play import PrintObserver
from bot.loop import PlayConfig, Player
from bot.reader import SkinReader
from solver.game import BoardSize
from vision.skin import Skin, load_skin, save_skin

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait


class CountingReader(SkinSimReader):
    """The simulated game read with a real skin, the mine count as the real reader
    gives it (from the skin)."""

    mine_count = SkinReader.mine_count


def play(skin: Skin, mines: int | None, tmp_path: Path) -> tuple[Player, list, str]:
    screen = SkinScreen(BoardSize(16, 16, 45), seed=4)
    config = PlayConfig(games=3, mines=mines, redraw_timeout=0.2, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0)
    out = io.StringIO()
    player = Player(screen, sim_mouse(screen), CountingReader(skin, screen.pitch), "csp",
                    config, observer=PrintObserver(None, out))
    results = player.play()
    return player, results, out.getvalue()


def test_play_takes_the_count_the_skin_learned(tmp_path: Path) -> None:
    learned = replace(truth_skin(), mine_counts={(16, 16): 45, (9, 9): 12})
    skin = load_skin(save_skin(learned, tmp_path / "skin"))  # as calibrate leaves it
    player, results, said = play(skin, None, tmp_path)
    assert results and all(r.mines == 45 for r in results)
    assert all(r.outcome in ("won", "lost") for r in results), [r.reason for r in results]
    assert not any(r.outcome == "lost" and r.death_p is not None and r.death_p < 0.001
                   for r in results)
    assert "with 45 mines (learned by the skin)" in said


def test_mines_given_come_first_and_the_preset_last(tmp_path: Path) -> None:
    learned = replace(truth_skin(), mine_counts={(16, 16): 45})
    player, results, said = play(learned, 45, tmp_path)
    assert "with 45 mines (--mines)" in said
    player, results, said = play(truth_skin(), None, tmp_path)  # no count learned
    assert results[0].mines == 40 and "with 40 mines (usual preset for the size)" in said


class VaryingReader(CountingReader):
    mines_vary = SkinReader.mines_vary


def test_a_count_that_varies_stops_play_before_a_click(tmp_path: Path) -> None:
    """calibrate saw different counts at 16x16 (react-minesweeper lays 27-52 mines
    there) and wrote the size with no count: play used to take the preset's 40 in
    silence; now it asks for --mines, and takes it when given."""
    learned = replace(truth_skin(), mine_counts={(16, 16): None})
    skin = load_skin(save_skin(learned, tmp_path / "skin"))
    screen = SkinScreen(BoardSize(16, 16, 45), seed=4)
    config = PlayConfig(games=1, redraw_timeout=0.2, bug_dir=tmp_path / "bugs", seed=0)
    mouse = sim_mouse(screen)
    [result] = Player(screen, mouse, VaryingReader(skin, screen.pitch), "csp", config).play()
    assert result.outcome == "aborted" and "pass --mines" in result.reason, result
    assert not [c for c in mouse.clicks if c.button in ("left", "right", "middle")]
    config = replace(config, mines=45)
    [result] = Player(screen, mouse, VaryingReader(skin, screen.pitch), "csp", config).play()
    assert result.outcome in ("won", "lost") and result.mines == 45, result
