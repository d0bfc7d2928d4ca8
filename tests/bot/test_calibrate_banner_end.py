"""A game that ends by filling its whole window with a message, like minesweeper-mvc
(PyPI): "YOU WIN!" or "YOU LOSE!" on a plain background for 5 s, its mines never
shown, then a menu whose button starts the next game; the first click is safe.

Before, calibrate took every loss for a win (no square read, none covered: "only
mines left"), so it named no number, and, the message taking no click, found no way
to start the next game; play stopped at the first loss ("the board disappeared").
Now a board replaced after a guess that could not open every safe square is a loss
(numbers then named by the consistency of the frames of play), the message is waited
out before the restart is looked for, and the skin keeps the loss's message, which
play reads. Every outcome must be the game's own."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "vision"))

from calib_synth import (  # noqa: E402
    GoneOnQuit,
    Look,
    SynthGame,
    SynthMouse,
    SynthScreen,
    cut,
    render,
)

from bot.calibrate_live import CalibrationError, Learned, LiveCalibrator, LiveOptions  # noqa: E402
from bot.loop import PlayConfig, Player  # noqa: E402
from bot.reader import SkinReader  # noqa: E402
from bot.screen import ScreenPoint  # noqa: E402
from solver.cells import COVERED, EXPLODED, MINE  # noqa: E402
from solver.game import BoardSize  # noqa: E402
from vision.geometry import PixelRect  # noqa: E402
from vision.skin import Skin  # noqa: E402

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

LOOK = Look(pitch_x=24.0, pitch_y=24.0, origin=(40, 110), gap=2)
SIZE = BoardSize(9, 9, 10)
SHOWN = 1.5  # seconds the end's message stays (minesweeper-mvc: 5)
PALE = (238, 248, 240)
BUTTON = PixelRect(120, 200, 110, 40)  # the menu's button, where the board was


class BannerGame(SynthGame):
    """See the module's text. ``outcomes`` keeps how each game ended, as the game
    itself knows it."""

    outcomes: list[str]
    shown_until: float
    menu: bool
    shown = SHOWN

    def new_game(self) -> None:
        if not hasattr(self, "outcomes"):
            self.outcomes, self.shown_until, self.menu = [], 0.0, False
        self.menu = False
        super().new_game()

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        self.ticks += 1
        status = self.game.status
        if status == "playing":
            board = np.where(np.isin(self.game.board, (MINE, EXPLODED)), COVERED,
                             self.game.board).astype(np.int8)
            return cut(render(board, self.look, "playing", self.ticks // 7), region)
        w, h = self.look.size
        img = np.full((h, w, 3), PALE, np.uint8)
        if time.monotonic() < self.shown_until:
            text, colour = ("YOU WIN!", (40, 160, 40)) if status == "won" else \
                ("YOU LOSE!", (60, 60, 220))
            cv2.putText(img, text, (90, 230), cv2.FONT_HERSHEY_SIMPLEX, 1.2, colour, 3)
        else:
            self.menu = True
            b = BUTTON
            img[b.top:b.top + b.height, b.left:b.left + b.width] = (150, 110, 70)
            cv2.putText(img, "MEDIUM", (b.left + 8, b.top + 28), cv2.FONT_HERSHEY_SIMPLEX,
                        0.8, (255, 255, 255), 2)
        return cut(img, region)

    def click(self, p: ScreenPoint, button: str = "left") -> None:
        self._pos = p
        self.clicks.append((p, button))
        if self.game.status != "playing":
            b = BUTTON
            if self.menu and button == "left" and b.left <= p.x < b.left + b.width and \
                    b.top <= p.y < b.top + b.height:
                self.new_game()
            return
        f = self.look.face_rect(self.size.cols)
        if f.left <= p.x < f.left + f.width and f.top <= p.y < f.top + f.height:
            return  # the face is only a picture
        super().click(p, button)
        if self.game.status != "playing":
            self.outcomes.append(self.game.status)
            self.shown_until = time.monotonic() + self.shown


def calibrate(game: BannerGame, mines: int | None) -> tuple[Learned, list[str], list[str]]:
    notes: list[str] = []
    # (0-3 are named by consistency; no loss shows a wrong flag, 4 and 5 are rare)
    opts = LiveOptions(games=4, max_games=30, time_limit=150.0, mines=mines,
                       want=(0, 1, 2, 3), log=notes.append)
    calibrator = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts)
    learned = calibrator.run()
    return learned, calibrator.results, notes


class Quiet:
    def on_board(self, player: object) -> None: ...
    def on_turn(self, *args: object) -> None: ...
    def on_game(self, *args: object) -> None: ...
    def on_note(self, player: object, message: str) -> None: ...


def play(game: BannerGame, learned: Learned, games: int, seed: int = 1) -> list[str]:
    """Play ``games`` games with the skin ``learned``; each outcome, with its reason."""
    skin = Skin("banner", "test", learned.cell_size, learned.cells, learned.status,
                learned.restart)
    config = PlayConfig(games=games, mines=SIZE.mines, seed=seed, restart_timeout=4.0)
    played = Player(SynthScreen(game), SynthMouse(game), SkinReader([skin]), "exact",
                    config, observer=Quiet()).play()  # type: ignore[arg-type]
    return [r.outcome + (f" ({r.reason})" if r.reason else "") for r in played]


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "mines"), [(3, SIZE.mines), (8, None)])
def test_a_game_ending_in_a_message_over_the_board(seed: int, mines: int | None) -> None:
    """``mines`` None: no ``--mines``; the 9x9 board's usual 10 is taken."""
    game = BannerGame(SIZE, LOOK, rule="safe", seed=seed)
    learned, results, notes = calibrate(game, mines)
    assert results == game.outcomes[:len(results)], (results, game.outcomes, notes)
    assert {"won", "lost"} <= set(results), notes
    assert {COVERED, 0, 1, 2} <= set(learned.cells), (sorted(learned.cells), notes)
    assert "lost" in learned.status.get("templates", {}), (learned.status, notes)
    before = len(game.outcomes)
    outcomes = play(game, learned, 6)
    assert outcomes == game.outcomes[before:], (outcomes, game.outcomes[before:])
    assert len(outcomes) == 6
    # a second run meets the last end's message, then the menu: no board. The skin
    # knows its button shows alone, so play clicks it there and plays on
    assert learned.restart.get("alone"), learned.restart
    before = len(game.outcomes)
    outcomes = play(game, learned, 2, seed=2)
    assert outcomes == game.outcomes[before:] and len(outcomes) == 2, outcomes


