"""The LED counters above the board (vision/counter.py) on real captures.

Expected values come from the fixtures' ``.board`` files, never from the reader: a
game's mine counter shows ``# mines`` minus the flags placed (``F`` and, after a loss,
the crossed-out wrong flags ``W``; question marks are not counted). Checked by eye on
enlargements (22 Nov 2026): xdemineur draws its four-digit mine counter left of the
face (red on black, unlit segments black), WineMine its three-digit one right of the
face (its clock is on the left; green under Xvfb, unlit segments dim green).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from bot.screen import load_image
from solver.cells import FLAG, WRONG_FLAG, Board
from solver.textboard import parse_board
from vision.counter import (
    LedCounter,
    _draw,
    mine_totals,
    read_counters,
    steady_total,
)
from vision.geometry import BoardGeometry, PixelRect

TESTS = Path(__file__).resolve().parents[1]
FIXTURES = TESTS / "fixtures"
XDEMINEUR = sorted((FIXTURES / "xdemineur").glob("*.png"))
WINMINE = sorted((FIXTURES / "winmine").glob("*.png")) \
    + sorted((TESTS / "vision" / "winmine_black").glob("*.png"))
GNOME = sorted((FIXTURES / "gnome-mines").glob("*.png"))


def case(png: Path) -> tuple[np.ndarray, BoardGeometry, Board, int]:
    """The capture, its board's geometry (from the ``# cells``/``# size`` comments),
    its expected board and mine count."""
    text = png.with_suffix(".board").read_text()
    cols, rows = (int(v) for v in re.search(r"# size (\d+)x(\d+)", text).groups())  # type: ignore[union-attr]
    x0, x1, y0, y1 = (int(v) for v in re.search(  # type: ignore[union-attr]
        r"# cells x=(\d+)\.\.(\d+) y=(\d+)\.\.(\d+)", text).groups())
    geometry = BoardGeometry("any", float(x0), float(y0), (x1 - x0 + 1) / cols,
                             (y1 - y0 + 1) / rows, rows, cols)
    mines = int(re.search(r"# mines (\d+)", text).group(1))  # type: ignore[union-attr]
    return load_image(png), geometry, parse_board(text), mines


def mines_left(board: Board, mines: int) -> int:
    """What the game's counter shows: mines minus flags placed (right or wrong)."""
    return mines - int(np.count_nonzero((board == FLAG) | (board == WRONG_FLAG)))


