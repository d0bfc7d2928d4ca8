"""A button on a point of the board's lattice outside the board is no square.

Real UXBgtk captures (``tests/vision/uxbgtk/README.md``). Before, the status bar's
button below the board was taken for a square of a 17th row (16x16 found 17x16, at 4
of 9 window sizes, the game's default among them; 8x8 found 9x15): calibrate read a
loss in a game in play ("the game has 2 mines") and found no new game.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from checked_image import read_checked

from vision.lattice import find_lattice

HERE = Path(__file__).parent / "uxbgtk"
SHA256 = {"status_button_16x16.png":
              "4411d0b1383609e8c3111ccd3e7d16a1960811cd873e2a247b48e036dbd5b939",
          "status_button_8x8.png":
              "373901c25499e627a4af7b82814f79a2898d03f54e069e94a68087f5f5fe9136"}


@pytest.mark.parametrize(("name", "rows", "cols", "first", "pitch"), [
    ("status_button_16x16.png", 16, 16, (14, 96), 43.5),
    ("status_button_8x8.png", 8, 8, (157, 91), 38.0)])
def test_the_board_is_found_without_the_status_button(
        name: str, rows: int, cols: int, first: tuple[int, int], pitch: float) -> None:
    g = find_lattice(read_checked(HERE / name, SHA256[name]))
    assert (g.rows, g.cols) == (rows, cols)
    assert abs(g.col_left(0) - first[0]) <= 2 and abs(g.row_top(0) - first[1]) <= 2
    assert abs(g.pitch_x - pitch) <= 0.2 and abs(g.pitch_y - pitch) <= 0.2
