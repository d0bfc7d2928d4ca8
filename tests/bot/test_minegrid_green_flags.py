"""A game that shows each flag on a mine in a look of its own at a loss and at a win.

Real captures of Tk MineGrid (``tests/bot/minegrid/README.md``): at its end the game
turns every flag on a mine green, at a loss as at a win, leaves a wrong flag a flag,
shows the other mines orange and the mine hit red. Calibration took a changed flag for
a wrong one (Windows' way), learned 12 mines where the game has 13, and play won none
of 10: with the green look named a mine (as the numbers show it is), every win read
as a loss.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from checked_image import StillScreen, play_frames, read_checked

from bot.calibrate_live import LiveCalibrator, LiveOptions
from bot.loop import flags_shown_as_mines
from bot.mouse import RecordingMouse
from bot.reader import SkinReader
from solver.cells import COVERED, EXPLODED, FLAG, MINE, neighbour_sum
from solver.textboard import parse_board
from vision.calibrate import label_loss_transition
from vision.skin import load_skin

HERE = Path(__file__).parent / "minegrid"
SHA256 = {"loss_before.png": "c6f95b6bb1101ba50dd6071342d968b498190c102d72e229136f53cc453990ee",
          "loss_after.png": "24cfc4c4850c32108467a673d0549eda0162b02ed8a29b2d6fd0ce580efbab73",
          "win_before.png": "589964685a331fe063872ceb750bd65bc84ab5e965c8dd7de5bf9d4482d087d1",
          "win_after.png": "d465a98fd4f09e72c3b5bf78421b55422fdf399dfbce2c8c1177a7678120b224"}
NAMES = ("loss_before", "loss_after", "win_before", "win_after")


def capture(name: str) -> np.ndarray:
    return read_checked(HERE / f"{name}.png", SHA256[f"{name}.png"])


def cells(where: np.ndarray) -> list[tuple[int, int]]:
    return [(int(r), int(c)) for r, c in np.argwhere(where)]


def board(name: str) -> np.ndarray:
    return parse_board((HERE / f"{name}.board").read_text())


@pytest.mark.parametrize("end", ["loss", "win"])
def test_the_boards_follow_the_games_logic(end: str) -> None:
    """Checked by eye; here by the game's rules: at the end every number counts the
    mines shown round it (13 of them), and the board before differs only where a flag
    or a covered square turned into a mine (and the square clicked)."""
    before, after = board(f"{end}_before"), board(f"{end}_after")
    mines = np.isin(after, (MINE, EXPLODED))
    assert int(mines.sum()) == 13
    numbers = (after >= 0) & (after <= 8)
    assert (after[numbers] == neighbour_sum(mines)[numbers]).all()
    changed = before != after
    assert np.isin(before[changed], (COVERED, FLAG)).all()
    assert (mines[changed] | (before[changed] == COVERED)).all()
    assert int((changed & ~mines).sum()) <= 1  # (the win's last square)


@pytest.mark.parametrize("name", NAMES)
def test_the_calibrated_skin_reads_every_capture(name: str) -> None:
    reader = SkinReader([load_skin(HERE / "skin")])
    geometry = reader.locate(capture("loss_before"))
    assert (geometry.rows, geometry.cols) == (8, 8)
    assert np.array_equal(reader.read(capture(name), geometry), board(name))


def test_green_flags_are_a_win_only_where_every_other_square_is_open() -> None:
    assert flags_shown_as_mines(board("win_after"), board("win_before"))
    assert not flags_shown_as_mines(board("loss_after"), board("loss_before"))
    unflagged = board("win_before")
    unflagged[0, 4] = COVERED  # (a mine shown where no flag was: a loss)
    assert not flags_shown_as_mines(board("win_after"), unflagged)


def test_play_takes_the_green_win_for_a_win(tmp_path: Path) -> None:
    """The last safe square opened; the game turns the 13 flags green."""
    player, mouse = play_frames([capture("win_before"), capture("win_after")],
                                HERE / "skin", tmp_path / "bugs")
    results = player.play()
    assert [r.outcome for r in results] == ["won"], results[0].reason
    assert [(a.button, player.map.to_pixel(a.point)) for a in mouse.clicks] == [
        ("left", player.geometry.cell_center((0, 6)))]  # type: ignore[union-attr]


def test_a_loss_names_green_flags_mines_and_counts_13() -> None:
    """Three flags on mines turned green, one on a safe square stayed a flag: the
    numbers say which (Windows' way, a changed flag is a wrong one: 12 mines, and the
    wrong flag a mine)."""
    before, after = capture("loss_before"), capture("loss_after")
    screen = StillScreen(before)
    cal = LiveCalibrator(screen, RecordingMouse(size=screen.size()), LiveOptions())
    assert cal.find_board().shape == (8, 8)
    ids_before, ids_after = cal.ids(before), cal.ids(after)
    known = {int(ids_before[7, 0]): COVERED, int(ids_before[0, 1]): FLAG}  # (its marks)
    names = label_loss_transition(ids_before, ids_after, known, [(7, 6)])
    assert names is not None
    expected = board("loss_after")
    assert names[(7, 6)] == EXPLODED
    assert all(names.get(c) == MINE for c in cells(expected == MINE))
    assert names.get((7, 7)) not in (MINE, EXPLODED)  # the wrong flag, kept: no mine
    numbers = {c: int(expected[c]) for c in cells(expected >= 0)}
    assert {c: names[c] for c in numbers if c in names} == {
        c: v for c, v in numbers.items() if c in names}
    assert sum(1 for v in names.values() if v in (MINE, EXPLODED)) == 13


def test_a_flag_placed_on_a_proven_square_decides_alone() -> None:
    """With the player's own knowledge of its flags (a flag on a square it proved a
    mine), the green look is a mine whatever the numbers show."""
    before, after = capture("loss_before"), capture("loss_after")
    screen = StillScreen(before)
    cal = LiveCalibrator(screen, RecordingMouse(size=screen.size()), LiveOptions())
    cal.find_board()
    ids_before, ids_after = cal.ids(before), cal.ids(after)
    known = {int(ids_before[7, 0]): COVERED, int(ids_before[0, 1]): FLAG}
    names = label_loss_transition(ids_before, ids_after, known, [(7, 6)],
                                  flag_mines={(0, 1): True, (7, 7): False})
    assert names is not None and names[(0, 1)] == MINE and names[(2, 2)] == MINE
