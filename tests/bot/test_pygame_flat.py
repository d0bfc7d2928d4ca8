"""A board of plain squares with no edge between them, and a game that takes a click
where the pointer is at its next frame.

Real captures of a pygame Minesweeper (``tests/bot/pygame_flat/README.md``): a fresh
board is one grey rectangle, so calibrate stopped with "no Minesweeper board"; with the
board's size given (``--grid 16x16``) it finds the board, and its right-clicks did
nothing until the pointer stayed on the square (the game asks where the pointer is
once a frame). Play then finds the board with the skin (:func:`locate_flat`).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from checked_image import StillScreen, play_frames, read_checked

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, RecordsOutcomes, SynthGame, SynthMouse, SynthScreen  # noqa: E402

from bot import mouse as mouse_module  # noqa: E402
from bot.calibrate_live import CalibrationError, LiveCalibrator, LiveOptions  # noqa: E402
from bot.cli import main  # noqa: E402
from bot.loop import PlayConfig, Player  # noqa: E402
from bot.mouse import CLICK_HOLD, GuardedMouse, RecordingMouse, ScreenRect  # noqa: E402
from bot.reader import SkinReader  # noqa: E402
from bot.screen import ScreenPoint  # noqa: E402
from solver.cells import COVERED, FLAG, MINE, neighbour_sum  # noqa: E402
from solver.game import BoardSize  # noqa: E402
from solver.textboard import parse_board  # noqa: E402
from vision.flat_board import (  # noqa: E402
    SPLIT_SHARE,
    block_side,
    changed_shares,
    flat_board,
    locate_flat,
    plain_kinds,
    split_share,
)
from vision.geometry import BoardGeometry  # noqa: E402
from vision.lattice import NoBoardError, find_lattice  # noqa: E402
from vision.skin import Skin, load_skin  # noqa: E402

HERE = Path(__file__).parent / "pygame_flat"
SHA256 = {"fresh.png": "9a2d84e10898288658211384f6125d2717bce84e280c9af814969e5f78793d41",
          "playing.png": "f6280262bb4bbbc6c2740685a3980f258a7c3d01bf5587d64856871d38deb032",
          "lost.png": "55d297f7a75d09c0789c7fefb987e2bfd6da59cc05bff97a7ac5a119de6efe55",
          "won_before.png": "8a24a43054aec2cc2393fbe824b5fe24bef343436848d4b4afffd380beec829e",
          "won.png": "3ae1590ec4a187e1a825b50757988f1bcb229672157dfdaf3759167bb0096281"}
NAMES = ("fresh", "playing", "lost", "won_before", "won")
BOARD = BoardGeometry("", 32.0, 108.0, 28.0, 28.0, 16, 16)
"""Where the game draws its board in the captures: padding 20 px, top 80 px, 28 px."""


def capture(name: str) -> np.ndarray:
    return read_checked(HERE / f"{name}.png", SHA256[f"{name}.png"])


def board(name: str) -> np.ndarray:
    return parse_board((HERE / f"{name}.board").read_text())


@pytest.mark.parametrize("before, end, shown", [("playing", "lost", MINE),
                                                ("won_before", "won", FLAG)])
def test_the_boards_follow_the_games_logic(before: str, end: str, shown: int) -> None:
    """Checked by eye; here by the game's rules: at the end the 40 mines show (discs at
    a loss, the wrong flag left a flag; flags at a win), every number counts them, and
    the board before shows the same numbers where it shows any."""
    last, first = board(end), board(before)
    mines = last == shown
    assert int(mines.sum()) == 40
    numbers = (last >= 0) & (last <= 8)
    assert (last[numbers] == neighbour_sum(mines)[numbers]).all()
    opened = (first >= 0) & (first <= 8)
    assert (first[opened] == last[opened]).all()
    assert (board("fresh") == COVERED).all()


def test_the_plain_board_has_no_lattice_but_splits_into_the_squares_given() -> None:
    fresh = capture("fresh")
    with pytest.raises(NoBoardError):
        find_lattice(fresh)
    assert flat_board(fresh, 16, 16) == BOARD
    with pytest.raises(NoBoardError, match="16 x 30 squares"):
        flat_board(fresh, 16, 30)  # (squares of 15 x 28 px)


def test_calibrate_finds_the_plain_board_only_with_its_size() -> None:
    """No --grid: a clear message that names it; with it, the board; a wrong size: no
    board, and no click either way."""
    for grid, found in ((None, "--grid ROWSxCOLS"), ((16, 16), None),
                        ((16, 8), "splits into 16 x 8")):
        screen = StillScreen(capture("fresh"))
        mouse = RecordingMouse(size=screen.size())
        cal = LiveCalibrator(screen, mouse, LiveOptions(grid=grid))
        if found is None:
            assert cal.find_board().shape == (16, 16)
            assert cal.g == BOARD
        else:
            with pytest.raises(CalibrationError, match=found):
                cal.find_board()
        assert mouse.clicks == []


def test_an_empty_screen_is_no_plain_board() -> None:
    """A user who gave --grid on an empty (black) screen was told to move the board
    off the screen's edges: the whole screen was taken for a plain board."""
    screen = StillScreen(np.zeros((1024, 1280, 3), np.uint8))
    mouse = RecordingMouse(size=screen.size())
    cal = LiveCalibrator(screen, mouse, LiveOptions(grid=(10, 10)))
    with pytest.raises(CalibrationError, match="no rectangle of one colour"):
        cal.find_board()
    assert mouse.clicks == []


