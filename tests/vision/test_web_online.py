"""A minesweeper.online-style browser page at the site's zoom (issue #5): the classic
look (raised grey covered squares, flat opened ones with a dark line at their top and
left, classic digit colours, a face between two LED counters in a bevelled grey
frame) drawn at 16 px a square and scaled by the browser with smoothing, inside a page
with a menu bar and a side panel.

Frames: real captures of ``benchmarks/webgames/online.html`` in Chromium under Xvfb
(the ``--app`` window's inside, an infobar above the page), 16x16/40 at zoom 1.5 (24 px
squares, every edge a blend of two pixels) and 1.3 (20.8 px: squares fall on the
screen's pixels at five phases), recorded by ``benchmarks/webgames/record_online.py``:
``fresh``, ``playing`` (a flag), ``lost`` (every mine shown, the hit one on red, a wrong
flag crossed), ``won`` (every mine flagged by the game). Each ``.board`` follows from
the page's mine layout for its seed by the game's rules (the recorder works it out with
no vision code) and was checked by eye against its PNG; :func:`test_boards_follow_the_game`
checks them again. ``skin/`` is the skin a live ``sweepbot calibrate --name web-online``
learned from scratch on the page at that zoom (16x16/40).

At zoom 1.5 the grey between the counters and the face, three pitches above the board
and a sixth of a pitch off its lines, was linked into the board's lattice: play found
a 16x19 board (three rows of the frame above it) and aborted ("cannot tell how many
mines a 16x19 board has"). On the lost boards (mines and numbers nearly everywhere)
the key colour's blobs linked into a part of the board (10x10 at zoom 1.5, 15x16 at
1.3), read 45-53 % known and taken; the template-free lattice finds the whole board.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bot.reader import SkinReader
from bot.screen import load_image
from solver.cells import EXPLODED, FLAG, MINE, UNKNOWN, WRONG_FLAG, Board, neighbours
from solver.textboard import parse_board, parse_comments
from vision.geometry import BoardGeometry
from vision.read import read_board
from vision.skin import load_skin

HERE = Path(__file__).resolve().parent / "web_online"
ZOOMS = ["1.5", "1.3"]
CASES = ["fresh", "playing", "lost", "won"]


def _board(zoom: str, name: str) -> Board:
    return parse_board((HERE / f"zoom{zoom}" / f"{name}.board").read_text())


def _adjacent(board: Board, cell: tuple[int, int], codes: tuple[int, ...]) -> int:
    return sum(int(board[n]) in codes for n in neighbours(cell, *board.shape))


@pytest.mark.parametrize("zoom", ZOOMS)
def test_boards_follow_the_game(zoom: str) -> None:
    """The lost board's numbers count its mines (``*``, ``X`` and right flags), 40 of
    them; the won board's numbers count its flags, 40; the fresh and playing boards
    agree with the loss."""
    lost = _board(zoom, "lost")
    mines = np.isin(lost, (MINE, EXPLODED, FLAG))
    assert int(mines.sum()) == 40 and int((lost == WRONG_FLAG).sum()) == 1
    assert int((lost == EXPLODED).sum()) == 1
    for r, c in np.argwhere(lost >= 0).tolist():
        assert lost[r, c] == _adjacent(lost, (r, c), (MINE, EXPLODED, FLAG))
    won = _board(zoom, "won")
    assert int((won == FLAG).sum()) == 40 and int((won < 0).sum()) == 40
    for r, c in np.argwhere(won >= 0).tolist():
        assert won[r, c] == _adjacent(won, (r, c), (FLAG,))
    playing = _board(zoom, "playing")
    assert ((playing < 0) | (playing == lost)).all()
    assert ((playing != FLAG) | (lost == FLAG)).all()
    assert (_board(zoom, "fresh") < 0).all()


def _origin(zoom: str) -> tuple[float, float]:
    """The squares' top-left as the recorder measured it."""
    cells = parse_comments((HERE / f"zoom{zoom}" / "fresh.board").read_text())["cells"]
    x, y = cells.split()[:2]
    return float(x[2:].split("..")[0]), float(y[2:].split("..")[0])


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("zoom", ZOOMS)
def test_play_finds_the_board(zoom: str, name: str) -> None:
    """Play's reader finds the 16x16 board at 16 * zoom pixels a square, where it is
    (not the frame's grey above it: a 16x19 board at zoom 1.5 before)."""
    folder = HERE / f"zoom{zoom}"
    g = SkinReader([load_skin(folder / "skin")]).locate(load_image(folder / f"{name}.png"))
    assert (g.rows, g.cols) == (16, 16)
    pitch = 16 * float(zoom)
    assert abs(g.pitch_x - pitch) < 0.1 and abs(g.pitch_y - pitch) < 0.1
    x, y = _origin(zoom)
    assert abs(g.col_left(0) - x) <= 1.5 and abs(g.row_top(0) - y) <= 1.5
    assert abs(g.col_left(16) - x - 16 * pitch) <= 1.5
    assert abs(g.row_top(16) - y - 16 * pitch) <= 1.5


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("zoom", ZOOMS)
def test_skin_reads_every_square(zoom: str, name: str) -> None:
    """No square misread, on the board as play finds it on the fresh frame (the same
    window: play locates a game's board at its start). A few squares may stay unknown
    (at most 12 of 256; play learns such a look or reads it again): at 20.8 px a flag
    falls on the screen's pixels at five phases and calibrate met only some (8 of the
    won board's 40 flags); at 24 px the board found on the fresh frame lies half a
    pixel above the one calibrate cut its templates at (6-11 of the later frames'
    squares)."""
    folder = HERE / f"zoom{zoom}"
    skin = load_skin(folder / "skin")
    g = SkinReader([skin]).locate(load_image(folder / "fresh.png"))
    expected = _board(zoom, name)
    got = read_board(load_image(folder / f"{name}.png"), g, skin)
    wrong = np.argwhere((got != expected) & (got != UNKNOWN)).tolist()
    assert wrong == [], [(r, c, int(expected[r, c]), int(got[r, c])) for r, c in wrong]
    assert (got == UNKNOWN).sum() <= 12


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("zoom", ZOOMS)
def test_skin_reads_every_square_where_found_on_it(zoom: str, name: str) -> None:
    """No square misread on the board as found on the capture itself (as ``replay``
    reads it). Found on the lost capture at 20.8 px the board lies half a pixel from the
    fresh one's: there, a covered square's middle came nearer a 0 template than any
    covered one (2.3 against 3.1), and 2 covered squares read 0 (the two looks differ at
    their rim, which the middle leaves out: ``vision.read.RIM_SHARE``)."""
    folder = HERE / f"zoom{zoom}"
    skin = load_skin(folder / "skin")
    image = load_image(folder / f"{name}.png")
    got = read_board(image, SkinReader([skin]).locate(image), skin)
    expected = _board(zoom, name)
    wrong = np.argwhere((got != expected) & (got != UNKNOWN)).tolist()
    assert wrong == [], [(r, c, int(expected[r, c]), int(got[r, c])) for r, c in wrong]
    assert (got == UNKNOWN).sum() <= 12


