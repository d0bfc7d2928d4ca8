"""Play without --mines reads the mine count off the game's LED counter (the counter
shows the mines left, so the flags on the board are added), before the skin's learned
count and the size's preset: real captures of xdemineur and WineMine on a file-backed
screen, the real reader.

Expected counts are the fixtures' ``# mines`` (the games were started with them)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bot.loop import PlayConfig, Player, PlayStopped
from bot.mouse import RecordingMouse
from bot.reader import SkinReader
from bot.screen import FileScreen, Image, load_image
from vision.counter import read_counters
from vision.geometry import PixelRect

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

TESTS = Path(__file__).resolve().parents[1]
XD = TESTS / "fixtures" / "xdemineur"
CLOCK = PixelRect(350, 35, 90, 36)
"""Around xdemineur's clock in the 20x12 captures (right of the face)."""


class TickingScreen(FileScreen):
    """Shows the next frame at each whole-screen capture (a clock that runs)."""

    def grab(self, region: PixelRect | None = None) -> Image:
        image = super().grab(region)
        if region is None:
            self.advance()
        return image


def player(screen: FileScreen, skin: str, mines: int | None = None) -> Player:
    config = PlayConfig(games=1, mines=mines, redraw_timeout=0.02)
    return Player(screen, RecordingMouse(size=screen.size()), SkinReader.from_names([skin]),
                  "exact", config)


def with_clock_of(png: Path, other: Path) -> Image:
    """``png`` with the clock of ``other`` (a later capture of the same game)."""
    image, later = load_image(png), load_image(other)
    r = CLOCK
    image[r.top:r.top + r.height, r.left:r.left + r.width] = \
        later[r.top:r.top + r.height, r.left:r.left + r.width]
    return image


def on_black_screen(png: Path) -> Image:
    """A WineMine window capture pasted at (120, 90) on a black 1280x720 screen."""
    window = load_image(png)
    screen = np.zeros((720, 1280, 3), np.uint8)
    h, w = window.shape[:2]
    screen[90:90 + h, 120:120 + w] = window
    return screen


def test_a_mid_game_counter_and_its_flags_give_the_count() -> None:
    """20x12 with 30 mines (no preset): the counter shows 27 with 3 flags on the board;
    the clock beside it shows 3 then 4, so it is not the mine counter."""
    playing = XD / "custom20x12_playing.png"
    later = with_clock_of(playing, XD / "custom20x12_lost.png")
    p = player(TickingScreen([playing, playing, later]), "xdemineur")
    p.find_board()
    assert (p.mines, p.mines_from) == (30, "read from the game's counter")


def test_two_still_counters_that_both_could_count_mines_are_not_guessed() -> None:
    """The same capture on a still screen: 27 + 3 or 3 + 3 mines? Neither is taken;
    20x12 has no preset, so play asks for --mines."""
    playing = XD / "custom20x12_playing.png"
    with pytest.raises(PlayStopped, match="pass --mines"):
        player(FileScreen([playing]), "xdemineur").find_board()


def test_mines_given_still_come_first() -> None:
    p = player(FileScreen([XD / "custom20x12_playing.png"]), "xdemineur", mines=31)
    p.find_board()
    assert (p.mines, p.mines_from) == (31, "--mines")


def test_a_fresh_xdemineur_game_reads_its_counter_at_once() -> None:
    """At the start the clock shows 0000 (no game has 0 mines): the other counter is it."""
    screen = FileScreen([XD / "beginner_start.png"])
    p = player(screen, "xdemineur")
    p.find_board()
    assert (p.mines, p.mines_from) == (10, "read from the game's counter")
    assert screen.grabs == 2  # the locate and the count: no second look


def test_winmine_counts_mines_on_the_right_of_the_face() -> None:
    """WineMine's clock is left of the face: a fresh game shows 000 there and 040 on
    the right (16x16/40)."""
    screen = FileScreen([on_black_screen(TESTS / "vision" / "winmine_black" /
                                         "intermediate_fresh.png")])
    p = player(screen, "winmine")
    p.find_board()
    assert (p.mines, p.mines_from) == (40, "read from the game's counter")


def test_winmine_after_the_first_click_keeps_the_still_counter() -> None:
    """30x16/99 one second after the first click: the clock shows 001 (a count of 1
    the board allows) and then 002; the counter 099 stays."""
    first = on_black_screen(TESTS / "vision" / "winmine_black" / "expert_first_click.png")
    later = first.copy()
    two = load_image(TESTS / "fixtures" / "winmine" / "dense_lost.png")
    later[90 + 25:90 + 46, 120 + 6:120 + 41] = two[25:46, 6:41]  # its clock shows 002
    p = player(TickingScreen([first, first, later]), "winmine")
    p.find_board()
    assert (p.mines, p.mines_from) == (99, "read from the game's counter")


def test_a_clock_is_not_taken_for_the_mines_when_the_counter_is_unreadable() -> None:
    """20x12/30 mid-game with the mine counter's panel smudged (one digit half lit, so
    it decodes to no value): the clock (0003, a count the board allows) is the only
    clean panel left, yet it may be the clock, so no count is read and play asks for
    --mines (20x12 has no preset)."""
    image = load_image(XD / "custom20x12_playing.png")
    reader = SkinReader.from_names(["xdemineur"])
    p = player(FileScreen([image]), "xdemineur", mines=30)
    p.find_board()
    assert p.geometry is not None
    counter = read_counters(image, p.geometry)[0]  # left of the face: 0027
    assert counter.text == "0027"
    r = counter.rect
    digit = image[r.top:r.top + r.height, r.left + r.width - r.width // 4:r.left + r.width]
    digit[::2] = (0, 0, 255)  # every other row of the last digit lit
    assert read_counters(image, p.geometry)[0].value is None
    assert reader.counted_mines(image, p.geometry, lambda: image) is None
    with pytest.raises(PlayStopped, match="pass --mines"):
        player(FileScreen([image]), "xdemineur").find_board()
