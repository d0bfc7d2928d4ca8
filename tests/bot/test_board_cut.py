"""A board cut by its window's edge stops play and calibration before any click, with
a message that says what to do (:mod:`vision.cut`)."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest
from simgame import Blank

from bot.calibrate_live import CalibrationError, LiveCalibrator, LiveOptions
from bot.loop import PlayConfig, Player
from bot.mouse import RecordingMouse
from bot.reader import SkinReader
from bot.screen import FileScreen, Image
from vision.lattice import find_lattice

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def cut_right(image: Image, share: float = 0.5, fill: int = 160) -> Image:
    """The image with its board's last column cut ``share`` of a pitch in."""
    g = find_lattice(image)
    cut = image.copy()
    cut[:, round(g.col_left(g.cols - 1) + share * g.pitch_x):] = fill
    return cut


@pytest.mark.parametrize("cut", [False, True])
def test_play_stops_before_a_click_on_a_cut_board(cut: bool, tmp_path: Path) -> None:
    image: Image = cv2.imread(str(FIXTURES / "xdemineur" / "beginner_start.png"))
    assert image is not None
    screen = FileScreen([cut_right(image) if cut else image])
    mouse = RecordingMouse(size=screen.size())
    config = PlayConfig(games=1, mines=10, redraw_timeout=0.02, bug_dir=tmp_path)
    [result] = Player(screen, mouse, SkinReader.from_names(["xdemineur"]), "exact",
                      config).play()
    if cut:
        assert result.outcome == "aborted"
        assert "cut at its right side" in result.reason
        assert "9 rows x 11 columns" in result.reason
        assert not mouse.clicks
    else:  # the whole board is played (a still screenshot: the clicks change nothing)
        assert mouse.clicks


REACT = "react-minesweeper/window"
CAVE = "cave-sweeper/screen"


@pytest.mark.parametrize("png, message, clicks", [
    (f"{REACT}/cut_right_30x16.png", "cut at its right side .16 rows x 26 columns", 0),
    (f"{REACT}/cut_bottom_30x16.png", "cut at its bottom side .15 rows x 30 columns", 0),
    (f"{REACT}/cut_left_30x16.png", "cut at its left side .16 rows x 25 columns", 0),
    (f"{REACT}/whole_30x16.png", "changed nothing", 2),  # not cut: a right-click comes
    # (and the same again, held on its square: a game that reads the pointer per frame)
    # cave-sweeper's window moved until 6 px of its 14th row of 38-px squares showed at
    # the screen's bottom: before, taken for a board of 13 rows (calibration went on,
    # stopped only by this game's flag being on the middle button)
    (f"{CAVE}/bottom_6px_off_15x15.png",
     r"board \(13 rows x 15 columns show\) reaches the screen's bottom", 0),
    (f"{CAVE}/whole_15x15.png", "changed nothing", 2),
])
def test_calibrate_stops_before_a_click_on_a_cut_board(png: str, message: str,
                                                       clicks: int) -> None:
    """Real captures of a browser game whose window cuts its 30x16 board, and of a
    tk game's window partly off the screen."""
    image = cv2.imread(str(FIXTURES / png))
    assert image is not None
    fake = Blank(image)
    with pytest.raises(CalibrationError, match=message):
        LiveCalibrator(fake, fake, LiveOptions(redraw_timeout=0.3)).run()
    assert len(fake.clicks) == clicks


