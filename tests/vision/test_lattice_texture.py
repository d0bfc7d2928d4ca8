"""Boards of textured squares with no line between them (issue #5, kmines' green theme).

kmines' green theme draws every covered square as one tuft of grass, the squares side by
side with no line or gap between them, so the flat-tile lattice finds nothing ("no
regular lattice of identical squares": calibrate stopped at once). The texture repeats
at the board's pitch, exactly: :func:`vision.lattice.texture_lattices` finds it.

Frames: real captures of kmines 22.12.3, theme green, crops with the board at (16, 16)
(``tests/vision/kmines_green/``): a fresh 9x9/10, the same game two clicks in (board
by eye in ``mid_9x9.board``), 30x16/99 two clicks in; ``skin/`` is the skin a live
``sweepbot calibrate`` learned on that theme (9x9/10); ``xterm_hashes.png`` is no board
(a terminal printing lines of '#'). ``mid_16x16.png`` is a 16x16/40
board one click in, ``skin16/`` the skin calibrate learned on 16x16 (its covered,
0, 1 and 2 have variants with a dark line down their right edge, not explained). The
lattice was checked by eye on each crop drawn over at 2x (each sign inside its square,
the fence posts at the squares' centres).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bot.screen import load_image
from solver.textboard import parse_board
from vision.lattice import (
    NoBoardError,
    find_lattice,
    locate_by_lattice,
    no_shorter_period,
    texture_lattices,
)
from vision.locate import BoardNotFound, locate_board
from vision.read import read_board
from vision.skin import load_skin

HERE = Path(__file__).resolve().parent / "kmines_green"


@pytest.mark.parametrize(("name", "rows", "cols", "pitch"),
                         [("fresh_9x9", 9, 9, 32.0), ("mid_9x9", 9, 9, 32.0),
                          ("mid_16x30", 16, 30, 19.0)])
def test_grass_board_is_found(name: str, rows: int, cols: int, pitch: float) -> None:
    g = find_lattice(load_image(HERE / f"{name}.png"))
    assert (g.rows, g.cols, g.pitch_x, g.pitch_y) == (rows, cols, pitch, pitch)
    assert (g.col_left(0), g.row_top(0)) == (16.0, 16.0)
    assert (g.col_left(cols), g.row_top(rows)) == (16.0 + cols * pitch, 16.0 + rows * pitch)


def test_learned_skin_finds_and_reads_a_game_in_progress() -> None:
    """Play's way in (``bot.reader.SkinReader.locate``): no flat tile colour, so
    :func:`locate_by_lattice`, then every square read as by eye."""
    image = load_image(HERE / "mid_9x9.png")
    skin = load_skin(HERE / "skin")
    g = locate_by_lattice(image, [skin])
    assert g is not None
    assert (g.rows, g.cols, g.col_left(0), g.row_top(0)) == (9, 9, 16.0, 16.0)
    expected = parse_board((HERE / "mid_9x9.board").read_text())
    assert (read_board(image, g, skin) == expected).all()


def test_no_misshapen_board_is_located_in_grass() -> None:
    """``locate_board`` links blobs of the light green between the tufts (the skin's
    key colour) into lattices of any shape, and the template reader reads a tuft cut
    anywhere as covered: on this screen it returned 16 rows x 15 columns of 19 x 9.5 px
    at (363.5, 168.5), and play stopped at once ("unreadable square"). Now no board
    of another shape than the skin's is taken; play's fallback finds the right one.
    The screen: a 16x16 board one click in (its crop at its place on the screen, whose
    desktop was black) and the skin calibrate learned on 16x16 (``skin16``)."""
    screen = np.zeros((1080, 1920, 3), np.uint8)
    screen[149:149 + 336, 336:336 + 336] = load_image(HERE / "mid_16x16.png")
    skin = load_skin(HERE / "skin16")
    with pytest.raises(BoardNotFound):
        locate_board(screen, [skin])
    g = locate_by_lattice(screen, [skin])
    assert g is not None
    assert (g.rows, g.cols, g.pitch_x, g.col_left(0), g.row_top(0)) == (16, 16, 19.0, 352.0, 165.0)


def _grass_tile() -> np.ndarray:
    return load_image(HERE / "fresh_9x9.png")[16 + 64:16 + 96, 16 + 32:16 + 64].copy()


def _framed(pattern: np.ndarray, top: int = 30, left: int = 40,
            size: tuple[int, int] = (300, 400)) -> np.ndarray:
    """``pattern`` inside a plain background with a white line around it."""
    img = np.full((*size, 3), (200, 140, 90), np.uint8)
    h, w = pattern.shape[:2]
    img[top - 1:top + h + 1, left - 1:left + w + 1] = 255
    img[top:top + h, left:left + w] = pattern
    return img


def test_made_up_board_of_the_grass_tile_is_found_where_it_is() -> None:
    g = find_lattice(_framed(np.tile(_grass_tile(), (6, 8, 1)), top=37, left=53))
    assert (g.rows, g.cols, g.pitch_x, g.col_left(0), g.row_top(0)) == (6, 8, 32.0, 53.0, 37.0)


def test_texture_running_off_the_image_is_no_board() -> None:
    """A tiled wallpaper: the texture does not end inside the image."""
    wallpaper = np.tile(_grass_tile(), (10, 13, 1))[5:305, 7:407]
    with pytest.raises(NoBoardError, match="no Minesweeper board"):
        find_lattice(wallpaper)


def test_board_on_a_wallpaper_of_another_texture_is_found() -> None:
    """The wallpaper repeats more pixels (at 40 px) than the board: rejected as it runs
    off the image, then the board's pitch is tried."""
    y, x = np.mgrid[0:40, 0:40]
    wave = 110 + 40 * np.sin(2 * np.pi * (2 * x + 3 * y) / 40) \
        + 30 * np.cos(2 * np.pi * (5 * x - y) / 40)
    tile = np.dstack([wave, wave * 0.8, 255 - wave]).astype(np.uint8)
    screen = np.tile(tile, (14, 20, 1))[:540, :780].copy()
    screen[60:380, 100:420] = load_image(HERE / "fresh_9x9.png")
    g = find_lattice(screen)
    assert (g.rows, g.cols, g.pitch_x, g.col_left(0), g.row_top(0)) == (9, 9, 32.0, 116.0, 76.0)


