"""A window that comes over the game at a win, as minegauler 4.2.0's high-scores table
does at a new best time (a 637x403 lavender table, over the face and the whole board
at 16x16 and 30x16), against the made-up game of tests/vision/calib_synth.py:

* with a window manager the table takes the keyboard focus and Escape closes it; the
  face behind it shows the win (sunglasses). Before, calibrate learned the "won" face
  from the table's lavender (the frame at the win, the table over the face), and play,
  once Escape had closed the table, read the face as neither won nor a restart control
  and stopped ("cannot see how to start a new game");
* with none it opens without the keyboard focus: Escape goes to the game's window,
  and only a click on the table gives it the focus. Before, calibrate pressed Escape
  once, clicked the face's place (on the table: the focus) and gave up ("cannot find
  how to start a new game");
* when calibrate's only win is its last game, what closing the table shows and that
  Escape closes it were never learned (the skin was written before the last restart),
  and play stopped at the first table ("the board disappeared").

Play must close the table and go on, and never click a window over the board that did
not come at the end of its game.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import Look, SynthGame, SynthMouse, SynthScreen, cut, render  # noqa: E402

from bot.calibrate_live import Learned, LiveCalibrator, LiveOptions  # noqa: E402
from bot.loop import PlayConfig, Player  # noqa: E402
from bot.reader import SkinReader  # noqa: E402
from bot.screen import ScreenPoint  # noqa: E402
from solver.cells import COVERED  # noqa: E402
from solver.game import BoardSize, Game  # noqa: E402
from vision.geometry import BoardGeometry, PixelRect  # noqa: E402
from vision.skin import Skin  # noqa: E402
from vision.status import locate_restart, read_status  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

LOOK = Look(pitch_x=24.0, pitch_y=24.0, origin=(60, 110), gap=2)
SIZE = BoardSize(9, 9, 10)
OVER_ALL = PixelRect(0, 0, 430, 370)  # the face, the clock and the whole board


def inside(p: ScreenPoint, r: PixelRect) -> bool:
    return r.left <= p.x < r.left + r.width and r.top <= p.y < r.top + r.height


@dataclass
class ScoresTable(SynthGame):
    """A game that opens a table window over ``box`` at every win (``first_only``: at
    the first, as minegauler at a new best time). ``focus``: it takes
    the keyboard focus when it comes (a window manager gives it), else only at a click
    on it; Escape closes it when it has the focus, and a click on it goes to it, not
    to the game under it."""

    box: PixelRect = OVER_ALL
    focus: bool = True
    table: bool = False
    focused: bool = False
    tables: int = 0
    first_only: bool = False  # the table comes at the first win only (a new best)

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        img = super().grab()
        if self.table:
            draw_table(img, self.box)
        return cut(img, region)

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        if self.table and inside(p, self.box):
            self._pos = p
            self.clicks.append((p, button))
            self.focused = True
            return
        self.focused = False  # (the game's window takes the focus back)
        was = self.status()
        super().click(p, button)
        if was == "playing" and self.status() == "won" and not (self.first_only and self.tables):
            self.table, self.focused = True, self.focus
            self.tables += 1

    def key(self, keys: str) -> None:
        super().key(keys)
        if self.table and self.focused and keys == "Escape":
            self.table = self.focused = False


def draw_table(img: np.ndarray, box: PixelRect) -> None:
    """A high-scores table: a grey window, a header row with column names, one row
    of figures, the rest an empty lavender list."""
    x0, y0, x1, y1 = box.left, box.top, box.left + box.width, box.top + box.height
    img[y0:y1, x0:x1] = (240, 240, 240)
    img[y0 + 8:y1 - 8, x0 + 8:x1 - 8] = (120, 120, 120)
    img[y0 + 9:y1 - 9, x0 + 9:x1 - 9] = (255, 216, 216)
    img[y0 + 9:y0 + 30, x0 + 9:x1 - 9] = (250, 240, 240)
    for i, word in enumerate(("Name", "Time", "3bv", "3bv/s", "Date")):
        cv2.putText(img, word, (x0 + 20 + 80 * i, y0 + 25), cv2.FONT_HERSHEY_PLAIN, 0.9,
                    (0, 0, 0), 1, cv2.LINE_8)
    cv2.putText(img, "1     1.44    58   40.37  2026-11-23", (x0 + 12, y0 + 48),
                cv2.FONT_HERSHEY_PLAIN, 0.9, (0, 0, 0), 1, cv2.LINE_8)


def geometry(name: str = "t") -> BoardGeometry:
    x0, y0 = LOOK.origin
    return BoardGeometry(name, x0, y0, LOOK.pitch_x, LOOK.pitch_y, SIZE.rows, SIZE.cols)


def calibrate(game: SynthGame, size_games: int = 3, **kw: object) -> tuple[Learned, list[str]]:
    log: list[str] = []
    opts = LiveOptions(**{"games": size_games, "max_games": 12, "time_limit": 80.0,  # type: ignore[arg-type]
                          "log": log.append, **kw})
    return LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run(), log


def skin_of(learned: Learned) -> Skin:
    return Skin("t", "test", learned.cell_size, learned.cells, learned.status,
                learned.restart)


def won_screen(seed: int = 5, table: bool = False) -> np.ndarray:
    """A won game as the game's window shows it (the won face), ``table`` over it."""
    game = Game(SIZE, "safe", seed=seed)
    game.open((4, 4))
    assert game.mines is not None
    for r, c in np.argwhere(~game.mines):
        if game.board[r, c] == COVERED:
            game.open((int(r), int(c)))
    assert game.status == "won"
    img = render(game.board, LOOK, "won")
    if table:
        draw_table(img, OVER_ALL)
    return img


