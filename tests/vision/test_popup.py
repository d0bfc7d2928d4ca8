"""popup_at on real Chromium captures (Xvfb, openbox) of minesweeper-for-web 3.0.4 from
npm, 40 px squares: a fresh board, the same after a right-click on square (8, 8) (the
browser's context menu opens with its top-left corner at the pointer, 336 x 273 px over
the board), and after a ctrl+click there instead (a flag, and the page's "39 mines
left")."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from checked_image import read_checked

from vision.geometry import PixelPoint
from vision.popup import popup_at

HERE = Path(__file__).parent / "popup_menu"
SHA256 = {"fresh.png": "55179cbc29d340b6acd73dbdc14bbb84d0454d096c97c61f27e28ab848e8cf82",
          "menu.png": "d1fe2139110c68ed237e7df2849240f98c12632d9ba1ff429d47e89e8eee9091",
          "flag.png": "729ba0d70a523f9ba42e9e367c8346f2ffef96e8a6666a34225bc56d7ddf8cb1"}
POINTER = PixelPoint(368, 384)  # square (8, 8)'s centre in these crops


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