def test_replay_warns_of_a_cut_board(tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    """``replay`` reads the part that shows, and says on stderr that the board is cut;
    of the whole capture it says nothing."""
    from bot.cli import main

    whole = FIXTURES / "winmine" / "intermediate_playing.png"
    image = cv2.imread(str(whole))
    assert image is not None
    cv2.imwrite(str(tmp_path / "cut.png"), cut_right(image))
    assert main(["replay", "--skin", "winmine", str(tmp_path / "cut.png")]) == 0
    out = capsys.readouterr()
    assert "winmine, 15x16" in out.out
    assert "cut at its right side (16 rows x 15 columns show" in out.err
    assert main(["replay", "--skin", "winmine", str(whole)]) == 0
    out = capsys.readouterr()
    assert "winmine, 16x16" in out.out and out.err == ""


def between_lines(image: Image, side: str) -> Image:
    """The screenshot cut by the screen's ``side`` edge exactly between the board's
    first two (left, top) or last two (right, bottom) lines of squares: a window moved
    partly off the screen, with nothing of the lost line showing."""
    g = find_lattice(image)
    if side == "left":
        return image[:, round(g.col_left(1)):]
    if side == "right":
        return image[:, :round(g.col_left(g.cols - 1))]
    if side == "top":
        return image[round(g.row_top(1)):]
    return image[:round(g.row_top(g.rows - 1))]


@pytest.mark.parametrize("side", ["left", "right", "top", "bottom"])
def test_play_stops_at_a_board_cut_between_lines_by_the_screen(side: str,
                                                                tmp_path: Path) -> None:
    """At the screen's right or bottom edge, a board cut between two lines stops play
    before a click. At its left or top edge it is read as shown (a window with no window
    manager opens at (0, 0), and some games draw their board from the window's corner):
    here the cut line's mines are missing, so the numbers shown cannot be satisfied, and
    the message says the board reaches that edge."""
    image: Image = cv2.imread(str(FIXTURES / "xdemineur" / "beginner_start.png"))
    assert image is not None
    screen = FileScreen([between_lines(image, side)])
    mouse = RecordingMouse(size=screen.size())
    config = PlayConfig(games=1, mines=10, redraw_timeout=0.02, bug_dir=tmp_path)
    [result] = Player(screen, mouse, SkinReader.from_names(["xdemineur"]), "exact",
                      config).play()
    if side in ("left", "top"):
        assert "so more of it may lie off the screen" not in result.reason  # (no stop)
        assert "cannot be satisfied" in result.reason and not mouse.clicks
        assert (f"the board reaches the screen's {side} edge: if part of it lies off the "
                "screen, move the game's window fully onto the screen") in result.reason
        return
    assert result.outcome == "aborted"
    assert f"reaches the screen's {side} edge" in result.reason
    shown = "9 rows x 11 columns" if side == "right" else "8 rows x 12 columns"
    assert shown in result.reason
    assert not mouse.clicks


@pytest.mark.parametrize("side", ["right", "bottom"])
def test_calibrate_stops_at_a_board_cut_between_lines_by_the_screen(side: str) -> None:
    image = cv2.imread(str(FIXTURES / "react-minesweeper" / "window" / "whole_30x16.png"))
    assert image is not None
    fake = Blank(between_lines(image, side))
    with pytest.raises(CalibrationError, match=f"reaches the screen's {side} edge"):
        LiveCalibrator(fake, fake, LiveOptions(redraw_timeout=0.3)).run()
    assert not fake.clicks


def sliver_past(image: Image, side: str, shown: int) -> Image:
    """The screenshot cut by the screen's right or bottom edge ``shown`` pixels into the
    board's last line of squares: a window moved just short of the screen's edge."""
    g = find_lattice(image)
    if side == "right":
        return image[:, :round(g.col_left(g.cols - 1)) + shown]
    return image[:round(g.row_top(g.rows - 1)) + shown]


@pytest.mark.parametrize("side", ["right", "bottom"])
@pytest.mark.parametrize("shown", [2, 4, 6])
def test_play_stops_at_a_sliver_of_a_line_at_the_screens_edge(side: str, shown: int,
                                                              tmp_path: Path) -> None:
    """A few pixels of the last line (fewer than a third of a pitch: too few to tell
    from a frame's bevel inside a window) running into the screen's edge: before, the
    board was played as the lines before it, its last line's mines unseen."""
    image: Image = cv2.imread(str(FIXTURES / "xdemineur" / "beginner_start.png"))
    assert image is not None
    screen = FileScreen([sliver_past(image, side, shown)])
    mouse = RecordingMouse(size=screen.size())
    config = PlayConfig(games=1, mines=10, redraw_timeout=0.02, bug_dir=tmp_path)
    [result] = Player(screen, mouse, SkinReader.from_names(["xdemineur"]), "exact",
                      config).play()
    assert result.outcome == "aborted"
    assert f"reaches the screen's {side} edge" in result.reason
    assert ("9 rows x 11 columns" if side == "right" else "8 rows x 12 columns") in result.reason
    assert not mouse.clicks
