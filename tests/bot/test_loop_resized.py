"""A board that really changed size between games is found again and played at its new
size (issue #5); a board of another size the locator finds under a cover is not.

Real WineMine window captures on a black desktop (``tests/vision/winmine_black/``):
Intermediate (16x16/40) fresh, then Expert (30x16/99) fresh in the same window, which
grows to the right (its board's top-left square stays put), then Expert after a first
click. The old loop took the new board's top-left 16x16 squares for the board (they read
whole, all covered) and played them with 40 mines.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from checked_image import LaterScreen

from bot.loop import Observer, PlayConfig, Player, looks_fresh
from bot.mouse import RecordingMouse
from bot.reader import SkinReader
from bot.screen import FileScreen, Image, load_image
from solver.cells import COVERED
from solver.textboard import parse_board

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

BLACK = Path(__file__).resolve().parent.parent / "vision" / "winmine_black"


def on_screen(name: str) -> Image:
    """The window capture at (20, 30) on a black 640x400 screen."""
    screen = np.zeros((400, 640, 3), np.uint8)
    window = load_image(BLACK / f"{name}.png")
    h, w = window.shape[:2]
    screen[30:30 + h, 20:20 + w] = window
    return screen


class Boards(Observer):
    def __init__(self) -> None:
        self.found: list[tuple[int, int, int, str]] = []

    def on_board(self, player: Player) -> None:
        g = player.geometry
        assert g is not None
        self.found.append((g.cols, g.rows, player.mines, player.mines_from))


def test_a_new_size_between_games_is_found_again(tmp_path: Path) -> None:
    screen = FileScreen([on_screen("intermediate_fresh"), on_screen("expert_fresh"),
                         on_screen("expert_first_click")])
    mouse = RecordingMouse(size=screen.size(), on_click=lambda *_: screen.advance())
    boards = Boards()
    config = PlayConfig(games=1, mines=40, redraw_timeout=0.2, restart_timeout=0.3,
                        bug_dir=tmp_path / "bugs", seed=0)
    player = Player(screen, mouse, SkinReader.from_names(["winmine"]), "exact", config,
                    boards)
    player.find_board()
    screen.advance()  # the player chose Expert in the game's menu
    player.play_game()  # (it then stops: the fake screen shows one click's result only)
    assert [f[:3] for f in boards.found] == [(16, 16, 40), (30, 16, 99)]
    assert boards.found[1][3] != "--mines"  # --mines was the count of the 16x16 board
    g = player.geometry
    assert g is not None and (g.cols, g.rows) == (30, 16)
    b = g.bounds()
    assert mouse.clicks and all(b.left <= a.point.x < b.left + b.width
                                and b.top <= a.point.y < b.top + b.height
                                for a in mouse.clicks)


def test_a_board_read_under_a_cover_is_no_new_game() -> None:
    fresh = parse_board((BLACK / "expert_fresh.board").read_text())
    assert looks_fresh(fresh) and looks_fresh(parse_board(
        (BLACK / "expert_first_click.board").read_text()))
    grey_row = np.vstack([np.zeros((1, 30), np.int8), fresh])  # a margin read as 0s
    assert not looks_fresh(grey_row)
    ended = np.full((9, 9), 1, np.int8)
    ended[0, :3] = COVERED
    assert not looks_fresh(ended)  # mostly opened: an ended game seen in part


def test_a_board_found_moved_and_partly_covered_stops_with_where_and_an_image(
        tmp_path: Path) -> None:
    """The window moved a pixel and something covers a few of its squares: play stops
    with no click, saying where the board was found and saving what it saw (the stop
    seen once in CI under heavy load said neither)."""
    import pytest

    from bot.loop import PlayStopped

    fresh = on_screen("intermediate_fresh")
    moved = np.zeros_like(fresh)
    moved[:, 1:] = fresh[:, :-1]
    moved[150:170, 100:130] = (0, 200, 255)  # over three squares
    screen = FileScreen([fresh, moved])
    mouse = RecordingMouse(size=screen.size())
    config = PlayConfig(games=1, mines=40, bug_dir=tmp_path / "bugs", seed=0,
                        restart_timeout=0.5)
    player = Player(screen, mouse, SkinReader.from_names(["winmine"]), "exact", config)
    player.find_board()
    screen.advance()
    with pytest.raises(PlayStopped, match=r"found elsewhere \(1 px right, 0 px down, the same "
                                          r"pitch\).*board image saved to") as stop:
        player._relocate_checked()
    assert len(list((tmp_path / "bugs").glob("*.png"))) == 1, stop.value
    assert not mouse.clicks


def test_a_board_found_moved_while_something_passes_over_it_is_taken_once_it_reads(
        tmp_path: Path) -> None:
    """What covered a few squares of the moved board goes away a moment later (a frame
    drawn in passing on a loaded machine): the board is taken where it now is."""
    fresh = on_screen("intermediate_fresh")
    moved = np.zeros_like(fresh)
    moved[:, 1:] = fresh[:, :-1]
    covered = moved.copy()
    covered[150:170, 100:130] = (0, 200, 255)
    screen = FileScreen([fresh, covered, moved])
    mouse = RecordingMouse(size=screen.size())
    config = PlayConfig(games=1, mines=40, bug_dir=tmp_path / "bugs", seed=0,
                        restart_timeout=3.0)
    player = Player(screen, mouse, SkinReader.from_names(["winmine"]), "exact", config)
    player.find_board()
    assert player.geometry is not None
    x0 = player.geometry.x0
    later = LaterScreen([covered, moved], every=3)
    player.screen = later
    player._relocate_checked()
    assert player.geometry.x0 == x0 + 1 and later.index == 1
    assert not list((tmp_path / "bugs").glob("*.png")) and not mouse.clicks
