"""minegauler 4.2.0 (PyPI, PyQt6, its "Standard" look): real captures read with the skin
``sweepbot calibrate`` learned from scratch (``tests/fixtures/minegauler/standard/``).

Its squares are 16 px like Windows Minesweeper's, but lighter (240 grey) and with a
Qt-drawn bevel; a win flags every mine (the board then shows no covered square), a loss
shows every mine, the one that went off on red, wrong flags crossed. No display and no
minegauler are needed: only the captures.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bot.screen import load_image
from solver.cells import COVERED, EXPLODED, FLAG, MINE, WRONG_FLAG, neighbours
from solver.textboard import format_board, parse_board, parse_comments
from vision.geometry import BoardGeometry, PixelPoint
from vision.locate import locate_board
from vision.read import read_board
from vision.skin import Skin, load_skin
from vision.status import locate_idle_face, locate_restart, read_status

HERE = Path(__file__).resolve().parent.parent / "fixtures" / "minegauler" / "standard"
CASES = ("playing_9x9", "lost_9x9", "won_9x9", "won_16x16")
GEOMETRY = BoardGeometry("minegauler", 10.0, 73.0, 16.0, 16.0, 9, 9)
"""Square (0, 0) of every capture (the window's inside, 164x252 at 9x9, 276x364 at
16x16) at (10, 73)."""
FACE = (70, 93, 29, 52)
"""The face's yellow disc in the captures: x 70-93, y 29-52 (by its colour)."""


def expected(name: str) -> tuple[np.ndarray, dict[str, str]]:
    text = (HERE / f"{name}.board").read_text()
    return parse_board(text), parse_comments(text)


@pytest.fixture(scope="module")
def skin() -> Skin:
    return load_skin(HERE / "skin")


def near(board: np.ndarray, r: int, c: int, codes: tuple[int, ...]) -> int:
    return sum(int(board[n] in codes) for n in neighbours((int(r), int(c)), *board.shape))


def numbers(board: np.ndarray) -> list[tuple[int, int]]:
    return [(int(r), int(c)) for r, c in zip(*np.nonzero((board >= 0) & (board <= 8)),
                                              strict=True)]


def test_the_lost_board_agrees_with_its_numbers() -> None:
    board, notes = expected("lost_9x9")
    assert int(np.isin(board, (MINE, EXPLODED)).sum()) == int(notes["mines"])
    assert int((board == EXPLODED).sum()) == 1
    assert int((board == WRONG_FLAG).sum()) == 2
    for r, c in numbers(board):
        assert near(board, r, c, (MINE, EXPLODED)) == board[r, c], (r, c)


def test_the_playing_board_is_the_lost_game_one_click_before() -> None:
    playing, _ = expected("playing_9x9")
    lost, _ = expected("lost_9x9")
    opened = (playing >= 0) & (playing <= 8)
    assert np.array_equal(playing[opened], lost[opened])
    assert np.array_equal(playing == FLAG, lost == WRONG_FLAG)  # both flags were wrong
    assert np.isin(lost[playing == COVERED], (COVERED, MINE, EXPLODED)).all()


@pytest.mark.parametrize("name", ("won_9x9", "won_16x16"))
def test_a_won_board_flags_its_mines_and_nothing_else_is_covered(name: str) -> None:
    won, notes = expected(name)
    assert int((won == FLAG).sum()) == int(notes["mines"])
    assert np.isin(won, (FLAG, *range(9))).all()
    for r, c in numbers(won):
        assert near(won, r, c, (FLAG,)) == won[r, c], (r, c)


def test_the_won_9x9_is_the_lost_minefield_replayed() -> None:
    won, _ = expected("won_9x9")
    lost, _ = expected("lost_9x9")
    assert np.array_equal(won == FLAG, np.isin(lost, (MINE, EXPLODED)))
    opened = (lost >= 0) & (lost <= 8)
    assert np.array_equal(won[opened], lost[opened])


def geometry(name: str) -> BoardGeometry:
    board, _ = expected(name)
    rows, cols = board.shape
    return BoardGeometry("minegauler", 10.0, 73.0, 16.0, 16.0, rows, cols)


@pytest.mark.parametrize("name", CASES)
def test_every_capture_reads_as_seen(name: str, skin: Skin) -> None:
    board, _ = expected(name)
    got = read_board(load_image(HERE / f"{name}.png"), geometry(name), skin)
    assert format_board(got) == format_board(board)


@pytest.mark.parametrize("name", CASES)
def test_the_board_is_found_where_it_is(name: str, skin: Skin) -> None:
    g = locate_board(load_image(HERE / f"{name}.png"), [skin])
    assert (g.rows, g.cols) == (geometry(name).rows, geometry(name).cols)
    assert (round(g.x0), round(g.y0), round(g.pitch_x), round(g.pitch_y)) == (10, 73, 16, 16)


@pytest.mark.parametrize("name", CASES)
def test_the_status_is_read(name: str, skin: Skin) -> None:
    _, notes = expected(name)
    assert read_status(load_image(HERE / f"{name}.png"), geometry(name), skin) \
        == notes["status"]


def on_the_face(point: PixelPoint | None) -> bool:
    x0, x1, y0, y1 = FACE
    return point is not None and x0 <= point.x <= x1 and y0 <= point.y <= y1


def test_the_lost_face_is_the_new_game_control(skin: Skin) -> None:
    assert on_the_face(locate_restart(load_image(HERE / "lost_9x9.png"), GEOMETRY, skin))


def test_after_a_win_the_face_is_found_by_its_steady_part(skin: Skin) -> None:
    """The skin learned no won face as a restart look (calibrate started its games
    after a win by the click learned at a loss); play finds the face all the same, by
    the pixels every learned face shares."""
    image = load_image(HERE / "won_9x9.png")
    assert locate_restart(image, GEOMETRY, skin) is None
    assert on_the_face(locate_idle_face(image, GEOMETRY, skin))
    hidden = image.copy()
    hidden[25:57, 66:98] = 240  # the face button painted over
    assert locate_idle_face(hidden, GEOMETRY, skin) is None


def test_a_changed_square_reads_otherwise(skin: Skin) -> None:
    """The won capture's 4 at (7, 1), painted over with its covered neighbour (7, 0)'s
    look before the win, is no longer a 4: the test above can fail."""
    image = load_image(HERE / "won_9x9.png").copy()
    covered = load_image(HERE / "playing_9x9.png")
    image[73 + 7 * 16:73 + 8 * 16, 10 + 16:10 + 32] = covered[73 + 7 * 16:73 + 8 * 16, 10:26]
    got = read_board(image, GEOMETRY, skin)
    assert got[7, 1] == COVERED
