"""Live calibration of a game that ends the way alex-obada's Java MineSweeper does
(tried as a new user, 3 Dec), against the made-up game of tests/vision/calib_synth.py:

* at a loss it shows its whole board, every mine and every number, and in the same
  frame a modal "Game Over" dialog over the middle of the board: a window of its own,
  whose flat inside has the colour of an opened square. The mine clicked may lie under
  it. Return starts the next game;
* at a win, which needs every mine flagged, the same kind of dialog says "Congrats!".

The window system tells where such a dialog is (``GuardedMouse.windows_over``: here the
made-up mouse's window, as :class:`bot.windows.X11Window` on X11). Before, calibration
saw neither dialog by its look. It took the squares under the loss's dialog for a board
gone and called a third of its losses won; the whole board shown read as one opened
region and the loss went unread; and the dialog's flat inside and title were named
mines. And play, at a win, waited for the board under the dialog to show and pressed
Return, which started the next game: its covered squares read as opened ones gone, and
play stopped.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import (  # noqa: E402
    Look,
    RecordsOutcomes,
    SynthGame,
    SynthMouse,
    SynthScreen,
    cut,
    render,
)

from bot.calibrate_live import Learned, LiveCalibrator, LiveOptions  # noqa: E402
from bot.loop import PlayConfig, Player  # noqa: E402
from bot.reader import SkinReader  # noqa: E402
from bot.screen import ScreenPoint  # noqa: E402
from solver.cells import EXPLODED, MINE, UNKNOWN  # noqa: E402
from solver.game import BoardSize, Game  # noqa: E402
from vision.calibrate import adjacent_count, read_cells  # noqa: E402
from vision.geometry import BoardGeometry, PixelRect  # noqa: E402
from vision.skin import Skin  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

LOOK = Look(pitch_x=24.0, pitch_y=24.0, origin=(60, 110), gap=2, size=(560, 560))
DIALOG = (156, 182, 216, 96)  # x, y, width, height: rows 3-6, columns 4-12


def whole_board(game: Game) -> np.ndarray:
    """The board as the Java game shows it at a loss: every mine, the one hit
    exploded, every other square's number."""
    assert game.mines is not None
    board = adjacent_count(game.mines).astype(np.int8)
    board[game.mines] = MINE
    board[game.board == EXPLODED] = EXPLODED
    return board


def draw_dialog(img: np.ndarray, opened: tuple[int, int, int]) -> None:
    """A dialog window on the squares' lines (its sides no steps across squares): a
    grey border, a title bar, a flat inside of the opened squares' colour (squares
    wholly under it all look alike), a short line of text and a button."""
    x, y, w, h = DIALOG
    img[y:y + h, x:x + w] = (120, 120, 120)
    img[y + 1:y + h - 1, x + 1:x + w - 1] = opened
    img[y + 1:y + 9, x + 1:x + w - 1] = (200, 150, 110)
    cv2.putText(img, "Over", (x + 74, y + 40), cv2.FONT_HERSHEY_PLAIN, 0.8,
                (0, 0, 0), 1, cv2.LINE_8)
    img[y + h - 19:y + h - 7, x + 101:x + 115] = (200, 200, 200)


@dataclass
class JavaEnding(RecordsOutcomes, SynthGame):
    """A game that shows its whole board and a dialog window at once at a loss, the
    dialog alone at a win; only Return (with a new game) closes it, and it takes every
    click meanwhile."""

    def ended(self) -> bool:
        return self.status() != "playing"

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        board = whole_board(self.game) if self.game.status == "lost" else self.game.board
        img = render(board, self.look, "playing", 0)
        if self.ended():
            draw_dialog(img, self.look.opened)
        return cut(img, region)

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        if self.ended():
            self.clicks.append((p, button))
        else:
            super().click(p, button)

    def key(self, keys: str) -> None:
        super().key(keys)
        if keys == "Return" and self.ended():
            self.new_game()


class DialogWindow:
    """The game's window as the window system tells of it: the dialog stacked over it
    while a game has ended."""

    def __init__(self, game: JavaEnding) -> None:
        self.game = game

    def present(self) -> bool:
        return True

    def over(self, area: tuple[float, float, float, float]) -> list[tuple[int, ...]]:
        return [DIALOG] if self.game.ended() else []


class WindowMouse(SynthMouse):
    def window_at(self, p: ScreenPoint) -> DialogWindow:
        assert isinstance(self.game, JavaEnding)
        return DialogWindow(self.game)


SIZE = BoardSize(16, 16, 40)


@pytest.fixture(scope="module")
def calibrated() -> tuple[Learned, list[str], list[str]]:
    """The skin learned on the made-up game, the games as calibration called them, as
    they ended, and its log."""
    log: list[str] = []
    game = JavaEnding(SIZE, LOOK, rule="safe", seed=5, win_needs_flags=True)
    opts = LiveOptions(games=4, max_games=14, time_limit=120.0, seed=1, mines=40,
                       restart_keys=("Return",), log=log.append)
    result = LiveCalibrator(SynthScreen(game), WindowMouse(game), opts).run()
    return result, game.outcomes(), log


def test_a_loss_shown_whole_with_a_dialog_window_over_it(
        calibrated: tuple[Learned, list[str], list[str]]) -> None:
    result, truth, log = calibrated
    assert result.games == truth[:len(result.games)], log
    assert {"won", "lost"} <= set(result.games), log
    assert result.status.get("win_needs_flags"), log
    # the templates read a whole lost board, every mine and number, and name no
    # piece of the dialog a mine
    played = Game(SIZE, "safe", seed=77)
    played.open((8, 8))
    assert played.mines is not None
    mine = np.argwhere(played.mines)[0]
    played.open((int(mine[0]), int(mine[1])))
    shown = whole_board(played)
    read = read_cells(render(shown, LOOK, "playing"), geometry(SIZE), result.cells)
    known = read != UNKNOWN
    assert known.mean() > 0.9, read
    assert (read[known] == shown[known]).all(), (read, shown)
    dialog = render(shown, LOOK, "playing")
    draw_dialog(dialog, LOOK.opened)
    under = read_cells(dialog, geometry(SIZE), result.cells)
    assert not np.isin(under[~np.isin(shown, (MINE, EXPLODED))], (MINE, EXPLODED)).any(), under


class Quiet:
    def on_board(self, player: Player) -> None: ...
    def on_turn(self, *args: object) -> None: ...
    def on_game(self, *args: object) -> None: ...
    def on_note(self, *args: object) -> None: ...


def test_play_takes_a_dialog_window_after_the_last_flag_for_the_win(
        calibrated: tuple[Learned, list[str], list[str]]) -> None:
    learned = calibrated[0]
    skin = Skin("java", "test", learned.cell_size, learned.cells, learned.status,
                learned.restart)
    game = JavaEnding(SIZE, LOOK, rule="safe", seed=40, win_needs_flags=True)
    config = PlayConfig(games=6, mines=SIZE.mines, seed=2, restart_timeout=4.0)
    results = Player(SynthScreen(game), WindowMouse(game), SkinReader([skin]), "exact",
                     config, observer=Quiet()).play()  # type: ignore[arg-type]
    outcomes = [r.outcome for r in results]
    assert outcomes == game.outcomes()[:len(outcomes)], [(r.outcome, r.reason)
                                                         for r in results]
    assert len(outcomes) == 6 and "won" in outcomes, [(r.outcome, r.reason) for r in results]


def geometry(size: BoardSize) -> BoardGeometry:
    x0, y0 = LOOK.origin
    return BoardGeometry("", x0, y0, LOOK.pitch_x, LOOK.pitch_y, size.rows, size.cols)