def check_win_display(learned: Learned) -> None:
    """The learned skin reads the game's own won face as won, finds the restart
    control in it, and does not take the table for a win or for a control."""
    skin = skin_of(learned)
    g = geometry()
    assert read_status(won_screen(), g, skin) == "won", learned.status
    restart = locate_restart(won_screen(), g, skin)
    face = LOOK.face_rect(SIZE.cols)
    assert restart is not None and inside(ScreenPoint(restart.x, restart.y), face)
    covered = won_screen(table=True)
    assert locate_restart(covered, g, skin) is None


@pytest.fixture(scope="module")
def no_wm() -> tuple[ScoresTable, Learned, list[str]]:
    game = ScoresTable(SIZE, LOOK, rule="safe", seed=3, focus=False)
    learned, log = calibrate(game)
    return game, learned, log


def test_calibrate_closes_a_table_that_takes_no_focus(
        no_wm: tuple[ScoresTable, Learned, list[str]]) -> None:
    game, learned, log = no_wm
    assert "won" in learned.games and game.tables >= 1, log
    assert learned.restart.get("kind") == "click", learned.restart
    assert learned.restart.get("dismiss_keys") == ["Escape"], learned.restart
    assert not game.table  # a fresh game left on the screen, the table closed
    check_win_display(learned)


def test_calibrate_learns_the_won_face_behind_the_table() -> None:
    game = ScoresTable(SIZE, LOOK, rule="safe", seed=3, focus=True)
    learned, log = calibrate(game)
    assert "won" in learned.games and game.tables >= 1, log
    assert learned.status.get("method") == "face", (learned.status, log)
    assert learned.restart.get("dismiss_keys") == ["Escape"], learned.restart
    check_win_display(learned)


def test_a_last_game_won_under_a_table_still_teaches_escape() -> None:
    """Calibration asked to stop once it has seen a win and a loss: its first win, the
    only one with a table (a new best time), is its last game, and the table is
    closed only by the restart after it. The skin must still say that Escape closes
    it and read the face behind it."""
    game = ScoresTable(SIZE, LOOK, rule="safe", seed=3, focus=True, first_only=True)
    learned, log = calibrate(game, size_games=1, want=(), marked_loss=False)
    assert learned.games[-1] == "won" and learned.games.count("won") == 1, log
    assert game.tables == 1 and not game.table
    assert learned.restart.get("dismiss_keys") == ["Escape"], (learned.restart, log)
    check_win_display(learned)


def play(game: ScoresTable, skin: Skin, games: int) -> list[str]:
    notes: list[str] = []

    class Notes:
        def on_board(self, player: object) -> None: ...
        def on_turn(self, *args: object) -> None: ...
        def on_game(self, *args: object) -> None: ...
        def on_note(self, player: object, message: str) -> None:
            notes.append(message)

    config = PlayConfig(games=games, mines=game.size.mines, seed=1, restart_timeout=3.0)
    results = Player(SynthScreen(game), SynthMouse(game), SkinReader([skin]), "exact",
                     config, observer=Notes()).play()  # type: ignore[arg-type]
    return [r.outcome + (f" ({r.reason})" if r.reason else "") for r in results] + notes


