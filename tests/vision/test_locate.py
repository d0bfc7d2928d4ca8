"""The board is found anywhere on a full screen, with no hint of where or which game."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from solver.textboard import diff_boards, parse_board
from vision.locate import BoardNotFound, locate_board
from vision.read import read_board
from vision.skin import Skin, available_skins, load_skin

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CASES = ["xdemineur/expert_playing", "xdemineur/beginner_lost", "gnome-mines/expert_900x480_lost",
         "gnome-mines/small_playing", "gnome-mines/custom9x9_600x420_playing"]


@pytest.fixture(scope="module")
def skins() -> list[Skin]:
    return [load_skin(n) for n in available_skins()]


def on_desktop(shot: np.ndarray, x: int, y: int) -> np.ndarray:
    """A 1920x1080 desktop (grey gradient, another window) with ``shot`` at (x, y)."""
    ramp = np.linspace(20, 120, 1920, dtype=np.float32)[None, :, None]
    desk = np.broadcast_to(ramp, (1080, 1920, 3)).astype(np.uint8).copy()
    cv2.rectangle(desk, (40, 700), (500, 1000), (240, 240, 240), -1)
    h, w = shot.shape[:2]
    desk[y:y + h, x:x + w] = shot
    return desk


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("offset", [(0, 0), (333, 171), (1920 - 960, 1080 - 560)])
def test_found_anywhere_on_the_screen(case: str, offset: tuple[int, int],
                                      skins: list[Skin]) -> None:
    png = FIXTURES / f"{case}.png"
    shot = cv2.imread(str(png))
    x = min(offset[0], 1920 - shot.shape[1])
    y = min(offset[1], 1080 - shot.shape[0])
    alone = locate_board(shot, skins)
    g = locate_board(on_desktop(shot, x, y), skins)
    assert (g.skin, g.rows, g.cols) == (alone.skin, alone.rows, alone.cols)
    assert abs(g.x0 - alone.x0 - x) < 0.5 and abs(g.y0 - alone.y0 - y) < 0.5
    assert abs(g.pitch_x - alone.pitch_x) < 0.05 and abs(g.pitch_y - alone.pitch_y) < 0.05
    skin = next(s for s in skins if s.name == g.skin)
    expected = parse_board(png.with_suffix(".board").read_text())
    assert diff_boards(expected, read_board(on_desktop(shot, x, y), g, skin)) == []


def test_fractional_uneven_pitch_is_measured(skins: list[Skin]) -> None:
    png = FIXTURES / "gnome-mines" / "expert_900x480_lost.png"
    g = locate_board(cv2.imread(str(png)), skins)
    comments = dict(line[2:].split(" ", 1) for line in png.with_suffix(".board").read_text()
                    .splitlines() if line.startswith("# "))
    px, py = (float(v) for v in comments["pitch"].split("x"))
    assert abs(g.pitch_x - px) < 0.05 and abs(g.pitch_y - py) < 0.05
    cells = comments["cells"]  # "x=A..B y=C..D": first to last tile, image pixels
    x_first = float(cells.split()[0][2:].split("..")[0])
    y_last = float(cells.split()[1][2:].split("..")[1])
    first = g.cell_rect((0, 0))
    last = g.cell_rect((g.rows - 1, 0))
    assert first.left <= x_first <= first.left + first.width
    assert last.top <= y_last <= last.top + last.height


@pytest.mark.parametrize("image", [
    np.zeros((1080, 1920, 3), np.uint8),
    np.random.default_rng(1).integers(0, 256, (600, 800, 3), dtype=np.uint8),
    np.full((50, 50, 3), 179, np.uint8),
])
def test_no_board_raises_board_not_found(image: np.ndarray, skins: list[Skin]) -> None:
    with pytest.raises(BoardNotFound, match="no Minesweeper board"):
        locate_board(image, skins)


@pytest.mark.parametrize("bad", [np.zeros((10, 10), np.uint8), np.zeros((9, 9, 3), np.float32),
                                 "not an image"])
def test_wrong_input_raises_board_not_found(bad: object, skins: list[Skin]) -> None:
    with pytest.raises(BoardNotFound, match="expected"):
        locate_board(bad, skins)  # type: ignore[arg-type]