def test_too_few_squares_of_texture_is_no_board() -> None:
    assert texture_lattices(_framed(np.tile(_grass_tile(), (2, 4, 1)))) == []


def test_stripes_and_text_are_no_board() -> None:
    rng = np.random.default_rng(3)
    column = rng.integers(40, 220, (1, 16, 3), dtype=np.uint8)  # stripes 16 px apart
    stripes = np.tile(column, (192, 12, 1))
    glyph = rng.integers(40, 220, (18, 9, 3), dtype=np.uint8)  # a "character" 9 x 18
    text = np.tile(glyph, (10, 30, 1))
    for pattern in (stripes, text):
        with pytest.raises(NoBoardError):
            find_lattice(_framed(pattern))


def test_a_terminal_full_of_hashes_is_no_board_of_texture() -> None:
    """A real xterm (openbox) printing lines of 109 '#': the text repeats across at a
    character (6 px) and down at a line (13 px), so at 78 px both ways, but a 78 px
    square repeats across at 6 px too (:func:`no_shorter_period`); the other pitches
    tried (12, 90 px) give no block of alike squares either."""
    image = load_image(HERE / "xterm_hashes.png")
    assert texture_lattices(image) == []


def test_shorter_period_is_seen() -> None:
    tile = _grass_tile()
    grey = tile.mean(axis=2).astype(np.int16)
    assert no_shorter_period(grey)
    assert not no_shorter_period(np.tile(grey[:16, :16], (2, 2)))  # repeats at 16 px
    assert not no_shorter_period(np.full((32, 32), 90, np.int16))  # flat
