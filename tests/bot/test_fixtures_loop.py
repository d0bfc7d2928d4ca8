"""The real loop on the recorded screenshots of xdemineur and gnome-mines, with a
recording mouse: every click lands on a board square (opening and flagging clicks on
covered squares, chords on numbers); a finished game is recognised as over before any
move, and the only click then is on the game's own new-game control (play starts a new
game rather than count one it did not play)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.loop import Observer, PlayConfig, Player
from bot.mouse import RecordingMouse
from bot.reader import SkinReader
from bot.screen import FileScreen, ScreenPoint
from solver.cells import COVERED, QUESTION
from solver.textboard import parse_board, parse_comments

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CASES = sorted(p for skin in ("xdemineur", "gnome-mines") for p in (FIXTURES / skin).glob("*.png"))


def expected(png: Path) -> tuple[object, dict[str, str]]:
    text = png.with_suffix(".board").read_text()
    return parse_board(text), parse_comments(text)


def reader_for(skin: str) -> SkinReader:
    """The real reader for one skin (the fixture's folder names its game)."""
    from vision.skin import available_skins

    assert skin in available_skins(), f"the shipped {skin} skin is missing"
    return SkinReader.from_names([skin])


@pytest.mark.parametrize("png", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_loop_clicks_only_covered_squares(png: Path, tmp_path: Path) -> None:
    board, info = expected(png)
    screen = FileScreen([png])
    mouse = RecordingMouse(size=screen.size())
    config = PlayConfig(games=1, mines=int(info["mines"]), redraw_timeout=0.02,
                        restart_timeout=0.1, bug_dir=tmp_path)
    notes: list[str] = []
    reader = reader_for(png.parent.name)
    [result] = Player(screen, mouse, reader, "exact", config, NoteKeeper(notes)).play()
    status = info["status"]
    x_range, y_range = (tuple(int(v) for v in part.split("=")[1].split(".."))
                        for part in info["cells"].split())
    if status in ("won", "lost") and reads_exactly(png, board):
        assert notes[0] == f"the game on the screen is already {status}: starting a new one"
        # (no new game came: the skin's dismiss keys, once, for a dialog left over)
        assert all(n.startswith("no new game came: pressing") for n in notes[1:]), notes
        restart = restart_point(png, reader)
        # a still screenshot shows no new game: play stops, counting no game as played
        if restart is None:  # (a dialog hides the control: its keys change nothing here)
            assert not mouse.clicks and "cannot see how to start" in result.reason, result
        else:
            assert mouse.clicks and all(a.point == restart and a.button == "left"
                                        for a in mouse.clicks), mouse.clicks
            # (and off the board's squares, by the fixture's measured cell box)
            assert not (x_range[0] <= restart.x < x_range[1]
                        and y_range[0] <= restart.y < y_range[1]), restart
            assert "no new game" in result.reason, result
        assert result.outcome == "aborted" and not result.moves, result
        return
    rows, cols = board.shape  # type: ignore[attr-defined]
    pitch_x = (x_range[1] - x_range[0]) / cols
    pitch_y = (y_range[1] - y_range[0]) / rows
    for action in mouse.clicks:
        assert action.point is not None
        x, y = action.point
        assert x_range[0] <= x < x_range[1] and y_range[0] <= y < y_range[1], action
        cell = (int((y - y_range[0]) // pitch_y), int((x - x_range[0]) // pitch_x))
        value = int(board[cell])  # type: ignore[index]
        if action.button == "right" or (action.button == "left" and value < 0):
            assert value in (COVERED, QUESTION), f"{action.button} click on {cell}, a {value}"
        else:  # a chord: on a number
            assert value > 0, f"{action.button} click on {cell}, a {value}"
    if not reads_exactly(png, board):
        # the reader cannot name every square of this screenshot (its own tests say
        # which): the loop must not click it; it may still see that the game is over
        assert not mouse.clicks
        if result.outcome != status:
            assert result.outcome == "aborted" and "could not read" in result.reason, result
    else:
        # a still screenshot: the bot clicks, sees nothing change, and stops cleanly
        assert mouse.clicks, result
        assert result.outcome == "aborted"
        assert "no effect" in result.reason or "shows no flag" in result.reason, result


class NoteKeeper(Observer):
    """Keeps what play tells the user (its notes)."""

    def __init__(self, notes: list[str]) -> None:
        self.notes = notes

    def on_note(self, player: Player, message: str) -> None:
        self.notes.append(message)


def restart_point(png: Path, reader: SkinReader) -> ScreenPoint | None:
    """Where the skin's new-game control is on this screenshot (screen = image here)."""
    import cv2

    image = cv2.imread(str(png))
    found = reader.restart(image, reader.locate(image))
    if found is None or found.point is None:
        return None
    return ScreenPoint(found.point.x, found.point.y)


def reads_exactly(png: Path, board: object) -> bool:
    """Does vision read this fixture exactly (locate + read, as the loop does)?"""
    import cv2
    import numpy as np

    from vision.locate import BoardNotFound, locate_board
    from vision.read import read_board
    from vision.skin import load_skin

    skin = load_skin(png.parent.name)
    image = cv2.imread(str(png))
    try:
        g = locate_board(image, [skin])
    except BoardNotFound:
        return False
    read = read_board(image, g, skin)
    return read.shape == board.shape and bool(np.array_equal(read, board))  # type: ignore[attr-defined]
