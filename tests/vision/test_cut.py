"""A board cut by its window's edge or the screen's is told from a whole one
(:mod:`vision.cut`): real captures of a cut browser game, every recorded fixture
(none is cut), and fixtures cut through a line of squares on each side."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.cut import cut_sides
from vision.lattice import find_lattice

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
REACT = FIXTURES / "react-minesweeper" / "window"
WHOLE = sorted(p for game in ("xdemineur", "gnome-mines", "winmine", "minegauler",
                              "pygame-minesweeper", "freesweep")
               for p in (FIXTURES / game).rglob("*.png") if "skin" not in p.parts)


def load(path: Path) -> np.ndarray:
    image = cv2.imread(str(path))
    assert image is not None, path
    return image


@pytest.mark.parametrize("name, size, sides", [
    ("whole", (16, 30), ()),
    ("cut_right", (16, 26), ("right",)),
    ("cut_bottom", (15, 30), ("bottom",)),  # the 16th row, 23 of 30 px, found as whole
    ("cut_left", (16, 25), ("left",)),
])
def test_real_cut_windows(name: str, size: tuple[int, int], sides: tuple[str, ...]) -> None:
    image = load(REACT / f"{name}_30x16.png")
    g = find_lattice(image)
    assert (g.rows, g.cols) == size
    assert cut_sides(image, g) == sides


def test_there_are_whole_fixtures() -> None:
    assert len(WHOLE) >= 60


@pytest.mark.parametrize("png", WHOLE, ids=[str(p.relative_to(FIXTURES)) for p in WHOLE])
def test_no_recorded_board_is_cut(png: Path) -> None:
    image = load(png)
    g = find_lattice(image)
    assert cut_sides(image, g) == ()


def turned(image: np.ndarray, side: str) -> np.ndarray:
    """The image turned so that ``side`` is on the right."""
    return {"right": image, "left": image[:, ::-1], "bottom": image.transpose(1, 0, 2),
            "top": image.transpose(1, 0, 2)[:, ::-1]}[side].copy()


def back(image: np.ndarray, side: str) -> np.ndarray:
    """:func:`turned`'s inverse."""
    return {"right": image, "left": image[:, ::-1], "bottom": image.transpose(1, 0, 2),
            "top": image[:, ::-1].transpose(1, 0, 2)}[side].copy()


CUT_CASES = [("xdemineur/beginner_start.png", side) for side in ("right", "left", "bottom",
                                                                  "top")] + [
    ("gnome-mines/small_start.png", "right"), ("gnome-mines/expert_900x480_playing.png",
                                               "bottom"),
    ("winmine/intermediate_playing.png", "right"), ("minegauler/standard/won_16x16.png",
                                                    "left")]


@pytest.mark.parametrize("share", [0.5, 0.75])
@pytest.mark.parametrize("fill", [0, 160])
@pytest.mark.parametrize("fixture, side", CUT_CASES)
def test_a_line_cut_through_is_found(fixture: str, side: str, fill: int,
                                     share: float) -> None:
    """The board's last line on ``side`` cut ``share`` of a pitch in, the rest of the
    image a window's flat colour: the board found is cut at that side."""
    image = turned(load(FIXTURES / fixture), side)
    g = find_lattice(image)
    x = round(g.col_left(g.cols - 1) + share * g.pitch_x)
    image[:, x:] = fill
    image = back(image, side)
    assert cut_sides(image, find_lattice(image)) == (side,)
