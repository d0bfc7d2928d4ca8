"""popup_at on real Chromium captures (Xvfb, openbox) of minesweeper-for-web 3.0.4 from
npm, 40 px squares: a fresh board, the same after a right-click on square (8, 8) (the
browser's context menu opens with its top-left corner at the pointer, 336 x 273 px over
the board), and after a ctrl+click there instead (a flag, and the page's "39 mines
left").

``popup_menu_small/``: the same game at 9x9 (a 360 px board on a white page; captures
of 820 x 800 px from the window's top): fresh, the menu after a right-click on square
(4, 4), which sticks out of the board onto the page, where its light background changes
nothing, and a ctrl+click flag there instead. Before, that menu was not taken for one
(half its box changed: 0.497), so calibrate stopped at "a right-click on the board
changed nothing"."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from checked_image import read_checked

from vision.geometry import PixelPoint, PixelRect
from vision.popup import drawn_past, popup_at

HERE = Path(__file__).parent / "popup_menu"
SHA256 = {"fresh.png": "55179cbc29d340b6acd73dbdc14bbb84d0454d096c97c61f27e28ab848e8cf82",
          "menu.png": "d1fe2139110c68ed237e7df2849240f98c12632d9ba1ff429d47e89e8eee9091",
          "flag.png": "729ba0d70a523f9ba42e9e367c8346f2ffef96e8a6666a34225bc56d7ddf8cb1"}
POINTER = PixelPoint(368, 384)  # square (8, 8)'s centre in these crops
SMALL = Path(__file__).parent / "popup_menu_small"
SMALL_SHA256 = {"fresh.png": "ee094fae9844b4241e6c554f197bc81d88ef457d76b602d40a55675c7da19e39",
                "menu.png": "bb5d8ff9cb345b0bcf5575950bc1b0c9031e04ac76edb8faeb0fdb52bda9f8ef",
                "flag.png": "c4440013fff03bab87b1aff2076e2f5f44201e1f43cbfd975fb86318cf9b8e48"}
SMALL_POINTER = PixelPoint(208, 234)  # square (4, 4)'s centre (board at (28, 54), 40 px)


def capture(name: str) -> np.ndarray:
    return read_checked(HERE / name, SHA256[name])


def test_the_browsers_menu_is_found_at_the_pointer() -> None:
    box = popup_at(capture("fresh.png"), capture("menu.png"), POINTER, min_side=60)
    assert box is not None
    assert abs(box.left - 368) <= 2 and abs(box.top - 384) <= 2
    assert 320 <= box.width <= 345 and 260 <= box.height <= 280


def test_a_flag_is_no_menu() -> None:
    assert popup_at(capture("fresh.png"), capture("flag.png"), POINTER, min_side=60) is None


@pytest.mark.parametrize("point", [PixelPoint(200, 200), PixelPoint(368 + 168, 384 + 136)])
def test_a_menu_away_from_the_pointer_is_not_taken(point: PixelPoint) -> None:
    assert popup_at(capture("fresh.png"), capture("menu.png"), point, min_side=60) is None


def test_nothing_changed_is_no_menu() -> None:
    fresh = capture("fresh.png")
    assert popup_at(fresh, fresh.copy(), POINTER, min_side=60) is None


def small(name: str) -> np.ndarray:
    return read_checked(SMALL / name, SMALL_SHA256[name])


def test_a_menu_sticking_out_of_a_small_board_onto_the_page_is_found() -> None:
    box = popup_at(small("fresh.png"), small("menu.png"), SMALL_POINTER, min_side=60, near=10)
    assert box is not None
    assert abs(box.left - 208) <= 2 and abs(box.top - 234) <= 2
    assert 320 <= box.width <= 345  # (its height: the part over the board and its text)


def test_a_flag_on_the_small_board_is_no_menu() -> None:
    assert popup_at(small("fresh.png"), small("flag.png"), SMALL_POINTER, min_side=60,
                    near=10) is None


SMALL_BOARD = PixelRect(28, 54, 360, 360)  # 9 x 9 squares of 40 px


def test_a_menu_reaching_past_the_small_board_is_drawn_past_it() -> None:
    """Whether or not it is taken for a menu, Chromium's menu opened at square (4, 4)
    reaches from the pointer onto the page: calibration says so when it stops with it
    open. A flag drawn on the square stays on the board."""
    fresh = small("fresh.png")
    assert drawn_past(fresh, small("menu.png"), SMALL_POINTER, SMALL_BOARD, 80, 3200)
    assert not drawn_past(fresh, small("flag.png"), SMALL_POINTER, SMALL_BOARD, 80, 3200)
    assert not drawn_past(fresh, fresh.copy(), SMALL_POINTER, SMALL_BOARD, 80, 3200)
