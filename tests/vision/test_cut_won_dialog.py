"""A won gnome-mines board under its "top ten" dialog is whole, not cut.

``gnome_won_dialog/won_16x16_top_ten.png`` is real: gnome-mines 16x16 with 40 mines in
a 900x900 window, on Xvfb with openbox, a second after ``sweepbot play`` won a game,
cropped to the window. The Congratulations dialog covers every column from the fifth
on, in all but the top and bottom two rows. By eye, the left column reads, top to
bottom: 2 2 1 0 1 1 1 0 0 0 2 F 3 1 1 F (F: the flags gnome-mines puts on every mine
at a win).

The cut test compares the board's outer line with the squares further along its row:
a whole line in play looks like the squares beside it. Here the dialog leaves most
rows only their first four squares, and the numbers at the left have no like square
beside them, so the left column was taken for a line the window's edge cut short: a
second ``sweepbot play`` stopped with "the board is cut at its left side" instead of
starting a new game. A line whose every square the skin reads as a look it knows is
whole.
"""

from __future__ import annotations

from pathlib import Path

from bot.reader import SkinReader
from bot.screen import load_image
from solver.cells import FLAG, UNKNOWN
from vision.cut import cut_sides

CAPTURE = Path(__file__).resolve().parent / "gnome_won_dialog" / "won_16x16_top_ten.png"
LEFT_COLUMN = [2, 2, 1, 0, 1, 1, 1, 0, 0, 0, 2, FLAG, 3, 1, 1, FLAG]  # by eye


def test_a_won_board_under_its_dialog_is_not_cut() -> None:
    image = load_image(CAPTURE)
    reader = SkinReader.from_names(["gnome-mines"])
    g = reader.locate(image)
    assert (g.rows, g.cols) == (16, 16)
    board = reader.read(image, g)
    assert board[:, 0].tolist() == LEFT_COLUMN
    assert cut_sides(image, g, whole=board != UNKNOWN) == ()


def test_without_the_reading_the_left_line_looks_cut_short() -> None:
    """What the capture shows the cut test alone (why the reading is passed)."""
    image = load_image(CAPTURE)
    reader = SkinReader.from_names(["gnome-mines"])
    assert cut_sides(image, reader.locate(image)) == ("left",)