class LongBanner(BannerGame):
    """Its message stays 3 s: longer than calibration waits for an Escape to act. Then
    its window goes for 0.4 s, the desktop showing, before its menu's window comes
    (minesweeper-mvc opens each view in a new window)."""

    shown = 3.0
    gap = 0.4

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        left = time.monotonic() - self.shown_until
        if self.game.status != "playing" and 0.0 <= left < self.gap:
            w, h = self.look.size
            return cut(np.full((h, w, 3), self.look.background, np.uint8), region)
        return super().grab(region)


@pytest.mark.slow
def test_play_presses_no_key_at_the_games_own_message() -> None:
    """Calibration presses Escape at an end that covers the board, in case it is a
    dialog; here it changed nothing, so the skin names no dismiss key, and play, which
    meets the message and then the menu the skin learned, presses no key and clicks
    neither (minesweeper-mvc ignores them; many pygame games quit at Escape), not even
    while its window is replaced by the menu's. Before, Escape was named the dismiss
    key, and play pressed it three times at every end."""
    game = LongBanner(SIZE, LOOK, rule="safe", seed=3)
    learned, results, notes = calibrate(game, SIZE.mines)
    assert results == game.outcomes[:len(results)], (results, game.outcomes, notes)
    assert "dismiss_keys" not in learned.restart, learned.restart
    before, clicked = len(game.outcomes), len(game.clicks)
    outcomes = play(game, learned, 4)
    assert outcomes == game.outcomes[before:] and len(outcomes) == 4, outcomes
    b = BUTTON
    stray = [(p, button) for p, button in game.clicks[clicked:] if button.startswith("key")
             or not (game.cell_at(p) or (b.left <= p.x < b.left + b.width
                                         and b.top <= p.y < b.top + b.height))]
    assert stray == [], stray


