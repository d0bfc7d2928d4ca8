"""kmines' board at a game's end is found 9x9, not one row taller (issue #5).

kmines draws its opened 0 translucent over the window's grey, so the grey strip above
the board, with the board's dark frame at its foot, matched the 0 template and the
locator grew the board by that row: a clear won board was found 9x10 (and, under the
win message, 9x10 too), which stopped play ("the board changed size to 9x10").
``vision.locate.overedged_share`` leaves out a strip whose squares have far stronger
edges than the board's own squares of the state they read as.

Frames: real captures of kmines 9x9/10 (crops, the board at (40, 40)) and the skin
calibrated in that session, under ``tests/bot/kmines_end/`` (shared with
``tests/bot/test_loop_covered_end.py``, which checks the won board's read).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.screen import load_image
from vision.geometry import BoardGeometry
from vision.locate import locate_board, overedged_share, state_looks
from vision.skin import load_skin

HERE = Path(__file__).resolve().parent.parent / "bot" / "kmines_end"


@pytest.mark.parametrize("name", ["won", "message", "fade"])
def test_the_board_is_found_nine_by_nine(name: str) -> None:
    skin = load_skin(HERE / "skin")
    g = locate_board(load_image(HERE / f"{name}.png"), [skin])
    assert (g.rows, g.cols) == (9, 9)
    assert abs(g.col_left(0) - 40) <= 3 and abs(g.row_top(0) - 40) <= 3  # (not 8: a row up)
    assert abs(g.row_top(9) - 328) <= 3


def test_the_grey_row_above_is_overedged_and_the_board_rows_are_not() -> None:
    skin = load_skin(HERE / "skin")
    image = load_image(HERE / "won.png")
    board = BoardGeometry("kmines", 40.0, 40.0, 32.0, 32.0, 9, 9)
    looks = state_looks(image, board, skin)
    above = BoardGeometry("kmines", 40.0, 8.0, 32.0, 32.0, 1, 9)
    assert overedged_share(image, above, skin, lambda: looks) == 1.0
    for r in (0, 8):  # the board's own top and bottom rows
        row = BoardGeometry("kmines", 40.0, 40.0 + 32 * r, 32.0, 32.0, 1, 9)
        assert overedged_share(image, row, skin, lambda: looks) == 0.0
