"""The play loop at a game's end, when the game covers (part of) its board.

kmines (KDE) shows a message over the middle of the board at each game's end that goes
by itself after a few seconds, stays over the next game's fresh board meanwhile, and
after some wins opens a modal scores dialog over part of the board and its frame that
only Escape closes (leaving no window with the keyboard focus). A locator looking at a
board partly covered finds something else: a board one row up (kmines' window
background reads as a row of 0s) or the rows above the dialog. Play must wait for the
message, close the dialog, never take such a board, never click outside the board and
play every game asked, whether or not it foresaw the win.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
from simgame import PITCH, STATUS_LEVEL, SimReader, SimScreen, level, sim_mouse

from bot.loop import PlayConfig, Player
from bot.mouse import Button, RecordingMouse
from bot.screen import Image, ScreenPoint
from solver.cells import COVERED, EXPLODED, MINE, UNKNOWN, Board
from solver.game import BoardSize
from solver.strategy import Decision
from vision.geometry import BoardGeometry

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

COVER = 77  # not a square's level: unreadable


class CoveringScreen(SimScreen):
    """A simulated kmines: no face, a new game by ctrl+n, a message over rows 3-4 for
    ``message_s`` seconds after each game's end, and (``dialog``) after each win a
    modal dialog (it takes every key and click from the win on) drawn over rows 4 and
    below and the frame ``dialog_delay_s`` after the win, until Escape."""

    def __init__(self, size: BoardSize, seed: int, message_s: float = 0.8,
                 dialog: bool = True, dialog_delay_s: float = 0.0,
                 mines_late_s: float = 0.0, fade_s: float = 0.0,
                 hit_first: int = COVER) -> None:
        self.stuck = False
        super().__init__(size, seed=seed)
        self.mines_late_s, self.lost_at, self.fade_s = mines_late_s, 0.0, fade_s
        self.hit_first = hit_first  # how the hit square looks before the mines are drawn
        self.restart_key = "ctrl+n"
        self.message_s, self.dialog, self.dialog_delay_s = message_s, dialog, dialog_delay_s
        self.message_until = 0.0
        self.dialog_at = 0.0  # when the dialog is drawn
        self.dialog_up = False  # modal, drawn or not
        self.dialogs = 0
        self._ended: set[int] = set()
        self.ignored: list[ScreenPoint] = []  # clicks a modal dialog swallowed

    def _game_end(self, now: float) -> None:
        """Start the message (and schedule the dialog) once per ended game."""
        if self.game.status == "playing" or id(self.game) in self._ended:
            return
        self._ended.add(id(self.game))
        self.message_until = now + self.message_s
        self.lost_at = now if self.game.status == "lost" else 0.0
        if self.dialog and self.game.status == "won":
            self.dialog_up, self.dialog_at = True, now + self.dialog_delay_s
            self.dialogs += 1

    def render(self) -> Image:
        now = time.monotonic()
        self._game_end(now)
        image = super().render()
        x, y, b = self.left, self.top, self.board_size
        right = x + b.cols * PITCH
        image[y - 30:y - 20, x:x + 10] = 0  # no face
        image[y - PITCH:y - 1, x:right] = level(0)  # window background that reads as 0s
        if self.game.status == "lost" and now < self.lost_at + self.mines_late_s:
            self._hide_mines(image)
        if self._fading(now):  # reads as the squares under it but two, and changes
            image[y + 3 * PITCH:y + 5 * PITCH:PITCH, x:right:PITCH] = int(now * 1000) % 50
            for c in (3, 5):
                image[y + 4 * PITCH + PITCH // 2, x + c * PITCH + PITCH // 2] = COVER
        if now < self.message_until:
            image[y + 3 * PITCH:y + 5 * PITCH, x:right] = COVER
            image[y - 30:y - 20, x:x + 10] = STATUS_LEVEL["won"]  # a win display learned
            # from a dialog's title, that any message or dialog matches
            image[y - 1, x - 1] = level(0)
            image[y - 1 - PITCH, x - 1] = (b.cols, b.rows, 255)  # a board one row up
        if self.dialog_up and now >= self.dialog_at:
            image[y + 4 * PITCH:y + b.rows * PITCH + 20, x - 10:right + 10] = COVER
            image[y - 1, x - 1] = (b.cols, 4, 255)  # the rows above the dialog
        return image

    def _hide_mines(self, image: Image) -> None:
        """A loss as kmines draws it first: the hit square in a look of its own, the
        other mines still covered."""
        board = self.game.board
        for r, c in np.argwhere((board == MINE) | (board == EXPLODED)).tolist():
            x, y = self.left + c * PITCH, self.top + r * PITCH
            image[y:y + PITCH, x:x + PITCH] = self.hit_first if board[r, c] == EXPLODED \
                else level(COVERED)

    def _fading(self, now: float) -> bool:
        return self.message_until <= now < self.message_until + self.fade_s

    def new_game(self) -> None:
        super().new_game()
        self.stuck = False

    def key(self, keys: str) -> None:
        now = time.monotonic()
        self._game_end(now)
        if self.dialog_up:  # a modal dialog takes every key
            if keys == "Escape":
                self.dialog_up = False
                self.focused = False  # and leaves no window focused
            return
        fading = self._fading(now)
        super().key(keys)
        if keys == self.restart_key and fading:
            self.stuck = True  # the faded message keeps the clicks on rows 3-4

    def click(self, p: ScreenPoint, button: Button) -> None:
        self._game_end(time.monotonic())
        row = (int(p.y) - self.top) // PITCH
        if self.dialog_up or (self.stuck and row in (3, 4)):
            self.ignored.append(p)
            return
        super().click(p, button)


def play(screen: CoveringScreen, tmp_path: Path, games: int) -> tuple[list[str], list[str],
                                                                       RecordingMouse]:
    reader = SimReader()
    reader.restart_keys = ("ctrl+n",)
    mouse = sim_mouse(screen)
    config = PlayConfig(games=games, redraw_timeout=0.2, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0)
    results = Player(screen, mouse, reader, "csp", config).play()
    truth = [g.status for g in screen.finished] + [screen.game.status]
    for r in results:
        assert r.outcome != "aborted", r.reason
    return [r.outcome for r in results], truth, mouse


def on_board(screen: SimScreen, p: ScreenPoint) -> bool:
    b = screen.board_size
    return (screen.left <= p.x < screen.left + b.cols * PITCH
            and screen.top <= p.y < screen.top + b.rows * PITCH)


@pytest.mark.parametrize("dialog", [False, True])
def test_every_game_is_played_through_the_covers(tmp_path: Path, dialog: bool) -> None:
    screen = CoveringScreen(BoardSize.parse("beginner"), seed=6, message_s=0.8, dialog=dialog)
    outcomes, truth, mouse = play(screen, tmp_path, games=6)
    assert outcomes == truth and len(outcomes) == 6
    assert "won" in truth
    assert all(a.point is not None and on_board(screen, a.point) for a in mouse.clicks)
    assert not screen.dialog_up or outcomes[-1] == "won"
    if dialog:
        assert screen.dialogs >= 1


def test_a_dialog_drawn_late_is_closed_before_the_next_game(tmp_path: Path) -> None:
    """The dialog comes after play has seen the win (and may have pressed the key)."""
    screen = CoveringScreen(BoardSize.parse("beginner"), seed=5, message_s=0.0,
                            dialog_delay_s=0.15)
    outcomes, truth, mouse = play(screen, tmp_path, games=5)
    assert outcomes == truth and len(outcomes) == 5
    assert screen.dialogs >= 1
    assert all(a.point is not None and on_board(screen, a.point) for a in mouse.clicks)


class NoExplodedReader(SimReader):
    """A calibrated skin that never saw the exploded mine: that square does not read."""

    def read(self, image: Image, geometry: BoardGeometry) -> Board:
        board = super().read(image, geometry)
        board[board == EXPLODED] = UNKNOWN
        return board


def test_a_single_unreadable_square_is_no_cover(tmp_path: Path) -> None:
    """After a loss, the one square the skin cannot name is not taken for a dialog:
    no Escape is pressed, and the next game starts."""
    screen = CoveringScreen(BoardSize.parse("beginner"), seed=6, message_s=0.0, dialog=False)
    reader = NoExplodedReader()
    reader.restart_keys = ("ctrl+n",)
    mouse = sim_mouse(screen)
    config = PlayConfig(games=5, redraw_timeout=0.2, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0)
    results = Player(screen, mouse, reader, "csp", config).play()
    truth = [g.status for g in screen.finished] + [screen.game.status]
    assert [r.outcome for r in results] == truth and "lost" in truth[:-1]
    assert not [a for a in mouse.actions if a.kind == "key" and a.keys == "Escape"]


def test_a_loss_under_the_message_is_no_win(tmp_path: Path) -> None:
    """A loss drawn in steps under the game's message, while the learned win display
    matches the message: the loss is reported, never a win."""
    screen = CoveringScreen(BoardSize.parse("beginner"), seed=6, dialog=False,
                            mines_late_s=0.3)
    outcomes, truth, mouse = play(screen, tmp_path, games=5)
    assert outcomes == truth and "lost" in truth


def test_the_next_game_waits_until_the_message_has_faded(tmp_path: Path) -> None:
    """kmines' message fades out: it then reads as the squares under it (but for a
    square or two), and a game started before the fade ends takes no click where the
    message was."""
    screen = CoveringScreen(BoardSize.parse("beginner"), seed=6, message_s=0.3,
                            dialog=False, fade_s=0.7)
    outcomes, truth, mouse = play(screen, tmp_path, games=5)
    assert outcomes == truth and not screen.ignored


def test_a_loss_whose_hit_square_first_looks_opened_is_no_win(tmp_path: Path) -> None:
    """kmines draws the hit square first in a look the skin reads as an opened square,
    the mines 0.1 s later: a last guess between a safe square and a mine that hits the
    mine first looks like a win (only as many squares covered as mines). A win seen
    right after a guess is looked at again."""
    screen = CoveringScreen(BoardSize.parse("beginner"), seed=6, message_s=0.0,
                            dialog=False, mines_late_s=0.2, hit_first=level(1))

    class LastGuessLoses:
        """Opens every safe square but one (certain), then guesses a mine."""

        name = "last-guess-loses"

        def decide(self, board: Board, mines: int, rng: object) -> Decision:
            truth = screen.game.mines
            covered = board == COVERED
            if truth is None:
                return Decision(open=((4, 4),), risk=0.5)
            safe = [(int(r), int(c)) for r, c in np.argwhere(covered & ~truth)]
            if len(safe) > 1:
                return Decision(open=tuple(safe[1:]), risk=0.0)
            mine = next((int(r), int(c)) for r, c in np.argwhere(covered & truth))
            return Decision(open=(mine,), risk=0.5)

    reader = SimReader()
    reader.restart_keys = ("ctrl+n",)
    config = PlayConfig(games=1, redraw_timeout=0.2, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0)
    [result] = Player(screen, sim_mouse(screen), reader, LastGuessLoses(), config).play()
    assert screen.game.status == "lost" and result.outcome == "lost"