def test_a_final_guess_taken_for_a_win_is_judged_again_by_a_later_loss() -> None:
    """A guess that could have won, the board then replaced by a message, before any
    end was sure: taken for a win (:attr:`Ending.unsure`). Once a sure loss showed the
    same message, that game is lost; an unsure end unlike it stays won."""
    from bot.calibrate_live import Ending, crop, nearest_end
    from bot.mouse import RecordingMouse
    from vision.geometry import BoardGeometry

    w, h = LOOK.size
    lose = np.full((h, w, 3), PALE, np.uint8)
    cv2.putText(lose, "YOU LOSE!", (90, 230), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (60, 60, 220), 3)
    win = np.full((h, w, 3), PALE, np.uint8)
    cv2.putText(win, "YOU WIN!", (90, 230), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (40, 160, 40), 3)
    cal = LiveCalibrator(None, RecordingMouse(size=(w, h)), LiveOptions())  # type: ignore[arg-type]
    cal.geometry = BoardGeometry("banner", *LOOK.origin, LOOK.pitch_x, LOOK.pitch_y,
                                 SIZE.rows, SIZE.cols)
    board = cal.g.bounds()
    cal.endings = [Ending("won", win, lose, unsure=True), Ending("won", lose, win, unsure=True)]
    cal.results = ["won", "won"]
    cal._rejudge()  # nothing sure yet: as it was
    assert cal.results == ["won", "won"] and all(e.unsure for e in cal.endings)
    cal.cover_ends.append(("lost", crop(lose, board)))  # a sure loss since
    assert nearest_end(crop(lose, board), cal.cover_ends) == "lost"
    cal._rejudge()
    assert cal.results == ["lost", "won"]
    assert [e.outcome for e in cal.endings] == ["lost", "won"]
    assert not any(e.unsure for e in cal.endings)


class QuitsOnKeys(GoneOnQuit, BannerGame):
    """A :class:`BannerGame` that quits at any key, as many pygame games do at Escape."""

    def key(self, keys: str) -> None:
        super().key(keys)
        self.quit = True


@pytest.mark.slow
def test_calibration_waits_out_a_message_over_the_whole_board_before_any_key() -> None:
    """A message that fills the board at an end and goes by itself is no dialog:
    calibration waits for it to change, and presses neither Escape nor Return. Before,
    it pressed Escape at the first end, in case the message was a dialog, and a game
    that quits at Escape was gone."""
    game = QuitsOnKeys(SIZE, LOOK, rule="safe", seed=3)
    learned, results, notes = calibrate(game, SIZE.mines)
    assert not game.quit, notes
    assert results == game.outcomes[:len(results)], (results, game.outcomes, notes)
    assert {"won", "lost"} <= set(results), notes
    assert "dismiss_keys" not in learned.restart, learned.restart
    assert [b for _, b in game.clicks if b.startswith("key")] == []


class GameOverStays(GoneOnQuit, BannerGame):
    """A game whose end fills its window with a message that stays ("GAME OVER", as
    many pygame games draw it) until its restart key, R; any other key quits it."""

    shown = 1e9

    def key(self, keys: str) -> None:
        super().key(keys)
        if keys.lower() == "r" and self.game.status != "playing" and not self.quit:
            self.new_game()
        else:
            self.quit = True


@pytest.mark.slow
def test_the_users_restart_key_comes_before_any_escape_at_a_message_that_stays() -> None:
    """``--restart-key r`` for a game whose message over the whole board stays: the
    key is pressed at each end, no Escape or Return. Before, the end got Escape first
    (the message was taken for a dialog once it stood 8 s), and the game quit."""
    game = GameOverStays(SIZE, LOOK, rule="safe", seed=3)
    notes: list[str] = []
    opts = LiveOptions(games=4, max_games=30, time_limit=150.0, mines=SIZE.mines,
                       want=(0, 1, 2, 3), log=notes.append, restart_keys="r")
    calibrator = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts)
    learned = calibrator.run()
    assert not game.quit, notes
    assert calibrator.results == game.outcomes[:len(calibrator.results)], notes
    assert {"won", "lost"} <= set(calibrator.results), notes
    assert learned.restart == {"kind": "key", "keys": ["r"]}
    keys = [b for _, b in game.clicks if b.startswith("key")]
    assert keys == ["key:r"] * len(calibrator.results), keys
    before, clicked = len(game.outcomes), len(game.clicks)
    outcomes = play(game, learned, 4)
    assert outcomes == game.outcomes[before:] and len(outcomes) == 4, outcomes
    keys = [b for _, b in game.clicks[clicked:] if b.startswith("key")]
    assert not game.quit and keys == ["key:r"] * 3, keys  # (none after the last game)


@pytest.mark.slow
def test_calibration_says_which_keys_it_pressed_when_it_finds_no_restart() -> None:
    """The same game and no restart key: Escape (the message stood 8 s, as a dialog
    does) quits it. The message says the keys pressed and the way out: the game's own
    key, which is then pressed first."""
    game = GameOverStays(SIZE, LOOK, rule="safe", seed=3)
    opts = LiveOptions(games=4, max_games=30, time_limit=150.0, mines=SIZE.mines,
                       want=(0, 1, 2, 3))
    with pytest.raises(CalibrationError, match="Escape and Return were pressed to close "
                       "what covered the board at the game's end: if the game quit at "
                       "that, start it again and pass --restart-key KEY"):
        LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run()
    assert game.quit