def test_a_wrong_size_of_the_board_s_shape_shows_at_the_first_click() -> None:
    """9 x 9 splits the plain 16 x 16 board into square squares too: the squares the
    first click opened (and the flags placed) are cut by its lines, not by the
    board's."""
    fresh, playing = capture("fresh"), capture("playing")
    assert split_share(fresh, playing, BOARD) < SPLIT_SHARE
    for n in (9, 12, 15, 17):
        g = flat_board_of(n)
        assert split_share(fresh, playing, g) >= SPLIT_SHARE, n


def opened_only() -> np.ndarray:
    """``playing`` with its flags taken off: the board as the first click left it."""
    fresh, after = capture("fresh"), capture("playing").copy()
    for cell in np.argwhere(board("playing") == FLAG).tolist():
        x, y, w, h = BOARD.cell_rect((cell[0], cell[1]))
        after[y:y + h, x:x + w] = fresh[y:y + h, x:x + w]
    return after


@pytest.mark.parametrize("n, side", [(16, None), (32, 2), (48, 3)])
def test_a_size_that_splits_each_square_shows_in_whole_blocks(n: int, side: int | None) -> None:
    """32x32 or 48x48 given for the 16x16 board: the opening lines up with every
    square given (the share cut is 0), but it makes whole 2 x 2 or 3 x 3 blocks of
    them: calibrate stops at the first click and names the board's size."""
    fresh, after = capture("fresh"), opened_only()
    g = flat_board_of(n)
    assert split_share(fresh, after, g) < SPLIT_SHARE
    assert block_side(changed_shares(fresh, after, g) >= 0.5) == side
    screen = StillScreen(fresh)
    cal = LiveCalibrator(screen, RecordingMouse(size=screen.size()), LiveOptions(grid=(n, n)))
    cal.find_board()
    if side is None:
        cal._check_given_size(fresh, after)
    else:
        with pytest.raises(CalibrationError, match=f"blocks of {side} x {side} .* is the "
                                                   "board 16 x 16 squares"):
            cal._check_given_size(fresh, after)


def test_a_mark_drawn_beside_the_square_clicked_asks_about_the_size() -> None:
    """Given 32x32, calibrate's right-click on a quarter of a square flagged the whole
    square, drawn on other quarters: "changed nothing" then asks whether --grid is the
    board's size (exit 2 in 5.9 s on the live game, 32x32 and 48x48 alike)."""
    fresh, playing = capture("fresh"), capture("playing")
    r, c = np.argwhere(board("playing") == FLAG)[1].tolist()
    x, y, w, h = BOARD.cell_rect((r, c))
    flagged = fresh.copy()
    flagged[y:y + h, x:x + w] = playing[y:y + h, x:x + w]
    g = flat_board_of(32)
    shares = changed_shares(fresh, flagged, g)[2 * r:2 * r + 2, 2 * c:2 * c + 2]
    assert (shares > 0.05).any() and not (shares > 0.05).all()
    screen = StillScreen(fresh)
    cal = LiveCalibrator(screen, RecordingMouse(size=screen.size()), LiveOptions(grid=(32, 32)))
    cal.find_board()
    blank = tuple(int(v) for v in np.argwhere(shares <= 0.05)[0] + (2 * r, 2 * c))
    drawn = tuple(int(v) for v in np.argwhere(shares > 0.05)[0] + (2 * r, 2 * c))
    assert "is --grid the board's size" in cal._split_hint(fresh, flagged, blank)
    assert cal._split_hint(fresh, flagged, drawn) == ""
    assert cal._split_hint(fresh, fresh, blank) == ""


