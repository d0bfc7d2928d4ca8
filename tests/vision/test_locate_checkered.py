"""A browser board with the look of Google's Minesweeper (issue #5): no line between the
squares, covered squares a checkerboard of two greens, opened squares one of two beiges.

Frames: real captures of ``benchmarks/webgames/checkered.html`` in Chromium 156 under
Xvfb (the ``--app`` window's inside), 18x14/40 at 30 px, board at (24, 140), recorded by
``benchmarks/webgames/record_checkered.py``; ``plain_*`` the look alone, ``edges_*``
with Google's dark green edge on opened squares next to covered ones. Each ``.board``
follows from the page's mine layout for its seed by the game's rules (the recorder
works it out with no vision code) and was checked by eye against its PNG;
:func:`test_boards_follow_the_game` checks them again. ``skin/`` is the skin a live
``sweepbot calibrate --name web_checkered`` learned on the plain look (one wrong flag
seen, on the darker green only).

Squares of one shade touch only corner to corner, and a colour's outline joins pixels
that touch at a corner: every covered square of one green was one blob the size of the
board, so ``locate_board`` found no board on a fresh game (play fell back on the slower
lattice locator) and a 7-row board on a game in progress (a lattice of the few beige
squares that stood alone).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bot.screen import load_image
from solver.cells import FLAG, MINE, UNKNOWN, WRONG_FLAG, Board, neighbours
from solver.textboard import parse_board, parse_comments
from vision.lattice import find_lattice
from vision.locate import locate_board
from vision.read import read_board
from vision.skin import load_skin

HERE = Path(__file__).resolve().parent / "web_checkered"
CASES = [f"{look}_{case}" for look in ("plain", "edges")
         for case in ("fresh", "playing", "lost", "won")]


def _board(name: str) -> tuple[Board, dict[str, str]]:
    text = (HERE / f"{name}.board").read_text()
    return parse_board(text), parse_comments(text)


def _adjacent(board: Board, cell: tuple[int, int], codes: tuple[int, ...]) -> int:
    return sum(int(board[n]) in codes for n in neighbours(cell, *board.shape))


@pytest.mark.parametrize("look", ["plain", "edges"])
def test_boards_follow_the_game(look: str) -> None:
    """Each lost board's numbers count its mines (``*`` and right flags), 40 of them;
    the won board's numbers count its covered squares, 40 of them; the fresh and
    playing boards of the lost game agree with its end."""
    lost, _ = _board(f"{look}_lost")
    mines = (lost == MINE) | (lost == FLAG)
    assert int(mines.sum()) == 40 and int((lost == WRONG_FLAG).sum()) == 1
    for r, c in np.argwhere(lost >= 0).tolist():
        assert lost[r, c] == _adjacent(lost, (r, c), (MINE, FLAG))
    won, _ = _board(f"{look}_won")
    assert int((won < 0).sum()) == 40
    for r, c in np.argwhere(won >= 0).tolist():
        assert won[r, c] == sum(int(won[n]) < 0 for n in neighbours((r, c), *won.shape))
    playing, _ = _board(f"{look}_playing")
    assert ((playing < 0) | (playing == lost)).all()
    assert (_board(f"{look}_fresh")[0] < 0).all()


@pytest.mark.parametrize("name", CASES)
def test_lattice_finds_the_board(name: str) -> None:
    g = find_lattice(load_image(HERE / f"{name}.png"))
    assert (g.rows, g.cols, g.pitch_x, g.pitch_y) == (14, 18, 30.0, 30.0)
    assert (g.col_left(0), g.row_top(0)) == (24.0, 140.0)


@pytest.mark.parametrize("name", CASES)
def test_skin_locates_the_board(name: str) -> None:
    """Fails before: BoardNotFound on the fresh boards, 7 rows on the boards in play."""
    g = locate_board(load_image(HERE / f"{name}.png"), [load_skin(HERE / "skin")])
    assert (g.rows, g.cols, g.pitch_x, g.pitch_y) == (14, 18, 30.0, 30.0)
    assert (g.col_left(0), g.row_top(0)) == (24.0, 140.0)


@pytest.mark.parametrize("case", ["fresh", "playing", "lost", "won"])
def test_skin_reads_the_plain_look(case: str) -> None:
    """Every square read as it is, but the wrong flag on the lighter green, which the
    skin never saw: left unknown, never taken for another state."""
    image = load_image(HERE / f"plain_{case}.png")
    skin = load_skin(HERE / "skin")
    expected, _ = _board(f"plain_{case}")
    got = read_board(image, locate_board(image, [skin]), skin)
    wrong = np.argwhere(got != expected).tolist()
    assert all(expected[r, c] == WRONG_FLAG and got[r, c] == UNKNOWN for r, c in wrong), wrong
