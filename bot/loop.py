"""The closed loop: screenshot -> knowledge array -> solver -> clicks, game after game.

:class:`Player` takes a :class:`bot.screen.Screen`, a :class:`bot.mouse.Mouse`, a
:class:`bot.reader.Reader` and a strategy name. It locates the board once (confirmed
by one region read at each new game, found again when the pixels around it change),
parks the pointer off the board before every capture, clicks every certainly-safe
square of a turn in one batch (chording where that saves clicks), waits until the
board changed and two consecutive frames agree, and reads again, re-reading only the
squares whose pixels changed. A read that contradicts what is known is captured
again; if it persists, play stops and only the board region is saved as a PNG for a
bug report. Nothing is ever clicked on a board that could not be read, and every
click goes through :class:`bot.mouse.GuardedMouse`.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import cv2
import numpy as np

from bot.chord import chord_clicks
from bot.consistency import contradiction
from bot.frames import changed_cells, park_pixel, sub_geometry
from bot.learn import Mines, NumberLearner, Share, UnseenStop, openable
from bot.mouse import CLICK_HOLD, Button, GuardedMouse, Mouse, MouseStopped, ScreenRect
from bot.reader import NotFound, Reader, Restart, preset_mines
from bot.results import GameResult
from bot.screen import Image, Screen, ScreenMap, ScreenPoint, clip_rect
from solver.cells import (
    COVERED,
    EXPLODED,
    FLAG,
    MINE,
    QUESTION,
    UNKNOWN,
    WRONG_FLAG,
    Board,
    Cell,
    neighbour_sum,
)
from solver.density import decide_by_density
from solver.strategies import get_strategy
from solver.strategy import Decision, Strategy
from vision.cut import off_screen_hint, screen_cut_message
from vision.geometry import BoardGeometry, PixelPoint, PixelRect
from vision.moved_squares import refit_lines

_T = TypeVar("_T")

DEFAULT_RULES = {"xdemineur": "none", "gnome-mines": "opening", "classic": "safe"}
"""First-click rules of the known games, when the skin does not say."""


class PlayStopped(RuntimeError):
    """Play cannot go on (reason in the message); nothing more will be clicked."""


class _OverAtStart(Exception):
    """The game on the screen was over before play made a move, and play did not start
    it: a board left won or lost by an earlier run or by the user."""

    def __init__(self, seen: _Seen) -> None:
        super().__init__(seen.status)
        self.seen = seen


@dataclass(frozen=True)
class PlayConfig:
    """Knobs of the loop. ``mines`` overrides the mine count, ``rule`` the first-click rule."""

    games: int = 1
    mines: int | None = None
    mine_chance: float | None = None
    """For a game of no fixed count: each square is a mine with this chance."""
    rule: str | None = None
    redraw_timeout: float = 2.0
    restart_timeout: float = 6.0
    read_attempts: int = 4
    chord: bool = True
    bug_dir: Path = Path("sweepbot-bugs")
    seed: int | None = None
    learn: bool = True  # name numbers the skin lacks in play (bot.learn)


class Observer:
    """Hooks for progress display and recording; the default does nothing."""

    def on_board(self, player: Player) -> None:
        """The board was found (``player.geometry``, ``player.mines`` are set)."""

    def on_turn(self, player: Player, image: Image, board: Board, decision: Decision) -> None:
        pass

    def on_game(self, player: Player, result: GameResult) -> None:
        pass

    def on_note(self, player: Player, message: str) -> None:
        """Something worth a line, e.g. a number look learned in play."""


def unseen_as_open(board: Board, known: Board | None, opening: set[Cell],
                   confirmed: bool) -> Board:
    """``board`` with its unreadable squares taken as opened squares without a number
    (``WRONG_FLAG``, which the solver takes so: safe, no constraint) when they are a
    number the skin never saw (a calibration that met no 6): each was covered and this
    batch opened it (``opening``) or it touches a 0 (opened with it), and this is a
    second capture (``confirmed``); or it was already taken so. A square opened is safe
    (a loss shows a mine), so this loses information, never soundness; any other
    unreadable square leaves the board as read.

    >>> known = np.array([[1, -1], [-1, -1]], np.int8)
    >>> unseen_as_open(np.array([[1, -7], [-1, -1]], np.int8), known, {(0, 1)}, True).tolist()
    [[1, -6], [-1, -1]]
    >>> unseen_as_open(np.array([[1, -7], [-1, -1]], np.int8), known, {(0, 1)}, False).tolist()
    [[1, -7], [-1, -1]]
    >>> unseen_as_open(np.array([[1, -7], [-1, -1]], np.int8), known, {(1, 1)}, True).tolist()
    [[1, -7], [-1, -1]]
    >>> unseen_as_open(np.array([[-7, -1], [-1, -1]], np.int8), known, {(0, 0)}, True).tolist()
    [[-7, -1], [-1, -1]]
    """
    unknown = board == UNKNOWN
    if known is None or not unknown.any() or known.shape != board.shape:
        return board
    if not np.isin(known[unknown], (COVERED, WRONG_FLAG)).all():
        return board
    new = unknown & (known == COVERED)
    if new.any():
        by_zero = neighbour_sum(board == 0) > 0
        if not confirmed or not all(by_zero[r, c] or (int(r), int(c)) in opening
                                    for r, c in np.argwhere(new).tolist()):
            return board
    out = board.copy()
    out[unknown] = WRONG_FLAG
    return out


def unread_left_hidden(board: Board, known: Board | None, opening: set[Cell]) -> Board:
    """``board`` with the unreadable squares that were hidden before this batch and not
    opened by it taken as flags, for judging a win only: a game that marks its mines
    itself at a win may draw a flag the skin never saw. Taken as hidden, such squares
    count as mines; with the mine count right, the hidden squares then number the mines
    only if no square this batch opened is among them (squares opened by a flood stay
    counted as hidden, and a square clicked stays unreadable), so the game is won.

    >>> known = np.array([[1, -1], [-1, -1]], np.int8)
    >>> unread_left_hidden(np.array([[1, -7], [2, -7]], np.int8), known, {(1, 0)}).tolist()
    [[1, -2], [2, -2]]
    >>> unread_left_hidden(np.array([[1, -7], [-7, -1]], np.int8), known, {(1, 0)}).tolist()
    [[1, -2], [-7, -1]]
    """
    unread = board == UNKNOWN
    if known is None or not unread.any() or known.shape != board.shape:
        return board
    take = unread & np.isin(known, (COVERED, FLAG, QUESTION))
    for cell in opening:
        take[cell] = False
    out = board.copy()
    out[take] = FLAG
    return out


@dataclass
class _Game:
    """What the loop knows about the game in progress."""

    start: float
    known: Board | None = None
    moves: int = 0
    clicks: int = 0
    waited: float = 0.0
    risk: dict[Cell, float] = field(default_factory=dict)
    last_risk: float = 0.0
    turn_ms: list[float] = field(default_factory=list)
    stuck: int = 0
    complete: bool = False  # the last batch opened every safe square left
    ends: bool = False
    """The last batch left only the mines hidden (opened every other square, or flagged
    every one left), so the game ended there, won, unless a guess in it hit a mine:
    what comes over the board then is the game's end display."""
    hidden: np.ndarray | None = None  # then: the squares left hidden (the mines)
    opening: set[Cell] = field(default_factory=set)  # the squares this batch opens
    last_image: Image | None = None  # the capture the last batch was decided on
    flagged: bool = False  # the mines left were flagged once (:meth:`Player._wants_flags`)


@dataclass(frozen=True)
class Move:
    """One planned click: the square, the button, where on the screen, its mine risk."""

    cell: Cell
    button: Button
    point: ScreenPoint
    risk: float


@dataclass(frozen=True)
class Preview:
    """What the bot sees and would do next (``sweepbot play --dry-run``)."""

    image: Image
    geometry: BoardGeometry
    board: Board
    status: str
    mines: int | None  # None: no fixed count (each square a mine with ``mine_share``)
    decision: Decision | None
    moves: tuple[Move, ...]
    mine_share: float = 0.0


@dataclass(frozen=True)
class _ReadCache:
    geometry: BoardGeometry
    image: Image
    board: Board


@dataclass(frozen=True)
class _Seen:
    image: Image  # the board region (see Player.capture_board)
    board: Board
    status: str


@dataclass(frozen=True)
class _Frame:
    """A capture of the board region and when its grab started."""

    image: Image
    start: float
    cpu_start: float  # the thread's CPU time then


UNCOVER_GRACE = 0.5
"""Seconds a cover over the board may go by itself before Escape is pressed (when the
game names no dismiss keys): a message fading out, a dialog drawn in steps."""

AGAIN_AFTER = 1.0
"""Seconds a cover must stand still after the dismiss keys before it gets a click to
take the keyboard focus (:meth:`Player._focus_cover`)."""

AGAIN_TRIES = 2
"""Clicks to give such a cover the focus, at most (a key sent at once after the click
may reach the window that had the focus before it)."""

UNCOVER_CHANGING = 3.0
"""A cover over the board that keeps changing (a dialog, then a message that fades out)
is waited for up to this many restart timeouts in all; one that stands still, up to one
restart timeout (:func:`wait_uncovered`)."""

UNCOVER_SETTLE = 0.5
"""Seconds the board must stand still, every square readable, before the next game
starts: kmines' message reads as the squares under it while it fades out (a game
started during the fade does not take clicks where the message was), and its scores
dialog comes up to 0.4 s after the win."""

LATE_COVER = 1.0
"""Seconds play watches the board after its last game for a window the game opens
over it a moment after the end (kmines' scores dialog comes up to 0.4 s after the win
on an idle machine), to close it as between games (:meth:`Player._clear_after_last`)."""

LATE_REDRAWS = 2
"""Times a read after a move that stays inconsistent waits (up to the redraw timeout)
for the board to change and is read again, before play stops (:meth:`Player.observe`)."""

BOARD_MARGIN = 3
"""Pixels around the board in a turn's capture: the reader looks one pixel outside the
board and the moved-window ring lies two pixels outside (the right margin is wider, up
to a width of a multiple of 8 pixels, so bot.frames compares rows as 8-byte words)."""


