"""A window over part of the board (:mod:`vision.occluder`): Windows 7's "Game Lost"
and "Game Won" dialogs, Google's "Game over", gnome-mines' scores, a browser's menu.

``calibrate --from`` with a capture of a game in play and captures of ended games
behind such a dialog named nothing: the dialog's face cut into squares makes looks of
its own (its white face a look of 24 squares on Windows 7's lost board), no loss
reading fits them, and the frames were then taken for games in play, whose logic
they broke too. They are now left out by name, and the game in play names what it
shows. The captures are real (Chromium, gnome-mines, KMines; see each folder's
test); the ``.board`` files were worked out from the games, not by vision code.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.cli import main
from solver.cells import COVERED, UNKNOWN
from solver.textboard import parse_board
from vision.calibrate import find_boards, learn_from_images, read_cells
from vision.occluder import window_over

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


def test_captures_behind_dialogs_are_left_out_and_the_game_in_play_names() -> None:
    names = ["lost", "won", "playing"]
    images = [_image(f"vision/web_win7/{n}.png") for n in names]
    learned = learn_from_images(images)
    assert learned.window_images == (0, 1)
    assert {COVERED, 0, 1, 2, 3} <= set(learned.cells)
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
    assert "learned from 1 screenshots" in out
    line = next(x for x in out.splitlines() if "a window over part of the board" in x)
    assert line.endswith(lost)