@pytest.fixture(scope="module")
def plain() -> Learned:
    """The game's skin learned with no table at all (what calibrate learned before)."""
    learned, log = calibrate(SynthGame(SIZE, LOOK, rule="safe", seed=3))
    assert learned.status.get("method") == "face", log
    return learned


def with_keys(learned: Learned, keys: list[str] | None) -> Skin:
    restart = {k: v for k, v in learned.restart.items() if k != "dismiss_keys"}
    return skin_of(replace(learned, restart=restart if keys is None else
                           {**restart, "dismiss_keys": keys}))


@pytest.mark.parametrize("focus, keys", [(False, ["Escape"]), (True, ["Escape"]),
                                         (True, None), (False, None)],
                         ids=["no-wm", "wm", "wm-no-key", "no-wm-no-key"])
def test_play_closes_the_table_at_every_win(plain: Learned, focus: bool,
                                            keys: list[str] | None) -> None:
    """Play with the skin, the table at every win. With no key to close a window
    learned (a calibration that met none), a window over the whole board right at a
    win gets Escape all the same; one that takes no focus, a click first."""
    game = ScoresTable(SIZE, LOOK, rule="safe", seed=50, focus=focus)
    out = play(game, with_keys(plain, keys), 6)
    assert not any(o.startswith("aborted") for o in out[:6]), out
    assert game.tables >= 2 and game.games == 6, out  # each new game started


@dataclass
class WindowMidGame(ScoresTable):
    """Another program's window comes over the whole board in the middle of a game
    (on the screen's next frame after ``after`` clicks on the board) and stays."""

    after: int = 6
    board_clicks: int = 0
    came: int | None = None  # the number of clicks (and keys) sent when it came

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        if not self.table and self.cell_at(p) is not None:
            self.board_clicks += 1
        super().click(p, button)

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        if self.came is None and self.board_clicks > self.after and \
                self.status() == "playing":
            self.table, self.focused, self.came = True, False, len(self.clicks)
        return super().grab(region)


def test_a_window_that_comes_mid_game_is_never_clicked(plain: Learned) -> None:
    skin = with_keys(plain, ["Escape"])
    game = WindowMidGame(SIZE, LOOK, rule="safe", seed=50, focus=False, after=1)
    out = play(game, skin, 3)
    assert game.came is not None, out
    assert out[-1].startswith("aborted") or any(o.startswith("aborted") for o in out), out
    later = game.clicks[game.came:]
    assert not [c for c in later if not c[1].startswith("key:") and inside(c[0], game.box)], \
        (later, out)


DESKTOP = (165, 110, 58)  # (BGR) the desktop round the game's window
WINDOW = PixelRect(20, 20, 600, 520)  # the game's window on the 640 x 560 screen


@dataclass
class CrashAtWin(SynthGame):
    """A game whose window shows on a desktop, and which crashes at its first win: its
    window is gone, the desktop shows where it was (minegauler 4.2.0 under a batch of
    queued clicks: it re-enters its click handler until Python's recursion limit)."""

    crashed_after: int | None = None  # the clicks (and keys) sent when it crashed

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        img = super().grab()
        if self.crashed_after is not None:
            img[:] = DESKTOP
        else:
            w = WINDOW
            inner = img[w.top:w.top + w.height, w.left:w.left + w.width].copy()
            img[:] = DESKTOP
            img[w.top:w.top + w.height, w.left:w.left + w.width] = inner
        return cut(img, region)

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        if self.crashed_after is not None:
            self.clicks.append((p, button))
            return
        super().click(p, button)
        if self.status() == "won":
            self.crashed_after = len(self.clicks)


def test_a_game_gone_at_its_win_is_not_called_won(plain: Learned) -> None:
    """The game's window vanished as its last safe squares were clicked (a crash):
    the desktop where the board was is no win message. Before: the game was called won,
    and play clicked the desktop twice to give "the window over the board" the focus."""
    game = CrashAtWin(SIZE, LOOK, rule="safe", seed=50)
    out = play(game, with_keys(plain, ["Escape"]), 3)
    assert game.crashed_after is not None, out
    assert out[0].startswith("aborted (the game's window is gone"), out
    assert not [c for c in game.clicks[game.crashed_after:] if not c[1].startswith("key:")], out