class Player:
    """Plays ``config.games`` games on whatever board the reader finds on the screen."""

    def __init__(self, screen: Screen, mouse: Mouse, reader: Reader,
                 strategy: str | Strategy = "exact", config: PlayConfig | None = None,
                 observer: Observer | None = None) -> None:
        self.screen, self.reader = screen, reader
        self.config = config or PlayConfig()
        self.observer = observer or Observer()
        self._stop = threading.Event()
        self.mouse = GuardedMouse(mouse, stop_requested=self._stop.is_set)
        self.map = screen_map(screen, mouse)
        self._strategy_spec = strategy
        self.strategy: Strategy | None = None if isinstance(strategy, str) else strategy
        self.rng = np.random.default_rng(self.config.seed)
        self.geometry: BoardGeometry | None = None
        self.region = PixelRect(0, 0, 0, 0)
        self.board_region = PixelRect(0, 0, 0, 0)
        self.board_geometry: BoardGeometry | None = None  # the board inside board_region
        self.mines: int | None = 0
        """The game's mine count; None for a game of no fixed count (:attr:`mine_share`)."""
        self.mine_share = 0.0
        """With no fixed count: the chance that a square is a mine."""
        self._mines_size: tuple[int, int] | None = None  # the size --mines was taken for
        self.needs_flags = False
        self.flags_unknown = False
        """Whether the game wants every mine flagged to declare a win is not known (a
        skin whose calibration saw no win): each game flags the mines left once, when
        every safe square is open and no win shows (:meth:`_wants_flags`)."""
        self.side_flood = False  # the game opens only the squares beside a 0
        self.flag_button: Button | None = "right"  # how the game places a flag (None: never)
        self.rule = "safe"  # the first-click rule the strategy plays by
        self._rule_disproved = False  # a first click was lost that the rule called safe
        self._held = 0.0  # seconds clicks are held since a first click did nothing
        self.results: list[GameResult] = []
        self._cache: _ReadCache | None = None
        self.turn_cpu_ms: list[float] = []
        """This thread's CPU time of every turn played (as GameResult.turn_ms is wall time)."""
        self.learner = NumberLearner.for_reader(reader, lambda m: self.observer.on_note(
            self, m)) if self.config.learn else None
        self._last_game: _Game | None = None  # the game that ended last
        self._ended_board: Board | None = None  # how the board read at its end
        self._restarted = False  # play has started a game (what shows is play's own)
        self._left_over = False  # the next restart ends a game found over at the start
        self._found_again = False  # the board was found again since the game began
        self._cut_unsure = False  # the board found looked cut, but showed a game's end

    # ----------------------------------------------------------------- games
    def play(self) -> list[GameResult]:
        """Play the configured number of games; stops early after an aborted one. What
        the game opens over its board after the last one is closed as between games."""
        with self._ctrl_c():
            over_at_start = False
            while len(self.results) < self.config.games:
                if self.results or over_at_start:
                    try:
                        self.start_next_game()
                        self._check_cut()
                    except (PlayStopped, MouseStopped) as exc:
                        self._finish(self._aborted(_Game(time.monotonic()), str(exc)))
                        break
                try:
                    result = self.play_game()
                except _OverAtStart as over:
                    self._over_at_start(over.seen)
                    over_at_start = True
                    continue
                self._finish(result)
                if result.outcome == "aborted":
                    break
            self._clear_after_last()
        return self.results

    def _clear_after_last(self) -> None:
        """After the last game (won or lost, not stopped), close what the game opened
        over its board, as between games (:meth:`_wait_uncovered`): left there, it hid
        the board from the next run of play (kmines' "new high score" dialog: "no
        Minesweeper board"). A game whose skin names the keys that close such a window
        is watched :data:`LATE_COVER` s for one to come; with no such key, only a window
        over the board at once after a win at the last batch is closed (minegauler's
        scores table); none when the key is Return (a dialog's default button, which
        starts a new game)."""
        if self.geometry is None or self.board_geometry is None or self._stop.is_set() \
                or not self.results or self.results[-1].outcome not in ("won", "lost"):
            return
        keys = self.reader.dismiss_keys(self.geometry)
        last = self._last_game
        won_at_end = last is not None and last.ends and self.results[-1].outcome == "won"
        if "Return" in keys or (not keys and not won_at_end):
            return
        try:
            deadline = time.monotonic() + (LATE_COVER if keys else 0.0)
            while not covers(self.read(*self.capture_board()) == UNKNOWN):
                if time.monotonic() >= deadline or self._stop.is_set():
                    return
                time.sleep(0.05)
            if not self._wait_uncovered(last) and not self._end_on_squares():
                self.observer.on_note(self, "a window the game opened over the board after "
                                      "the last game did not close")
        except (PlayStopped, MouseStopped) as exc:
            self.observer.on_note(self, f"left the board after the last game as it was: {exc}")

    def _over_at_start(self, seen: _Seen) -> None:
        """The game found on the screen was already over: play starts a new one rather
        than count that one as played (PyMines shows nothing at a win: a board left won
        by the last run was counted as a game won with no click)."""
        self._restarted = True
        self._left_over = True
        self._ended_board = seen.board
        self.observer.on_note(self, f"the game on the screen is already {seen.status}: "
                              "starting a new one")

    def _finish(self, result: GameResult) -> None:
        self.results.append(result)
        self.observer.on_game(self, result)

    def play_game(self) -> GameResult:
        """Play the game on the screen to its end (or until play must stop)."""
        game = _Game(time.monotonic())
        if self.learner is not None:
            self.learner.new_game()
        try:
            if self.geometry is None:
                self.find_board()
                game.start = time.monotonic()  # (not the wait for a game from a menu)
            else:
                self._confirm_board()
            return self._play_turns(game)
        except (PlayStopped, MouseStopped) as exc:
            return self._aborted(game, str(exc))

    def _play_turns(self, game: _Game) -> GameResult:
        frame: _Frame | None = None  # the settled frame the last redraw wait ended on
        while True:
            if self._stop.is_set():
                raise PlayStopped("stopped by Ctrl+C")
            t0 = frame.start if frame is not None else time.perf_counter()
            c0 = frame.cpu_start if frame is not None else time.thread_time()
            self.mouse.look_ahead()  # (unless the redraw wait asked): checked before clicks
            seen, decision = self.observe(game, frame.image if frame is not None else None)
            if seen.status in ("won", "lost"):
                if not game.moves and not self._restarted:
                    raise _OverAtStart(seen)
                return self._ended(game, self._recheck_win(game, seen))
            assert decision is not None
            if self._check_progress(game, seen.board):
                return self._ended(game, _Seen(seen.image, seen.board, "won"))
            plan = self.plan(seen.board, decision, game)
            if not plan:
                if any(seen.board[c] == FLAG for c in decision.open):
                    raise PlayStopped("a flag sits on a square the solver knows is safe: "
                                      "remove the flag and start again")
                raise PlayStopped("the solver found no move on a board that is not finished")
            self.observer.on_turn(self, seen.image, seen.board, decision)
            game.last_image = seen.image
            self.execute(plan)
            game.turn_ms.append((time.perf_counter() - t0) * 1000.0)
            self.turn_cpu_ms.append((time.thread_time() - c0) * 1000.0)
            self._record_batch(game, seen.board, plan)
            waited, frame = self.wait_redraw(seen.image)
            more, frame = self._wait_past(frame, seen.board)
            rest, frame = self._wait_batch(frame, seen.board, plan)
            game.waited += waited + more + rest

    def _wait_past(self, frame: _Frame | None, before: Board) -> tuple[float, _Frame | None]:
        """While ``frame`` (the redraw after a batch) reads as the board ``before`` it,
        square for square, wait for the next redraw: what changed was in passing
        (:meth:`_in_passing`). Up to the redraw timeout; the seconds waited and the
        last frame."""
        return self._redraws_while(frame, lambda image: self._in_passing(image, before))

    def _wait_batch(self, frame: _Frame | None, before: Board,
                    plan: list[tuple[Cell, Button]]) -> tuple[float, _Frame | None]:
        """While some but not all of the hidden squares the batch clicked still read as
        they were before it, wait for the next redraw, up to the redraw timeout: a game
        that takes one click per tick of its own (gamelibgames' canvas) draws a batch
        over several redraws, and the next batch clicked those squares again (a second
        right-click took a flag off: "flagged square (0, 2) shows no flag"). The
        seconds waited and the last frame."""
        cells = {c for c, _ in plan if before[c] in (COVERED, QUESTION)}
        if len(cells) < 2:
            return 0.0, frame  # (one square is drawn or not: nothing to wait for)

        def partly_drawn(image: Image) -> bool:
            board = self.read(*self.capture_board_from(image))
            same = sum(1 for c in cells if board[c] == before[c])
            return 0 < same < len(cells)  # (none left: drawn; all: the game ended, say)

        return self._redraws_while(frame, partly_drawn)

    def _redraws_while(self, frame: _Frame | None,
                       wait: Callable[[Image], bool]) -> tuple[float, _Frame | None]:
        """Wait for the next redraw while ``wait`` holds for ``frame``, up to the redraw
        timeout; the seconds waited and the last frame."""
        waited = 0.0
        while frame is not None and waited < self.config.redraw_timeout and wait(frame.image):
            more, later = self.wait_redraw(frame.image)
            waited += more
            if later is None:
                break
            frame = later
        return waited, frame

    def _in_passing(self, image: Image, before: Board) -> bool:
        """Does ``image`` (the first redraw after a batch) read as the board ``before``
        it, square for square? Then what changed was in passing: a page's button
        ripples at once at a click, and the squares open when the server answers (60 ms
        later for nicegui-minesweeper)."""
        return bool(np.array_equal(self.read(*self.capture_board_from(image)), before))

    def _recheck_win(self, game: _Game, seen: _Seen) -> _Seen:
        """A win seen right after a guess, seen again once the board reads whole and has
        stood still (:meth:`_wait_uncovered`): a game may draw a loss in steps (kmines:
        the hit square first, in a look read as an opened square, the mines 0.1 s
        later); lost if mines show then. Not a win told by a message that fills the
        board (:meth:`_won_shown`): minesweeper-mvc's stands 5 s, then its menu, and
        the board never reads whole again."""
        if seen.status != "won" or game.last_risk < 0.001 or not game.moves or \
                message_fills(seen.board):
            return seen
        self._wait_uncovered(game)
        image, geometry = self.capture_board()
        board = self.read(image, geometry)
        lost = np.isin(board, (MINE, EXPLODED)).any() and \
            not self._mines_shown_won(board, game)
        return _Seen(image, board, "lost") if lost else seen

    def _record_batch(self, game: _Game, board: Board, plan: list[tuple[Cell, Button]]) -> None:
        game.moves += 1
        game.clicks += len(plan)
        game.known = board.copy()
        for cell, button in plan:
            if button == "right":
                game.known[cell] = FLAG  # our flags must show from now on
        game.complete = self._completes(board, game)
        game.ends = game.complete or (self.mines is not None and (
            count(board, COVERED, QUESTION, FLAG) - len(game.opening) == self.mines))
        if game.complete:  # what is left hidden after this batch: the mines
            game.hidden = np.isin(board, (COVERED, QUESTION, FLAG))
            for cell in game.opening:
                game.hidden[cell] = False

    def preview(self) -> Preview:
        """Find and read the board and decide, without clicking anything."""
        self.find_board()
        game = _Game(time.monotonic())
        image, geometry = self.capture()
        seen, decision = self.observe(game, self.board_view(image))
        assert self.geometry is not None
        moves: tuple[Move, ...] = ()
        if decision is not None:
            plan = self.plan(seen.board, decision, game)
            moves = tuple(Move(cell, button, self.map.to_screen(self.geometry.cell_center(cell)),
                               game.risk.get(cell, 0.0) if button == "left" else 1.0)
                          for cell, button in plan)
        return Preview(image, geometry, seen.board, seen.status, self.mines, decision, moves,
                       self.mine_share)

    def _completes(self, board: Board, game: _Game) -> bool:
        """Does this batch open every square that is not a mine (the game ends won)?
        Only a batch of certainly safe squares does: after a guess, whatever covers the
        board may be the game's message of a loss (kmines)."""
        if not game.opening or self.needs_flags or self.mines is None:
            return False
        if max(game.risk.get(c, 1.0) for c in game.opening) >= 0.001:
            return False
        return count(board, COVERED, QUESTION, FLAG) - len(game.opening) == self.mines

    def _won_shown(self, game: _Game, board: Board) -> bool:
        """Is a win display to be believed (:meth:`_can_be_won`)? Also after a guess
        when hardly a square reads (9 in 10 not): a message fills the board
        (minesweeper-mvc's "YOU WIN!" after a final guess or a guess whose flood opened
        the rest; its "YOU LOSE!" is a template of its own), not a dialog over part of
        a lost board whose mines show round it (kmines)."""
        return self._can_be_won(game) or (game.moves > 0 and (
            message_fills(board) or self._only_mines_hidden(board)))

    def _only_mines_hidden(self, board: Board) -> bool:
        """Do as many squares read hidden as the game has mines, no mine shown, every
        other square open or not read? A game that redraws its opened squares at a win
        leaves just its mines covered (ItzAleksG's: every opened square light blue, its
        numbers gone; when the last batch opened a region, play had not seen it all
        open, and stopped: "the board disappeared")."""
        hidden = int(np.isin(board, (COVERED, FLAG, QUESTION)).sum())
        return self.mines is not None and hidden == self.mines and \
            not np.isin(board, (MINE, EXPLODED, WRONG_FLAG)).any()

    @staticmethod
    def _can_be_won(game: _Game) -> bool:
        """Is a win display to be believed while the board does not read: no move made
        yet (the screen shows a won game), or the last batch opened every safe square
        left? Otherwise what covers the board may be a loss's message, and a learned
        win display any dialog's title (kmines)."""
        return game.complete or not game.moves

    def _check_progress(self, game: _Game, board: Board) -> bool:
        """Stop when three turns in a row changed nothing (the clicks have no effect).
        True when a game of no fixed count ignored two guesses in a row with no mine
        shown: it ended when its last safe square opened (react-minesweeper shows
        nothing at a win and takes no click after it), and the mines left are ones the
        numbers do not prove."""
        if game.known is not None and np.array_equal(board, game.known):
            game.stuck += 1
            if game.moves == 1 and not self.mouse.hold:
                self._hold_clicks()
            if self.mines is None and game.stuck >= 2 and game.last_risk > 0.0:
                return True
            if game.stuck >= 3:
                raise PlayStopped("the clicks have no effect on the board")
        else:
            game.stuck = 0
        return False

    def _hold_clicks(self) -> None:
        """A game's first click changed nothing, the pointer gone at once: hold it
        :data:`bot.mouse.CLICK_HOLD` on every square clicked from now on, as
        calibrate does for a game that asks where the pointer is once a frame (a skin
        learned from screenshots cannot know it: the pygame game's took no click, and
        play stopped, "the clicks have no effect"). The first click is alone on the
        board (the pointer parks off it after), so it opened no other square."""
        self._held = self.mouse.hold = CLICK_HOLD
        self.observer.on_note(self, f"the first click changed nothing: the pointer stays "
                                    f"{CLICK_HOLD:.2f} s on each square clicked from now on")

    # ----------------------------------------------------------------- board
    def find_board(self) -> None:
        """Locate the board on a full screenshot; set the capture region, the guard,
        the mine count and the strategy; park the pointer off the board. A board cut by
        its window's edge or reaching the screen's (:func:`vision.cut.screen_cut_message`)
        stops play before a click."""
        image = self.screen.grab()
        try:
            geometry = self.reader.locate(image)
        except NotFound as exc:
            if not self.reader.starts_alone():
                raise PlayStopped(f"no Minesweeper board on the screen ({exc})") from exc
            image, geometry = self._start_alone(str(exc))
        board = self.reader.read(image, geometry)
        cut = screen_cut_message(image, geometry, whole=board != UNKNOWN)
        if cut and shows_end(board):
            self._cut_unsure = True  # (checked again on the next game's board)
        elif cut:
            raise PlayStopped(f"{cut}; stopping without clicking")
        self._take_board(geometry)

    def _check_cut(self) -> None:
        """The board of a new game, when the one found at the start showed a finished
        game that looked cut (ace-minesweeper's opened squares are the green of the
        frame round its board, so past each side a finished board shows what looks
        like a cut line of them; a new game's covered squares do not)."""
        if not self._cut_unsure:
            return
        self._cut_unsure = False
        assert self.geometry is not None
        image = self.screen.grab()
        cut = screen_cut_message(image, self.geometry,
                                 whole=self.reader.read(image, self.geometry) != UNKNOWN)
        if cut:
            raise PlayStopped(f"{cut}; stopping")

    def _start_alone(self, why: str) -> tuple[Image, BoardGeometry]:
        """No board on the screen, for a skin whose new-game control shows with none
        (a menu: minesweeper-mvc returns to its menu after each game, so a second run
        of play found no board): click that control where it shows alone, waited for
        up to the restart timeout (the end's message stands first), then wait as long
        for the board it starts. The screen and the board found."""
        point = self._wait_for(lambda image: self.reader.restart_alone(image))
        if point is None:
            raise PlayStopped(f"no Minesweeper board on the screen ({why}), nor the "
                              "game's new-game control")
        at = self.map.to_screen(point)
        self.observer.on_note(self, f"no board on the screen: starting a game with the "
                              f"game's new-game control at ({at.x:.0f}, {at.y:.0f})")
        self.mouse.allow([self._screen_rect(PixelRect(round(point.x) - 2,
                                                      round(point.y) - 2, 4, 4))])
        self.mouse.click(at)
        self.mouse.allow([])
        self._restarted = True

        def board(image: Image) -> tuple[Image, BoardGeometry] | None:
            try:
                return image, self.reader.locate(image)
            except NotFound:
                return None

        found = self._wait_for(board)
        if found is None:
            raise PlayStopped("no board appeared after clicking the game's new-game "
                              "control")
        return found

    def _wait_for(self, look: Callable[[Image], _T | None]) -> _T | None:
        """``look`` at screenshots until it finds something, for up to the restart
        timeout."""
        deadline = time.monotonic() + self.config.restart_timeout
        while True:
            found = look(self.screen.grab())
            if found is not None or time.monotonic() >= deadline:
                return found
            time.sleep(0.1)

    def _take_board(self, geometry: BoardGeometry) -> None:
        """Play the board at ``geometry`` from now on: the capture region, the guard,
        the mine count and the strategy; park the pointer off the board."""
        self._use_geometry(geometry)
        self.park()
        image = self.screen.grab()
        r = self.board_region
        self._window_moved(np.ascontiguousarray(  # the ring around the board, as found
            image[r.top:r.top + r.height, r.left:r.left + r.width]))
        self.mines = self._mine_count(image, geometry)
        needs = self.reader.needs_flags(geometry)
        self.needs_flags, self.flags_unknown = bool(needs), needs is None
        self.side_flood = self.reader.side_flood(geometry)
        self.flag_button = self.reader.flag_button(geometry)
        self.mouse.hold = max(self.reader.click_hold(geometry), self._held)
        self._new_strategy()
        self.observer.on_board(self)

    def _new_strategy(self) -> None:
        """A fresh strategy for a new game (none is kept across games)."""
        assert self.geometry is not None
        self.rule = "none" if self._rule_disproved else self.config.rule \
            or self.reader.first_click_rule(self.geometry) \
            or DEFAULT_RULES.get(self.geometry.skin, "safe")
        if isinstance(self._strategy_spec, str):
            self.strategy = get_strategy(self._strategy_spec, self.rule)

    def _confirm_board(self) -> None:
        """For the next game the board is usually where it was: one region read
        confirms it (locating on the full screen is much slower). Part of it unreadable:
        the last game's message may still cover it (waited out first), or the window
        moved (found again, whole)."""
        self.park()
        if (self.read(*self.capture_board()) == UNKNOWN).any() and not self._wait_uncovered():
            self._relocate_checked()
        self._new_strategy()

    def _use_geometry(self, geometry: BoardGeometry) -> None:
        self.geometry = geometry
        b = geometry.bounds()
        px, py = max(8, round(2 * geometry.pitch_x)), max(8, round(2 * geometry.pitch_y))
        top = max(py, round(5 * geometry.pitch_y), 90)
        self.region = clip_rect(PixelRect(b.left - px, b.top - top, b.width + 2 * px,
                                          b.height + top + py), *self.screen.size())
        m = BOARD_MARGIN
        width = b.width + 2 * m + (-(b.width + 2 * m)) % 8  # whole 8-byte words a row:
        self.board_region = clip_rect(PixelRect(b.left - m, b.top - m, width,  # (quick
                                                b.height + 2 * m), *self.screen.size())  # diffs)
        self.board_geometry = geometry.shifted(-self.board_region.left, -self.board_region.top)
        self.mouse.allow([self._screen_rect(b)])
        self.mouse.watch_window(self.map.to_screen(b.centre()))
        self._frame: Image | None = None

    def _frame_pixels(self, board_image: Image) -> Image:
        """A one-pixel ring 2 px outside the board (its frame or the window around it):
        it stays the same while the window stays put, whatever the game shows."""
        assert self.board_geometry is not None
        b = self.board_geometry.bounds()
        h, w = board_image.shape[:2]
        x0, y0 = max(0, b.left - 2), max(0, b.top - 2)
        x1 = min(w - 1, b.left + b.width + 1)
        y1 = min(h - 1, b.top + b.height + 1)
        im = board_image
        return np.concatenate([im[y0, x0:x1 + 1], im[y1, x0:x1 + 1],
                               im[y0:y1 + 1, x0], im[y0:y1 + 1, x1]])

    def _window_moved(self, board_image: Image) -> bool:
        """Has the ring around the board changed since the board was located?"""
        ring = self._frame_pixels(board_image)
        if self._frame is None:
            self._frame = ring
            return False
        return ring.shape != self._frame.shape or not np.array_equal(ring, self._frame)

    def _reads_in_place(self, image: Image, geometry: BoardGeometry, game: _Game) -> bool:
        """After the ring around the board changed: does the board still read whole
        where it was, as a later view of the last turn's board? Then the window did not
        move (a game may draw past its squares' edges: kmines' graveyard theme draws an
        opened square's tombstone over the square above it) and the changed ring is
        kept; else the board is looked for on the whole screen, which is much slower.
        A window that moved reads unknown at the old place: its frame or the desktop
        lies where the outer squares were. Only once the game shows an opened square
        or a square just clicked opened (a new, larger board of all covered squares
        would read whole too)."""
        known = game.known
        if known is None:
            return False
        board = self.read(image, geometry)
        if contradiction(board, known, self.side_flood) and \
                not self._lost_in_place(board, game):
            return False
        if not (known >= 0).any() and not any(board[c] >= 0 for c in game.opening):
            return False
        self._frame = self._frame_pixels(image)
        return True

    def _lost_in_place(self, board: Board, game: _Game) -> bool:
        """Does ``board`` show the mine hit on a square the last batch opened, all but a
        few squares read, and the unread ones taken as they were agree with the last
        turn's board? A loss that recolours the frame and the gaps between tiles
        (PyMines turns its window red) changes the ring round the board and leaves
        numbers the skin knows only on the old colour unread: the board is in place,
        and the game lost."""
        known, unread = game.known, board == UNKNOWN
        if known is None or unread.mean() > 0.25 or \
                not any(board[c] == EXPLODED for c in game.opening):
            return False
        return not contradiction(np.where(unread, known, board).astype(np.int8), known,
                                 self.side_flood)

    def _mine_count(self, image: Image, geometry: BoardGeometry) -> int | None:
        """``--mines``, else the game's counter plus the flags shown (a reader with
        ``counted_mines``), else the reader's count (the skin learned it for this size),
        else None for a size the skin saw with different counts (``mine_share`` set
        from ``--mine-chance`` or the skin), else the size's usual preset;
        ``mines_from`` says which."""
        self.mines_from = "--mines"
        size = (geometry.rows, geometry.cols)
        if self.config.mines is not None and self._mines_size in (None, size):
            self._mines_size = size  # (--mines is the count of the first board's size)
            return self.config.mines
        self.mines_from = "read from the game's counter"
        counted = getattr(self.reader, "counted_mines", None)
        if counted is not None and (total := counted(image, geometry, self.screen.grab)):
            return int(total)
        self.mines_from = "learned by the skin"
        shown = self.reader.mine_count(image, geometry)
        if shown is not None and shown > 0:
            return shown
        vary = getattr(self.reader, "mines_vary", None)
        if vary is not None and vary(geometry):
            share = self.config.mine_chance or getattr(self.reader, "mine_share",
                                                       lambda g: None)(geometry)
            if share is None:
                raise PlayStopped(
                    f"calibrate saw this game lay different mine counts on "
                    f"{geometry.cols}x{geometry.rows} boards, and it shows no counter the "
                    "skin reads: pass --mines with this game's count, or --mine-chance "
                    "with the chance of a square being a mine")
            self.mine_share = float(share)
            self.mines_from = (f"each square a mine with chance {self.mine_share:.3f}, "
                               + ("--mine-chance" if self.config.mine_chance else
                                  "learned by the skin"))
            return None
        self.mines_from = "usual preset for the size"
        preset = preset_mines(geometry.rows, geometry.cols)
        if preset is None:
            raise PlayStopped(f"cannot tell how many mines a {geometry.cols}x{geometry.rows} "
                              "board has: pass --mines")
        return preset

    def _screen_rect(self, r: PixelRect) -> ScreenRect:
        a = self.map.to_screen(PixelPoint(r.left, r.top))
        b = self.map.to_screen(PixelPoint(r.left + r.width, r.top + r.height))
        return ScreenRect(a.x, a.y, b.x - a.x, b.y - a.y)

    def park_point(self) -> ScreenPoint:
        """A point just off the board (left, right, below or above it), away from the
        screen's edges and corners."""
        assert self.geometry is not None
        gap = max(6.0, min(self.geometry.pitch_x, 12.0))
        p = park_pixel(self.geometry.bounds(), gap, self.screen.size())
        if p is None:
            raise PlayStopped("the board fills the screen: nowhere to park the pointer")
        return self.map.to_screen(p)

    def park(self) -> None:
        self.mouse.move(self.park_point())

    # ----------------------------------------------------------------- reading
    def capture(self) -> tuple[Image, BoardGeometry]:
        """The capture region (the board and the game's status display around it) and
        the board's geometry inside it."""
        assert self.geometry is not None
        r = self.region
        return self.screen.grab(r), self.geometry.shifted(-r.left, -r.top)

    def capture_board(self) -> tuple[Image, BoardGeometry]:
        """The board region (the board and BOARD_MARGIN pixels around it) and the
        board's geometry inside it: what a turn reads."""
        assert self.board_geometry is not None
        return self.screen.grab(self.board_region), self.board_geometry

    def capture_board_from(self, board_image: Image) -> tuple[Image, BoardGeometry]:
        """``board_image`` (a capture of :attr:`board_region`) and the board's geometry
        inside it."""
        assert self.board_geometry is not None
        return board_image, self.board_geometry

    def board_view(self, region_image: Image) -> Image:
        """The board region's pixels inside a capture of :attr:`region` (a view)."""
        b, r = self.board_region, self.region
        return region_image[b.top - r.top:b.top - r.top + b.height,
                            b.left - r.left:b.left - r.left + b.width]

    def observe(self, game: _Game, frame: Image | None = None,
                late: int = 0) -> tuple[_Seen, Decision | None]:
        """Read the board region (``frame``, a capture of it, or a new capture) until
        the read is consistent; then decide. A read that stays inconsistent after a
        move waits for the board to change (a game slowed by a busy machine may draw
        part of a batch, stand still, and draw the rest: xbomb reads its high-score
        file before it draws the flag that wins), up to :data:`LATE_REDRAWS` times. Raises
        :class:`PlayStopped` when the board stays unreadable or disappears."""
        problem = ""
        for attempt in range(self.config.read_attempts):
            if attempt:
                time.sleep(0.03 * attempt)
            if attempt == 2 and self._find_again(game):
                return self._won_unseen(), None
            if frame is None or attempt:
                image, geometry = self.capture_board()
            else:
                image, geometry = self.capture_board_from(frame)
            if game.moves and (self.read(image, geometry) == UNKNOWN).any():
                image = self._quiet_board(image)  # (a look in passing is no look to learn)
            if attempt == 0 and self._window_moved(image) \
                    and not self._reads_in_place(image, geometry, game):
                shown = self._end_shown(game)
                if shown is not None:
                    return shown, None
                if self._find_again(game):  # moved or resized: find the board before reading
                    return self._won_unseen(), None
                self._frame = None  # (or something overlaps the frame: learn it anew)
                image, geometry = self.capture_board()
                self._window_moved(image)
            board, boards = self._learn(image, geometry, self.read(image, geometry), game)
            if (board == UNKNOWN).any() and self._lacks_numbers(geometry):
                # (a complete skin never guesses a look)
                board = unseen_as_open(board, game.known, game.opening, attempt > 0)
            judged = boards[0] if boards else board
            if not self.needs_flags:
                judged = unread_left_hidden(judged, game.known, game.opening)
            status = self._status(judged, game)
            if status == "playing" and self._won_under_window(game, board):
                status = "won"
            seen = _Seen(image, board, status)
            if status in ("won", "lost"):
                return seen, None
            problem = contradiction(boards[0] if boards else board, game.known,
                                    self.side_flood)
            if not problem:
                try:
                    return seen, self._decide_unseen(boards) if boards else self._decide(board)
                except ValueError as exc:  # solver.probability.InconsistentBoard
                    problem = (f"numbers no layout of {self.mines} mines satisfies ({exc}); "
                               "if the game has another mine count, pass --mines"
                               if self.mines is not None else
                               f"numbers no layout of mines satisfies ({exc})")
            full = self._full_status()
            if full == "lost" or (full == "won" and self._won_shown(game, board)):
                return _Seen(image, board, full), None
            if game.complete and not np.isin(board, (MINE, EXPLODED)).any():
                # every safe square was opened and no mine is shown: the game is won, and
                # whatever now covers the board is the game's congratulations
                return _Seen(image, board, "won"), None
        if game.moves and late < LATE_REDRAWS:
            _, later = self.wait_redraw(image)
            if later is not None:
                return self.observe(game, later.image, late + 1)
        path = self.save_bug_image()
        assert self.geometry is not None
        hint = off_screen_hint(self.screen.size(), self.geometry)
        raise PlayStopped(f"could not read the board: {problem}{hint}; "
                          f"board image saved to {path}")

    def read(self, image: Image, geometry: BoardGeometry) -> Board:
        """Read the board, re-reading only the squares whose pixels changed since the
        last read of the same lattice (identical pixels give an identical read)."""
        cache, rows, cols = self._cache, geometry.rows, geometry.cols
        board: Board | None = None
        if cache is not None and cache.geometry == geometry and cache.image.shape == image.shape:
            changed = changed_cells(cache.image, image, geometry)
            if not changed.any():
                board = cache.board.copy()
            else:
                rs, cs = np.nonzero(changed)
                r0, r1, c0, c1 = int(rs.min()), int(rs.max()) + 1, int(cs.min()), int(cs.max()) + 1
                if (r1 - r0) * (c1 - c0) <= rows * cols // 2:
                    board = cache.board.copy()
                    board[r0:r1, c0:c1] = self.reader.read(
                        image, sub_geometry(geometry, r0, r1, c0, c1))
        if board is None:
            board = self.reader.read(image, geometry)
        self._cache = _ReadCache(geometry, image, board)
        return board

    def _learn(self, image: Image, geometry: BoardGeometry, board: Board,
               game: _Game) -> tuple[Board, tuple[Board, ...]]:
        """``board`` with the number looks the skin lacks named where the board tells
        (:mod:`bot.learn`), and one board per name still possible (else none)."""
        if self.learner is None or not code_counts(board)[UNKNOWN]:
            return board, ()
        try:
            got = self.learner.unseen(image, geometry, board, game.known, game.opening,
                                      self._learner_mines())
        except UnseenStop as exc:
            raise PlayStopped(f"{exc}; board image saved to {self.save_bug_image(image)}"
                              ) from exc
        if got.learned:
            self._cache = None  # the reader reads the new look from now on
        return got.board, got.boards

    def _lacks_numbers(self, geometry: BoardGeometry) -> bool:
        """Whether the reader has no look for some number (``unnamed_numbers``, where a
        reader tells): an unreadable square just opened may then be that number; with
        every number known it is a misread, and play must not go on over it."""
        unnamed = getattr(self.reader, "unnamed_numbers", None)
        return callable(unnamed) and bool(unnamed(geometry))

    def _decide_unseen(self, boards: tuple[Board, ...]) -> Decision:
        """The squares safe under every name an unseen look may have (one board
        each), or play stops."""
        assert self.learner is not None
        try:
            return self.learner.decide(boards, self._learner_mines())
        except UnseenStop as exc:
            raise PlayStopped(str(exc)) from exc

    def _learner_mines(self) -> Mines:
        """What the learner tries names against: the game's count, or with no fixed
        count the chance that a square is a mine (the numbers alone then tell)."""
        return self.mines if self.mines is not None else Share(self.mine_share)

    def _decide(self, board: Board) -> Decision:
        """The strategy's move; when only mines are left hidden, no need to ask it.

        Flags are solved as covered squares: the bot places flags only once every safe
        square is open, and a player's wrong flag must not make the board unsolvable
        (flags carry no information the numbers do not)."""
        assert self.strategy is not None
        flags = board == FLAG
        solver_board = np.where(flags, COVERED, board).astype(np.int8) if flags.any() else (
            board.copy())
        if self.mines is None:
            return decide_by_density(solver_board, self.mine_share)
        if count(solver_board, COVERED, QUESTION) == self.mines:
            hidden = np.argwhere((solver_board == COVERED) | (solver_board == QUESTION))
            return Decision(open=(), mines=tuple((int(r), int(c)) for r, c in hidden),
                            note="only mines are left")
        return self.strategy.decide(solver_board, self.mines, self.rng)

    def _wants_flags(self, game: _Game) -> bool:
        """Are the mines left to be flagged before the game is called won: the game
        needs it, or that is not known (:attr:`flags_unknown`) and they were not
        flagged yet this game? (DangerUXB declares a win only with every mine flagged;
        its skin, calibrated on lost games alone, did not say so, and play counted
        four boards with every safe square open as won that the game never ended.)"""
        return bool(self.flag_button) and (
            self.needs_flags or (self.flags_unknown and not game.flagged))

    def _status(self, board: Board, game: _Game) -> str:
        """Lost when the board shows mines; won when only mines are left hidden and the
        game agrees (or needs no flags to say so). A game cannot be won while a safe
        square is still covered, so the status display is captured and read only in
        the endgame; reads that fail are checked against the full-screen status in
        :meth:`observe`."""
        counts = code_counts(board)
        if counts[MINE] and self._mines_shown_won(board, game):
            return "won"
        if counts[EXPLODED] or counts[MINE]:
            return "lost"
        hidden = counts[COVERED] + counts[FLAG] + counts[QUESTION]
        mines = self.mines if self.mines is not None else self._proved_mines(board)
        if hidden != mines or counts[UNKNOWN]:
            return "playing"
        status = self.reader.status(*self.capture())
        if status in ("won", "lost"):
            return status
        if self._wants_flags(game) and int((board == FLAG).sum()) < mines:
            return "playing"
        return "won"  # every safe square open (and, where needed, every mine flagged)

    def _mines_shown_won(self, board: Board, game: _Game) -> bool:
        """Are the mines ``board`` shows a win's (:func:`flags_shown_as_mines`,
        :func:`mines_shown_at_win`)?"""
        return flags_shown_as_mines(board, game.known) or \
            mines_shown_at_win(board, game.opening, self.mines)

    def _won_under_window(self, game: _Game, board: Board) -> bool:
        """Did the last batch leave only the mines hidden (:attr:`_Game.ends`), and
        did a window come over the board since, as the window system tells
        (:meth:`bot.mouse.GuardedMouse.windows_over`), with no mine shown round it?
        Then it is the game's win display: alex-obada's Java game opens a dialog over
        its board at a win, whose Return (the key it learned for its loss's) starts the
        next game, and play pressed it while waiting for the board: the new game's
        covered squares then read as opened ones gone. Asked only while squares do
        not read."""
        if not game.ends or not (board == UNKNOWN).any() or \
                np.isin(board, (MINE, EXPLODED)).any():
            return False
        assert self.geometry is not None
        return bool(self.mouse.windows_over(self._screen_rect(self.geometry.bounds())))

    def _proved_mines(self, board: Board) -> int | None:
        """For a game of no fixed count: the hidden squares, when the numbers prove each
        of them a mine (every safe square is open), else None. Cheap while a hidden
        square has no number beside it (nothing proves it a mine): most turns."""
        hidden = np.isin(board, (COVERED, QUESTION, FLAG))
        if (hidden & (neighbour_sum((board >= 0) & (board <= 8)) == 0)).any():
            return None
        solver_board = np.where(board == FLAG, COVERED, board).astype(np.int8)
        try:
            decision = decide_by_density(solver_board, self.mine_share)
        except ValueError:
            return None
        return len(decision.mines) if not decision.open else None

    def _full_status(self) -> str:
        assert self.geometry is not None
        return self.reader.status(self.screen.grab(), self.geometry)

    def _end_shown(self, game: _Game) -> _Seen | None:
        """After a move, with the board no longer where it was: the game's own message
        of its end in its place, if the skin knows it (a "lost" or "won" status
        template: minesweeper-mvc fills its window with "YOU LOSE!" or "YOU WIN!" for
        5 s, and never shows the mines). A win as :meth:`_won_shown` believes it."""
        if not game.moves:
            return None
        status = self._full_status()
        if status not in ("won", "lost"):
            return None
        image, geometry = self.capture_board()
        board = self.read(image, geometry)
        if status == "lost" or self._won_shown(game, board):
            return _Seen(image, board, status)
        return None

    def _find_again(self, game: _Game) -> bool:
        """Find the board again after it changed or could not be read. True when it is
        hidden because the game was won (every safe square was opened, so what covers
        the board is the win message). A board is taken only where it reads whole: with
        part of it covered, a locator finds a smaller board or one beside the real one.
        A cover (a game's message or dialog at its end) is waited out or dismissed
        (:meth:`_wait_uncovered`); a board that stays hidden or gone stops play. With
        every safe square open, what covers the board is the win's display: no need to
        look for the board elsewhere first (gnome-mines' scores dialog over the board
        took seconds to locate through, on a loaded machine ten)."""
        if game.complete and not self._window_gone():
            return True
        try:
            found: BoardGeometry | None = self._locate_now()
        except PlayStopped:
            found = None
        if found is not None and self._same_size(found):
            lines = self._lines_moved(found, game)
            if lines is not None:
                self._adopt(lines)
                return False
        if found is not None and self._resized(found, game):
            return False
        if game.complete:  # (and the desktop shows where the board was)
            raise PlayStopped("the game's window is gone from where its board was "
                              "(closed, or the game crashed at its last clicks): this "
                              "game's end is unknown; stopping without clicking")
        if self._unseen_only(self.read(*self.capture_board()), game):
            return False  # numbers the skin lacks, side by side: observe names them
        if game.moves and self._wait_uncovered(game):  # (a cover comes after a move)
            return False
        if not covers(self.read(*self.capture_board()) == UNKNOWN):
            return False  # it reads in place but for single squares: observe reports them
        self._relocate_checked(game)
        return False

    def _unseen_only(self, board: Board, game: _Game) -> bool:
        """Do the squares of ``board`` that do not read all lie where a number the skin
        lacks may show (opened by the last batch, or next to a 0:
        :func:`bot.learn.openable`)? Then they are unseen numbers side by side, for the
        learner to name, not something over the board (a cover takes covered squares
        too): the board is where it was."""
        if self.learner is None or self.geometry is None or \
                not self._lacks_numbers(self.geometry):
            return False
        waiting = {c for w in self.learner.waiting for c in w.look.cells}
        where = openable(board, game.known, game.opening, waiting)
        return bool(where[board == UNKNOWN].all())

    def _window_gone(self) -> bool:
        """Does the desktop show where the board was: one flat colour over the board
        and round it, the colour of a corner of the screen (:func:`shows_desktop`)? A
        window the game opens at a win has text or controls; a crashed game's window is
        simply gone."""
        assert self.geometry is not None
        return shows_desktop(self.screen.grab(), self.geometry.bounds())

    def _won_unseen(self) -> _Seen:
        assert self.geometry is not None
        unread = np.full((self.geometry.rows, self.geometry.cols), UNKNOWN, np.int8)
        return _Seen(self.capture_board()[0], unread, "won")

    def _locate_now(self) -> BoardGeometry:
        """The board on a full screenshot, whatever its size (PlayStopped if none)."""
        image = self.screen.grab()
        try:
            return self.reader.locate(image)
        except NotFound as exc:
            raise PlayStopped("the board disappeared (closed, moved off screen or covered); "
                              "stopping without clicking") from exc

    def _same_size(self, geometry: BoardGeometry) -> bool:
        assert self.geometry is not None
        return (geometry.rows, geometry.cols) == (self.geometry.rows, self.geometry.cols)

    def _relocate_checked(self, game: _Game | None = None) -> None:
        """Find the board again on the full screen (it may have moved, or the player
        chose another size: :meth:`_resized`). A board found elsewhere with unreadable
        squares (part of it covered, so perhaps not where the locator puts it) is looked
        for again up to the restart timeout (:meth:`_settled_board`), then stops play;
        where it was, what does not read is left to :meth:`observe` to report. A
        board of another size that is no new game is what covers part of the board
        fooling the locator (a game's message or dialog, a LED strip beside it): kept
        where it was while most of it reads there."""
        assert self.geometry is not None
        found = self._locate_now()
        if not self._same_size(found):
            if self._resized(found, game):
                return
            if self._shown_share(self.geometry) >= 0.5:
                return
            raise PlayStopped(f"a {found.cols}x{found.rows} board was found, partly covered "
                              "or unreadable, and the board played is gone; stopping "
                              "without clicking")
        if found != self.geometry and not self._reads_at(found, game):
            settled = self._refit(found) or self._settled_board(game)
            if settled is None:
                raise PlayStopped(
                    f"the board was found elsewhere ({moved_by(self.geometry, found)}), "
                    "partly covered or unreadable; stopping without clicking; board image "
                    f"saved to {self.save_bug_image()}")
            found = settled
        self._adopt(found)

    def _lines_moved(self, found: BoardGeometry, game: _Game | None) -> BoardGeometry | None:
        """``found`` where the board reads there whole, else the board found with its
        rows or columns moved one by one to where they read (:func:`refit_lines`: a Tk
        game that lays its squares out by what they show); None where neither reads."""
        return found if self._reads_at(found, game) else self._refit(found)

    def _refit(self, found: BoardGeometry) -> BoardGeometry | None:
        """The board ``found`` with its rows or columns moved one by one to where they
        read on the screen now (:func:`refit_lines`), or None."""
        image = self.screen.grab()
        return refit_lines(found, lambda g: self.reader.read(image, g))

    def _settled_board(self, game: _Game | None) -> BoardGeometry | None:
        """Look for the board again for up to the restart timeout, after it was found
        moved and not reading whole: where it reads whole (where it was, or found again
        elsewhere), once what passed over it has gone; None if it never does."""
        assert self.geometry is not None
        deadline = time.monotonic() + self.config.restart_timeout
        while time.monotonic() < deadline:
            time.sleep(0.2)
            if self._reads_at(self.geometry, game):
                return self.geometry
            try:
                found = self._locate_now()
            except PlayStopped:
                continue
            if self._same_size(found) and self._reads_at(found, game):
                return found
        return None

    def _resized(self, found: BoardGeometry, game: _Game | None) -> bool:
        """Take ``found``, a board of another size than the one played, when it shows a
        new game (:func:`looks_fresh`) and the board played is gone from where it was
        (most of it no longer reads there) or lies inside it (grown in place): the
        player chose another size. A locator fooled by what covers part of the board
        finds no new game (the ended game's marks, unreadable squares, or 0s beside
        covered squares where a window's margin reads as a row of 0s). Not in the
        middle of a game (moves made): a dialog over most of a board lost early leaves
        a strip of covered squares that looks like one; a game really replaced then
        reads wrong and play stops at the read."""
        assert self.geometry is not None
        if self._same_size(found) or (game is not None and game.moves):
            return False
        if not looks_fresh(self.reader.read(self.screen.grab(), found)) or not (
                holds(found.bounds(), self.geometry.bounds())
                or self._shown_share(self.geometry) < 0.5):
            return False
        self._take_board(found)
        return True

    def _shown_share(self, geometry: BoardGeometry) -> float:
        """The share of the squares at ``geometry`` that read, on the screen now."""
        return float((self.reader.read(self.screen.grab(), geometry) != UNKNOWN).mean())

    def _adopt(self, geometry: BoardGeometry) -> None:
        if geometry != self.geometry:
            self._use_geometry(geometry)
            self._found_again = True
            self.park()

    def _whole_at(self, geometry: BoardGeometry) -> bool:
        """Does every square of a board at ``geometry`` read (nothing covers it)?"""
        return not (self.reader.read(self.screen.grab(), geometry) == UNKNOWN).any()

    def _reads_at(self, geometry: BoardGeometry, game: _Game | None) -> bool:
        """Does a board at ``geometry`` read whole in ``game``, but for numbers the skin
        lacks where the last batch opened squares (:meth:`_unseen_only`: a page that
        moved its board a pixel while such numbers show)?"""
        board = self.reader.read(self.screen.grab(), geometry)
        return not (board == UNKNOWN).any() or (
            game is not None and self._unseen_only(board, game))

    def save_bug_image(self, board_image: Image | None = None, tag: str = "board") -> Path:
        """Save the board for a bug report: the board and one square around it on the
        screen now (what lies in that ring, another window's edge, shows too), or
        ``board_image`` (a capture of :attr:`board_region`)."""
        assert self.geometry is not None
        b = self.geometry.bounds()
        pad = round(self.geometry.pitch_x)
        box = PixelRect(b.left - pad, b.top - pad, b.width + 2 * pad, b.height + 2 * pad)
        crop = self.screen.grab(box) if board_image is None else board_image
        self.config.bug_dir.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = self.config.bug_dir / f"{tag}-{stamp}-{len(self.results) + 1}.png"
        cv2.imwrite(str(path), crop)
        return path

    # ----------------------------------------------------------------- acting
    def plan(self, board: Board, decision: Decision, game: _Game) -> list[tuple[Cell, Button]]:
        """Clicks for one turn: open every square in the decision (chording where that
        saves clicks); flag the remaining mines when the game needs flags to declare
        the win. Sets ``game.opening`` to the squares the batch opens."""
        openable = [c for c in decision.open if board[c] in (COVERED, QUESTION)]
        for cell in openable:
            game.risk[cell] = decision.risk
        if decision.open:
            game.last_risk = decision.risk
        if self._wants_flags(game) and self._flags_left(board, decision):
            game.flagged = True
            game.opening = set()
            hidden = np.argwhere((board == COVERED) | (board == QUESTION))
            cells = [(int(r), int(c)) for r, c in hidden]
            again = [c for c in cells if board[c] == QUESTION]  # right click: ? -> none -> flag
            return [(c, "right") for c in cells + again]
        chords, opened = self._chords(board, decision, openable)
        rest = [c for c in openable if c not in opened]
        game.opening = set(opened) | set(rest)
        return chords + [(cell, "left") for cell in rest]

    def _flags_left(self, board: Board, decision: Decision) -> bool:
        """Are only mines left covered, some not flagged yet (to flag for a game that
        needs flags to declare a win)?"""
        covered = count(board, COVERED, QUESTION)
        if self.mines is None:
            return covered > 0 and not decision.open and bool(decision.mines)
        return 0 < covered == self.mines - count(board, FLAG)

    def _chords(self, board: Board, decision: Decision,
                openable: list[Cell]) -> tuple[list[tuple[Cell, Button]], set[Cell]]:
        """Flag-and-chord clicks for certainly safe squares, where they save clicks."""
        button = self.reader.chord_button(self.geometry) if self.geometry else None
        if not (self.config.chord and button and self.flag_button) or decision.is_guess or \
                len(openable) <= 2:
            return [], set()
        chords, opened = chord_clicks(board, set(openable), set(decision.mines), button)
        flags = int((board == FLAG).sum()) + sum(b == "right" for _, b in chords)
        if self.needs_flags and (self.mines is None or flags >= self.mines):
            return [], set()  # the game checks for a win on the last flag: keep it last
        return chords, opened

    def execute(self, plan: list[tuple[Cell, Button]]) -> None:
        """Click the planned squares (all through the guard; a flag, planned as
        "right", the game's way: :attr:`flag_button`), then park the pointer."""
        assert self.geometry is not None
        with self.mouse.batch():  # one write to the X server for the whole batch
            self.mouse.check()
            for cell, button in plan:
                pressed = self.flag_button if button == "right" else button
                if pressed is None:
                    continue  # (a flag planned in a game where none is placed)
                self.mouse.click(self.map.to_screen(self.geometry.cell_center(cell)), pressed,
                                 square=True)
            # the move looks at the pointer first (a hand on the mouse during the batch
            # stops play at the next check); the next batch's check waits for the
            # pointer to be parked, and the wait for the redraw for a frame that stays
            # the same
            self.mouse.move(self.park_point(), wait=False)

    def wait_redraw(self, before: Image) -> tuple[float, _Frame | None]:
        """Wait until the board region's pixels differ from ``before`` (a capture of
        it) and two consecutive frames agree (or the timeout passes). Returns the
        seconds waited, up to the start of the grab of the settled frame, and that
        frame (None after a timeout): the next turn reads it, and its grab counts in
        that turn's time. Each new frame also asks where the pointer is (without
        waiting): the answer is checked before the next clicks."""
        t0 = time.perf_counter()
        deadline = t0 + self.config.redraw_timeout
        previous: Image | None = None
        while True:
            start, cpu_start = time.perf_counter(), time.thread_time()
            if start >= deadline:
                return start - t0, None
            frame = self.screen.grab(self.board_region)
            if same_pixels(frame, before):
                previous = None
            elif previous is not None and same_pixels(frame, previous):
                return start - t0, _Frame(frame, start, cpu_start)
            else:
                previous = frame
                self.mouse.look_ahead(renew=True)  # the pointer now, checked before clicks
            time.sleep(0.001)  # frames at least 1 ms apart: a drawing pause must last

    def _quiet_board(self, image: Image, first: float = 0.02, quiet: float = 0.06,
                     limit: float = 1.5) -> Image:
        """``image`` (a capture of the board region) if the board does not change within
        ``first`` seconds; else the first capture it then keeps for ``quiet`` seconds
        (or the last one after ``limit`` seconds). A page's squares fade from one look
        to the next (nicegui-minesweeper's over 0.25 s, a paint every 16 ms), and two
        grabs a millisecond apart agree between two of the browser's paints:
        :meth:`wait_redraw` may end mid-fade. (A still board costs ``first``.)"""
        t0 = since = time.perf_counter()
        changed = False
        while True:
            time.sleep(0.005)
            now = time.perf_counter()
            frame = self.screen.grab(self.board_region)
            if not same_pixels(frame, image):
                image, since, changed = frame, now, True
            elif now - since >= (quiet if changed else first):
                return image
            if now - t0 >= limit:
                return image

    # ----------------------------------------------------------------- game end
    def _ended(self, game: _Game, seen: _Seen) -> GameResult:
        from bot.metrics import three_bv

        board, death_p, bv = seen.board, None, None
        self._last_game = game
        self._ended_board = board
        if self.learner is not None and self.board_geometry is not None:
            self.learner.at_end(seen.image, self.board_geometry, seen.status, game.hidden)
        if seen.status == "lost":
            hit = [(int(r), int(c)) for r, c in np.argwhere(board == EXPLODED)]
            if game.moves == 0:
                death_p = None  # lost before the bot made a move
            elif len(hit) == 1:
                death_p = game.risk.get(hit[0], game.last_risk)
            else:
                death_p = game.last_risk
            if death_p is not None and death_p < 0.001 and self._first_click_lost(game):
                return self._result(game, "lost", death_p=death_p,
                                    reason=self._disprove_rule())
            if death_p is not None and death_p < 0.001 and game.last_image is not None:
                before = self.save_bug_image(game.last_image, "safe-square-lost-before")
                after = self.save_bug_image(seen.image, "safe-square-lost-after")
                return self._result(game, "lost", death_p=death_p, reason=(
                    f"lost on a square the solver called safe: a bug; the board before "
                    f"and after are in {before} and {after}"))
        else:
            hidden = np.isin(board, (COVERED, FLAG, QUESTION, MINE))
            if (board == UNKNOWN).any() and game.hidden is not None:
                hidden = game.hidden  # the board is covered by the game's win message
            if self.mines is None or int(hidden.sum()) == self.mines:
                bv = three_bv(hidden)
        mines = np.isin(board, (MINE, EXPLODED, FLAG)) if seen.status == "lost" else \
            np.isin(board, (COVERED, FLAG, QUESTION, MINE))
        return self._result(game, seen.status, death_p=death_p, bv=bv,
                            mines=int(mines.sum()))

    def _first_click_lost(self, game: _Game) -> bool:
        """Was the game lost at its first click, on a board all covered, that a
        first-click rule called safe (so the game does not protect its first click)?"""
        return game.moves == 1 and self.rule != "none" and game.known is not None \
            and bool((game.known == COVERED).all())

    def _disprove_rule(self) -> str:
        """Play the next games' first clicks as unprotected; says why, for the log."""
        self._rule_disproved = True
        message = (f"lost the first click, which the first-click rule {self.rule!r} called "
                   "safe: this game does not protect it, so the next games take it as "
                   "'none' (say so for good with play --rule none, or \"first_click_rule\": "
                   "\"none\" in the skin's skin.json)")
        self.observer.on_note(self, message)
        return message

    def _aborted(self, game: _Game, reason: str) -> GameResult:
        return self._result(game, "aborted", reason=reason)

    def _result(self, game: _Game, outcome: str, death_p: float | None = None,
                bv: int | None = None, reason: str = "", mines: int = 0) -> GameResult:
        """``mines``: the count this game's end showed, for a game of no fixed count."""
        seconds = time.monotonic() - game.start
        g = self.geometry
        return GameResult(outcome, g.rows if g else 0, g.cols if g else 0,
                          self.mines if self.mines is not None else mines,
                          game.moves, game.clicks, seconds, max(0.0, seconds - game.waited),
                          death_p, bv, g.skin if g else "", reason, tuple(game.turn_ms))

    def start_next_game(self) -> None:
        """Start a new game the way the game does it (face, Play Again, key) and wait
        until a fresh board is shown. What the game drew over the ended board (a
        message, a dialog) is waited out or closed first, and again when it came late,
        after the restart; a key that went nowhere is pressed again after a click that
        gives the window the focus back."""
        assert self.geometry is not None
        self._restarted = True
        left_over, self._left_over = self._left_over, False
        found_again, self._found_again = self._found_again, False
        self._wait_uncovered(self._last_game)
        restart = self._find_restart()
        for attempt in range(3):
            self._do_restart(restart)
            if self._wait_fresh():
                self._close_end_windows()
                if left_over or found_again:
                    # (the whole board, not the part found; a new game's rows where
                    # they were before the last game moved them: DangerUXB)
                    self._relocate_checked()
                    self._found_again = False
                return
            if self._board_hidden():  # a dialog came late, over the board
                self._wait_uncovered(self._last_game)
            if left_over and not attempt and self._dismiss_beside():
                continue
            if restart.point is not None or not self._focus_board():
                break
        self._relocate_checked()  # the window may have moved or changed while restarting
        if not self._fresh_board():
            raise PlayStopped("no new game appeared after restarting")

    def _dismiss_beside(self) -> bool:
        """Press the game's dismiss keys once, for a dialog the board found does not
        show: what the last run left (kmines' "Reset the Game?" over its lost board:
        only the three columns beside it were found as the board, and the restart key
        went to the dialog). False when the skin names no dismiss key."""
        assert self.geometry is not None
        keys = self.reader.dismiss_keys(self.geometry)
        if keys:
            self.observer.on_note(self, f"no new game came: pressing {'+'.join(keys)} "
                                  "for a dialog left over, then restarting again")
            for k in keys:
                self.mouse.key(k)
            time.sleep(0.3)  # (the dialog closing)
        return bool(keys)

    def _find_restart(self) -> Restart:
        """How to start the next game: the control as the game shows it now (a face
        drawn late is waited for; a dialog hiding it gets the game's dismiss keys)."""
        assert self.geometry is not None
        dismiss = self.reader.dismiss_keys(self.geometry)
        restart = self._restart_seen(0.0 if dismiss else self.config.restart_timeout / 2)
        if restart is None and dismiss:  # the dialog may have come late
            found: list[Restart] = []
            geometry = self.geometry

            def seen() -> bool:
                got = self.reader.restart(self.screen.grab(), geometry)
                found.extend([got] if got else [])
                return bool(got)

            self._dismiss(dismiss, until=seen)
            restart = found[0] if found else None
        if restart is None:
            restart = self._idle_restart()
        if restart is None:
            raise PlayStopped("cannot see how to start a new game")
        return restart

    def _close_end_windows(self) -> None:
        """Once the next game shows: close the windows the game opened beside its board
        (:meth:`bot.mouse.GuardedMouse.close_new_windows`), as a player would."""
        assert self.geometry is not None
        closed = self.mouse.close_new_windows([self._screen_rect(self.geometry.bounds())])
        if closed:
            self.observer.on_note(self, f"closed {closed} window(s) the game opened "
                                  "beside its board")

    def _idle_restart(self) -> Restart | None:
        """The game's face in its in-play look, when the game ended without drawing its
        end face (:meth:`Reader.restart_idle`)."""
        assert self.geometry is not None
        return self.reader.restart_idle(self.screen.grab(), self.geometry)

    def _wait_uncovered(self, ended: _Game | None = None) -> bool:
        """Wait (up to the restart timeout) until every square of the board reads in
        place and the board has stood still (:func:`wait_uncovered`); a cover gets the
        game's dismiss keys, pressed at once, or else Escape after
        :data:`UNCOVER_GRACE` s while part of the board still shows (the cover then lies
        over this game's window: no key goes to another program), or when ``ended``
        (the game played) ended at its last batch (:attr:`_Game.ends`): a window that
        came over the whole board then is the game's end display (minegauler's
        high-scores table at a new best time). Such a window that the keys left in place
        gets one click to take the keyboard focus, then the keys again
        (:meth:`_focus_cover`). No Escape of its own while the cover is the game's own
        end display (:meth:`_own_end_display`). True when the board reads whole."""
        assert self.geometry is not None
        keys = self.reader.dismiss_keys(self.geometry)
        at_end = ended is not None and ended.ends

        def look() -> tuple[Image, np.ndarray]:
            image, geometry = self.capture_board()
            return image, self.read(image, geometry) == UNKNOWN

        seen_at_keys: list[Image] = []
        own_end = False  # (the game's own end display showed in this wait)

        def press(unread: np.ndarray) -> bool:
            nonlocal own_end
            if not keys and (own_end or self._own_end_display()):
                own_end = True  # (what follows it is the game's too: its window
                return False  # replaced by its menu; no key, as calibration learned)
            pressed = keys or (("Escape",) if at_end or not unread.all() else ())
            for k in pressed:
                self.mouse.key(k)
            seen_at_keys[:] = [look()[0]]
            return bool(pressed)

        def again(unread: np.ndarray) -> bool:
            assert ended is not None
            return self._focus_cover(ended, unread, keys or ("Escape",),
                                     seen_at_keys[0] if seen_at_keys else None)

        return wait_uncovered(look, self.config.restart_timeout, press,
                              0.0 if keys else UNCOVER_GRACE,
                              changing=UNCOVER_CHANGING * self.config.restart_timeout,
                              again=again if at_end else None,
                              done=self._end_on_squares if ended is not None and not keys
                              else None)

    def _end_on_squares(self) -> bool:
        """Is the ended board drawn anew on its squares, just its mines left covered
        (:meth:`_only_mines_hidden`), with the control that starts a new game in sight?
        Then nothing will go by itself: the next game may start. ItzAleksG's Tk game
        redraws every opened square light blue at a win and keeps it so until the face
        is clicked; play waited the whole restart timeout after every win. Not a
        message over the board (minesweeper-mvc's "YOU WIN!", then its menu: no square
        reads), nor a game that starts by a key (its control is not seen)."""
        assert self.geometry is not None
        if not self._only_mines_hidden(self.read(*self.capture_board())):
            return False
        found = self.reader.restart(self.screen.grab(), self.geometry)
        return found is not None and found.point is not None

    def _own_end_display(self) -> bool:
        """Does the screen show the game's own end display as its skin learned it (a
        message or window that came over the board at an end, or its new-game control
        standing alone: minesweeper-mvc's "YOU LOSE!", then its menu)? A skin that
        names no dismiss key learned that none closes them: calibration presses Escape
        on every window over an ended board, and names the key when it had an effect.
        Escape there is a surprise key (it quits many pygame games)."""
        assert self.geometry is not None
        image = self.screen.grab()
        return self.reader.end_display(image, self.geometry) is not None or \
            self.reader.restart_alone(image) is not None

    def _focus_cover(self, ended: _Game, unread: np.ndarray, keys: tuple[str, ...],
                     pressed: Image | None) -> bool:
        """Click once on the window that came over most of the board at the end of
        ``ended`` and stayed after the dismiss keys, then press them again: a window
        that opens without the keyboard focus (minegauler's high-scores table with no
        window manager) takes the focus at a click and closes at Escape, as for a user.
        Never blindly: only on a square that was open before the game's last batch (so
        a click there does nothing should the window have gone) and where the window
        shows a flat patch of one colour (no button, text or field of it); and only on
        the cover as it stood there when the keys were pressed (``pressed``, the
        board's capture then): a cover changed since is no window the keys missed
        (minesweeper-mvc's message makes way for its menu, whose flat MEDIUM button lies
        where the board was). False (no click) when no such square shows."""
        assert self.geometry is not None
        if ended.known is None or unread.mean() < 0.5:
            return False
        image, geometry = self.capture_board()
        if geometry.rows != unread.shape[0] or geometry.cols != unread.shape[1]:
            return False
        centre = np.array([(geometry.rows - 1) / 2, (geometry.cols - 1) / 2])
        cells = sorted(((int(r), int(c)) for r, c in np.argwhere(unread & (ended.known >= 0))),
                       key=lambda cell: float(np.hypot(*(np.array(cell) - centre))))
        if pressed is None or pressed.shape != image.shape:
            return False
        for cell in cells:
            r = geometry.cell_rect(cell)
            if not flat_patch(image, r) or not same_pixels(
                    image[r.top:r.top + r.height, r.left:r.left + r.width],
                    pressed[r.top:r.top + r.height, r.left:r.left + r.width]):
                continue
            self.observer.on_note(self, "a window over the board stayed after "
                                  f"{'+'.join(keys)}: clicked it once (where square {cell} "
                                  "is) to give it the keyboard focus")
            self.mouse.click(self.map.to_screen(self.geometry.cell_center(cell)))
            self.park()
            time.sleep(0.2)  # (the window takes the focus once it has the click)
            for k in keys:
                self.mouse.key(k)
            return True
        return False

    def _wait_fresh(self) -> bool:
        """Wait (up to the restart timeout) until the board shows a new game."""
        deadline = time.monotonic() + self.config.restart_timeout
        while time.monotonic() < deadline:
            time.sleep(0.02)
            if self._fresh_board():
                return True
        return False

    def _focus_board(self) -> bool:
        """Click an opened square of the ended game (a click there changes nothing) to
        give the window the keyboard focus back: a dialog that came and went at the
        game's end can leave no window focused (kmines under openbox), and a restart
        key then goes nowhere. False when the board shows no opened square."""
        assert self.geometry is not None
        opened = np.argwhere(self.read(*self.capture_board()) >= 0)
        if not len(opened):
            return False
        cell = (int(opened[0][0]), int(opened[0][1]))
        self.mouse.click(self.map.to_screen(self.geometry.cell_center(cell)))
        self.park()
        return True

    def _restart_seen(self, wait: float) -> Restart | None:
        """The restart control, looked for again until ``wait`` s have passed: a game
        may draw it a moment after the board (WineMine flags every mine at a win, then
        draws the face that starts the next game)."""
        assert self.geometry is not None
        deadline = time.monotonic() + wait
        while True:
            found = self.reader.restart(self.screen.grab(), self.geometry)
            if found is not None or time.monotonic() >= deadline:
                return found
            time.sleep(0.02)

    def _dismiss(self, keys: tuple[str, ...], until: Callable[[], bool]) -> None:
        """Press the game's dismiss keys, then wait (briefly) until ``until()``."""
        for k in keys:
            self.mouse.key(k)
        deadline = time.monotonic() + self.config.restart_timeout / 2
        while not until() and time.monotonic() < deadline:
            time.sleep(0.05)

    def _board_hidden(self) -> bool:
        """Is part of the board covered (unreadable) right now?"""
        return bool((self.read(*self.capture_board()) == UNKNOWN).any())

    def _do_restart(self, restart: Restart) -> None:
        assert self.geometry is not None
        if restart.point is not None:
            half_x, half_y = self.geometry.pitch_x / 2, self.geometry.pitch_y / 2
            rect = PixelRect(round(restart.point.x - half_x), round(restart.point.y - half_y),
                             round(2 * half_x), round(2 * half_y))
            self.mouse.allow([self._screen_rect(self.geometry.bounds()), self._screen_rect(rect)])
            self.mouse.click(self.map.to_screen(restart.point))
            self.mouse.allow([self._screen_rect(self.geometry.bounds())])
            self.park()
        else:
            for keys in restart.keys:
                self.mouse.key(keys)

    def _fresh_board(self) -> bool:
        """Does the board show a new game (readable, no mines or flags, safe squares
        left to open, not reported won or lost)?"""
        image, geometry = self.capture()
        board = self.read(*self.capture_board_from(np.ascontiguousarray(self.board_view(image))))
        if (board == UNKNOWN).any() or np.isin(board, (EXPLODED, MINE, FLAG, WRONG_FLAG)).any():
            return False
        if int(np.isin(board, (COVERED, QUESTION)).sum()) <= (self.mines or 0):
            return False
        if self.mines is None and self._ended_board is not None and \
                np.array_equal(board, self._ended_board):
            return False  # (a won game of no fixed count looks like a game in play)
        return self.reader.status(image, geometry) not in ("won", "lost")

    # ----------------------------------------------------------------- Ctrl+C
    @contextlib.contextmanager
    def _ctrl_c(self) -> Iterator[None]:
        """The first Ctrl+C asks the loop to stop between moves; a second one raises."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return

        def handler(signum: int, frame: Any) -> None:
            if self._stop.is_set():
                raise KeyboardInterrupt
            self._stop.set()

        old = signal.signal(signal.SIGINT, handler)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, old)


def wait_uncovered(look: Callable[[], tuple[Image, np.ndarray]], timeout: float,
                   press: Callable[[np.ndarray], bool] | None = None,
                   press_after: float = 0.0, changing: float | None = None,
                   again: Callable[[np.ndarray], bool] | None = None,
                   done: Callable[[], bool] | None = None) -> bool:
    """Wait (up to ``timeout`` s) until every square of a board reads (``look()``: a
    capture of the board and its unreadable squares) and the board has stood still
    :data:`UNCOVER_SETTLE` s: a message the game drew over it goes by itself (kmines: it
    fades out, and takes the clicks under it until gone). ``press(unread)``, called
    once ``press_after`` s into a cover, may close it (True when it pressed a key).
    Unreadable squares that cover nothing (:func:`covers`: single looks the skin lacks)
    are waited for only :data:`UNCOVER_GRACE` s, once the board stands still. True when
    the board reads whole. Used by play between games and by calibrate at a new game.

    With ``changing`` (s), ``timeout`` counts from the board's last change instead, up to
    ``changing`` s in all: a cover that is still being drawn, replaced or faded is
    waited for (kmines after a fast win: its scores dialog, closed by Escape, then its
    message, which stands 3 s and then fades: over 6 s in all).

    ``again(unread)`` is called (up to :data:`AGAIN_TRIES` times) when a cover still
    stands :data:`AGAIN_AFTER` s after the press (or the last call) and as long since
    the board last changed: a window the keys did not reach (see
    :meth:`Player._focus_cover`); False when it did nothing.

    ``done()``, asked once a cover has stood still :data:`UNCOVER_SETTLE` s, ends the
    wait (False) when nothing is left to wait for (see :meth:`Player._end_on_squares`).
    """
    start = still = time.monotonic()
    pressed, last = press is None, None
    pressed_at, agains, asked = 0.0, 0, -1.0
    while True:
        image, unread = look()
        now = time.monotonic()
        if last is None or not same_pixels(image, last):
            last, still = image, now
        waited, cover = now - start, covers(unread)
        expired = waited >= timeout if changing is None else (
            now - still >= timeout or waited >= changing)
        if not unread.any() and (now - still >= UNCOVER_SETTLE or expired):
            return True
        if expired or (
                unread.any() and not cover and min(waited, now - still) >= UNCOVER_GRACE):
            return False  # (single unreadable squares on a still board: no cover)
        if cover and done is not None and now - still >= UNCOVER_SETTLE and still != asked:
            asked = still  # (once per still spell)
            if done():
                return False
        if cover and not pressed and waited >= press_after and press is not None:
            pressed, pressed_at = press(unread), now
        elif cover and pressed and agains < AGAIN_TRIES and again is not None and \
                min(now - pressed_at, now - still) >= AGAIN_AFTER:
            agains, pressed_at = agains + 1, now
            if not again(unread):
                agains = AGAIN_TRIES  # (nothing to click: no use trying again)
        time.sleep(0.05)


def moved_by(was: BoardGeometry, found: BoardGeometry) -> str:
    """How a board found again lies from where it was, in image pixels (what a stop
    reports).

    >>> was = BoardGeometry("s", 10.0, 20.0, 16.0, 16.0, 9, 9)
    >>> moved_by(was, BoardGeometry("s", 11.0, 20.4, 16.0, 16.0, 9, 9))
    '1 px right, 0 px down, the same pitch'
    >>> moved_by(was, BoardGeometry("s", 4.0, 12.0, 16.5, 16.0, 9, 9))
    '6 px left, 8 px up, pitch 16.50 x 16.00 px for 16.00 x 16.00'
    """
    dx, dy = found.x0 - was.x0, found.y0 - was.y0
    where = (f"{abs(dx):.0f} px {'left' if dx < 0 else 'right'}, "
             f"{abs(dy):.0f} px {'up' if dy < 0 else 'down'}")
    if (found.pitch_x, found.pitch_y) == (was.pitch_x, was.pitch_y):
        return f"{where}, the same pitch"
    return (f"{where}, pitch {found.pitch_x:.2f} x {found.pitch_y:.2f} px for "
            f"{was.pitch_x:.2f} x {was.pitch_y:.2f}")


def flat_patch(image: Image, rect: PixelRect, tol: int = 6) -> bool:
    """Is the middle of ``rect`` (its inner half) in ``image`` one flat colour (within
    ``tol`` per channel): no text, edge or control of a window drawn over it?

    >>> im = np.full((20, 20, 3), 200, np.uint8)
    >>> flat_patch(im, PixelRect(0, 0, 20, 20)), flat_patch(im, PixelRect(30, 0, 20, 20))
    (True, False)
    >>> im[9, 9] = 0
    >>> flat_patch(im, PixelRect(0, 0, 20, 20))
    False
    """
    qx, qy = rect.width // 4, rect.height // 4
    patch = image[max(0, rect.top + qy):rect.top + rect.height - qy,
                  max(0, rect.left + qx):rect.left + rect.width - qx]
    if patch.size == 0 or patch.shape[:2] != (rect.height - 2 * qy, rect.width - 2 * qx):
        return False
    return _colour_range(patch)[1] <= tol


def _colour_range(pixels: Image) -> tuple[np.ndarray, int]:
    """The middle colour of ``pixels`` (per channel, between its lowest and highest)
    and how far apart the lowest and highest are in the channel they differ most in."""
    flat = pixels.reshape(-1, pixels.shape[-1]).astype(int)
    low, high = flat.min(axis=0), flat.max(axis=0)
    return (low + high) // 2, int((high - low).max())


def shows_desktop(screen: Image, rect: PixelRect, tol: int = 6) -> bool:
    """Is ``rect`` of ``screen`` (a screenshot of the whole screen), and a ring of a
    quarter of its size round it, one flat colour (within ``tol`` per channel), the
    colour of some corner of the screen: nothing but the desktop where a window was?

    >>> im = np.full((100, 100, 3), 90, np.uint8)
    >>> shows_desktop(im, PixelRect(40, 40, 20, 20))
    True
    >>> im[45, 45] = 0   # a window's text
    >>> shows_desktop(im, PixelRect(40, 40, 20, 20))
    False
    >>> im[:] = 90; im[30:70, 30:70] = 200   # a flat window, not the desktop's colour
    >>> shows_desktop(im, PixelRect(40, 40, 20, 20))
    False
    """
    h, w = screen.shape[:2]
    mx, my = rect.width // 4, rect.height // 4
    area = screen[max(0, rect.top - my):min(h, rect.top + rect.height + my),
                  max(0, rect.left - mx):min(w, rect.left + rect.width + mx)]
    if area.size == 0:
        return False
    colour, spread = _colour_range(area)
    if spread > tol:
        return False
    corners = screen[[0, 0, h - 1, h - 1], [0, w - 1, 0, w - 1]].astype(int)
    return bool((np.abs(corners - colour).max(axis=1) <= tol).any())


def shows_end(board: Board) -> bool:
    """Does ``board`` show a finished game by itself: a mine shown, or every square
    read and none left covered (a win with its mines flagged)?

    >>> shows_end(np.array([[1, -5], [-1, -1]], np.int8)), shows_end(np.array([[1, -2]], np.int8))
    (True, True)
    >>> shows_end(np.array([[1, -1]], np.int8)), shows_end(np.array([[1, -7]], np.int8))
    (False, False)
    """
    if np.isin(board, (MINE, EXPLODED)).any():
        return True
    return not np.isin(board, (COVERED, QUESTION, UNKNOWN)).any()


def looks_fresh(board: Board) -> bool:
    """Could ``board`` be a game just started: every square read, no mine or flag shown,
    no 0 beside a covered square, at least half the squares covered?

    >>> looks_fresh(np.full((2, 3), COVERED, np.int8))
    True
    >>> looks_fresh(np.array([[0, 0, 0], [-1, -1, -1]], np.int8))  # a margin read as 0s
    False
    >>> looks_fresh(np.array([[-1, -2, -1], [-1, -1, -1]], np.int8))  # a flag
    False
    """
    if np.isin(board, (EXPLODED, MINE, FLAG, WRONG_FLAG)).any() or contradiction(board, None):
        return False  # (contradiction: an unreadable square, a 0 beside a covered one)
    return 2 * count(board, COVERED, QUESTION) >= board.size


def holds(outer: PixelRect, inner: PixelRect, slack: int = 2) -> bool:
    """Does ``outer`` contain ``inner`` (within ``slack`` pixels)?

    >>> holds(PixelRect(0, 0, 100, 50), PixelRect(1, 0, 40, 50)), holds(
    ...     PixelRect(0, 0, 100, 50), PixelRect(0, 10, 40, 50))
    (True, False)
    """
    return (inner.left >= outer.left - slack and inner.top >= outer.top - slack
            and inner.left + inner.width <= outer.left + outer.width + slack
            and inner.top + inner.height <= outer.top + outer.height + slack)


def flags_shown_as_mines(board: Board, known: Board | None) -> bool:
    """Does ``board`` show mines only where ``known`` (the board before the last batch,
    with its flags) has flags, every other square open, no mine hit? That is a win
    shown as some games show it: Tk MineGrid draws each flag on a mine in the look it
    gives a flagged mine at a loss (green), which the skin names a mine. At a loss the
    square hit is neither flagged nor open.

    >>> from solver.textboard import parse_board
    >>> known = parse_board("1F\\n11\\n")
    >>> [flags_shown_as_mines(parse_board(t), known) for t in ("1*\\n11\\n", "*F\\n11\\n")]
    [True, False]
    """
    if known is None or known.shape != board.shape:
        return False
    shown = board == MINE
    if not shown.any() or np.isin(board, (EXPLODED, WRONG_FLAG, UNKNOWN)).any():
        return False
    not_open = ~((board >= 0) & (board <= 8))
    return bool((known[not_open] == FLAG).all())


def mines_shown_at_win(board: Board, clicked: Collection[Cell], mines: int | None) -> bool:
    """Does ``board`` show every square open but mines (and flags), as many as the game
    has (``mines``, if known), no mine hit, and every square the last batch
    ``clicked`` open? That is a win shown as some games show it: every mine drawn
    (deboditray2004's web Minesweeper draws them on green at a win, on red at a loss;
    the skin names both a mine, and play called every win a loss). At a loss the
    square hit shows a mine.

    >>> from solver.textboard import parse_board
    >>> won, lost = parse_board("1*\\n11\\n"), parse_board("1*\\n*1\\n")
    >>> mines_shown_at_win(won, [(1, 0)], 1), mines_shown_at_win(lost, [(1, 0)], None)
    (True, False)
    """
    shown = board == MINE
    if not shown.any() or np.isin(board, (EXPLODED, WRONG_FLAG, UNKNOWN, COVERED,
                                          QUESTION)).any():
        return False
    if any(not 0 <= board[cell] <= 8 for cell in clicked):
        return False
    return mines is None or int(np.isin(board, (MINE, FLAG)).sum()) == mines


def code_counts(board: Board) -> list[int]:
    """How many squares show each code: ``code_counts(board)[code]`` (negative codes
    index from the end, as the list has one entry per code from UNKNOWN to 8).

    >>> counts = code_counts(np.array([[1, -1, -1], [-7, 0, 1]], np.int8))
    >>> counts[COVERED], counts[1], counts[UNKNOWN], counts[FLAG]
    (2, 2, 1, 0)
    """
    shifted = board.ravel().astype(np.intp) - UNKNOWN
    counts = np.bincount(shifted, minlength=9 - UNKNOWN).tolist()
    return counts[-UNKNOWN:] + counts[:-UNKNOWN]


def covers(unread: np.ndarray) -> bool:
    """Do unreadable squares (a mask) look like something over the board: two side by
    side (a message, a dialog), not single looks the skin cannot name (a number or an
    exploded mine calibration never saw)?

    >>> covers(np.array([[True, False, True], [False, False, False]]))
    False
    >>> covers(np.array([[True, False, False], [False, True, False]]))
    True
    """
    return bool((unread & (neighbour_sum(unread) > 0)).any())


def count(board: Board, *codes: int) -> int:
    """How many squares show one of ``codes``.

    >>> count(np.array([[1, -1, -3]], np.int8), COVERED, QUESTION)
    2
    """
    counts = code_counts(board)
    return sum(counts[c] for c in codes)


def message_fills(board: Board) -> bool:
    """Do 9 squares in 10 not read: something (a game's end message) fills the board?

    >>> message_fills(np.full((4, 5), UNKNOWN, np.int8)), message_fills(np.zeros((4, 5), np.int8))
    (True, False)
    """
    return bool((board == UNKNOWN).mean() >= 0.9)


def same_pixels(a: Image, b: Image) -> bool:
    """Are two images identical? (cv2.norm: no temporary array, unlike np.array_equal)

    >>> a = np.zeros((2, 3, 3), np.uint8); b = a.copy(); b[1, 2, 0] = 1
    >>> same_pixels(a, a.copy()), same_pixels(a, b), same_pixels(a, a[:1])
    (True, False, False)
    """
    return a.shape == b.shape and (a.size == 0 or cv2.norm(a, b, cv2.NORM_INF) == 0)


def screen_map(screen: Screen, mouse: Mouse) -> ScreenMap:
    """Image pixels <-> screen points, measured: the screenshot's size over the screen's
    size in points (the monitor's, when the screen knows it, else the mouse's)."""
    origin = getattr(screen, "origin", lambda: (0, 0))()
    points = getattr(screen, "points_size", mouse.size)()
    return ScreenMap.measure(screen.size(), points, origin)
