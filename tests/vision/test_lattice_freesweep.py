"""Boards drawn as one character a square on a plain background (a terminal game):
:func:`vision.lattice.mark_lattices`, the last try of :func:`vision.lattice.find_lattice`.

The fixtures (``tests/fixtures/freesweep/dejavu14``) are real captures of freesweep in
an xterm (DejaVu Sans Mono 14 on Xvfb at 96 dpi: 11 x 23 px character cells, a square
three of them: 33 x 23 px, cell (0, 0) at (13, 25)); their expected boards were written by eye
and checked here by the game's logic (the in-play board agrees with the mines its
loss shows), never produced by the code under test.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from bot.screen import load_image
from solver.cells import COVERED, EXPLODED, MINE, neighbours
from solver.textboard import parse_board, parse_comments
from vision.lattice import NoBoardError, find_lattice, mark_lattices

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "freesweep" / "dejavu14"
X0, Y0, PX, PY = 13.0, 25.0, 33.0, 23.0  # measured by eye on the captures


def _board(name: str) -> tuple[np.ndarray, dict[str, str]]:
    text = (FIXTURES / f"{name}.board").read_text()
    return parse_board(text), parse_comments(text)


def test_the_lost_board_agrees_with_its_numbers() -> None:
    """Every number of the lost capture counts its neighbours among the mines shown
    (``*``, and ``X`` the one hit), and there are as many as the game laid."""
    board, comments = _board("lost_9x9")
    mines = np.isin(board, (MINE, EXPLODED))
    assert int(mines.sum()) == int(comments["mines"])
    assert int((board == EXPLODED).sum()) == 1
    for r, c in np.argwhere(board >= 0).tolist():
        around = sum(bool(mines[x]) for x in neighbours((r, c), 9, 9))
        assert board[r, c] == around, (r, c)


def test_the_playing_board_is_the_lost_game_before_the_hit() -> None:
    """The in-play capture is the same game one move earlier: every square it shows
    open shows the same number after the loss, its covered squares hold every mine."""
    playing, _ = _board("playing_9x9")
    lost, _ = _board("lost_9x9")
    opened = playing >= 0
    assert (lost[opened] == playing[opened]).all()
    assert (playing[np.isin(lost, (MINE, EXPLODED))] == COVERED).all()


@pytest.mark.parametrize("name", ["fresh_9x9", "fresh_16x16"])
def test_a_fresh_board_is_found_whole(name: str) -> None:
    """Every square a ``-`` three character cells from the next (the cursor square
    ``<->`` and the terminal's own cursor on square (0, 0) included); the frame of
    ``+---+`` and ``|`` around it, the side panel's text and boxes are left out."""
    board, _ = _board(name)
    g = find_lattice(load_image(FIXTURES / f"{name}.png"))
    assert (g.rows, g.cols) == board.shape
    assert (g.x0, g.y0, g.pitch_x, g.pitch_y) == (X0, Y0, PX, PY)


@pytest.mark.parametrize("name", ["playing_9x9", "lost_9x9"])
def test_a_board_in_play_is_found_whole(name: str) -> None:
    """Mid-game the covered ``-`` left give the lattice (the message box's frame of
    ``-`` below the board is left out), grown over the opened squares (blank, digits,
    the mines shown, the cursor's ``<*>``) up to the frame."""
    board, _ = _board(name)
    found = mark_lattices(load_image(FIXTURES / f"{name}.png"))
    assert [(g.rows, g.cols, g.x0, g.y0, g.pitch_x, g.pitch_y) for g in found] == \
        [(*board.shape, X0, Y0, PX, PY)]


def _dash_board(rows: int, cols: int, char: tuple[int, int] = (11, 23),
                frame: bool = True) -> np.ndarray:
    """A synthetic terminal: a ``-`` (5 x 2 px) every third character cell in ``rows``
    lines, framed by a line of ``-`` one a cell above and below (as freesweep draws)."""
    cw, ch = char
    img = np.zeros((ch * (rows + 6), cw * (3 * cols + 8), 3), np.uint8)

    def dash(line: int, cell: int) -> None:
        x, y = cell * cw + (cw - 5) // 2, line * ch + ch // 2
        img[y:y + 2, x:x + 5] = 200

    for r in range(rows):
        for c in range(cols):
            dash(r + 2, 3 * c + 2)
    if frame:
        for cell in range(1, 3 * cols + 2):
            dash(1, cell)
            dash(rows + 2, cell)
    return img


def test_a_synthetic_board_of_dashes_is_found_inside_its_frame() -> None:
    g = find_lattice(_dash_board(6, 7))
    assert (g.rows, g.cols, g.pitch_x, g.pitch_y) == (6, 7, 33.0, 23.0)
    assert (g.x0, g.y0) == (11.0, 46.0)  # each square centred on its dash


def test_a_frame_or_text_alone_is_no_board() -> None:
    """The frame's dashes stand one character apart (none alone), and one line of
    squares is no board (three rows and columns at least)."""
    frame_only = _dash_board(6, 7)
    frame_only[23 * 2:23 * 8] = 0  # the squares' lines wiped: the frame is left
    assert mark_lattices(frame_only) == []
    assert mark_lattices(_dash_board(2, 7, frame=False)) == []
    with pytest.raises(NoBoardError):
        find_lattice(frame_only)


def test_marks_too_close_together_are_no_board() -> None:
    """Dots 9 px apart each way stand alone (MARK_ALONE) but lie closer than
    MARK_PITCH (a terminal's text at one character a square): no board; 18 px apart
    they are one."""
    img = np.zeros((200, 300, 3), np.uint8)
    img[20:180:9, 20:280:9] = 255
    assert mark_lattices(img) == []
    img[:] = 0
    img[20:180:18, 20:280:18] = 255
    assert [(g.pitch_x, g.pitch_y) for g in mark_lattices(img)] == [(18.0, 18.0)]


LIGHT = FIXTURES.parent / "light_desktop"
"""Whole-screen captures (1280 x 800) of freesweep's black xterm, its inside at (1, 1)
and 884 x 556 px, on a light grey desktop (214, 219, 224) that covers more of the
screen than the terminal does."""

LIGHT_SHA256 = {
    "fresh_9x9": "4c45c205b0e43e88d82dbcc0ef44fd664f4dc8e458b67eae9d611114ae55d1ad",
    "fresh_16x16": "e117db820c8888fdc86ea080718b8c421b3b7cd5363bc32949455a7dd701a62b",
}


@pytest.mark.parametrize("name", sorted(LIGHT_SHA256))
def test_a_terminal_smaller_than_a_desktop_of_another_colour_is_found(name: str) -> None:
    """The screen's most common colour is the desktop's, so the whole terminal was ink
    (one blob, no marks) and no board was found; the next most common colour, the
    terminal's own, shows it, where the window's capture shows it, 1 px in."""
    png = LIGHT / f"{name}.png"
    assert hashlib.sha256(png.read_bytes()).hexdigest() == LIGHT_SHA256[name]
    board = parse_board((LIGHT / f"{name}.board").read_text())
    g = find_lattice(load_image(png))
    assert (g.rows, g.cols) == board.shape
    assert (g.x0, g.y0, g.pitch_x, g.pitch_y) == (X0 + 1, Y0 + 1, PX, PY)


FUNHUB = Path(__file__).resolve().parent / "terminal_light" / "funhub_9x9.png"
"""A whole-screen capture (1280 x 1024, Xvfb's black desktop) of funhub-minesweeper
1.0.7 (PyPI, curses) in a default xterm (black on white, 6 x 13 px characters,
``xterm -tn xterm-256color -e funhub-minesweeper``, then Enter): a ``#`` on a grey
square every three characters, the cursor ``[#]`` on square (4, 4). The lattice below
was measured by eye on the capture, a grid drawn over it at 3x."""


def test_a_white_terminal_on_a_dark_desktop_is_found() -> None:
    assert hashlib.sha256(FUNHUB.read_bytes()).hexdigest() == \
        "29fde574b9ce4f3940d0e6224bbc4e0a3dd92651e199bdc78321385b6dc0f5de"
    g = find_lattice(load_image(FUNHUB))
    assert (g.rows, g.cols, g.x0, g.y0, g.pitch_x, g.pitch_y) == (9, 9, 556.0, 493.0, 18.0, 13.0)