def test_a_win_under_the_table_is_not_looked_for_elsewhere(
        plain: Learned, monkeypatch: pytest.MonkeyPatch) -> None:
    """With every safe square open, a window over the board is the win's: play goes on
    without a full-screen search for the board first (behind gnome-mines' scores
    dialog that took seconds, on a loaded machine ten, at every such win)."""
    import inspect

    searched_at_win: list[str] = []
    locate = Player._locate_now

    def located(self: Player) -> BoardGeometry:
        caller = inspect.stack()[1].function
        if caller == "_find_again":
            searched_at_win.append(caller)
        return locate(self)

    monkeypatch.setattr(Player, "_locate_now", located)
    game = ScoresTable(SIZE, LOOK, rule="safe", seed=50, focus=True)
    out = play(game, with_keys(plain, ["Escape"]), 4)
    assert out[:4] == ["won"] * 4 and game.tables >= 2, out
    assert not searched_at_win, out


@dataclass
class LateTable(ScoresTable):
    """A table that comes ``late`` s after the win (kmines' scores dialog: up to 0.4 s
    after it), not at the win's own frame; ``at_loss``: at a loss instead (a window
    of another program, say)."""

    late: float = 0.3
    at_loss: bool = False
    ended_at: float | None = None  # when the game ended (a win, or a loss with at_loss)
    sent_at_end: int = 0  # the clicks (and keys) sent up to the last game's end

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        was = self.status()
        super().click(p, button)
        if was == "playing" and self.status() in ("won", "lost"):
            self.sent_at_end = len(self.clicks)
            if self.table or (self.at_loss and self.status() == "lost"):
                self.table, self.ended_at = False, time.monotonic()

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        if self.ended_at is not None and time.monotonic() - self.ended_at >= self.late:
            self.table, self.ended_at = True, None
            self.focused = self.focus
        return super().grab(region)


@pytest.mark.parametrize("late", [0.0, 0.3], ids=["at-the-win", "late"])
def test_a_table_over_the_last_game_is_closed(plain: Learned, late: float) -> None:
    """A window the game opens over the board at (or a moment after) the end of play's
    last game is closed as between games: left there, it hid the board from the next
    run of play (kmines' "new high score" dialog: "no Minesweeper board")."""
    game = LateTable(SIZE, LOOK, rule="safe", seed=50, focus=True, late=late)
    out = play(game, with_keys(plain, ["Escape"]), 2)
    assert out[:2] == ["won", "won"] and game.tables == 2, out
    assert not game.table and game.ended_at is None, out
    assert game.clicks[-1] == (game._pos, "key:Escape"), out[-3:]


@pytest.mark.parametrize("focus", [True, False], ids=["wm", "no-wm"])
def test_a_table_at_the_last_win_is_closed_without_keys(plain: Learned, focus: bool) -> None:
    """With no key learned, a window over the whole board at once at a win at the
    last batch gets Escape (and, taking no focus, a click first), as between games."""
    game = LateTable(SIZE, LOOK, rule="safe", seed=50, focus=focus, late=0.0)
    out = play(game, with_keys(plain, None), 1)
    assert out[:1] == ["won"] and game.tables == 1, out
    assert not game.table, out


def test_nothing_is_pressed_after_a_last_loss_without_keys(plain: Learned) -> None:
    """A skin that names no key closing a window: a window that comes over the middle
    of the board after a last game lost is no window of the game's end (another
    program's, say): play presses no key and clicks nothing once its last game is
    over."""
    for seed in range(50, 70):  # (a seed whose game is lost: 30 mines in 81 squares)
        game = LateTable(BoardSize(9, 9, 30), LOOK, rule="safe", seed=seed, focus=True,
                         late=0.5, at_loss=True, box=PixelRect(100, 150, 150, 120))
        out = play(game, with_keys(plain, None), 1)
        if out[:1] == ["lost"]:
            break
    assert out[:1] == ["lost"], out
    time.sleep(0.6)
    game.grab()  # (the window comes, if play did not wait for it)
    assert game.table and game.clicks[game.sent_at_end:] == [], out
