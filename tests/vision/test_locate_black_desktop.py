"""A board whose opened squares are the desktop's colour is found at its true size.

WineMine (wine's Win32 Minesweeper) draws an opened empty square black, with a line on
its left and top, and the board one more line on its right and bottom; its window margin
and LED strip are black too, and so is Xvfb's desktop (and many dark desktops). Growing
the lattice over strips of that black (read as empty squares) found the whole screen;
the strips right of and below the board hold the board's last line along them, like a
real empty square cut at the board's edge, but not the board's grid lines across them.
Here the recorded WineMine window captures (``tests/fixtures/winmine``) are pasted on a
black screen, at a small and a full-HD size (the locator halves a big image first).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from solver.textboard import diff_boards, parse_board
from vision.lattice import find_lattice
from vision.locate import locate_board
from vision.read import read_board
from vision.skin import Image, load_skin

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "winmine"
CASES = sorted(p.stem for p in FIXTURES.glob("*.png"))


def _window(case: str) -> Image:
    image = cv2.imread(str(FIXTURES / f"{case}.png"))
    assert image is not None
    return np.asarray(image, np.uint8)


@pytest.mark.parametrize("screen", [(480, 640, 37, 53), (1080, 1920, 90, 120)],
                         ids=["640x480", "1920x1080"])
@pytest.mark.parametrize("case", CASES)
def test_winmine_on_a_black_desktop(case: str, screen: tuple[int, int, int, int]) -> None:
    window = _window(case)
    expected = parse_board((FIXTURES / f"{case}.board").read_text())
    h, w, top, left = screen
    image = np.zeros((h, w, 3), np.uint8)
    image[top:top + window.shape[0], left:left + window.shape[1]] = window
    skin = load_skin("winmine")
    g = locate_board(image, [skin])
    assert (g.rows, g.cols) == expected.shape
    assert diff_boards(read_board(image, g, skin), expected) == []


def test_all_shipped_skins_on_a_black_desktop() -> None:
    """The same with every shipped skin in the running (as ``sweepbot play`` looks)."""
    from vision.skin import load_skins

    window = _window("intermediate_playing")
    expected = parse_board((FIXTURES / "intermediate_playing.board").read_text())
    image = np.zeros((1080, 1920, 3), np.uint8)
    image[90:90 + window.shape[0], 120:120 + window.shape[1]] = window
    g = locate_board(image, load_skins())
    assert (g.skin, g.rows, g.cols) == ("winmine", *expected.shape)


@pytest.mark.parametrize("case", CASES)
def test_skinless_lattice_on_a_black_desktop(case: str) -> None:
    """The template-free lattice (``sweepbot calibrate --from``) gets the size too."""
    window = _window(case)
    expected = parse_board((FIXTURES / f"{case}.board").read_text())
    image = np.zeros((window.shape[0] + 200, window.shape[1] + 300, 3), np.uint8)
    image[100:100 + window.shape[0], 150:150 + window.shape[1]] = window
    g = find_lattice(image)
    assert (g.rows, g.cols) == expected.shape
    assert (g.x0, g.y0) == (pytest.approx(154.0, abs=0.5), pytest.approx(151.0, abs=0.5))


REAL = Path(__file__).resolve().parent / "winmine_black"


@pytest.mark.parametrize("at", [(120, 90), (121, 91), (333, 250), (7, 40)],
                         ids=lambda at: f"{at[0]}_{at[1]}")
@pytest.mark.parametrize("case", sorted(p.stem for p in REAL.glob("*.png")))
def test_real_black_desktop_captures(case: str, at: tuple[int, int]) -> None:
    """Real captures of WineMine on Xvfb's black desktop (``winmine_black/README.md``),
    at the place they were taken and three more (the half-size blobs' phase moves):
    a board at its start grew one column at (120, 90)."""
    window = cv2.imread(str(REAL / f"{case}.png"))
    assert window is not None
    expected = parse_board((REAL / f"{case}.board").read_text())
    image = np.zeros((1080, 1920, 3), np.uint8)
    x, y = at
    image[y:y + window.shape[0], x:x + window.shape[1]] = window
    skin = load_skin("winmine")
    g = locate_board(image, [skin])
    assert (g.rows, g.cols, g.x0, g.y0) == (*expected.shape, x + 4, y + 51)
    assert diff_boards(read_board(image, g, skin), expected) == []
