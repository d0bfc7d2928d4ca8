"""``sweepbot play --dry-run`` names each planned click by what it does."""

from __future__ import annotations

import numpy as np
import pytest

from bot.cmd_play import move_verb, print_preview
from bot.loop import Move, Preview
from bot.screen import ScreenPoint
from solver.cells import COVERED, FLAG
from solver.textboard import parse_board
from vision.geometry import BoardGeometry

BOARD = parse_board("""
001..
001..
112..
.....
""")


def preview(moves: tuple[Move, ...]) -> Preview:
    geometry = BoardGeometry("test", 10.0, 20.0, 16.0, 16.0, 4, 5)
    image = np.zeros((100, 120, 3), np.uint8)
    return Preview(image, geometry, BOARD, "playing", 3, None, moves)


def test_a_chord_on_a_number_is_printed_as_a_chord(capsys: pytest.CaptureFixture[str]) -> None:
    """xdemineur chords with the middle button: its first moves may all be flags and
    chords (the game opens a zero region itself), none of them a flag on a number."""
    moves = (Move((3, 0), "right", ScreenPoint(18, 76), 1.0),
             Move((2, 1), "middle", ScreenPoint(34, 60), 0.0),
             Move((0, 3), "left", ScreenPoint(66, 28), 0.0))
    print_preview(preview(moves), None)
    out = capsys.readouterr().out.splitlines()
    assert out[-3:] == ["flag row 3 col 0 at screen (18, 76)",
                        "chord row 2 col 1 at screen (34, 60)",
                        "open row 0 col 3 at screen (66, 28)  risk 0.000"]


@pytest.mark.parametrize(("cell", "button", "verb"), [
    ((0, 2), "left", "chord"),  # gnome-mines chords with the left button on a number
    ((0, 3), "left", "open"),
    ((0, 3), "right", "flag"),
    ((2, 2), "middle", "chord"),
])
def test_move_verb(cell: tuple[int, int], button: str, verb: str) -> None:
    assert BOARD[cell] != FLAG and (BOARD[cell] == COVERED) == (verb != "chord")
    assert move_verb(Move(cell, button, ScreenPoint(0, 0), 0.0), BOARD) == verb  # type: ignore[arg-type]