@pytest.mark.parametrize("dx", [0.0, 0.15, 0.3])
@pytest.mark.parametrize("name", ["playing", "lost", "won"])
@pytest.mark.parametrize("zoom", ZOOMS)
def test_reads_every_square_of_a_board_found_a_little_off(zoom: str, name: str,
                                                          dx: float) -> None:
    """Every square read, none wrong, on the board as play found it on the fresh frame
    but with the pitch 0.025 px short (as the locator found a 30x16 board at zoom 1.3 in
    play: its right-hand squares then lie 0.7 px off) and moved ``dx`` px right. Such a
    square's best offset in the second look matches its template to 4-6 RMS, but its
    blur moves its median colour 7-9 from the template's, past BG_TOL: 3s, 2s and 4s read
    unknown and play stopped ("the board was found elsewhere"). The colour check now also
    passes a sample that differs from its template by no colour shift
    (:func:`vision.read.shift_gap`)."""
    folder = HERE / f"zoom{zoom}"
    skin = load_skin(folder / "skin")
    g = SkinReader([skin]).locate(load_image(folder / "fresh.png"))
    g = BoardGeometry(g.skin, g.x0 + dx, g.y0, g.pitch_x - 0.025, g.pitch_y, g.rows, g.cols)
    got = read_board(load_image(folder / f"{name}.png"), g, skin)
    expected = _board(zoom, name)
    wrong = np.argwhere(got != expected).tolist()
    assert wrong == [], [(r, c, int(expected[r, c]), int(got[r, c])) for r, c in wrong]


def test_play_finds_a_9x9_board() -> None:
    """A fresh 9x9/10 board at zoom 1.5 (the 16x16 board's skin: the same tiles): every
    square of the three rows of the frame above it read unknown, and play found a 9x12
    board ("cannot tell how many mines a 9x12 board has")."""
    folder = HERE / "zoom1.5"
    skin = load_skin(folder / "skin")
    image = load_image(folder / "fresh9x9.png")
    g = SkinReader([skin]).locate(image)
    assert (g.rows, g.cols) == (9, 9)
    assert abs(g.col_left(0) - 246) <= 1.5 and abs(g.row_top(0) - 190.5) <= 1.5
    assert (read_board(image, g, skin) == parse_board(
        (folder / "fresh9x9.board").read_text())).all()