@pytest.mark.parametrize("png", XDEMINEUR + WINMINE, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_mine_counter_of_each_capture_reads_the_mines_left(png: Path) -> None:
    image, geometry, board, mines = case(png)
    counters = read_counters(image, geometry)
    assert len(counters) == 2, counters  # the mine counter and the clock, both whole
    assert all(c.value is not None for c in counters), counters
    mine_counter = counters[0] if png.parent.name == "xdemineur" else counters[1]
    assert mine_counter.value == mines_left(board, mines), counters
    assert mines in mine_totals(counters, board).values()


def test_what_the_captures_show_by_eye() -> None:
    """Both panels of a few captures, as read off their enlargements."""
    seen = {
        FIXTURES / "xdemineur" / "beginner_marks.png": ("0007", "0002"),
        FIXTURES / "xdemineur" / "custom20x12_playing.png": ("0027", "0003"),
        FIXTURES / "xdemineur" / "expert_playing.png": ("0094", "0007"),
        FIXTURES / "winmine" / "dense_playing.png": ("002", "028"),
        FIXTURES / "winmine" / "expert_playing.png": ("003", "095"),
        TESTS / "vision" / "winmine_black" / "expert_first_click.png": ("001", "099"),
    }
    for png, texts in seen.items():
        image, geometry, _, _ = case(png)
        assert tuple(c.text for c in read_counters(image, geometry)) == texts, png


@pytest.mark.parametrize("png", GNOME, ids=lambda p: p.stem)
def test_gnome_mines_shows_no_led_counter(png: Path) -> None:
    image, geometry, _, _ = case(png)
    assert read_counters(image, geometry) == ()


def test_other_games_without_led_show_none() -> None:
    """sgt-mines (a text line under the board) and kmines: nothing, even with the
    whole picture as the band."""
    for png in (TESTS / "vision" / "sgt_mines" / "shot_playing.png",
                TESTS / "vision" / "kmines" / "mid.png",
                TESTS / "vision" / "kmines" / "fresh.png"):
        image = load_image(png)
        h, w = image.shape[:2]
        whole = BoardGeometry("any", 0.0, float(h - 1), float(w), h / 5, 1, 1)
        assert read_counters(image, whole) == (), png


def test_crops_without_the_counter_read_nothing() -> None:
    image, geometry, _, _ = case(FIXTURES / "xdemineur" / "custom20x12_playing.png")
    top = read_counters(image, geometry)[0].rect
    below = image[top.top + top.height + 2:]
    assert read_counters(below, geometry.shifted(0, -(top.top + top.height + 2))) == ()
    board_only = image[geometry.bounds().top - 3:]
    assert read_counters(board_only, geometry.shifted(0, -(geometry.bounds().top - 3))) == ()


def test_a_counter_cut_or_covered_gives_no_wrong_value() -> None:
    """Cut through any column of the mine counter or grey over its left part: the
    reader never returns a number other than the true one."""
    image, geometry, board, mines = case(FIXTURES / "xdemineur" / "expert_playing.png")
    rect = read_counters(image, geometry)[0].rect
    truth = mines_left(board, mines)
    for x in range(rect.left - 2, rect.left + rect.width):
        cut = image[:, x:]
        values = [c.value for c in read_counters(cut, geometry.shifted(-x, 0))
                  if c.rect.left + x < rect.left + rect.width]
        assert values in ([], [truth], [None]), (x, values)
        covered = image.copy()
        covered[rect.top:rect.top + rect.height, rect.left - 2:x] = 179  # the window's grey
        values = [c.value for c in read_counters(covered, geometry)
                  if c.rect.left < rect.left + rect.width]
        assert values in ([], [truth], [None]), (x, values)


SYNTH = BoardGeometry("any", 20.0, 150.0, 16.0, 16.0, 5, 20)
"""A board below the synthetic panels drawn at y = 90 (its band: y 70-149)."""


@pytest.mark.parametrize("unlit", [(0, 0, 0), (0, 0, 128)], ids=["black", "dim-red"])
def test_every_digit_and_a_minus_decode(unlit: tuple[int, int, int]) -> None:
    """Windows XP draws unlit segments dim red, xdemineur black; a counter goes negative
    when more flags than mines are placed."""
    for text, value in (("0123", 123), ("4567", 4567), ("0890", 890), ("-05", -5), ("-12", -12)):
        image = np.full((260, 360, 3), 192, np.uint8)
        _draw(image, 40, 90, text, size=24, unlit=unlit)
        [counter] = read_counters(image, SYNTH)
        assert (counter.text, counter.value) == (text, value)


def test_a_half_lit_segment_makes_no_value() -> None:
    image = np.full((260, 360, 3), 192, np.uint8)
    _draw(image, 40, 90, "088", size=24)  # digits 12 px wide at a 15 px pitch
    image[90:93, 55:62] = 0  # the left half of the middle 8's top segment unlit
    [counter] = read_counters(image, SYNTH)
    assert (counter.text, counter.value) == ("0?8", None)


def test_totals_add_the_flags_and_keep_only_possible_counts() -> None:
    board = parse_board("F..1\n.?.1\n..F.\n")  # 2 flags, 8 squares that may hide mines
    r = PixelRect
    counters = [LedCounter(r(10, 0, 30, 20), "008"), LedCounter(r(90, 0, 30, 20), "000"),
                LedCounter(r(150, 0, 30, 20), "-01")]
    assert mine_totals(counters, board) == {10: 10, 90: 2, 150: 1}
    assert mine_totals([LedCounter(r(0, 0, 9, 9), "009")], board) == {}  # 11 > 10 squares
    assert mine_totals(counters, parse_board("F.?\n.U.\n")) == {}  # a square unread
    assert steady_total({10: 10, 90: 2}) is None  # which is the clock?
    assert steady_total({10: 10, 90: 2}, {10: 10, 90: 3}) == 10  # the clock ran
    assert steady_total({10: 10, 90: 2}, {10: 10, 90: 2}) is None  # both still
    assert steady_total({10: 10, 90: 10}) == 10  # a won WineMine: 000 and 000, 10 flags


@pytest.mark.parametrize("scale", [1.25, 2.0])
def test_stretched_captures_read_right_or_nothing(scale: float) -> None:
    """HiDPI-like copies of every capture: nearest-neighbour copies read right; bilinear
    ones read right or give no value (WineMine's 1 px digit gap blurs shut), never
    another number."""
    import cv2

    for png in XDEMINEUR + WINMINE:
        image, g, board, mines = case(png)
        big = BoardGeometry("any", g.x0 * scale, g.y0 * scale, g.pitch_x * scale,
                            g.pitch_y * scale, g.rows, g.cols)
        side = 0 if png.parent.name == "xdemineur" else 1
        for interpolation in (cv2.INTER_NEAREST, cv2.INTER_LINEAR):
            stretched = np.asarray(cv2.resize(image, None, fx=scale, fy=scale,
                                              interpolation=interpolation), np.uint8)
            counters = read_counters(stretched, big)
            value = counters[side].value if len(counters) == 2 else None
            if interpolation == cv2.INTER_NEAREST or png.parent.name == "xdemineur":
                assert value == mines_left(board, mines), (png, scale, counters)
            assert value in (None, mines_left(board, mines)), (png, scale, counters)