@pytest.mark.parametrize("n, side", [(32, 2), (48, 3)])
def test_calibrate_from_stops_at_a_size_that_splits_each_square(
        n: int, side: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Offline too, from the squares' plain colours (a glyph's part of a square counts
    for neither): a clear message, and no skin."""
    out = tmp_path / "split"
    assert main(["calibrate", "--name", "split", "--grid", f"{n}x{n}", "--out", str(out),
                 "--from", *[str(HERE / f"{name}.png") for name in NAMES]]) == 2
    assert f"blocks of {side} x {side}" in capsys.readouterr().err
    assert not out.exists()
    for name in NAMES[1:]:
        image = capture(name)
        assert block_side(plain_kinds(image, flat_board_of(n))) == side, name
        assert block_side(plain_kinds(image, BOARD)) is None, name


def flat_board_of(n: int) -> BoardGeometry:
    return BoardGeometry("", 32.0, 108.0, 448 / n, 448 / n, n, n)


@pytest.mark.parametrize("name", NAMES)
def test_the_calibrated_skin_finds_and_reads_every_capture(name: str) -> None:
    """Play finds the board with the skin alone, mid-game and at the ends too (at the
    loss the locator grew a lattice over the mines' rows only), and reads it all."""
    reader = SkinReader([load_skin(HERE / "skin")])
    image = capture(name)
    geometry = reader.locate(image)
    assert (geometry.x0, geometry.y0, geometry.rows, geometry.cols) == (32.0, 108.0, 16, 16)
    assert np.array_equal(reader.read(image, geometry), board(name))
    status = {"lost": "lost", "won": "won"}.get(name, "playing")
    assert reader.status(image, geometry) == status
    assert reader.click_hold(geometry) == CLICK_HOLD


@pytest.mark.parametrize("shots", [NAMES, ("playing", "lost", "won"),
                                   ("lost", "won_before", "won")])
def test_calibrate_from_the_captures_names_mines_drawn_alike_at_a_loss(
        shots: tuple[str, ...], tmp_path: Path) -> None:
    """The game draws every mine, the one hit too, as one black disc: no look of the
    loss is a hit mine of its own, so no reading of the loss fitted, and ``calibrate
    --from`` named numbers only. Read again once a game in play named the covered
    look and numbers, the loss names the disc a mine; the look a win leaves on every
    mine, shown in play too, is a flag. The skin then reads every capture."""
    out = tmp_path / "pgoff"
    assert main(["calibrate", "--name", "pgoff", "--grid", "16x16", "--out", str(out),
                 "--from", *[str(HERE / f"{n}.png") for n in shots]]) == 0
    skin = load_skin(out)
    assert {COVERED, 0, 1, 2, 3, 4, FLAG, MINE} <= set(skin.cells)
    reader = SkinReader([skin])
    for name in NAMES:
        image = capture(name)
        g = reader.locate(image)
        assert np.array_equal(reader.read(image, g), board(name)), name
        assert reader.status(image, g) == {"lost": "lost", "won": "won"}.get(name, "playing")


def test_a_skin_of_drawn_squares_is_not_located_as_plain() -> None:
    skin = load_skin(Path(__file__).parent / "minegrid" / "skin")
    assert locate_flat(capture("fresh"), skin) is None


# ------------------------------------------------------------------ the held click

def test_the_guard_holds_the_pointer_on_a_clicked_square(
        monkeypatch: pytest.MonkeyPatch) -> None:
    slept: list[float] = []
    monkeypatch.setattr(mouse_module.time, "sleep", slept.append)
    guard = GuardedMouse(RecordingMouse(size=(800, 600)))
    guard.allow([ScreenRect(0, 0, 400, 400)])
    guard.click(ScreenPoint(50, 50))
    guard.move(ScreenPoint(500, 500))
    assert slept == []  # (no hold: the pointer leaves at once)
    guard.hold = 0.1
    guard.click(ScreenPoint(50, 50))
    guard.click(ScreenPoint(50, 50), "right")  # (the same square: no wait)
    assert slept == []
    guard.click(ScreenPoint(80, 50))
    assert len(slept) == 1 and 0.05 < slept[0] <= 0.1
    guard.move(ScreenPoint(500, 500))
    assert len(slept) == 2


class PollsPointer(SynthGame):
    """A game that takes a click at its next frame, :data:`FRAME` seconds on, at the
    square the pointer is on then (a pygame game's ``mouse.get_pos()``)."""

    FRAME = 0.03
    pending: tuple[str, float] | None = None

    def _frame(self) -> None:
        if self.pending is not None and time.monotonic() - self.pending[1] >= self.FRAME:
            button, self.pending = self.pending[0], None
            super().click(self._pos, button)
            self.clicks.pop()  # (counted once, when sent)

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        self._frame()
        self._pos = p
        self.clicks.append((p, button))
        self.pending = (button, time.monotonic())

    def move(self, p: ScreenPoint) -> None:
        self._frame()
        self._pos = p

    def grab(self, region: object = None) -> np.ndarray:
        self._frame()
        return super().grab(region)  # type: ignore[arg-type]


class PollsAndRecords(RecordsOutcomes, PollsPointer):
    """:class:`PollsPointer` that also records how every game ended."""


@pytest.fixture(scope="module")
def polled() -> tuple[PollsAndRecords, Any, float]:
    """A game that polls the pointer, calibrated: (the game, the result, the hold
    calibrate's mouse kept)."""
    game = PollsAndRecords(BoardSize(9, 9, 10), Look(pitch_x=23.4, pitch_y=23.4,
                                                     origin=(51, 123), gap=2), seed=3)
    opts = LiveOptions(games=1, max_games=4, time_limit=60.0)
    cal = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts)
    return game, cal.run(), cal.mouse.hold


