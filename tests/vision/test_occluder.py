"""A window over part of the board (:mod:`vision.occluder`): Windows 7's "Game Lost"
and "Game Won" dialogs, Google's "Game over", gnome-mines' scores, a browser's menu.

``calibrate --from`` with a capture of a game in play and captures of ended games
behind such a dialog named nothing: the dialog's face cut into squares makes looks of
its own (its white face a look of 24 squares on Windows 7's lost board), no loss
reading fits them, and the frames were then taken for games in play, whose logic
they broke too. They are now named, and read for a loss beside the window only
(:data:`vision.calibrate.HIDDEN`), with what the game in play named. The captures
are real (Chromium, gnome-mines, KMines; see each folder's test); the ``.board`` files
were worked out from the games, not by vision code.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.cli import main
from solver.cells import COVERED, EXPLODED, MINE, UNKNOWN
from solver.game import BoardSize, Game
from solver.textboard import parse_board
from vision.calibrate import (
    HIDDEN,
    adjacent_count,
    agreed_names,
    best_loss_readings,
    find_boards,
    learn_from_images,
    read_cells,
)
from vision.occluder import window_over, window_squares

TESTS = Path(__file__).resolve().parent.parent
WINDOW_OVER = ["vision/web_win7/lost.png", "vision/web_win7/won.png",
               "vision/web_checkered/anim_lost.png", "vision/web_checkered/anim_won.png",
               "vision/gnome_won_dialog/won_16x16_top_ten.png", "vision/popup_menu/menu.png",
               "fixtures/gnome-mines/screen_won_dialog.png", "bot/kmines_end/message.png"]
NOTHING_OVER = ["vision/web_win7/playing.png", "vision/web_win7/lost_shown.png",
                "vision/web_checkered/edges_won.png", "vision/web_checkered/edges_lost.png",
                "vision/web_checkered/plain_playing.png", "fixtures/winmine/expert_lost.png",
                "fixtures/winmine/dense_playing.png", "fixtures/xdemineur/expert_lost.png",
                "fixtures/gnome-mines/custom20x12_1000x650_lost.png",
                "fixtures/gnome-mines/dense_lost_1.png"]


def _image(rel: str) -> np.ndarray:
    image = cv2.imread(str(TESTS / rel))
    assert image is not None, rel
    return np.asarray(image, np.uint8)


@pytest.mark.parametrize("rel", WINDOW_OVER + NOTHING_OVER)
def test_a_window_over_the_board_is_found_and_only_then(rel: str) -> None:
    image = _image(rel)
    g = find_boards([image])[0][0]
    assert g is not None, rel
    assert window_over(image, g) == (rel in WINDOW_OVER)


@pytest.mark.parametrize(("rel", "spans"), [
    ("vision/web_win7/lost.png", (3, 13, 0, 15)),  # dialog: rows 4-13, columns 1-14
    ("vision/web_checkered/anim_lost.png", (2, 11, 3, 14)),  # rows 3-10, columns 4-13
    ("vision/popup_menu/menu.png", (8, 15, 7, 15)),  # from mid-square 8, 8: off the corner
    ("bot/kmines_end/message.png", (3, 5, 0, 8))])  # a strip across the board
def test_the_squares_under_a_window_and_half_a_square_around_it(
        rel: str, spans: tuple[int, int, int, int]) -> None:
    image = _image(rel)
    g = find_boards([image])[0][0]
    assert g is not None
    rows, cols = np.nonzero(window_squares(image, g))
    assert (rows.min(), rows.max(), cols.min(), cols.max()) == spans
    assert len(rows) == (spans[1] - spans[0] + 1) * (spans[3] - spans[2] + 1)


@pytest.mark.parametrize("rel", NOTHING_OVER)
def test_no_square_is_under_a_window_when_there_is_none(rel: str) -> None:
    image = _image(rel)
    g = find_boards([image])[0][0]
    assert g is not None
    assert not window_squares(image, g).any()


def test_a_loss_is_read_beside_squares_a_window_hides() -> None:
    game = Game(BoardSize.parse("9x9/10"), rule="opening", seed=3)
    game.open((4, 4))
    assert game.mines is not None
    game.open(tuple(np.argwhere(game.mines)[0]))  # (0, 2): lost
    ids = np.asarray(game.board, np.int32) + 10  # (each state a look of its own)
    under = np.zeros(ids.shape, bool)
    under[5:8, 4:7] = True  # (two mines, counted by five numbers around it)
    assert adjacent_count(game.mines & under)[~under & (game.board > 0)].sum() >= 5
    ids[under] = HIDDEN
    known = {COVERED + 10: COVERED, 10: 0, 11: 1}
    readings = best_loss_readings(ids, known)
    names = agreed_names(readings, ids, known)
    assert names == {COVERED + 10: COVERED, EXPLODED + 10: EXPLODED, MINE + 10: MINE,
                     10: 0, 11: 1, 12: 2}
    # read as if nothing hid them, the numbers beside it count fewer mines than
    # they show, and no reading fits
    assert not best_loss_readings(np.where(under, 10, ids), known)


def test_a_loss_behind_a_dialog_is_not_read_from_nothing_named() -> None:
    image = _image("vision/web_win7/lost.png")
    learned = learn_from_images([image])
    assert learned.window_images == (0,)
    assert not learned.cells  # (its wrong flag fits as a 2 beside the window)


def test_captures_behind_dialogs_are_read_beside_them_and_the_game_in_play_names() -> None:
    names = ["lost", "won", "playing"]
    images = [_image(f"vision/web_win7/{n}.png") for n in names]
    learned = learn_from_images(images)
    assert learned.window_images == (0, 1)
    assert {COVERED, MINE, 0, 1, 2, 3} <= set(learned.cells)  # (the hit mine, seen
    # on one square of one capture, stays unnamed)
    for name, image, g in zip(names, images, learned.boards, strict=True):
        assert g is not None, name
        expected = parse_board((TESTS / f"vision/web_win7/{name}.board").read_text())
        read = read_cells(image, g, learned.cells)
        known = read != UNKNOWN
        assert np.argwhere(known & (read != expected)).tolist() == [], name
        if name == "playing":
            assert known.mean() > 0.95


def test_calibrate_from_a_capture_behind_a_dialog_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lost = str(TESTS / "vision/web_win7/lost.png")
    assert main(["calibrate", "--name", "w7", "--from", lost,
                 "--out", str(tmp_path / "skin")]) == 2
    err = capsys.readouterr().err
    assert "a window over part of the board" in err and err.rstrip().endswith(lost)
    assert not (tmp_path / "skin").exists()
    playing = str(TESTS / "vision/web_win7/playing.png")
    assert main(["calibrate", "--name", "w7", "--from", lost, playing,
                 "--out", str(tmp_path / "skin")]) == 0
    out = capsys.readouterr().out
    assert "learned from 2 screenshots" in out
    cells = json.loads((tmp_path / "skin" / "skin.json").read_text())["cells"]
    assert {"covered", "mine", "0", "1"} <= set(cells)  # (mines: beside the dialog alone)
    line = next(x for x in out.splitlines() if "a window over part of the board" in x)
    assert line.endswith(lost)
