"""pygame-minesweeper (PyPI, pygame, its "2000" tile sheet): real captures read with the
skin ``sweepbot calibrate`` learned from scratch (``tests/fixtures/pygame-minesweeper/``).

At 16 px its covered square and its opened 0 are the same grey inside; only the rim
tells them apart (a 2-pixel bevel against a 1-pixel dark line), and the reader compares
a square's centre: every 0 read as covered, and play stopped ("the clicks have no
effect"). Such twin templates are now told apart by the whole square
(``vision.read.split_twins``). Its face is drawn only when a frame's last mouse event
changes it, so after a batch of fast clicks a won game may still show the in-play face:
``vision.status.locate_idle_face`` finds the control all the same.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bot.screen import load_image
from solver.cells import COVERED, EXPLODED, MINE, UNKNOWN, neighbours
from solver.textboard import format_board, parse_board, parse_comments
from vision.geometry import BoardGeometry
from vision.locate import locate_board
from vision.read import bank_for, read_board, twins
from vision.skin import load_skin
from vision.status import locate_idle_face, locate_restart

HERE = Path(__file__).resolve().parent.parent / "fixtures" / "pygame-minesweeper" / "2000"
CASES = ("fresh_9x9", "playing_9x9", "lost_9x9", "won_idle_face_9x9")
GEOMETRY = BoardGeometry("pygame-minesweeper", 9.0, 59.0, 16.0, 16.0, 9, 9)
"""Square (0, 0) of every capture (the window's inside) at (9, 59), 16 px squares."""
FACE = (81.5, 30.5)
"""The face's centre in the captures (the window is 162 px wide, the face 24 px)."""


def expected(name: str) -> tuple[np.ndarray, dict[str, str]]:
    text = (HERE / f"{name}.board").read_text()
    return parse_board(text), parse_comments(text)


@pytest.fixture(scope="module")
def skin():  # type: ignore[no-untyped-def]
    return load_skin(HERE / "skin")


def hidden_near(board: np.ndarray, r: int, c: int, codes: tuple[int, ...]) -> int:
    return sum(int(board[n] in codes) for n in neighbours((int(r), int(c)), *board.shape))


def test_the_lost_board_agrees_with_its_numbers() -> None:
    board, notes = expected("lost_9x9")
    assert int(np.isin(board, (MINE, EXPLODED)).sum()) == int(notes["mines"])
    assert int((board == EXPLODED).sum()) == 1
    for r, c in zip(*np.nonzero((board >= 1) & (board <= 8)), strict=True):
        assert hidden_near(board, r, c, (MINE, EXPLODED)) == board[r, c], (r, c)


def test_the_playing_board_is_the_lost_game_one_click_before() -> None:
    playing, _ = expected("playing_9x9")
    lost, _ = expected("lost_9x9")
    opened = (playing >= 0) & (playing <= 8)
    assert np.array_equal(playing[opened], lost[opened])
    assert (playing[~opened] == COVERED).all()
    assert np.isin(lost[~opened], (COVERED, MINE, EXPLODED)).all()


def test_the_won_board_has_only_its_mines_left() -> None:
    board, notes = expected("won_idle_face_9x9")
    assert int((board == COVERED).sum()) == int(notes["mines"])
    for r, c in zip(*np.nonzero((board >= 1) & (board <= 8)), strict=True):
        assert hidden_near(board, r, c, (COVERED,)) == board[r, c], (r, c)


@pytest.mark.parametrize("name", CASES)
def test_every_capture_reads_as_seen(name: str, skin) -> None:  # type: ignore[no-untyped-def]
    board, _ = expected(name)
    got = read_board(load_image(HERE / f"{name}.png"), GEOMETRY, skin)
    assert format_board(got) == format_board(board)


@pytest.mark.parametrize("name", CASES)
def test_the_board_is_found_where_it_is(name: str, skin) -> None:  # type: ignore[no-untyped-def]
    g = locate_board(load_image(HERE / f"{name}.png"), [skin])
    assert (g.rows, g.cols) == (9, 9)
    assert (round(g.x0), round(g.y0), round(g.pitch_x)) == (9, 59, 16)


def test_covered_and_0_are_twins_of_this_skin_only(skin) -> None:  # type: ignore[no-untyped-def]
    """By their middles alone only this skin's covered square and 0 are twins; by the
    rim rule (``RIM_SHARE``, given the skin) also the shipped classic look's, whose
    middles are 8.4 apart and whole squares 50: no other shipped skin has twins."""
    assert twins(bank_for(skin, GEOMETRY)).states == {COVERED, 0}
    assert twins(bank_for(skin, GEOMETRY), skin).states == {COVERED, 0}
    for name in ("classic", "xdemineur", "gnome-mines", "winmine"):
        shipped = load_skin(name)
        g = BoardGeometry(name, 0.0, 0.0, *shipped.cell_size, 9, 9)
        bank = bank_for(shipped, g)
        assert len(twins(bank).rows) == 0, name
        rim = {COVERED, 0} if name == "classic" else set()
        assert twins(bank, shipped).states == rim, name


def test_a_twin_square_unlike_both_is_unknown(skin) -> None:  # type: ignore[no-untyped-def]
    image = load_image(HERE / "playing_9x9.png").copy()
    image[59:61, 9:25] = (0, 0, 255)  # a red rim on square (0, 0), grey inside as both
    board = read_board(image, GEOMETRY, skin)
    assert board[0, 0] == UNKNOWN


@pytest.mark.parametrize("name", ("won_idle_face_9x9", "playing_9x9"))
def test_the_face_in_its_in_play_look_is_the_new_game_control(
        name: str, skin) -> None:  # type: ignore[no-untyped-def]
    image = load_image(HERE / f"{name}.png")
    assert locate_restart(image, GEOMETRY, skin) is None  # no end face shows
    point = locate_idle_face(image, GEOMETRY, skin)
    assert point is not None and (point.x, point.y) == FACE


def test_the_end_faces_are_found_as_before(skin) -> None:  # type: ignore[no-untyped-def]
    point = locate_restart(load_image(HERE / "lost_9x9.png"), GEOMETRY, skin)
    assert point is not None and (point.x, point.y) == FACE


def test_no_face_no_control(skin) -> None:  # type: ignore[no-untyped-def]
    image = load_image(HERE / "won_idle_face_9x9.png").copy()
    image[10:55, :] = 192  # the panel above the board, painted over
    assert locate_idle_face(image, GEOMETRY, skin) is None
