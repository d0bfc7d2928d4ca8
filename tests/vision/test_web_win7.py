"""A browser board with the look of Windows 7's Minesweeper (issue #5): glossy blue
covered squares with rounded corners and dark gaps, a light blue glow on the square
under the pointer, pale lavender opened squares with thin grid lines, and at a game's
end a modal dialog centred on the game, over the middle of the board.

Frames: real captures of ``benchmarks/webgames/win7.html`` in Chromium under Xvfb (the
``--app`` window's inside, an infobar above the page), 16x16/40 at 24 px, board at
(30, 82), recorded by ``benchmarks/webgames/record_win7.py``: ``fresh``, ``playing``
(a flag; the pointer's glow on (15, 15)), ``lost_shown`` (every mine shown, a wrong
flag, the hit square), ``lost`` (the same under the "Game Lost" dialog), ``won`` (the
mines flagged by the game, the "Game Won" dialog). Each ``.board`` follows from the
page's mine layout for its seed by the game's rules (the recorder works it out with no
vision code) and was checked by eye against its PNG; :func:`test_boards_follow_the_game`
checks them again. ``skin/`` is the skin a live ``sweepbot calibrate --name web_win7``
learned from scratch on the page (16x16/40).

Its tiles have no flat colour, so boards are found by the template-free lattice
(:func:`vision.lattice.locate_by_lattice`); each tile has a dark line above it and
none below, and the lattice put the lost board's top a pixel higher than the fresh
board's: the templates, cut at the fresh board's phase, read it unknown and no board
was found at the end of a game.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bot.screen import load_image
from solver.cells import COVERED, EXPLODED, FLAG, MINE, UNKNOWN, WRONG_FLAG, Board, neighbours
from solver.textboard import parse_board
from vision.lattice import find_lattice, locate_by_lattice
from vision.locate import BoardNotFound, locate_board
from vision.read import read_board
from vision.skin import load_skin

HERE = Path(__file__).resolve().parent / "web_win7"
CASES = ["fresh", "playing", "lost_shown", "lost", "won"]
DIALOG = ("lost", "won")  # (a dialog hides the middle of the board)


def _board(name: str) -> Board:
    return parse_board((HERE / f"{name}.board").read_text())


def _adjacent(board: Board, cell: tuple[int, int], codes: tuple[int, ...]) -> int:
    return sum(int(board[n]) in codes for n in neighbours(cell, *board.shape))


def test_boards_follow_the_game() -> None:
    """The lost board's numbers count its mines (``*``, ``X`` and right flags), 40 of
    them; the won board's numbers count its flags, 40 of them; the fresh and playing
    boards agree with the loss, the dialog's boards with the ones before."""
    lost = _board("lost_shown")
    mines = np.isin(lost, (MINE, EXPLODED, FLAG))
    assert int(mines.sum()) == 40 and int((lost == WRONG_FLAG).sum()) == 1
    assert int((lost == EXPLODED).sum()) == 1
    for r, c in np.argwhere(lost >= 0).tolist():
        assert lost[r, c] == _adjacent(lost, (r, c), (MINE, EXPLODED, FLAG))
    won = _board("won")
    assert int((won == FLAG).sum()) == 40 and int((won < 0).sum()) == 40
    for r, c in np.argwhere(won >= 0).tolist():
        assert won[r, c] == _adjacent(won, (r, c), (FLAG,))
    playing = _board("playing")
    assert ((playing < 0) | (playing == lost)).all()
    assert ((playing != FLAG) | (lost == FLAG)).all()
    assert (_board("fresh") == COVERED).all()
    assert (_board("lost") == lost).all()


@pytest.mark.parametrize("name", [c for c in CASES if c not in DIALOG])
def test_lattice_finds_the_board(name: str) -> None:
    """The template-free lattice, a pixel off in y on some frames (the dark line above
    each tile taken as the square's top or as the bottom of the one above)."""
    g = find_lattice(load_image(HERE / f"{name}.png"))
    assert (g.rows, g.cols, g.pitch_x, g.pitch_y) == (16, 16, 24.0, 24.0)
    assert round(g.col_left(0)) == 30 and abs(round(g.row_top(0)) - 82.5) == 0.5


def test_no_tile_has_a_flat_colour() -> None:
    """Every template is shaded (a gradient): :func:`locate_board` keys on a flat colour
    and finds nothing; play and replay then use :func:`locate_by_lattice`."""
    skin = load_skin(HERE / "skin")
    with pytest.raises(BoardNotFound):
        locate_board(load_image(HERE / "fresh.png"), [skin])


@pytest.mark.parametrize("name", [c for c in CASES if c not in DIALOG])
def test_skin_locates_the_board(name: str) -> None:
    """At the phase the skin was cut at, on every frame: the lost board was found a
    row of pixels higher than the fresh one and read unknown (None) before."""
    g = locate_by_lattice(load_image(HERE / f"{name}.png"), [load_skin(HERE / "skin")])
    assert g is not None and g.skin == "web_win7"
    assert (g.rows, g.cols, g.pitch_x, g.pitch_y) == (16, 16, 24.0, 24.0)
    assert (round(g.col_left(0)), round(g.row_top(0))) == (30, 83)


@pytest.mark.parametrize("name", CASES)
def test_skin_reads_every_square(name: str) -> None:
    """Every square read as it is (the covered square under the pointer's glow too), on
    the board as located on the fresh frame (the same window); under a dialog a square
    is unknown, never taken for another state."""
    skin = load_skin(HERE / "skin")
    g = locate_by_lattice(load_image(HERE / "fresh.png"), [skin])
    assert g is not None
    expected = _board(name)
    got = read_board(load_image(HERE / f"{name}.png"), g, skin)
    wrong = np.argwhere((got != expected) & (got != UNKNOWN)).tolist()
    assert wrong == [], [(r, c, int(expected[r, c]), int(got[r, c])) for r, c in wrong]
    unknown = got == UNKNOWN
    if name in DIALOG:  # (the dialog lies over rows 3-12)
        assert not unknown[:2].any() and not unknown[-2:].any()
    else:
        assert not unknown.any(), np.argwhere(unknown).tolist()