def test_calibrate_learns_to_hold_the_pointer_for_a_game_that_polls_it(
        polled: tuple[PollsAndRecords, Any, float]) -> None:
    """Right-clicks that moved on at once did nothing; held 0.1 s, they place a flag:
    the skin says so (play holds clicks as long), and the games are played."""
    _, result, hold = polled
    assert hold == CLICK_HOLD
    assert result.status["click_hold"] == CLICK_HOLD  # type: ignore[attr-defined]
    assert FLAG in result.cells and result.games  # type: ignore[attr-defined]


class Quiet:
    """An observer that keeps play's notes."""

    def __init__(self) -> None:
        self.notes: list[str] = []

    def on_board(self, player: object) -> None: ...
    def on_turn(self, *args: object) -> None: ...
    def on_game(self, *args: object) -> None: ...
    def on_note(self, player: object, message: str) -> None:
        self.notes.append(message)


def test_play_holds_clicks_when_a_first_click_does_nothing(
        polled: tuple[PollsAndRecords, Any, float]) -> None:
    """A skin with no ``click_hold`` (one learned from screenshots cannot know it) on a
    game that asks where the pointer is once a frame: the first click, the pointer
    parked off the board at once, changed nothing, and play stopped ("the clicks have
    no effect"). Now it holds every click from then on and plays the games out."""
    game, learned, _ = polled
    status = {k: v for k, v in learned.status.items() if k != "click_hold"}
    skin = Skin("polls", "test", learned.cell_size, learned.cells, status, learned.restart)
    before, observer = len(game.outcomes()), Quiet()
    player = Player(SynthScreen(game), SynthMouse(game), SkinReader([skin]), "exact",
                    PlayConfig(games=3, mines=10, seed=1, restart_timeout=4.0),
                    observer=observer)  # type: ignore[arg-type]
    played = player.play()
    assert [r.outcome for r in played] == game.outcomes()[before:], [r.reason for r in played]
    assert len(played) == 3 and player.mouse.hold == CLICK_HOLD
    assert sum("the first click changed nothing" in n for n in observer.notes) == 1


def test_play_holds_its_clicks_and_takes_the_win(tmp_path: Path) -> None:
    """The skin's ``click_hold`` reaches play's mouse; the last safe square opened, the
    game flags every mine: a win."""
    player, mouse = play_frames([capture("won_before"), capture("won")], HERE / "skin",
                                tmp_path / "bugs")
    results = player.play()
    assert [r.outcome for r in results] == ["won"], results[0].reason
    assert player.mouse.hold == CLICK_HOLD
    assert [(a.button, player.map.to_pixel(a.point)) for a in mouse.clicks] == [
        ("left", player.geometry.cell_center((15, 15)))]  # type: ignore[union-attr]


class DropsFirstMark(SynthGame):
    """A game that misses its first right-click (busy), and takes every other at once."""

    dropped = False

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        if button == "right" and not self.dropped and self.cell_at(p) is not None:
            self.dropped = True
            self.clicks.append((p, button))
            return
        super().click(p, button)


def test_a_mark_lost_once_does_not_hold_every_click() -> None:
    """The held retry works, but so does a quick mark on another square: the first
    was lost some other way, and no hold is kept (nor written for play)."""
    game = DropsFirstMark(BoardSize(9, 9, 10), Look(pitch_x=23.4, pitch_y=23.4,
                                                    origin=(51, 123), gap=2), seed=3)
    opts = LiveOptions(games=1, max_games=4, time_limit=60.0)
    cal = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts)
    result = cal.run()
    assert game.dropped and cal.mouse.hold == 0.0
    assert "click_hold" not in result.status  # type: ignore[attr-defined]
    assert FLAG in result.cells  # type: ignore[attr-defined]
