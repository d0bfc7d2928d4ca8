"""``replay`` never prints a board that shows a 0 next to a covered square: no game
shows one (opening a 0 opens the squares around it). minegauler's captures saved as
JPEG (quality 90), read with the skin calibrate learned from its PNGs, were found a
row short and printed with covered squares read as 0s; now such a reading is refused
(exit 2, saying why), as a board with a number short of room for its mines is."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.cmd_replay import BadInput, read_file
from bot.consistency import zero_beside_covered
from solver.cells import UNKNOWN
from solver.textboard import parse_board
from vision.skin import load_skin

STANDARD = Path(__file__).resolve().parent.parent / "fixtures" / "minegauler" / "standard"


def jpeg(path: Path, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", cv2.imread(str(path)), [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)


@pytest.mark.parametrize("stem", ["lost_9x9", "playing_9x9"])
def test_a_jpeg_is_refused_or_read_without_a_wrong_square(stem: str, tmp_path: Path) -> None:
    skin = load_skin(STANDARD / "skin")
    png = STANDARD / f"{stem}.png"
    expected = parse_board(png.with_suffix(".board").read_text())
    assert not zero_beside_covered(expected).any()  # the game's own logic
    shot = tmp_path / f"{stem}.jpg"
    shot.write_bytes(b"")  # (a name only: read_file takes the pixels)
    try:
        reading = read_file(shot, jpeg(png, 90), [skin], lossy=True)
    except BadInput as exc:
        assert "no board" in str(exc)
        return
    board = reading.board
    assert board.shape == expected.shape
    assert int(((board != expected) & (board != UNKNOWN)).sum()) == 0


def test_the_png_is_still_read_whole() -> None:
    skin = load_skin(STANDARD / "skin")
    png = STANDARD / "lost_9x9.png"
    reading = read_file(png, np.asarray(cv2.imread(str(png)), np.uint8), [skin])
    assert np.array_equal(reading.board, parse_board(png.with_suffix(".board").read_text()))
