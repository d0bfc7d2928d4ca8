"""Learn a new skin by playing the game on the screen (``sweepbot calibrate``).

:class:`LiveCalibrator` takes a :class:`bot.screen.Screen` and a :class:`bot.mouse.Mouse`
showing a fresh game of an unknown Minesweeper program and

1. finds the board with no template (:func:`vision.lattice.find_lattice`): the most
   common look at the start is the covered square;
2. right-clicks one square and looks again (flag), again (question mark, if the game
   has them), until it is covered again;
3. plays: random squares until the numbers are known (a lost game shows every mine, so
   every number is counted; :func:`vision.calibrate.label_loss_transition`), then the
   exact solver; flags the last mines if the game wants them flagged to declare a win;
4. watches what changes off the board when a game ends (a face, buttons, a dialog) and
   learns from it how the game shows a win or a loss and how to start a new one
   (clicking the changed control nearest the top of the board; else a key the user
   names once).

Every click lands on the board, except the few tries of a control that changed when the
game ended. Nothing here imports pyautogui or mss: the caller passes screen and mouse.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import cv2
import numpy as np
import numpy.typing as npt

from bot.consistency import zero_beside_covered
from bot.end_panel import panel_controls, panel_over
from bot.frames import changed_cells, park_pixel
from bot.mouse import (
    CLICK_HOLD,
    Button,
    GuardedMouse,
    Mouse,
    MouseStopped,
    ScreenRect,
    WindowClosed,
)
from bot.reader import preset_mines
from bot.screen import Image, Screen, ScreenMap, ScreenPoint
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
from solver.first_click import first_click_note, first_click_rule, opening_unproved
from solver.probability import analyse
from solver.strategies import get_strategy
from vision.calibrate import (
    CellBank,
    IdGrid,
    Learner,
    adjacent_count,
    drawn_covered,
    is_flood,
    label_loss_transition,
    look_distance,
    seen_mine_count,
    whole_pixel,
)
from vision.consistency_labels import name_looks_by_consistency
from vision.cut import screen_cut_message
from vision.flat_board import (
    PART,
    SPLIT_SHARE,
    block_side,
    changed_shares,
    flat_board,
    split_share,
)
from vision.geometry import BoardGeometry, PixelPoint, PixelRect
from vision.lattice import NoBoardError, find_lattice, template_size
from vision.moved_squares import board_again, squares_moved
from vision.occluder import squares_under, window_squares
from vision.popup import changed_pixels, drawn_past, popup_at
from vision.reveal import (
    changed_apart,
    kept_flags,
    label_revealed_frame,
    opened_apart,
    opened_through_zeros,
    revealed_mine_count,
)
from vision.shade import shade_distance

FRESH_TIMEOUT = 1.0
"""Seconds a key or a click on a control has to start a new game."""
FRESH_SLOW_TIMEOUT = 4.0
"""... once the board has begun to change (a new game still being drawn)."""
LATE_GAME_WAIT = 2.0
"""Seconds from a click on a control before the next control is clicked: a new game
drawn later than :data:`FRESH_TIMEOUT` is then still put down to the control that
started it (:meth:`LiveCalibrator._late_game`)."""
DRAWING_GRACE = 1.0
"""Seconds within which a move's drawing must have changed a square not changed before
for the move to count as still being drawn (an animation over the same squares does
not: it is taken as it stands)."""
DRAWING_LIMIT = 12.0
"""Seconds past the usual 2 s that a move still being drawn is waited for."""
OPENED_BY_MARK = ("a {click} opened the square, as a left click does: the game places "
                  "no flag with that button (some flag through a mode button); start "
                  "a new game and calibrate again with --flag-button none to play it "
                  "without flags")
FLAG_BUTTONS = ("auto", "right", "middle", "ctrl+left", "none")
"""``LiveOptions.flag_button``: "auto" tries a right-click, then ctrl+click where the
right-click opens a menu; "none" learns and plays with no flag at all (a game that flags
only through a mode button, as phone games do)."""
MARK_LASTING = 0.15
"""Seconds a mark's look must stay once settled to be learned: a page's button that
ripples at a click may pause mid-way longer than a settle (Chromium painted nothing for
66 ms), and a ripple's look learned as the flag's leaves every real flag unread."""

MOVED_GAMES = 2
"""Games in a row whose squares moved that stop calibration (one is left unread)."""

ASK_RESTART = ("Which key starts a new game in this program (e.g. F2 or ctrl+n)? Or "
               "point the mouse at the control that starts one and press Enter: ")


class CalibrationError(RuntimeError):
    """Calibration cannot go on; the message is one line for the user. ``partial``:
    what the games played so far taught, when calibration stopped at a new game (the
    game quit or closed its window at its end, or no way to start one was found):
    nothing learned is lost."""

    partial: Learned | None = None


class SquaresMoved(CalibrationError):
    """The board's squares are not where they were found: the game draws them at other
    places as it is played (:meth:`LiveCalibrator._check_squares`)."""


MARK_CYCLE = 3
"""Most marks that bring a marked square back to covered (flag, question mark, none)."""


@dataclass(frozen=True)
class LiveOptions:
    """``games``: games to finish at least (more are played, up to ``max_games``, until
    a win and a loss and every state in ``want`` were seen); ``time_limit`` in
    seconds; ``mines``: the mine count if known (else learned from the first lost
    game); ``restart_keys``: the key that starts a new game, if clicking a control
    does not; ``restart_point``: the screen point of the control that starts one, if
    it does not change when a game ends (no control is found then); ``ask``: asks the
    user one question (None: never ask)."""

    games: int = 2
    max_games: int = 40
    want: tuple[int, ...] = (0, 1, 2, 3, 4, 5, WRONG_FLAG)
    time_limit: float = 90.0
    mines: int | None = None
    restart_keys: str | None = None
    restart_point: ScreenPoint | None = None
    ask: Callable[[str], str] | None = None
    seed: int = 0
    redraw_timeout: float = 1.5
    uncover_timeout: float = 6.0  # kmines' message at a win fades out in 2.5-4.5 s
    marked_loss: bool = True
    flag_button: str = "auto"
    grid: tuple[int, int] | None = None
    """The board's rows and columns, given for a board of plain squares with no edge
    between them (:func:`vision.flat_board.flat_board`)."""
    log: Callable[[str], None] = field(default=lambda message: None)

    def __post_init__(self) -> None:
        if self.flag_button not in FLAG_BUTTONS:
            raise ValueError(f"flag_button must be one of {', '.join(FLAG_BUTTONS)}, "
                             f"not {self.flag_button!r}")


@dataclass
class Ending:
    """What the screen looked like just before and just after a game ended."""

    outcome: str  # "won" or "lost"
    before: Image
    after: Image
    shown: Image | None = None
    """A frame of a loss with no panel or dialog over the board yet (Google's panel
    and Windows 7's dialog come over the board after its mines are shown), when
    ``after`` has one."""
    closed: Image | None = None
    """The end once the window ``after`` shows over the board was closed (by Escape):
    what the game itself shows at its end, its face (minegauler's high-scores table
    covers its face and board at a new best time)."""
    unsure: bool = False
    """Taken for a win with nothing to tell it by: a guess that could have won, the
    board then wholly replaced, before any end of either kind was sure
    (:meth:`LiveCalibrator._rejudge`)."""

    @property
    def shown_end(self) -> Image:
        """The end as the game's own window shows it: ``closed`` if a window over it
        was closed, else ``after``."""
        return self.after if self.closed is None else self.closed


MESSAGE_WAIT = 8.0
"""Seconds a message that fills the board at a game's end is waited for to go by
itself when no control to start a new game shows."""

CLOCK_WATCH = 1.2
"""Seconds a change off the board at a win is watched: a clock (ticking each second)
changes again, a win display does not."""


@dataclass
class Learned:
    """The result: templates by state, status and restart sections for the skin,
    and notes for the user."""

    cells: dict[int, tuple[Image, ...]]
    cell_size: tuple[float, float]
    status: dict[str, Any]
    restart: dict[str, Any]
    notes: list[str]
    games: list[str]
    mine_counts: tuple[tuple[tuple[int, int], int], ...] = ()
    """``((rows, cols), mines)`` of every game whose end proved its mine count."""


def changed_blobs(before: Image, after: Image, board: PixelRect, ignore: np.ndarray,
                  min_area: int = 20, buttons_first: bool = True) -> list[PixelRect]:
    """Rectangles outside the board where ``after`` differs from ``before`` (nearby
    changes merged; pixels in ``ignore``, e.g. a ticking clock, left out), button-like
    ones first if ``buttons_first``, then the nearest to the board's top centre."""
    mask = changed_pixels(before, after) & ~ignore
    b = board
    mask[max(0, b.top - 2):b.top + b.height + 2, max(0, b.left - 2):b.left + b.width + 2] = False
    merged = cv2.dilate(mask.astype(np.uint8), np.ones((9, 9), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(merged, connectivity=8)
    out = []
    for x, y, w, h, _area in stats[1:].tolist():
        if int(mask[y:y + h, x:x + w].sum()) >= min_area:
            out.append(PixelRect(x + 4, y + 4, max(1, w - 8), max(1, h - 8)))
    out = [piece for r in out for piece in _controls(after, r, b)]
    top_centre = (b.left + b.width / 2, b.top)
    out.sort(key=lambda r: (buttons_first and not _button_like(after, r),
                            np.hypot(r.left + r.width / 2 - top_centre[0],
                                     r.top + r.height / 2 - top_centre[1])))
    return out


def _button_like(image: Image, r: PixelRect, ring: int = 4) -> bool:
    """Is ``r`` filled with a colour of its own (a button, a face), unlike text, whose
    most common colour is the background around it?"""
    inner = crop(image, r).reshape(-1, 3)
    outer = crop(image, r, ring)
    border = np.concatenate([outer[:ring].reshape(-1, 3), outer[-ring:].reshape(-1, 3),
                             outer[:, :ring].reshape(-1, 3), outer[:, -ring:].reshape(-1, 3)])
    if not len(inner) or not len(border):
        return False
    gap = np.abs(np.median(inner, axis=0) - np.median(border, axis=0)).max()
    return bool(gap > 20)


def _controls(image: Image, r: PixelRect, board: PixelRect) -> list[PixelRect]:
    """A big changed area (a dialog) split into its separate controls and texts; a
    small one as it is."""
    if r.width < 160 or r.height < 80:
        return [r]
    gray = cv2.cvtColor(crop(image, r), cv2.COLOR_BGR2GRAY)
    edges = cv2.dilate(cv2.Canny(gray, 50, 150), np.ones((5, 9), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(edges, connectivity=8)
    pieces = []
    for x, y, w, h, _area in stats[1:].tolist():
        piece = PixelRect(r.left + x, r.top + y, w, h)
        inside = (board.left <= piece.left and piece.left + w <= board.left + board.width
                  and board.top <= piece.top and piece.top + h <= board.top + board.height)
        if 12 <= w <= r.width // 2 and 8 <= h <= 80 and not inside:
            pieces.append(piece)
    return pieces or [r]


def crop(image: Image, r: PixelRect, margin: int = 0) -> Image:
    """The rectangle (grown by ``margin``, clipped to the image) out of ``image``."""
    top, left = max(0, r.top - margin), max(0, r.left - margin)
    return np.ascontiguousarray(image[top:r.top + r.height + margin,
                                      left:r.left + r.width + margin])


def _anchor(v: float, start: int, length: int) -> float:
    """The nearest of the board's start (0), centre line (0.5) or end (1) to ``v``."""
    return min((0.0, 0.5, 1.0), key=lambda f: abs(start + f * length - v))


def relative_region(r: PixelRect, board: PixelRect, margin: int) -> list[list[float]]:
    """``r`` grown by ``margin`` in vision.status's ``region`` format
    ``[[fx, dx0, fy, dy0], [fx, dx1, fy, dy1]]``, anchored to the nearest of the board's
    edges or centre lines (so a face centred above the board stays found when the
    board is another size).

    >>> relative_region(PixelRect(90, 10, 20, 20), PixelRect(0, 50, 200, 100), 5)
    [[0.5, -15.0, 0.0, -45.0], [0.5, 15.0, 0.0, -15.0]]
    """
    fx = _anchor(r.left + r.width / 2, board.left, board.width)
    fy = _anchor(r.top + r.height / 2, board.top, board.height)
    ax, ay = board.left + fx * board.width, board.top + fy * board.height
    return [[fx, float(r.left - margin - ax), fy, float(r.top - margin - ay)],
            [fx, float(r.left + r.width + margin - ax), fy,
             float(r.top + r.height + margin - ay)]]


def side_region(r: PixelRect, board: PixelRect, margin: int) -> list[list[float]]:
    """Like :func:`relative_region`, but a control wholly beside the board (a button
    column to its right, a face above it) gets a band along the board's whole side:
    it stays found when the board is another size and the control moves along.

    >>> side_region(PixelRect(220, 60, 40, 20), PixelRect(0, 50, 200, 100), 5)
    [[1.0, 15.0, 0.0, -5.0], [1.0, 65.0, 1.0, 5.0]]
    """
    rel = relative_region(r, board, margin)
    right, bottom = board.left + board.width, board.top + board.height
    if r.left >= right or r.left + r.width <= board.left:  # beside: span the height
        rel[0][2:] = [0.0, float(-margin)]
        rel[1][2:] = [1.0, float(margin)]
    elif r.top >= bottom or r.top + r.height <= board.top:  # above or below: the width
        rel[0][:2] = [0.0, float(-margin)]
        rel[1][:2] = [1.0, float(margin)]
    return rel


class LiveCalibrator:
    """Plays a game it does not know yet until it knows what every square looks like."""

    def __init__(self, screen: Screen, mouse: Mouse, options: LiveOptions = LiveOptions(),
                 base: dict[int, Sequence[Image]] | None = None) -> None:
        self.screen = screen
        self.mouse = GuardedMouse(mouse)
        self.opts = options
        self.base = base or {}
        self.rng = np.random.default_rng(options.seed)
        self.start = time.monotonic()
        self.user_seconds = 0.0
        """Time spent waiting for the user's answer (not calibration time)."""
        self.geometry: BoardGeometry | None = None
        self.learner: Learner | None = None
        self.map = ScreenMap()
        self.mines: int | None = options.mines
        """The game's mine count, None while unknown or once games proved different
        counts (:attr:`proved_counts`)."""
        self.proved_counts: list[int] = []
        """The count each game's end proved (:meth:`_proved_count`), in order."""
        self.count_doubted = False
        """This game's board contradicts :attr:`mines` (a game of another count)."""
        self.changes: np.ndarray | None = None
        self._volatile = np.zeros((1, 1), bool)
        self.endings: list[Ending] = []
        self.restart: dict[str, Any] = {}
        self.restart_rects: list[PixelRect] = []
        self.told: PixelRect | None = None  # the control at --restart-at, once it worked
        self.restart_shots: list[Image] = []
        self.clicked_alone: list[bool] = []  # per control click that started a game:
        # it lay where the board's squares are (a menu, a dialog over the board)
        self._last_click: tuple[PixelRect, Image] | None = None  # (the control, its shot)
        self._last_click_at = 0.0  # when (time.monotonic)
        self.start_image: Image | None = None
        self.candidates: list[int] = []
        self.win_needs_flags = False
        self.flag_button: Button = "right" if options.flag_button in ("auto", "none") \
            else cast(Button, options.flag_button)
        """How the game places a flag: a right-click, or a ctrl+click where a right-click
        opens a menu (:meth:`learn_marks`), or the button the user named."""
        self.places_flags = options.flag_button != "none"
        """False: no flag is ever placed (the user's ``--flag-button none``)."""
        self.plain_board = False
        """The board is one plain rectangle split by the size the user gave (``grid``)."""
        self._before_mark: Image | None = None
        """The frame before the last mark (:meth:`_mark_cycle`)."""
        self.marked_cells: set[Cell] = set()
        """Every square marked with :attr:`flag_button` so far."""
        self.flag_truth: dict[Cell, bool] = {}
        """Flags of this game placed where the board proved a mine (True) or a safe
        square (False): :meth:`_mark_and_lose`; a loss tells by them how the game draws
        a flag on a mine and a wrong one (:func:`vision.calibrate.flags_at_loss`)."""
        self.keeps_unseen_marks = False
        """A square took a left click only after a right click: the game keeps marks
        it does not draw (:meth:`_clear_unseen_mark`)."""
        self.side_floods = 0
        """Moves after which the board showed a 0 with a covered square diagonal to it
        and none beside it (:meth:`_note_opened`)."""
        self.first_clicks: list[str] = []
        self._windows_seen: dict[int, tuple[Image, npt.NDArray[np.bool_]]] = {}
        """Frames (by id) and the squares a window covers in each (:meth:`_window_on`)."""
        self._x_windows: dict[int, tuple[Image, list[tuple[float, float, float, float]]]] = {}
        """Frames (by id) taken while the window system showed windows over the board,
        and their boxes (:meth:`_note_windows`)."""
        self.first_click_sides: list[int] = []
        """How many neighbours each game's first clicked square has."""
        self.notes: list[str] = []
        self.results: list[str] = []
        self.marked_loss = False
        self.dismissed = False
        self.covers_stay = False
        """A cover over the whole ended board stood :data:`MESSAGE_WAIT` s: Escape it at
        once from then on (:meth:`_close_dialog`)."""
        self.end_keys: list[str] = []  # the keys pressed at the last end to close a cover
        self.control_clicks = 0
        """Clicks off the board so far (controls tried or known to start a game)."""
        self.ended_codes: np.ndarray | None = None  # the ended game's board, at a restart
        self._last_image: Image | None = None
        self.steps: list[Image] = []
        """Frames the board went through during the last :meth:`wait_change` (the
        first three and the last five)."""
        self.play_frames: list[IdGrid] = []
        """Frames of play, to name numbers by consistency (see :meth:`_hidden_loss`)."""
        self.hidden_losses = 0
        self.last_risk = 0.0
        self.cover_ends: list[tuple[str, Image]] = []
        """The board's region at ends shown by a message filling the board whose
        outcome the move told for sure (:meth:`_lost_under_cover`)."""
        """The chance that the last move hit a mine, as :meth:`choose` rated it."""
        self.game_seconds: list[float] = []
        """How long each game took, with the restart before it."""
        self._shade_pairs: dict[tuple[int, int], bool] = {}
        self.game_start: IdGrid | None = None
        """The frame at the start of this game (see :func:`never_opened`)."""
        self.opened = np.zeros((1, 1), bool)
        """Squares this game opened around the squares clicked (or showed open at its
        start): what a win leaves uncovered (see :meth:`_unexplained`)."""
        self.focus_cells: list[Cell] = []
        """The squares clicked at the last move of this game (see :meth:`_focus_kept`)."""
        self.moved_in_a_row = 0
        """Games left unread in a row because their squares moved (:meth:`_game_in_place`)."""

    # ------------------------------------------------------------------ helpers
    @property
    def g(self) -> BoardGeometry:
        assert self.geometry is not None
        return self.geometry

    @property
    def L(self) -> Learner:  # noqa: N802
        assert self.learner is not None
        return self.learner

    def log(self, message: str) -> None:
        self.opts.log(message)

    def grab(self) -> Image:
        image = self.screen.grab()
        self._last_image = image
        if self.geometry is not None:
            self._note_windows(image)
        return image

    def _note_windows(self, image: Image) -> None:
        """Keep the boxes (image pixels) of the windows the window system shows over
        the board as ``image`` is taken (:meth:`bot.mouse.GuardedMouse.windows_over`),
        for :meth:`_window_on`; where it cannot tell, nothing is kept."""
        rects = self.mouse.windows_over(self.board_rect())
        if not rects:
            return
        boxes = []
        for r in rects:
            a = self.map.to_pixel(ScreenPoint(r.left, r.top))
            b = self.map.to_pixel(ScreenPoint(r.left + r.width, r.top + r.height))
            boxes.append((a.x, a.y, b.x, b.y))
        while len(self._x_windows) >= 64:
            self._x_windows.pop(next(iter(self._x_windows)))
        self._x_windows[id(image)] = (image, boxes)

    def ids(self, image: Image) -> IdGrid:
        return self.L.ids(image, self.g)

    def point(self, p: PixelPoint) -> Any:
        return self.map.to_screen(p)

    def board_rect(self) -> ScreenRect:
        b = self.g.bounds()
        a = self.point(PixelPoint(b.left, b.top))
        c = self.point(PixelPoint(b.left + b.width, b.top + b.height))
        return ScreenRect(a.x, a.y, c.x - a.x, c.y - a.y)

    def park(self) -> None:
        """Move the pointer just off the board (:func:`bot.frames.park_pixel`)."""
        gap = max(5.0, min(self.g.pitch_x / 2, 10.0))
        p = park_pixel(self.g.bounds(), gap, self.screen.size())
        if p is None:
            raise CalibrationError("the board fills the screen: nowhere to park the pointer")
        self.mouse.move(self.point(p))

    def click_cell(self, cell: Cell, button: Button = "left") -> None:
        if button != "left" and button == self.flag_button:
            self.marked_cells.add(cell)
        self.mouse.allow([self.board_rect()])
        self.mouse.click(self.point(self.g.cell_center(cell)), button, square=True)

    def wait_change(self, before: Image, settle: float = 0.06,
                    timeout: float | None = None) -> Image | None:
        """The frame once the board differs from ``before`` and then stays the same
        for ``settle`` seconds (games may redraw in steps); None if the board did not
        change within the redraw timeout. A board still changing 2 s past the timeout
        is taken as it stands, unless more of its squares differ from ``before`` than
        ever within the last :data:`DRAWING_GRACE` s (a move drawn square by square on
        a loaded machine: a frame of it half drawn reads as a loss), for at most
        :data:`DRAWING_LIMIT` s more."""
        b = self.g.bounds()
        local = self.g.shifted(-b.left, -b.top)
        deadline = time.monotonic() + (self.opts.redraw_timeout if timeout is None else timeout)
        first = last = crop(before, b)
        changed_at: float | None = None
        most, grown_at = 0, 0.0
        self.steps = []
        while True:
            now_t = time.monotonic()
            frame = self.grab()
            now = crop(frame, b)
            if not np.array_equal(now, last):
                changed_at, last = now_t, now
                # the first frames and the last: a window drawn over the board in
                # many steps (kmines' dialog, placed by the window manager) must not
                # push out the frame that showed the board before it came
                self.steps = [*self.steps[:3], *self.steps[3:][-4:], frame]
                if now_t > deadline:  # (only a slow move pays for counting squares)
                    grown = int(changed_cells(first, now, local).sum())
                    if grown > most:
                        most, grown_at = grown, now_t
            elif changed_at is not None and now_t - changed_at >= settle:
                return frame
            if changed_at is None and now_t > deadline:
                return None
            if changed_at is not None and now_t > deadline + 2.0 and (
                    now_t - grown_at > DRAWING_GRACE
                    or now_t > deadline + 2.0 + DRAWING_LIMIT):
                return frame  # still animating: take what is there
            time.sleep(0.008)

    def _settled(self, before: Image, settle: float = 0.06) -> Image:
        """The frame :meth:`wait_change` settles on, or a fresh one if the board did
        not change."""
        after = self.wait_change(before, settle=settle)
        return self.grab() if after is None else after

    def _clear_unseen_mark(self, cell: Cell, image: Image) -> Image | None:
        """A covered square ignored two left clicks: the game may keep a mark there
        that it does not draw (PyMines keeps every square flagged when a game ended
        flagged in the next game: a left click there does nothing, a right click takes
        the mark off unseen). Right-click it: when nothing shows, left-click it again
        and return the frame that click changed to (None if none). When a mark shows,
        the game draws its marks: right-click it back to covered (through its mark
        cycle) and return None."""
        self.click_cell(cell, self.flag_button)
        self.park()
        shown = self.wait_change(image)
        if shown is None:
            self.click_cell(cell)
            self.park()
            after = self.wait_change(image)
            if after is not None:
                self.keeps_unseen_marks = True
                self.log(f"square {cell} took a left click only after a right click: the "
                         "game kept a mark there it did not draw")
            return after
        shown = self._lasting(shown, cell)  # (not a passing effect's frame)
        for _ in range(2):  # flag -> (question mark ->) covered; anything else: no click
            if self.knowledge(self.ids(shown))[cell] not in (FLAG, QUESTION):
                break
            self.click_cell(cell, self.flag_button)
            self.park()
            shown = self._lasting(self._settled(shown), cell)
        return None

    def _may_hold_unseen_mark(self, board: Board, cell: Cell, ids: IdGrid, image: Image,
                              last: tuple[IdGrid, IdGrid, Image, Image, list[Cell]] | None
                              ) -> bool:
        """May ``cell``, which ignored two left clicks, hold a mark the game does not
        draw (:meth:`_clear_unseen_mark`)? Only a covered square on a board as it was
        (nothing drawn since), with the flag's look known (the right click shows a
        flag), and nothing over the board (no window, no square showing what nobody
        opened): else the game has ended, and no more clicks go to it."""
        return board[cell] == COVERED and FLAG in self.L.known().values() and \
            self._unchanged(image) and self._unexplained(ids).sum() < 2 and \
            (last is None or not window_over(ids, self.L.known(), last[0]).any())

    def _unchanged(self, before: Image) -> bool:
        """Whether the board's pixels are still those of ``before`` (a fresh frame)."""
        b = self.g.bounds()
        return bool(np.array_equal(crop(self.grab(), b), crop(before, b)))

    def time_left(self) -> float:
        return self.opts.time_limit - (time.monotonic() - self.start - self.user_seconds)

    # ------------------------------------------------------------------ start
    def _steady(self, timeout: float = 1.5) -> Image:
        """The screen once two frames 0.1 s apart are the same (a window just mapped
        may still be drawing), or the last frame after ``timeout`` seconds."""
        image = self.grab()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            time.sleep(0.1)
            again = self.grab()
            if again.shape == image.shape and np.array_equal(again, image):
                break
            image = again
        return image

    def find_board(self) -> IdGrid:
        image = self._steady()
        self.start_image = image
        g = self._board_in(image)
        cut = screen_cut_message(image, g)
        if cut:
            raise CalibrationError(cut)
        self.geometry = g
        self.learner = Learner(template_size(g), CellBank(strict=whole_pixel(g)))
        if self.base:
            self.L.seed(self.base)
        h, w = image.shape[:2]
        origin = getattr(self.screen, "origin", lambda: (0, 0))()
        self.map = ScreenMap.measure((w, h), self.mouse.size(), origin)
        self.changes = np.zeros((h, w), np.int16)
        self._volatile = np.zeros((h, w), bool)
        ids = self.ids(image)
        looks, counts = np.unique(ids, return_counts=True)
        if counts.max() < 0.4 * ids.size and not one_region_open(ids):
            raise CalibrationError("the board is not at the start of a game: "
                                   "start a new game, then run calibrate again")
        self.candidates = [int(lk) for lk, n in sorted(zip(looks, counts, strict=True),
                                                       key=lambda p: -p[1])
                           if n >= 0.15 * ids.size][:2]
        self.log(f"board: {g.rows} rows x {g.cols} columns, pitch {g.pitch_x:.2f} x "
                 f"{g.pitch_y:.2f} px at ({g.x0:.0f}, {g.y0:.0f})")
        self.mouse.watch_window(self.point(g.bounds().centre()))
        self.park()
        return ids

    def _board_in(self, image: Image) -> BoardGeometry:
        """The board's lattice in ``image``: the squares the lines or shades between
        them part (:func:`vision.lattice.find_lattice`) or, with the board's size given
        (``grid``) and no such lattice of that size, the one plain rectangle that
        splits into as many squares (:func:`vision.flat_board.flat_board`)."""
        grid = self.opts.grid
        try:
            g = find_lattice(image)
            if grid is None or (g.rows, g.cols) == grid:
                return g
        except NoBoardError as exc:
            if grid is None:
                raise CalibrationError(
                    f"{exc}; open a fresh game of the program first (the board is found by "
                    "the lines or shades that part its squares; for a board drawn as one "
                    "plain colour, with no edge between its squares, give its size with "
                    "--grid ROWSxCOLS)") from None
        try:
            g = flat_board(image, *grid)
        except NoBoardError as exc:
            raise CalibrationError(f"{exc}; open a fresh game of the program, "
                                   f"{grid[0]} x {grid[1]} squares, first") from None
        self.plain_board = True
        return g

    def _check_given_size(self, before: Image, after: Image) -> None:
        """On a plain board split by the size the user gave: stop when the squares the
        first click opened are cut by the lattice (:func:`vision.flat_board.split_share`),
        or make whole k x k blocks of it (:func:`vision.flat_board.block_side`: 32x32
        given for a 16x16 board): the size given is not the board's."""
        if not self.plain_board:
            return
        rows, cols = self.g.rows, self.g.cols
        if split_share(before, after, self.g) >= SPLIT_SHARE:
            raise CalibrationError(
                f"the squares the first click opened do not line up with a board of "
                f"{rows} x {cols} squares: is --grid the board's size in "
                "squares (rows x columns)?")
        k = block_side(changed_shares(before, after, self.g) >= 0.5)
        if k is not None:
            raise CalibrationError(
                f"the squares the first click opened make whole blocks of {k} x {k} of "
                f"the {rows} x {cols} squares given: is the board {rows // k} x {cols // k} "
                "squares (--grid)?")

    def learn_marks(self, ids: IdGrid) -> IdGrid:
        """Find the covered look (the common look a right-click changes; a game that
        opened a big region by itself may show more 0s than covered squares), then
        right-click that square until it is covered again: flag, question mark. A game
        that highlights the square under the pointer shows each of these looks
        highlighted too: learned while the pointer is on the square. Where the
        right-click opens a menu at the pointer instead (a browser's, over a web game
        that flags by ctrl+click), the menu is closed and ctrl+click is tried."""
        image = self._last_image
        assert image is not None
        if not self.places_flags:
            return self._covered_without_marks(ids)
        fresh = ids
        seen: list[tuple[int, ...]] = []
        for covered in self.candidates:
            cell = self._quiet_cell(ids, covered)
            hovered = self._hover(cell, image)
            if hovered is not None:
                image = hovered
            unmarked = image
            seen, image = self._mark_cycle(cell, image, covered, hovered is not None)
            if seen and int(self.ids(image)[cell]) != covered:
                seen, image = self._end_cycle(cell, image, covered, hovered is not None, seen)
            if not seen and self.opts.flag_button == "auto" and \
                    self._menu_opened(cell, image):
                image = self._close_menu(cell)
                seen, image = self._ctrl_click_marks(cell, image, covered, hovered is not None)
            ids = self.ids(image)
            if seen:
                self.L.name(covered, COVERED, weight=1000)
                if hovered is not None:
                    self.L.name(int(self.ids(hovered)[cell]), COVERED, weight=100)
                break
        if not seen:
            left_open = " Something it drew off the board at the pointer is still there " \
                "(a menu?): close it first." if self.candidates and \
                self._drawn_past_board(unmarked, image, cell) else ""
            if not left_open and not self.mouse.hold:
                return self._marks_held(fresh)
            raise CalibrationError(f"a {self._flag_words()} on the board changed nothing (or "
                                   "changed squares far from it, say opened them as a left "
                                   "click does): is the game's window in front "
                                   "and not paused, is the board at the start of a game, "
                                   "and does the game take mouse clicks at all (a terminal "
                                   "game may take keys only)? A game that flags with "
                                   "another button: --flag-button middle or ctrl+left; "
                                   "with none (a mode button), or none before the "
                                   "game's first click: --flag-button none."
                                   + left_open + self._split_hint(unmarked, image, cell))
        for looks, code in zip(seen, (FLAG, QUESTION), strict=False):
            for look in looks:
                self.L.name(look, code, weight=100)
        if len(seen) < 2:
            self.notes.append("no question marks: the game cycles flag -> none")
        others = [lk for lk in self._covered_shades(fresh) if lk != covered]
        for look in others:  # (the other shade of a checkerboard)
            self.L.name(look, COVERED, weight=1000)
        if others and hovered is not None:  # (on squares still covered: minex's mark
            self._learn_hover(self.ids(image), image, others)  # may have started a game)
        self.park()
        return ids

    def _split_hint(self, before: Image, after: Image, cell: Cell) -> str:
        """On a plain board split by the size the user gave, when marks on ``cell``
        changed a square next to it but not it: the game marked its own square, bigger
        than the one given (32x32 given for the pygame game's 16x16 board drew the flag
        on the next squares given)."""
        if not self.plain_board:
            return ""
        touched = changed_shares(before, after, self.g) > PART[0]
        r, c = cell
        if touched[cell] or not touched[max(0, r - 1):r + 2, max(0, c - 1):c + 2].any():
            return ""
        return (f" It changed a square next to the one clicked: is --grid the board's size "
                f"in squares? {self.g.rows}x{self.g.cols} may split each square in smaller "
                "ones.")

    def _marks_held(self, ids: IdGrid) -> IdGrid:
        """:meth:`learn_marks` again, the pointer held :data:`CLICK_HOLD` on each
        square clicked, after marks that left the square at once did nothing: a game
        that asks where the pointer is once a frame (pygame) took them for wherever
        the pointer was by then. Play holds clicks as long (``click_hold``)."""
        self.mouse.hold = CLICK_HOLD
        self.log(f"a {self._flag_words()} changed nothing: trying again with the pointer "
                 f"held {CLICK_HOLD:.2f} s on each square clicked")
        try:
            ids = self.learn_marks(ids)
        except CalibrationError:
            self.mouse.hold = 0.0
            raise
        if self._quick_mark_taken(ids):  # (the first one was lost some other way)
            self.mouse.hold = 0.0
            self.log("a quick mark on another square was taken too: no hold")
        return ids

    def _quick_mark_taken(self, ids: IdGrid) -> bool:
        """Does a mark whose pointer leaves at once change a covered square after all
        (the first marks were lost some other way, a game slow to answer)? Such a mark
        is taken off again (marked until covered). The pointer hold stays off only if
        so."""
        covered = [lk for lk, code in self.L.known().items() if code == COVERED and
                   (ids == lk).any()]
        if not covered:
            return False
        cell = self._quiet_cell(ids, covered[0])
        image = self.grab()
        self.mouse.hold = 0.0
        self.click_cell(cell, self.flag_button)
        self.park()
        after = self.wait_change(image)
        if after is None or self.ids(after)[cell] == covered[0]:
            self.mouse.hold = CLICK_HOLD
            return False
        for _ in range(MARK_CYCLE):
            self.click_cell(cell, self.flag_button)
            self.park()
            again = self.wait_change(after)
            after = after if again is None else again
            if self.ids(after)[cell] == covered[0]:
                break
        return True

    def _flag_words(self) -> str:
        return {"right": "right-click", "middle": "middle-click",
                "ctrl+left": "ctrl+click", "left": "click"}[self.flag_button]

    def _covered_without_marks(self, ids: IdGrid) -> IdGrid:
        """With no flags to place (``--flag-button none``), the covered look is the one
        look of a fresh board: every square covered (a board that opened a region by
        itself cannot tell its covered look from its 0 without a mark)."""
        covered = self._covered_shades(ids)
        if not np.isin(ids, covered).mean() >= 0.95:
            raise CalibrationError("with --flag-button none, calibrate needs a fresh game "
                                   "with every square covered: start a new game, then run "
                                   "calibrate again")
        for look in covered:
            self.L.name(look, COVERED, weight=1000)
        image = self._last_image
        assert image is not None
        self._learn_hover(ids, image, covered)
        self.notes.append("no flags (--flag-button none): calibration and play place none")
        self.log("no flags: the covered look is the fresh board's")
        return ids

    def _covered_shades(self, ids: IdGrid) -> list[int]:
        """The looks of the covered squares of the fresh board ``ids``: its commonest
        look, or the two shades of a checkerboard (Google's look; minex)."""
        if len(self.candidates) > 1 and checkerboard(ids, *self.candidates[:2]):
            return self.candidates[:2]
        return self.candidates[:1]

    def _learn_hover(self, ids: IdGrid, image: Image, looks: Sequence[int]) -> Image:
        """Name covered what a square of each of ``looks`` (covered) shows under the
        pointer, where the game highlights it (each shade of a checkerboard has its own
        highlight, and minex keeps one on the square clicked last into the next game);
        the last frame, with the pointer parked."""
        for look in looks:
            if not (ids == look).any():
                continue
            cell = self._quiet_cell(ids, look)
            hovered = self._hover(cell, image)
            if hovered is not None:
                self.L.name(int(self.ids(hovered)[cell]), COVERED, weight=100)
                image = hovered
            self.park()
            parked = self._short_wait(image)  # (the highlight gone)
            image = image if parked is None else parked
        return image

    def _mark_cycle(self, cell: Cell, image: Image, covered: int, hover: bool,
                    ) -> tuple[list[tuple[int, ...]], Image]:
        """Mark ``cell`` (with :attr:`flag_button`) until it shows ``covered`` again, up
        to 4 times: the looks of each mark, and the last frame (:attr:`_before_mark`
        is the frame before the last click)."""
        seen: list[tuple[int, ...]] = []
        for _ in range(4):
            self._before_mark = image
            looks, image = self._mark_look(cell, image, hover)
            if not looks or looks[-1] == covered:
                break
            seen.append(looks)
        return seen, image

    def _end_cycle(self, cell: Cell, image: Image, covered: int, hover: bool,
                   seen: list[tuple[int, ...]]) -> tuple[list[tuple[int, ...]], Image]:
        """The mark cycle stopped on a look that is not ``covered``: a right-click the
        game dropped, so mark ``cell`` on until it is covered again; a square that
        takes no more right-clicks was opened by the first one (as a left click
        opens it: Kivy's buttons) and calibration stops."""
        more, image = self._mark_cycle(cell, image, covered, hover)
        if int(self.ids(image)[cell]) != covered:
            raise CalibrationError(OPENED_BY_MARK.format(click=self._flag_words()))
        return seen + more, image

    def _menu_opened(self, cell: Cell, image: Image) -> bool:
        """Did the last right-click on ``cell`` open a menu at the pointer (and not a
        mark)? Only tried with right-clicks."""
        before = self._before_mark
        if self.flag_button != "right" or before is None or before.shape != image.shape:
            return False
        return popup_at(before, image, self.g.cell_center(cell),
                        min_side=1.5 * min(self.g.pitch_x, self.g.pitch_y),
                        near=max(6.0, self.g.pitch_x / 4)) is not None

    def _drawn_past_board(self, before: Image, image: Image, cell: Cell) -> bool:
        """Have the mark clicks on ``cell`` left something drawn from next to it to
        past the board's edge, from ``before`` them to ``image`` (a popup not taken for
        a menu: calibration closes none of those, so the user is told)?"""
        pitch = max(self.g.pitch_x, self.g.pitch_y)
        return before.shape == image.shape and drawn_past(
            before, image, self.g.cell_center(cell), self.g.bounds(), reach=2 * pitch,
            least=2 * self.g.pitch_x * self.g.pitch_y)

    def _close_menu(self, cell: Cell) -> Image:
        """Press Escape and wait until the board shows as before the menu opened (but
        for ``cell``, which may have been highlighted under the pointer)."""
        assert self._before_mark is not None
        was = self.ids(self._before_mark)
        others = np.ones(was.shape, bool)
        others[cell] = False
        self.mouse.key("Escape")
        deadline = time.monotonic() + max(1.0, self.opts.redraw_timeout)
        while time.monotonic() < deadline:
            time.sleep(0.05)
            now = self.grab()
            if (self.ids(now) == was)[others].all():
                self.log("a right-click opened a menu over the board (closed with Escape): "
                         "trying ctrl+click for flags")
                return now
        raise CalibrationError("a right-click opened a menu over the board and Escape did "
                               "not close it: close it, start a new game, then run "
                               "calibrate again")

    def _ctrl_click_marks(self, cell: Cell, image: Image, covered: int, hover: bool,
                          ) -> tuple[list[tuple[int, ...]], Image]:
        """The looks ctrl+click marks ``cell`` with, once it has come back to
        ``covered`` (then :attr:`flag_button` stays "ctrl+left"), and the last frame; a
        game that opened the square instead stops calibration (it would read as a
        flag)."""
        self.flag_button = "ctrl+left"
        seen, image = self._mark_cycle(cell, image, covered, hover)
        if seen and int(self.ids(image)[cell]) == covered:
            self.notes.append("flags are placed with ctrl+click (a right-click opens a menu)")
            return seen, image
        self.flag_button = "right"
        raise CalibrationError("a right-click opened a menu over the board, and ctrl+click "
                               "did not mark the square either: sweepbot learns flags "
                               "placed by a right-click or a ctrl+click")

    def _hover(self, cell: Cell, image: Image) -> Image | None:
        """Move the pointer onto ``cell``: the frame if the game highlights it, else
        None (the pointer is left there)."""
        self.mouse.allow([self.board_rect()])
        self.mouse.move(self.point(self.g.cell_center(cell)))
        after = self._short_wait(image)
        return after if after is not None and int(self.ids(after)[cell]) != \
            int(self.ids(image)[cell]) else None

    def _short_wait(self, image: Image, timeout: float = 0.4) -> Image | None:
        return self.wait_change(image, timeout=min(timeout, self.opts.redraw_timeout))

    def _mark_look(self, cell: Cell, image: Image, hover: bool,
                   ) -> tuple[tuple[int, ...], Image]:
        """Mark ``cell`` (a right-click, or :attr:`flag_button`): its looks afterwards
        (highlighted under the pointer, if ``hover``, then with the pointer parked) and
        the last frame; no looks if nothing changed, or if squares away from it changed
        too (a mark changes its own square: a terminal's grid of one character
        highlights text from its top-left corner to the pointer)."""
        was = self.ids(image)
        looks, image = self._mark_looks(cell, image, hover)
        far = np.ones(was.shape, bool)
        far[max(0, cell[0] - 1):cell[0] + 2, max(0, cell[1] - 1):cell[1] + 2] = False
        if looks and int((far & (self.ids(image) != was)).sum()) > 2:
            return (), image
        return looks, image

    def _mark_looks(self, cell: Cell, image: Image, hover: bool,
                    ) -> tuple[tuple[int, ...], Image]:
        self.click_cell(cell, self.flag_button)
        looks: list[int] = []
        if hover:
            after = self.wait_change(image)
            if after is None:
                return (), image
            looks.append(int(self.ids(after)[cell]))
            image = after
        self.park()
        after = self.wait_change(image) if not hover else self._short_wait(image, 1.0)
        if after is None and not hover:
            return (), image
        if after is not None:
            image = self._lasting(after, cell)
            looks.append(int(self.ids(image)[cell]))
        return tuple(looks), image

    def _lasting(self, frame: Image, cell: Cell) -> Image:
        """``frame``, or the board it settles on next if ``cell`` looks different
        :data:`MARK_LASTING` s later (a passing effect that paused mid-way)."""
        time.sleep(MARK_LASTING)
        if int(self.ids(self.grab())[cell]) == int(self.ids(frame)[cell]):
            return frame
        return self._settled(frame)

    @staticmethod
    def _quiet_cell(ids: IdGrid, look: int) -> Cell:
        """A square of ``look`` among squares of the same look (not at a region's edge)."""
        same = (adjacent_count_same(ids, look) == 8) & (ids == look)
        cells = np.argwhere(same) if same.any() else np.argwhere(ids == look)
        r, c = cells[len(cells) // 2]
        return int(r), int(c)

    # ------------------------------------------------------------------ play
    def knowledge(self, ids: IdGrid) -> Board:
        return self.L.codes(ids, UNKNOWN)

    def choose(self, board: Board) -> tuple[list[Cell], float]:
        """Squares to open next and the risk taken; none when only mines are left."""
        covered = [(int(r), int(c)) for r, c in np.argwhere(np.isin(board, (COVERED, QUESTION)))]
        flags = int((board == FLAG).sum())
        if not covered:
            return [], 0.0
        # calibration's own flags are no knowledge (a random one is there to be shown
        # wrong at a loss): the solver takes a flagged square as covered
        board = self._opened_unread(np.where(board == FLAG, COVERED, board).astype(np.int8))
        if self.mines is not None and len(covered) + flags <= self.mines:
            if not proves_safe(board):
                return [], 0.0  # only mines are left
            self._doubt_count("the board proves a covered square safe")
        probe = self._first_click_probe(board)
        density = self._density()
        if probe is not None and density is not None:  # (the probe needs a known count)
            return [probe], density  # (its risk: no protection is proved yet)
        if self.counts_vary or self.count_doubted or (self.mines is None and self.hidden_losses):
            return self._choose_by_density(board, covered)  # (no loss shows the count)
        if self._no_win_possible():
            rare = self._rare_pick(board)
            if rare is not None:
                return [rare], 1.0
        solvable = not (board == UNKNOWN).any() and self.mines is not None
        if solvable:
            assert self.mines is not None
            try:
                strategy = get_strategy("exact", self._rule())
                decision = strategy.decide(board, self.mines, self.rng)
                openable = set(covered)
                cells = [c for c in decision.open if c in openable]
                if cells:
                    return cells, decision.risk
            except ValueError:
                # an inconsistent read, or a game of another count: only what the
                # numbers prove, whatever the count
                self._doubt_count("no layout of that many mines fits the board")
                return self._choose_by_density(board, covered)
        return [self._random_pick(covered)], 1.0

    def _opened_unread(self, board: Board) -> Board:
        """``board`` with each square clicked at the last move, opened, whose look has
        no name yet taken as an opened square with no number (the solver so takes a
        wrong flag): a look that follows the last square clicked (Tk's focus ring)
        leaves the board to the solver. (Other looks of no name are left to a random
        pick, as before: a loss names them.)"""
        out = board.copy()
        if board.shape == self.opened.shape:
            for cell in self.focus_cells:
                if board[cell] == UNKNOWN and self.opened[cell]:
                    out[cell] = WRONG_FLAG
        return out

    def _first_click_probe(self, board: Board) -> Cell | None:
        """On a fresh board, while "opening" may still be proved
        (:func:`opening_unproved`): a random square with 8 neighbours, else None. A
        game that protects nothing opens a region there far less often than at a
        corner (the solver's first click), so a game that opens a region at every
        first click proves it in far fewer games (:func:`first_click_rule` at 9x9/10:
        9 rather than 24)."""
        rows, cols = board.shape
        if rows < 3 or cols < 3 or not (board == COVERED).all() or not self._opening_unproved():
            return None
        return 1 + int(self.rng.integers(rows - 2)), 1 + int(self.rng.integers(cols - 2))

    def _opening_unproved(self) -> bool:
        return opening_unproved(self.first_clicks, self.first_click_sides, self._density())

    def _random_pick(self, covered: list[Cell]) -> Cell:
        return covered[int(self.rng.integers(len(covered)))]

    @property
    def counts_vary(self) -> bool:
        """Did games end with different counts proved (react-minesweeper lays each
        square a mine with a fixed chance)?"""
        return len(set(self.proved_counts)) > 1

    def _doubt_count(self, why: str) -> None:
        if not self.count_doubted:
            self.log(f"this game may not have {self.mines} mines: {why}")
        self.count_doubted = True

    def _choose_by_density(self, board: Board, covered: list[Cell]) -> tuple[list[Cell], float]:
        """For a count not known: :func:`solver.density.decide_by_density` with each
        square a mine by the share seen so far (else the board size's usual share,
        else 0.15); none when the numbers prove every covered square a mine (the game
        is won, whatever its count)."""
        counts = self.proved_counts or ([self.mines] if self.mines else [])
        usual = preset_mines(*board.shape)
        share = float(np.mean(counts)) / board.size if counts else \
            usual / board.size if usual else 0.15
        try:
            decision = decide_by_density(board, min(max(share, 0.01), 0.9))
        except ValueError:
            return [self._random_pick(covered)], 1.0  # a board misread
        openable = set(covered)
        cells = [c for c in decision.open if c in openable]
        if cells or not decision.open:
            return cells, decision.risk
        return [self._random_pick(covered)], 1.0  # (the pick was a look not named yet)

    def _missing_numbers(self) -> list[int]:
        names = set(self.L.known().values())
        return [n for n in self.opts.want if 0 <= n <= 8 and n not in names]

    def _rare_pick(self, board: Board) -> Cell | None:
        """On a board too dense to win: the covered square most likely to be safe and
        show a number still wanted (6-8 hardly ever show on sparser boards); None when
        every wanted number is known or no square can show one."""
        missing = self._missing_numbers()
        if not missing or self.mines is None:
            return None
        try:
            probs = analyse(board, self.mines).probabilities
        except ValueError:
            return None
        odds = rare_number_odds(probs, missing)
        odds[~np.isin(board, (COVERED, QUESTION))] = -1.0
        best = float(odds.max())
        if best <= 0:
            return None
        cells = np.argwhere(odds >= best * 0.999)
        r, c = cells[int(self.rng.integers(len(cells)))]
        return int(r), int(c)

    def _density(self) -> float | None:
        """The share of mines, if a count is known."""
        counts = self.proved_counts or ([self.mines] if self.mines is not None else [])
        return None if not counts or self.geometry is None else \
            float(np.mean(counts)) / (self.g.rows * self.g.cols)

    def _rule(self) -> str:
        return first_click_rule(self.first_clicks, self.first_click_sides, self._density())

    def play_game(self, ids: IdGrid, image: Image) -> tuple[IdGrid, Image]:
        """Play one game to its end; returns the frame after the end."""
        moves = 0
        last: tuple[IdGrid, IdGrid, Image, Image, list[Cell]] | None = None
        earlier = None  # the move before ``last``
        flagged = False  # a random flag placed this game (:meth:`_flag_random`)
        self._new_game_counts()
        self.count_doubted = False
        self.game_start = ids
        self.focus_cells = []
        self.flag_truth = {}
        started_open = bool((self.knowledge(ids) != COVERED).any())
        self.opened = self.knowledge(ids) != COVERED
        while True:
            if self.time_left() <= 0:
                raise CalibrationError("calibration took too long: the game did not end "
                                       f"within {self.opts.time_limit:.0f} s")
            board = self.knowledge(ids)
            if moves == 1 and not flagged and self._want_wrong_flag(board):
                # once: a flag drawn late (a ripple at the right-click) is read again
                # with moves still 1, and must not bring another (flags on every
                # covered square read as a won game)
                flagged = True
                ids, image = self._flag_random(board, ids, image)
                board = self.knowledge(ids)
            marked = self._mark_and_lose(board, ids, image) if self._want_marked_loss() \
                else None
            if marked is not None:
                ids, image, target = marked
                board = self.knowledge(ids)
                cells, self.last_risk = [target], 1.0
            else:
                cells, self.last_risk = self.choose(board)
            late = self.grab()
            if not np.array_equal(crop(late, self.g.bounds()), crop(image, self.g.bounds())):
                settled = self.wait_change(image)  # still redrawing: read again
                now = late if settled is None else settled
                now_ids = self.ids(now)
                if last is not None and earlier is not None and \
                        np.array_equal(now_ids, last[0]):
                    # the last move drew a passing effect and took it all back (a
                    # page's button ripples at a click): the game ignored the click,
                    # so the move before may have ended it, as when nothing changed
                    if self.judge(*earlier, force=True):
                        return earlier[1], earlier[3]
                if _line_changed(ids, now_ids):
                    self._check_squares(now)  # (a row redrawn late, its squares moved)
                if last is not None and np.array_equal(ids, last[1]):
                    # the last move's end drawn late (kmines shows the mines a moment
                    # after the hit square): judge that move again
                    if not self._flood(last[0], now_ids, last[4]):
                        now, now_ids = self._final(now, now_ids)
                    if self.judge(last[0], now_ids, last[2], now, last[4]):
                        return now_ids, now
                    self._note_opened(last[0], now_ids, last[4])
                elif self._board_gone(ids, now_ids):  # a dialog came: a win, but
                    # with the board shown beside it (the Java game's loss, its dialog
                    # late): the last move's loss, judged again
                    if last is None or not self._shown_past_window(last[0], now_ids,
                                                                   last[4], now):
                        self._ended("won", image, now)
                        return now_ids, now
                    if self.judge(last[0], now_ids, last[2], now, last[4], force=True):
                        return now_ids, now
                image, ids = now, now_ids
                continue
            under = self._x_over(image)
            if last is not None and any(under[c] for c in cells):
                # a window over the board where the move would click (a dialog takes
                # the click, and the guard refuses it): the game ended there unread
                return self._end_unread(last, ids, image, moves == 1)
            if not cells and last is not None and self._unexplained(ids).sum() >= 2:
                # squares nobody opened show something: an end not read (a loss under
                # a dialog whose mines are looks not named yet), not a win
                return self._end_unread(last, ids, image, moves == 1)
            if not cells:
                return self.finish_win(ids, image)
            for cell in cells:
                self.click_cell(cell)
            self.park()
            after = self._lasting_change(image)
            if after is None and self._unchanged(image):
                # a click the game dropped (seen at load 5 on gnome-mines: the first
                # click, or one right after marks): the board is as before the click,
                # so clicking again is the same move
                for cell in cells:
                    self.click_cell(cell)
                self.park()
                after = self._lasting_change(image)
            for cell in cells:
                if after is not None or not self._may_hold_unseen_mark(board, cell, ids,
                                                                      image, last):
                    break
                after = self._clear_unseen_mark(cell, image)
            if after is None and (self.counts_vary or self.count_doubted) and \
                    not self._unexplained(ids).any():
                # a game of a count not known ended with its last safe square, and takes
                # no click on a mine left that the numbers do not prove
                return self.finish_win(ids, image)
            if after is None:
                if last is not None and earlier is not None and np.array_equal(ids, last[0]):
                    last, earlier = earlier, None  # (the last move's change went away)
                if last is not None and self.judge(*last, force=True):
                    return last[1], last[3]
                if last is not None and (window_over(ids, self.L.known(), last[0]).any()
                                         or self._unexplained(ids).sum() >= 2):
                    # a dialog over the board takes the clicks, or the game has ended
                    return self._end_unread(last, ids, image, moves == 1)
                raise CalibrationError("the game stopped responding: a click on the board "
                                       "changed nothing")
            new = self.ids(after)
            # (a look named covered by its shade alone may be a 0 dimmed at a loss:
            # kivy-mines-package greys its 0, a lighter plain button, near its covered one)
            ids = drawn_covered(ids, new, self.L.known(by_shade=False), moves == 0)
            if last is not None and self._took_no_click(ids, new, cells):
                # the board changed, but not where it was clicked: a window over it (a
                # dialog at a loss) takes the clicks; the game has ended
                after, new = self._final(after, new)
                return self._end_unread(last, new, after, moves == 1)
            if not self._flood(ids, new, cells) or self._board_gone(ids, new) or \
                    not (self.knowledge(new) == COVERED).any() or \
                    self._lone_new_look(new, cells):
                # a loss, a slow redraw, or a flash over the whole board (sgt-mines)
                after, new = self._final(after, new)
                self._check_squares(after)
                if last is not None and np.array_equal(new, ids):
                    # the change went away while the end was awaited (a page's button
                    # ripples at a click the game does not take): no move; the move
                    # before is judged as when nothing changes
                    if self.judge(*last, force=True):
                        return last[1], last[3]
                    image, ids = after, new
                    continue
            if moves == 0:
                self._check_given_size(image, after)
                self._note_first_click(board, new, cells, started_open)
            moves += 1
            if self.judge(ids, new, image, after, cells):
                if moves == 1 and self.results[-1] == "lost":
                    self._first_click_lost()
                return new, after
            earlier, last = last, (ids, new, image, after, cells)
            self._note_opened(ids, new, cells)
            self._note_volatile(image, after)
            ids, image = new, after
            self.focus_cells = cells

    def _lasting_change(self, image: Image) -> Image | None:
        """:meth:`wait_change`, but None when the board it settles on is ``image``'s
        again: a change that went away (a page's button ripples at a click the game
        does not take) is no move. A frame where every square still reads as in
        ``image`` is waited past (twice at most): a ripple that paused mid-way (a page
        painted nothing for 66 ms) is no move either, and a game's answer may come
        after it."""
        b, was = self.g.bounds(), self.ids(image)
        for _ in range(3):
            after = self.wait_change(image)
            if after is not None and np.array_equal(crop(after, b), crop(image, b)):
                return None
            if after is None or not np.array_equal(self.ids(after), was):
                return after
        return after

    def _note_opened(self, before: IdGrid, after: IdGrid, clicked: list[Cell]) -> None:
        """Squares a move changed around the squares clicked (an opened region) are
        opened by this game; squares changed far from them are not."""
        if before.shape == self.opened.shape and self._flood(before, after, clicked):
            self.opened |= before != after
            self.side_floods += side_flood_shown(self.knowledge(after))

    def _flood(self, before: IdGrid, after: IdGrid, clicked: list[Cell]) -> bool:
        return flood_past_window(before, self._focus_kept(before, after), clicked,
                                 self.L.known())

    def _focus_kept(self, before: IdGrid, after: IdGrid) -> IdGrid:
        """``after`` with each square clicked at the move before, opened then, as in
        ``before``: a look that follows the last square clicked (Tk's buttons draw a
        focus ring on it) leaves that square at the next click."""
        if not before.shape == after.shape == self.opened.shape:
            return after
        out = after.copy()
        for cell in self.focus_cells:
            if self.opened[cell]:
                out[cell] = before[cell]
        return out

    def _unexplained(self, ids: IdGrid) -> np.ndarray:
        """Squares neither covered nor marked, nor opened by this game, nor under a
        window over the board: mines a loss shows, say. A won board has none."""
        codes = self.knowledge(ids)
        hidden = np.isin(codes, (COVERED, QUESTION, FLAG))
        return np.asarray(~hidden & ~self.opened & ~window_over(ids, self.L.known()))

    def _took_no_click(self, before: IdGrid, after: IdGrid, cells: list[Cell]) -> bool:
        """Were squares read as covered left-clicked, and every one of them left as it
        was while the board changed elsewhere (a game takes a click on a covered square
        by opening it, or by showing the mine there)?"""
        codes = self.knowledge(before)
        tried = [c for c in cells if codes[c] == COVERED]
        return bool(tried) and not np.array_equal(before, after) and \
            all(before[c] == after[c] for c in tried)

    def _check_squares(self, image: Image) -> None:
        """Stop when the board found again in ``image`` has its squares elsewhere
        (:func:`vision.moved_squares.squares_moved`): a game whose squares move as it is
        played (buttons that grow with their text) cannot be read on one lattice, and
        its half squares were taken for a game's end."""
        found = board_again(image, self.g)
        if found is not None and squares_moved(found, self.g) and \
                not self._opened_read(image):
            raise SquaresMoved(
                f"the board's squares moved during the game (found again {found.cols}x"
                f"{found.rows} at {found.pitch_x:.1f} x {found.pitch_y:.1f} px, their "
                "edges off where they were): the game draws its squares at other places "
                "as it is played (buttons that grow with their text), and sweepbot reads "
                "a board whose squares stay where they are")

    def _opened_read(self, image: Image) -> bool:
        """Does every square this game opened (not the one clicked last) read in
        ``image`` as a number named, and do ten squares at least read so, or as the
        very look they had at the game's start? Then the squares are where they were,
        and the lattice found again took other edges (DangerUXB's loss: a mine's image
        over every third square's edge; Tk MineGrid's loss, its raised mines among
        sunken numbers, 3 px off after 9 squares opened). Squares that moved are cut in
        halves, looks of no name."""
        if self.opened.shape != (self.g.rows, self.g.cols):
            return False
        opened = self.opened.copy()
        for cell in self.focus_cells:
            opened[cell] = False
        ids = self.ids(image)
        codes = self.knowledge(ids)[opened]
        start = self.game_start
        kept = np.zeros_like(opened) if start is None or start.shape != ids.shape else \
            (ids == start) & (self.knowledge(start) == COVERED)
        return int(opened.sum() + kept.sum()) >= 10 and \
            bool(((codes >= 0) & (codes <= 8)).all())

    def _end_unread(self, last: tuple[IdGrid, IdGrid, Image, Image, list[Cell]],
                    ids: IdGrid, image: Image, first: bool) -> tuple[IdGrid, Image]:
        """The game has ended in a way no frame read (the board takes no click, or
        squares nobody opened show something): judged once more from the frame before
        its last move to now, as a game that no longer answers; else a loss whose looks
        stay unnamed (a win leaves no square unexplained). ``first``: that move was the
        game's first. Returns the frame."""
        self._check_squares(image)
        if not self.judge(last[0], ids, last[2], image, last[4], force=True):
            self.log("the game ended unread (the board takes no click, or shows squares "
                     "nobody opened): taken as lost")
            self._ended("lost", last[2], image)
        if first and self.results[-1] == "lost":
            self._first_click_lost()
        return ids, image

    def _first_click_lost(self) -> None:
        if self.first_clicks and self.first_clicks[-1] != "mark-opened":
            self.first_clicks[-1] = "unprotected"

    def _want_marked_loss(self) -> bool:
        """Still to lose a game with marks on the board (once a run; the mine count
        must be known to find certain mines)?"""
        names = set(self.L.known().values())
        return (self.opts.marked_loss and not self.marked_loss and FLAG in names
                and EXPLODED in names and self.mines is not None
                and not self._no_win_possible())

    def _mark_and_lose(self, board: Board, ids: IdGrid, image: Image,
                       ) -> tuple[IdGrid, Image, Cell] | None:
        """Lose this game on purpose with every kind of mark on the board, so the loss
        shows how the game draws each (a flagged mine, a wrong flag, a question-marked
        mine, a question-marked safe square; gnome-mines draws a question-marked mine
        its own way). Marks go on squares the board proves safe or mined, so the loss
        names every look by logic. Returns the frame with the marks and the mine to
        click; None (nothing clicked) while the board proves too few squares."""
        assert self.mines is not None
        try:
            a = analyse(board, self.mines)
        except ValueError:
            return None
        mines = [m for m in a.mines if board[m] == COVERED]
        safe = [c for c in a.safe if board[c] == COVERED]
        questions = QUESTION in set(self.L.known().values())
        if len(mines) < (3 if questions else 2) or len(safe) < (2 if questions else 1):
            return None
        order = self.rng.permutation(len(mines))
        mines = [mines[i] for i in order]
        safe = [safe[i] for i in self.rng.permutation(len(safe))]
        plan = [(mines[0], FLAG), (safe[0], FLAG)]
        self.flag_truth = {mines[0]: True, safe[0]: False}
        if questions:
            plan += [(mines[1], QUESTION), (safe[1], QUESTION)]
        for cell, mark in plan:
            for _ in range(1 if mark == FLAG else 2):
                self.click_cell(cell, self.flag_button)
        self.park()
        self.marked_loss = True
        shown = self._wait_codes(ids, image, {cell: mark for cell, mark in plan}) or \
            self._name_marks(ids, dict(plan))
        if shown is None:
            return None  # the marks did not show as expected: play on unmarked
        self.log("lose on purpose with marks on the board")
        return shown[0], shown[1], mines[-1]

    def _wait_codes(self, ids: IdGrid, image: Image, want: dict[Cell, int],
                    ) -> tuple[IdGrid, Image] | None:
        """The frame once every square in ``want`` reads as its code (within the
        redraw timeout), else None."""
        deadline = time.monotonic() + self.opts.redraw_timeout
        while time.monotonic() < deadline:
            time.sleep(0.03)
            image = self.grab()
            ids = self.ids(image)
            codes = self.knowledge(ids)
            if all(codes[cell] == code for cell, code in want.items()):
                return ids, image
        return None

    def _name_marks(self, before: IdGrid, want: dict[Cell, int]) -> tuple[IdGrid, Image] | None:
        """The frame if every square of ``want`` (marked by right-clicks, the board
        settled since) shows its mark or a look of no name that was not there before
        (the mark drawn at a sub-pixel phase not seen yet: gnome-mines' classic theme
        draws its detailed flag a little differently in some columns), each such look
        then named after the mark; else None."""
        image = self.grab()
        ids = self.ids(image)
        codes = self.knowledge(ids)
        new = {cell: int(ids[cell]) for cell, mark in want.items() if codes[cell] != mark}
        if any(codes[cell] != UNKNOWN or look == before[cell] for cell, look in new.items()):
            return None
        for cell, look in new.items():
            self.L.name(look, want[cell], weight=2)
        return ids, image

    def _final(self, image: Image, ids: IdGrid, pause: float = 0.25) -> tuple[Image, IdGrid]:
        """The frame once the board has stopped changing for twice ``pause`` seconds (a
        flash that alternates, sgt-mines' red one every 0.13 s, may match once)."""
        same = 0
        for _ in range(12):
            time.sleep(pause)
            again = self.grab()
            if np.array_equal(crop(again, self.g.bounds()), crop(image, self.g.bounds())):
                same += 1
                if same == 2:
                    return image, ids
                continue
            same = 0
            image = again
            ids = self.ids(image)
            # (kept, as wait_change keeps its frames: a loss drawn in steps may show
            # every mine only for a moment before a dialog comes over the board)
            self.steps = [*self.steps[:3], *self.steps[3:][-4:], image]
        return image, ids

    def _want_wrong_flag(self, board: Board) -> bool:
        """Still to see how a wrong flag shows?"""
        names = self.L.known().values()
        # a wrongly flagged game cannot be won: leave room for a win
        room = len(self.results) < 2 or "won" in self.results
        return WRONG_FLAG not in names and FLAG in names and room

    def _flag_random(self, board: Board, ids: IdGrid, image: Image) -> tuple[IdGrid, Image]:
        """Flag a random covered square: most squares hold no mine, so a lost game
        will likely show it as a wrong flag."""
        covered = [(int(r), int(c)) for r, c in np.argwhere(board == COVERED)]
        if not covered:
            return ids, image
        cell = covered[int(self.rng.integers(len(covered)))]
        self.click_cell(cell, self.flag_button)
        self.park()
        after = self.wait_change(image)
        if after is None:
            return ids, image  # the game is over (seen at the next click) or ignores marks
        self._note_volatile(image, after)
        return self._name_marks(ids, {cell: FLAG}) or (self.ids(after), after)

    def _note_first_click(self, board: Board, new: IdGrid, cells: list[Cell],
                          started_open: bool) -> None:
        """How this game's first click went (:func:`first_click_rule`). A first game
        that the mark learned on the fresh board started ("mark-opened": minex starts at
        any click, opening the squares around it) tells nothing of a first click."""
        if started_open and not self.results and self.start_image is not None and \
                (self.knowledge(self.ids(self.start_image)) == COVERED).all():
            self.first_clicks.append("mark-opened")
            return
        if started_open:
            self.first_clicks.append("started-open")
            return
        codes = self.knowledge(new)
        opened = int((codes != board).sum())
        self.first_clicks.append("opening" if opened > 1 else "safe")
        r, c = cells[0]
        self.first_click_sides.append(int(adjacent_count(np.ones(board.shape, bool))[r, c]))

    def _note_volatile(self, before: Image, after: Image) -> None:
        """Count how often each pixel off the board changes during this game's play."""
        if self.changes is not None and before.shape == after.shape:
            moved = cv2.dilate(changed_pixels(before, after).astype(np.uint8),
                               np.ones((5, 5), np.uint8))
            self.changes += moved.astype(np.int16)
            self._volatile |= self.changes >= 2

    def _new_game_counts(self) -> None:
        if self.changes is not None:
            self.changes[:] = 0

    @property
    def volatile(self) -> np.ndarray:
        """Pixels off the board that changed at two or more moves of one game: a clock,
        a mine counter (a button that changes once per game, when it starts, is not)."""
        return self._volatile

    def judge(self, before: IdGrid, after: IdGrid, img_before: Image, img_after: Image,
              clicked: list[Cell], force: bool = False) -> bool:
        """Did the game end with this move? Learns from the end if so. ``force``: the
        game no longer answers clicks, so a change that looked like an opened region
        (on a dense board every shown mine touches the next) is read as a loss."""
        known = self.L.known()
        after = self.L.unpaint(before, after)  # (an end that draws the board anew)
        self.L.name_flagged(before, after)  # (a win's flags drawn a way not named yet)
        self.play_frames.append(before)
        revealed = self._revealed_end(before, after, clicked, img_after)
        if revealed is not None:
            self._check_squares(img_after)
            self._ended(revealed, img_before, img_after)
            return True
        if self._lost_under_cover(before, after, clicked, img_after) and \
                not self._loss_before_cover(before, after, clicked, img_after):  # (Win7's dialog)
            self.log("the board was replaced after a guess that could not win: a loss "
                     "that shows no mine")
            self.hidden_losses += 1
            self._name_by_consistency([])
            self._ended("lost", img_before, img_after)
            return True
        gone = self._board_gone(before, after) and \
            not self._loss_before_cover(before, after, clicked, img_after) and \
            not self._shown_past_window(before, after, clicked, img_after)
        if gone or self._flagged_by_game(before, after, clicked):
            self._check_squares(img_after)  # (squares cut where they were read as gone)
            unsure = False
            if gone and self._covered_whole(before, after):
                end = crop(img_after, self.g.bounds())
                if self.last_risk <= 0.0:
                    self.cover_ends.append(("won", end))
                unsure = self.last_risk > 0.0 and nearest_end(end, self.cover_ends) is None
            self._ended("won", img_before, img_after, unsure)
            return True
        exploded = any(known.get(int(after[c])) == EXPLODED for c in clicked)
        if exploded or force or not self._flood(before, after, clicked) or \
                self._shown_past_window(before, after, clicked, img_after) or \
                self._board_gone(before, after) or \
                self._loss_before_cover(before, after, clicked, img_after):  # (a dialog: Win7's)
            if self._hit_only(before, after, clicked, known, exploded or force):
                return self._hidden_loss(before, after, img_before, img_after, clicked)
            shown_ids, names, hidden = self._clearest_loss(before, after, known, clicked,
                                                           img_after)
            if names is not None:
                shown = sum(1 for code in names.values() if code in (MINE, EXPLODED))
                if not shown and not hidden:
                    return False  # no mine shown, not even the one hit, none hidden
                flagged = self.L.codes(before, UNKNOWN) == FLAG
                flags = int(flagged.sum()) - sum(  # (a flag on a mine drawn anew: shown)
                    1 for cell, code in names.items() if flagged[cell] and code != COVERED)
                if self.mines is not None and shown + flags + hidden < 0.8 * self.mines \
                        and not self._loss_before_cover(before, after, clicked, img_after):
                    return False  # not every mine is shown, none known: not a lost game
                self._name_loss(before, after, shown_ids, names, known, img_after)
                if self.mines is None and not hidden and not self.counts_vary and \
                        not unproved_flags(self.L.codes(before, UNKNOWN) == FLAG, names):
                    self.mines = shown + flags
                    self.log(f"the game has {self.mines} mines")
                self._ended("lost", img_before, img_after)
                return True
        if self.hidden_losses:
            self._name_by_consistency([after])
        return False  # a win is decided by finish_win, once only mines are left

    def _name_loss(self, before: IdGrid, after: IdGrid, shown_ids: IdGrid,
                   names: dict[Cell, int], known: dict[int, int],
                   image: Image | None = None) -> None:
        """Name the looks of a lost game's squares (exact: each square counts twice);
        a changed square by its look in the settled frame ``after``, off any window
        over the board (a loss drawn in steps: kmines fades the mines' tiles out first,
        then a dialog comes); by its look in ``shown_ids`` under the window when the
        last frame before the window still showed that look (it had settled: Windows
        7's "Game Lost" dialog covers nearly all of a 9x9 board, the hit mine too).
        ``image``: the frame ``after`` was read from (its windows: :meth:`_x_over`)."""
        near = window_over(after, known, before) | self._x_over(image)
        near |= adjacent_count(near) > 0
        last = self._last_uncovered(before, known) if near.any() else None
        for cell, code in names.items():
            if code == WRONG_FLAG and after[cell] == before[cell]:
                continue  # a wrong flag drawn as a flag still: no look of its own
            if 0 <= code <= 8 or after[cell] == shown_ids[cell]:
                self.L.name(int(shown_ids[cell]), code, weight=2)
            elif not near[cell]:
                self.L.name(int(after[cell]), code, weight=2)
            elif last is not None and last[cell] == shown_ids[cell]:
                self.L.name(int(shown_ids[cell]), code, weight=2)
            if code == MINE and int(before[cell]) not in known:
                self.L.name(int(before[cell]), COVERED, weight=2)

    def _lost_under_cover(self, before: IdGrid, after: IdGrid, clicked: list[Cell],
                          image: Image) -> bool:
        """Did this move end in a loss the game shows by replacing the whole board (no
        square reads, none as before: minesweeper-mvc's "YOU LOSE!" fills its window,
        and no mine is ever shown)? So when the move was a guess (:attr:`last_risk`)
        that could not open every safe square left: more squares were hidden before it,
        less the ones clicked, than the game has mines (a win opens them all; a guess
        opening a 0 whose flood opens all the rest is left aside). A guess that could
        have won (the last safe squares) lost if ``image`` shows what the board showed
        at such a loss, not at such a win (:attr:`cover_ends`). With the count not
        known, the board size's usual one (no loss of such a game shows it)."""
        mines = self.mines if self.mines is not None else preset_mines(*before.shape)
        if mines is None or self.last_risk <= 0.0 or before.shape != after.shape:
            return False
        if not self._covered_whole(before, after):
            return False
        hidden = int(np.isin(self.knowledge(before), (COVERED, QUESTION, FLAG)).sum())
        shown = crop(image, self.g.bounds())
        if hidden - len(clicked) > mines:
            self.cover_ends.append(("lost", shown))
            return True
        return nearest_end(shown, self.cover_ends) == "lost"

    def _covers_end(self, ending: Ending, image: Image) -> bool:
        """Does something in ``image`` fill the whole board the ended game showed
        before its end (:meth:`_covered_whole`)?"""
        return image.shape == ending.before.shape and \
            self._covered_whole(self.ids(ending.before), self.ids(image))

    def _covered_whole(self, before: IdGrid, after: IdGrid) -> bool:
        """Does ``after`` show no square of the board as it was in ``before`` and
        hardly any of a known look (something fills the whole board)?"""
        unread = self.knowledge(after) == UNKNOWN
        return bool(unread.mean() >= 0.9 and (before != after).mean() >= 0.9)

    def _loss_before_cover(self, before: IdGrid, after: IdGrid, clicked: list[Cell],
                           image: Image | None = None) -> bool:
        """Did a frame of this move show a loss around (or before) a window that came
        over the board (kmines opens a dialog over the board at a loss as at a win)?
        Away from the window (:func:`window_over`) it changed squares far from the
        clicked ones, and at least half the squares it shows as mines have a look
        known to be a mine. A frame that is a step of drawing the end
        (:func:`drawn_toward`) shows no such loss: a game that draws an opened region
        square by square in no order, on a loaded machine, shows squares changed far
        from the one clicked, as a loss does. ``image``: the frame ``after`` was read
        from."""
        known = self.L.known()
        mine_looks = {lk for lk, code in known.items() if code in (MINE, EXPLODED)}
        steps = [(ids, frame) for frame in self.steps
                 if (ids := self.ids(frame)).shape == before.shape
                 and not drawn_toward(before, ids, after)]
        for ids, frame in [*steps, (after, image)]:
            if ids.shape != before.shape:
                continue
            ids = self._focus_kept(before, ids)  # (the ring leaving the last square clicked)
            names, _, seen = self._loss_reading(before, ids, known, clicked, frame)
            if names is None or is_flood(before, seen, clicked):
                continue
            shown = [cell for cell, code in names.items() if code == MINE]
            hits = sum(int(ids[cell]) in mine_looks for cell in shown)
            if shown and 2 * hits >= len(shown):
                return True
            if not mine_looks and first_loss_shown(before, ids, shown, clicked, known):
                return True
        return False

    def _loss_reading(self, before: IdGrid, ids: IdGrid, known: dict[int, int],
                      clicked: list[Cell], image: Image | None = None,
                      ) -> tuple[dict[Cell, int] | None, int, IdGrid]:
        """:func:`vision.calibrate.label_loss_transition` of a frame, the squares
        under a window over the board (:func:`window_over`) read as unchanged and left
        unnamed, with the squares next to them (a mine may hide under it); also how
        many covered squares it hides, and the frame as read. No reading (None) when
        it counts a square of a known number otherwise (something drawn over covered
        squares, say a window fading in, read as shown mines). ``image``: the frame
        ``ids`` was read from, whose window's sides across the board also tell the
        squares it covers (:meth:`_window_on`)."""
        over = window_over(ids, known, before) | self._x_over(image)
        if not over.any():  # (a window whose flat inside repeats: by its sides; not
            over = self._window_on(image)  # beside one found so: on a made-up dialog
            # of stripes the sides found were a column of squares, and no loss was read)
        seen = np.where(over, before, ids).astype(ids.dtype)
        start = self.game_start if self.game_start is not None and \
            self.game_start.shape == before.shape else None
        names = label_loss_transition(before, seen, known, clicked, self.L.repaints, over, start,
                                      self.flag_truth)
        hidden = 0
        if names is not None and over.any():
            near = over | (adjacent_count(over) > 0)  # (its edge may be drawn faintly first)
            names = {cell: code for cell, code in names.items() if not near[cell]}
            hidden = int((over & np.isin(self.knowledge(before), (COVERED, QUESTION))).sum())
        if names is not None and any(0 <= code <= 8 and 0 <= known.get(int(seen[cell]), -1) <= 8
                                     and known[int(seen[cell])] != code
                                     for cell, code in names.items()):
            return None, 0, seen  # a known number counted otherwise: no loss shown here
        return names, hidden, seen

    def _hits(self, before: IdGrid, after: IdGrid, clicked: list[Cell],
              known: dict[int, int]) -> tuple[list[Cell], int]:
        """Clicked squares (or their neighbours: a click on an opened number may open
        its neighbours) that turned into a look of their own, known to be the hit mine
        or not known at all; and how many changed squares show no known number."""
        odd = [(int(r), int(c)) for r, c in np.argwhere(before != after)
               if not 0 <= known.get(int(after[r, c]), -1) <= 8]
        near = {(r + dr, c + dc) for r, c in clicked for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
        hits = [c for c in odd if c in near
                and known.get(int(after[c]), EXPLODED) == EXPLODED
                and int((after == after[c]).sum()) == 1]
        named = [c for c in hits if known.get(int(after[c])) == EXPLODED]
        return named or hits, len(odd)

    def _hit_only(self, before: IdGrid, after: IdGrid, clicked: list[Cell],
                  known: dict[int, int], ended: bool) -> bool:
        """Did a game that has ended (``ended``: the hit look is known, or the game
        stopped answering) show one clicked square as the hit mine and hardly anything
        else but known numbers: a loss that shows only the mine that was hit (sgt-mines;
        a loss that shows its mines shows most of them)?"""
        hits, odd = self._hits(before, after, clicked, known)
        return ended and len(hits) == 1 and odd - 1 < max(3, (self.mines or 0) // 4)

    def _hidden_loss(self, before: IdGrid, after: IdGrid, img_before: Image,
                     img_after: Image, clicked: list[Cell]) -> bool:
        """A loss that shows no mine but the one hit: the hit look is the exploded
        mine, and the numbers are named by the consistency of the frames of play
        (:func:`vision.consistency_labels.name_looks_by_consistency`); from now on
        after every move, so the game can be played on safe squares."""
        hits, odd = self._hits(before, after, clicked, self.L.known())
        self.L.name(int(after[hits[0]]), EXPLODED, weight=2)
        self.hidden_losses += 1
        self._name_by_consistency([after] if odd == 1 else [])
        self._ended("lost", img_before, img_after)
        return True

    def _name_by_consistency(self, more: list[IdGrid]) -> None:
        known = self.L.known()
        covered = [lk for lk, code in known.items() if code == COVERED]
        if not covered:
            return
        frames = [*self.play_frames[-200:], *more]
        if not any(lk not in known for ids in frames[-1:] for lk in np.unique(ids).tolist()):
            return  # every look on the board is named already
        names = name_looks_by_consistency(frames, known, covered[0], self.mines)
        for look, n in names.items():
            self.L.name(look, n, weight=2)
        if names:
            self.log("named by consistency: " + ", ".join(
                f"look {look} = {n}" for look, n in names.items()))

    def _last_uncovered(self, before: IdGrid, known: dict[int, int],
                        sides: bool = False) -> IdGrid | None:
        """The looks of this move's last frame with no window over the board (see
        :func:`window_over`; with ``sides``, none by its sides either:
        :meth:`_window_on`), if one was kept."""
        for frame in reversed(self.steps):
            ids = self.ids(frame)
            if ids.shape == before.shape and not window_over(ids, known, before).any() \
                    and not (sides and self._window_on(frame).any()):
                return ids
        return None

    def _clearest_loss(self, before: IdGrid, after: IdGrid, known: dict[int, int],
                       clicked: list[Cell], image: Image | None = None,
                       ) -> tuple[IdGrid, dict[Cell, int] | None, int]:
        """The loss reading of the clearest frame this move showed (see
        :meth:`_loss_reading`), its looks, and how many covered squares a window over
        the board hides in it. A dialog that comes over the board at a loss (kmines)
        turns each square under it into a look of its own; a frame from just before it
        came shows the mines in one look (see :func:`loss_clarity`)."""
        names, hidden, _ = self._loss_reading(before, after, known, clicked, image)
        best = (after, names, hidden)
        score = loss_clarity(after, names, self._same_look)
        settled = {cell for cell, code in (names or {}).items() if code == MINE}
        for frame in self.steps:
            ids = self.ids(frame)
            if ids.shape != before.shape or np.array_equal(ids, after):
                continue
            names, hidden, _ = self._loss_reading(before, ids, known, clicked, frame)
            if names is not None and partial_loss(ids, names, settled, known, before):
                continue  # the mines shown a few at a time: not all of them yet
            clarity = loss_clarity(ids, names, self._same_look)
            if clarity > score:
                best, score = (ids, names, hidden), clarity
        return best

    def _same_look(self, a: int, b: int) -> bool:
        """Are looks ``a`` and ``b`` the same but for the shade of their background
        (:func:`vision.shade.shade_distance`)?"""
        key = (min(a, b), max(a, b))
        if key not in self._shade_pairs:
            looks = self.L.bank.looks
            self._shade_pairs[key] = a == b or shade_distance(looks[a], looks[b]) <= 1.0
        return self._shade_pairs[key]

    def _window_on(self, image: Image | None) -> npt.NDArray[np.bool_]:
        """The squares a window over the board covers in ``image``, by the window's
        sides (:func:`vision.occluder.window_squares`); none without an image. A Java
        game's "Game Over" dialog over its whole board, the board shown beside it,
        looked like squares of the board: its flat inside repeats, so no look of its
        own told it (:func:`window_over`)."""
        if image is None:
            return np.zeros((self.g.rows, self.g.cols), bool)
        return self._sides_on(image) | self._x_over(image)

    def _x_over(self, image: Image | None) -> npt.NDArray[np.bool_]:
        """The squares under the windows the window system showed over the board as
        ``image`` was taken (:meth:`_note_windows`): alex-obada's Java game shows its
        "Game Over" dialog with the board's reveal in one frame, the mine clicked under
        it, and its look told no window where its inside repeated across squares."""
        kept = self._x_windows.get(id(image)) if image is not None else None
        if kept is None or kept[0] is not image:
            return np.zeros((self.g.rows, self.g.cols), bool)
        return squares_under(self.g, kept[1], margin=0.0)

    def _sides_on(self, image: Image) -> npt.NDArray[np.bool_]:
        """:func:`vision.occluder.window_squares` of ``image``, kept per frame."""
        seen = self._windows_seen.get(id(image))
        if seen is None or seen[0] is not image:  # (a move's frames are asked again and
            if len(self._windows_seen) > 64:  # again while it is judged: 4-19 ms each)
                self._windows_seen.clear()
            seen = self._windows_seen[id(image)] = (image, window_squares(image, self.g))
        return seen[1]

    def _revealed_end(self, before: IdGrid, after: IdGrid, clicked: list[Cell],
                      image: Image | None = None) -> str | None:
        """"won" or "lost" when the game has shown every square at once (xbomb shows
        the whole board when a game ends), naming the looks by counting
        (:func:`vision.reveal.label_revealed_frame`): a clicked mine means lost. None
        while squares are still covered, or when no reading fits. Squares under a
        window the window system shows over the board (:meth:`_x_over`) are left
        unread, and their neighbours' counts unchecked, when no frame of the move
        showed the board without it."""
        hidden = self._x_over(image)
        if (self.knowledge(after)[~hidden] == COVERED).any() or \
                not (self.knowledge(before) == COVERED).any():
            return None
        known = self.L.known()
        if window_over(after, known, before, panels=False).any() or \
                self._window_on(image).any():
            # a window over the board (kmines' scores after a win; a Java game's "Game
            # Over" over its whole board, the mine clicked under it, had read "won"):
            # the board as a frame of this move showed it before the window came
            shown = self._last_uncovered(before, known, sides=True)
            if shown is not None and not (self.knowledge(shown) == COVERED).any():
                after, hidden = shown, np.zeros(hidden.shape, bool)
            elif not hidden.any():
                return None
        marked = np.isin(self.knowledge(before), (FLAG, QUESTION))
        unchecked = marked | hidden | (adjacent_count(hidden) > 0)
        names = label_revealed_frame(after, clicked, known, unchecked, mines=self.mines)
        if names is None and self.mines is not None:
            names = another_count_reading(after, clicked, known, unchecked)
            if names is not None:
                self._doubt_count("the whole board shows another count")
        if names is None:
            return None
        names = kept_flags(names, after, self.knowledge(before) == FLAG)
        codes = {**known, **names}
        mine_looks = [lk for lk, code in codes.items() if code in (MINE, EXPLODED)]
        if _flat_panel(after, known, before, mine_looks):
            return None
        for look, code in names.items():  # exact, like a loss: two votes per square
            self.L.name(look, code, weight=2 * int((after == look).sum()))
        numbers = [lk for lk, code in codes.items() if 0 <= code <= 8]
        covered = self.knowledge(before) == COVERED
        hit = any(int(after[c]) in mine_looks for c in clicked if not hidden[c])
        if hidden.any():  # (the mine clicked may be under the window: a loss shows
            # numbers no flood from the squares clicked opened)
            hit = hit or not opened_through_zeros(covered & np.isin(after, numbers),
                                                  after, clicked, hidden)
        else:
            hit = hit or opened_apart(covered, after, numbers, clicked)
        if hit and self.mines is None and not self.counts_vary and not hidden.any():
            # (with the flags it keeps on mines: DangerUXB's loss showed 39 and a flag)
            self.mines = revealed_mine_count(after, codes, marked)
            if self.mines is not None:
                self.log(f"the game has {self.mines} mines")
        return "lost" if hit else "won"

    def _flagged_by_game(self, before: IdGrid, after: IdGrid, clicked: list[Cell]) -> bool:
        """Covered squares nobody clicked turned into flags and no mine shows: the game
        flagged the mines left because it is won (the demo window, Windows
        Minesweeper), not a loss showing mines."""
        prev, now = self.knowledge(before), self.knowledge(after)
        turned = (prev == COVERED) & (now == FLAG)
        for cell in clicked:
            turned[cell] = False
        return bool(turned.any()) and not np.isin(now, (MINE, EXPLODED, WRONG_FLAG)).any()

    def _shown_past_window(self, before: IdGrid, after: IdGrid, clicked: list[Cell],
                           image: Image) -> bool:
        """Did a window the window system shows over the board (:meth:`_x_over`) come
        with squares changed beside it that the move did not open? A move that won
        opened only squares a flood from the clicked ones reaches
        (:func:`vision.reveal.opened_through_zeros`), and the game may then mark each
        mine left: no more squares changed apart from those than it has mines
        (:func:`vision.reveal.changed_apart`). alex-obada's Java game shows its whole
        board and its "Game Over" dialog in one frame, the mine clicked perhaps under
        it: the squares under the dialog read as a board gone (a win's dialog), and
        the whole board shown as one opened region, while no look of it was named."""
        window = self._x_over(image)
        if not window.any() or before.shape != after.shape:
            return False
        known = self.L.known()
        after = self._focus_kept(before, after)
        hidden = window | window_over(after, known, before)
        covered = np.isin(self.knowledge(before), (COVERED, QUESTION))
        marked = np.isin(self.knowledge(after), (COVERED, FLAG))  # (mines a win marks)
        opened = (before != after) & covered & ~marked
        mines = self.mines if self.mines is not None else preset_mines(*before.shape)
        if mines is not None and changed_apart(covered, before != after, hidden,
                                               clicked) > mines:
            return True
        return not opened_through_zeros(opened, after, clicked, hidden)

    def _board_gone(self, before: IdGrid, after: IdGrid) -> bool:
        """Opened squares never change in play, nor when a game is lost: if many of
        them did, something (a dialog) covers the board."""
        opened = self.knowledge(before) >= 0
        if not opened.any():
            return False
        return bool((before != after)[opened].mean() > 0.2)

    def finish_win(self, ids: IdGrid, image: Image) -> tuple[IdGrid, Image]:
        """Only mines are left covered, so the game is won; some games want every mine
        flagged first. Right-click the rest: if nothing changes the game had already
        ended; if flags appear and the last one brings a win display (a face, a
        dialog), the game wanted them (``win_needs_flags``, :meth:`_flags_won`). A
        dialog over the board (seen for a moment first) also means a win."""
        self._check_squares(image)
        deadline = time.monotonic() + 0.6
        while time.monotonic() < deadline:
            time.sleep(0.1)
            later = self.grab()
            if self._board_gone(ids, self.ids(later)):
                self._ended("won", image, later)
                return self.ids(later), later
        board = self.knowledge(ids)
        hidden = [(int(r), int(c)) for r, c in np.argwhere(np.isin(board, (COVERED, QUESTION)))]
        if not self.places_flags:
            hidden = []  # (a game played with no flags declares its win by itself)
        after = None
        first: tuple[Image, Image] | None = None
        before_last = image
        for i, cell in enumerate(hidden):
            if 0 < i == len(hidden) - 1 and first is not None:
                self.park()  # the board with every flag but the last one
                before_last = first[1] if i == 1 else self._settled(first[1])
            self.click_cell(cell, self.flag_button)
            if i == 0:  # one first: a game already won ignores it (or shows a dialog)
                self.park()
                after = self.wait_change(image)
                if after is None or self._board_gone(ids, self.ids(after)):
                    break
                first = (image, after)
        else:
            self.park()
            if first is not None:
                last = self._settled(before_last)
                self.win_needs_flags = self.win_needs_flags or \
                    self._flags_won(first, (before_last, last), len(hidden) == 1)
                after = last
        if after is None:
            # nothing changed: the game is over, won (every safe square is open) in a
            # way the screen did not tell apart
            after = self.grab()
        self._ended("won", image, after)
        flagged = [*hidden, *((int(r), int(c)) for r, c in np.argwhere(board == FLAG))]
        self.name_kept_flags(self.ids(self.endings[-1].after), flagged)
        return self.ids(after), after

    def name_kept_flags(self, ids: IdGrid, flagged: Sequence[Cell]) -> list[int]:
        """Name a flag each look of no name that a won board ``ids`` shows on squares
        ``flagged`` (the mines) and nowhere else: the game's own look of the flags it
        keeps at its win (UXBgtk greys them; not named, every win play saw stopped
        at an unreadable board). Not under a window over the board. Returns the looks
        named."""
        known = self.L.known()
        if not flagged or ids.shape != (self.g.rows, self.g.cols) or window_over(ids, known).any():
            return []
        at = np.zeros(ids.shape, bool)
        at[tuple(np.array(flagged).T)] = True
        named = []
        for look in sorted({int(v) for v in ids[at]} - set(known)):
            if not (ids == look)[~at].any():
                self.L.name(look, FLAG, weight=int((ids == look).sum()))
                named.append(look)
        return named

    def _flags_won(self, first: tuple[Image, Image], last: tuple[Image, Image],
                   alone: bool) -> bool:
        """Did the last flag (frames before and after it) change something off the
        board that the ``first`` flag did not change (a face, a win dialog), a clock
        left out? Then the game wanted every mine flagged to declare its win. A game
        that had ended silently at its last opened square and still takes flags
        (PyMines, nicegui-minesweeper) shows the flags and nothing else; a flags-left
        counter changes at every flag. With one flag ``alone`` (``first`` is
        ``last``), any change off the board but a clock counts. A clock is what
        changed at two moves of a game (:attr:`volatile`, but never the control that
        starts a new game) or changes again, or next to it, within
        :data:`CLOCK_WATCH` seconds after the last flag (the clock's tens digit turned
        at the last flag, its units go on); a win display stays."""
        if last[0].shape != last[1].shape:
            return True  # the window changed size: the game declared something
        if self._x_over(last[1]).any() and not self._x_over(last[0]).any():
            return True  # a window came over the board (the Java game's "Congrats!")
        ignore = self.volatile.copy() if self.volatile.shape == last[0].shape[:2] else \
            np.zeros(last[0].shape[:2], bool)
        for r in self.restart_rects:
            # the control that starts a new game is no clock: a face there changed at
            # moves of the game (DangerUXB's "Click" at a press left on an opened
            # square) and shows the win at the last flag
            ignore[r.top:r.top + r.height, r.left:r.left + r.width] = False
        if not alone and first[0].shape == first[1].shape == last[0].shape:
            ignore |= cv2.dilate(changed_pixels(*first).astype(np.uint8),
                                 np.ones((9, 9), np.uint8)).astype(bool)
        blobs = changed_blobs(*last, self.g.bounds(), ignore)
        if not blobs:
            return False
        moving = np.zeros(ignore.shape, bool)
        deadline = time.monotonic() + CLOCK_WATCH
        while time.monotonic() < deadline:
            time.sleep(0.05)
            now = self.grab()
            if now.shape == last[1].shape:
                moving |= changed_pixels(last[1], now)
        return any(not crop(moving, r, max(r.width, r.height)).any() for r in blobs)

    def _ended(self, outcome: str, before: Image, after: Image, unsure: bool = False) -> None:
        # end-of-game displays (a dialog) may come a moment later; what the first
        # endings of each kind show is learned, later ones only need a new game
        if outcome == "won" or self.results.count(outcome) < 2:
            time.sleep(0.4)
        later = self.grab()
        if outcome == "won" and later.shape == before.shape:
            if not self._board_gone(self.ids(before), self.ids(later)):
                more = self.wait_change(later, timeout=1.0)  # a dialog may come later still
                later = later if more is None else more
            if self._board_gone(self.ids(before), self.ids(later)):
                later = self._steady(1.0)  # a dialog window is drawn in steps
        if later.shape == after.shape:
            after = later
        self.endings.append(Ending(outcome, before, after, self._before_panel(before, after),
                                   unsure=unsure))
        self.results.append(outcome)
        self.log(f"game {len(self.results)}: {outcome}")
        self._note_count(self.endings[-1])

    def _rejudge(self) -> None:
        """Judge again each end taken for a win with nothing to tell it by
        (:attr:`Ending.unsure`), once an end of either kind is sure: it is lost if the
        board showed what it showed at such a loss (minesweeper-mvc's "YOU LOSE!"
        after a final guess in the first game; taken for a win, its message became
        the skin's picture of a win)."""
        b = self.g.bounds()
        for i, e in enumerate(self.endings):
            kind = nearest_end(crop(e.after, b), self.cover_ends) if e.unsure else None
            if kind is None:
                continue
            e.unsure = False
            if kind == "lost":
                e.outcome = self.results[i] = "lost"
                self.log(f"game {i + 1}: lost (its end shows what a loss since showed)")

    def _note_count(self, ending: Ending) -> None:
        """Keep the count this end proved; once two games proved different counts the
        game has none: :attr:`mines` is dropped, and a game counts as won only when
        the numbers prove every covered square a mine."""
        n = self._proved_count(ending)
        if n is None:
            return
        self.proved_counts.append(n)
        if self.counts_vary and self.mines is not None:
            self.log(f"games ended with {min(self.proved_counts)}-{max(self.proved_counts)} "
                     "mines: this game has no fixed count")
            self.mines = None

    def _before_panel(self, before: Image, after: Image) -> Image | None:
        """The last frame of this end before a panel or a dialog came over the board
        (see :func:`bot.end_panel.panel_over`, :func:`window_over`), if one did: what
        the end showed under it (Windows 7's "Game Lost" dialog hides most of a 9x9
        board)."""
        was, known = self.ids(before), self.L.known()

        def covered(frame: Image) -> bool:
            ids = self.ids(frame)
            return bool(panel_over(ids, known, was).any() or window_over(ids, known, was).any())

        if not covered(after):
            return None
        return next((f for f in reversed(self.steps) if f.shape == after.shape
                     and not covered(f)), None)

    def _lone_new_look(self, ids: IdGrid, cells: list[Cell]) -> bool:
        """Does a clicked square show a mine, or a look of no name no other square
        shows (a hit mine shown alone first: Google's shows the others one by one from
        a quarter of a second later)?"""
        known = self.L.known()
        return any(known.get(int(ids[c]), UNKNOWN) in (MINE, EXPLODED) or
                   (int(ids[c]) not in known and int((ids == ids[c]).sum()) == 1)
                   for c in cells)

    # ------------------------------------------------------------------ restart
    def new_game(self, ending: Ending) -> tuple[IdGrid, Image]:
        """Start the next game (learning how on the first try); the fresh frame.

        A window over the board (a dialog) is first closed by the Escape key. Then
        tries the way learned before, else the user's restart key, then the controls
        that changed when the game ended, nearest the top of the board first; a click
        that changes the screen without starting a game (closing a dialog) is followed
        by another round, and so are, once each, a wait for a window still to come
        (Chromium drew its first dialog late on a busy machine) and the Escape key
        (which closes most dialogs), pressed only while something is there to close:
        a change outside the board since the end, or a window over it (with nothing
        there it is a surprise key, and it quits pygame's and Kivy's games). A window
        that took no keyboard focus when it came (minegauler's high-scores table with
        no window manager: the Escape went to the game's window) takes it at a click on
        it (the learned control under it, or one of its own): Escape is pressed again
        after such clicks while it is there."""
        self.end_keys = []
        self._late_dialog(ending, self.grab())
        fresh = self._point_before_escape() or self._key_before_escape(ending)
        if fresh is not None:
            return fresh
        escaped = self._close_dialog(ending)
        escaped_at = self.control_clicks  # the clicks on controls before the last Escape
        if ending.outcome == "won":
            self._let_message_go()
        self._let_cover_go(ending)
        self.ended_codes = self.knowledge(self.ids(self.grab()))
        keys = self.opts.restart_keys
        if not self.restart and keys:  # the key the user named, before any control
            fresh = self._key_restart(keys)
            if fresh is not None:
                self.restart = {"kind": "key", "keys": [keys]}
                return fresh
        tried: list[PixelRect] = []
        waited = False
        for _ in range(4):
            fresh = self._late_game(tried) or self._known_restart() or \
                (self._default_button(ending) if escaped else None)
            if fresh is not None:
                return fresh
            if escaped and self.control_clicks > escaped_at and self._close_dialog(ending):
                escaped_at = self.control_clicks  # (a click gave the window the focus)
                continue
            now = self.grab()
            self._late_dialog(ending, now)
            outside = [r for r in changed_blobs(ending.before, now, self.g.bounds(),
                                                self.volatile)[:8]
                       if not _surrounds(r, self.g.bounds())]  # (a background, no control)
            panel = panel_controls(ending.before, now, self.g.bounds(), self.g.pitch_x)
            for rect in [*outside, *panel]:  # (a panel over the board: Google's)
                if any(_overlap(rect, t) for t in tried):
                    continue
                late = self._late_game(tried, LATE_GAME_WAIT)
                if late is not None:
                    return late
                tried.append(rect)
                fresh = self._try_click(rect)
                if fresh is not None:
                    return self._learn_click(rect, fresh)
                if not np.array_equal(self.grab(), now):
                    break  # something moved (a dialog closed): look again
            else:
                if not waited and not self.restart:  # a dialog drawn late: look again
                    waited = True
                    if self.wait_change(now, timeout=2.0) is not None:
                        continue
                over = self._window_over_end(ending, self.grab())
                if escaped and (self.control_clicks == escaped_at or not over):
                    break
                if not (outside or panel or over):
                    break  # nothing to close: Escape would be a surprise (quits pygame's)
                self.mouse.key("Escape")  # close a dialog that no click closed
                self.end_keys.append("Escape")
                escaped, escaped_at = True, self.control_clicks
                if self.wait_change(now, timeout=1.0) is not None:
                    self.dismissed = True
                    self._note_closed(ending)
        return self._restart_by_user()

    def _close_dialog(self, ending: Ending) -> bool:
        """Press Escape if a window is over the ended board (a dialog: a patch of
        squares each of a look of its own, changed since the frame before the end; at
        a win, also most squares unread, say a scores table) and wait until it has
        gone; whether the key was pressed. Clicking its controls or the game's behind
        it takes a second a try (kmines' modal dialogs at a win and at a loss)."""
        image = self.grab()
        if not self._window_over_end(ending, image) or self._goes_by_itself(ending, image):
            return False
        self.mouse.key("Escape")
        self.end_keys.append("Escape")
        if self.wait_change(image, timeout=max(1.0, self.opts.redraw_timeout)) is not None:
            self.dismissed = True  # (a key that changes nothing is not play's to press)
            time.sleep(0.1)  # (a key at once may go to the window closing)
            self._note_closed(ending)
        return True

    def _point_before_escape(self) -> tuple[IdGrid, Image] | None:
        """Click the control at the user's ``restart_point`` first, at every end: the
        user said it starts a new game, and Escape, pressed at an end for what covers
        the board, quits many games (Kivy's, which grey every square at a loss: that
        reads as a window over the board). The fresh game if the click started one."""
        point = self.opts.restart_point
        if point is None:
            return None
        return self._known_restart() if self.restart.get("kind") == "click" else \
            self._restart_at(point)

    def _key_before_escape(self, ending: Ending) -> tuple[IdGrid, Image] | None:
        """Press the restart key (the user's, or the one learned) before any Escape
        while something fills the whole ended board: a game that draws its end over
        its own window ("GAME OVER - press R") takes it, where Escape quits many
        (pygame's). A dialog over part of the board (kmines') gets Escape first, as
        before. The fresh game if the key started one."""
        learned = self.restart.get("kind") == "key"
        keys = self.restart["keys"][0] if learned else self.opts.restart_keys
        if not keys or not self._covers_end(ending, self.grab()):
            return None
        fresh = self._try_keys(keys)
        if fresh is not None and not learned:
            self.restart = {"kind": "key", "keys": [keys]}
        return fresh

    def _goes_by_itself(self, ending: Ending, image: Image) -> bool:
        """Did something that fills the whole ended board in ``image`` change by itself
        within :data:`MESSAGE_WAIT` s? A game that draws its end's message over its own
        window (minesweeper-mvc, 5 s; many pygame games quit at Escape) then gets no
        key. A cover that stood that long (a dialog, a scores table) makes later ends'
        covers get Escape at once (:attr:`covers_stay`). (An end is judged once it has
        settled: a dialog fading in has come whole by then.)"""
        if self.covers_stay or not self._covers_end(ending, image):
            return False
        if self.wait_change(image, timeout=MESSAGE_WAIT) is not None:
            return True
        self.covers_stay = True
        return False

    def _window_over_end(self, ending: Ending, image: Image) -> bool:
        """Is a window over the ended board in ``image`` (:meth:`_close_dialog`)?"""
        ids = self.ids(image)
        if window_over(ids, self.L.known(), self.ids(ending.before)).any():
            return True
        return ending.outcome == "won" and bool((self.knowledge(ids) == UNKNOWN).mean() > 0.5)

    def _note_closed(self, ending: Ending) -> None:
        """Keep the screen as ``ending.closed`` once the window over the ended board is
        gone and the board reads as the ended game (not a new one): the game's own
        end display, its face, which the window hid."""
        if not self._window_over_end(ending, ending.after):
            return
        frame = self._steady(0.5)
        if frame.shape != ending.after.shape or self._window_over_end(ending, frame):
            return
        codes = self.knowledge(self.ids(frame))
        shown = np.isin(codes, (MINE, EXPLODED, WRONG_FLAG, FLAG)).any()
        if (codes == UNKNOWN).mean() > 0.2 or ((codes == COVERED).mean() >= 0.5 and not shown):
            return  # (part of the board still hidden, or a new game already)
        ending.closed = frame

    def _default_button(self, ending: Ending) -> tuple[IdGrid, Image] | None:
        """Press Return while a window stays over the ended board after Escape (a
        dialog), no way to restart known yet: it presses the dialog's default button.
        Windows 7 centres its "Game Lost" / "Game Won" dialog on the game, so its
        buttons lie over the board, where no changed control is looked for, and its
        default button is "Play again" (its "Exit" beside it ends the program). The
        fresh game if that started one."""
        if self.restart:
            return None
        ids = self.ids(self.grab())
        if not window_over(ids, self.L.known(), self.ids(ending.before)).any():
            return None
        fresh = self._try_keys("Return")
        self.end_keys.append("Return")
        if fresh is not None:
            self.restart = {"kind": "key", "keys": ["Return"]}
            self.log("new game: the Return key (the default button of a dialog over the "
                     "board)")
        return fresh

    def _let_cover_go(self, ending: Ending) -> None:
        """Wait (up to :data:`MESSAGE_WAIT` s) while something that fills the whole
        board at the game's end, and that no key closed, stays as it is: a message
        that goes by itself (minesweeper-mvc shows "YOU WIN!" or "YOU LOSE!" over its
        whole window for 5 s, then its menu, whose buttons take no click before)."""
        now, b = self.grab(), self.g.bounds()
        if now.shape != ending.after.shape or not self._covers_end(ending, now) or \
                not np.array_equal(crop(now, b), crop(ending.after, b)):
            return  # (the message, as the end showed it, is gone already)
        if self.wait_change(now, timeout=MESSAGE_WAIT) is not None:
            self._steady()  # (a menu drawn in steps)

    def _let_message_go(self) -> None:
        """Wait (up to ``uncover_timeout`` s, no key pressed) until every square of the
        ended board reads as a named look and the board has stood still, as play does
        between games (:func:`bot.loop.wait_uncovered`): kmines draws a message over the
        middle of the board at a win that fades out by itself, and a game started
        before it is gone takes no click where it was. Not while a window covers most
        of the board (a dialog, say a scores table: the restart closes it)."""
        from bot.loop import wait_uncovered

        b = self.g.bounds()
        seen: list[tuple[Image, np.ndarray]] = []

        def look() -> tuple[Image, np.ndarray]:  # (the board, its squares unread)
            frame = self.grab()
            board = crop(frame, b)
            if not seen or not np.array_equal(board, seen[-1][0]):
                seen[:] = [(board, self.knowledge(self.ids(frame)) == UNKNOWN)]
            return seen[-1]

        if look()[1].mean() > 0.5:
            return
        if not wait_uncovered(look, self.opts.uncover_timeout):
            self.log("the board did not read whole before the restart")

    def _late_dialog(self, ending: Ending, now: Image) -> None:
        """A win's dialog may come well after the win (a loaded machine): keep the
        frame that shows it as what the win looked like."""
        if ending.outcome != "won" or now.shape != ending.before.shape:
            return
        before = self.ids(ending.before)
        if not self._board_gone(before, self.ids(ending.after)) and \
                self._board_gone(before, self.ids(now)):
            ending.after = self._steady(1.0)  # a dialog window is drawn in steps

    def _known_restart(self) -> tuple[IdGrid, Image] | None:
        """The way learned before (a control may take a moment to work after a win:
        a second try follows a short wait)."""
        if self.restart.get("kind") == "click":
            for attempt in range(2):
                if attempt:
                    time.sleep(0.7)
                for rect in self.restart_rects:
                    fresh = self._try_click(rect)
                    if fresh is not None:
                        return fresh
        elif self.restart.get("kind") == "key":
            return self._key_restart(self.restart["keys"][0])
        return None

    def _restart_by_user(self) -> tuple[IdGrid, Image]:
        """The way the user names: ``restart_keys`` or ``restart_point``, else one
        question, answered by a key or by pointing at the control (a control that
        looks the same all along is not found by itself)."""
        keys, point = self.opts.restart_keys, self.opts.restart_point
        if keys is None and point is None and self.opts.ask is not None:
            asked = time.monotonic()
            keys = self.opts.ask(ASK_RESTART).strip() or None
            self.user_seconds += time.monotonic() - asked
            here = self.mouse.hand_back()  # the user may have used the mouse to answer
            point = None if keys else here
        if keys:
            fresh = self._key_restart(keys)
            if fresh is not None:
                self.restart = {"kind": "key", "keys": [keys]}
                return fresh
        if point is not None:
            fresh = self._restart_at(point)
            if fresh is not None:
                return fresh
        raise CalibrationError("cannot find how to start a new game: pass --restart-key "
                               "KEY or --restart-at X,Y (the screen point of the control "
                               "that starts one), or start one by hand and calibrate again"
                               + self._keys_hint())

    def _keys_hint(self) -> str:
        """What to say of the keys pressed at the end to close what covered the board
        (:attr:`end_keys`): many games quit at Escape."""
        if not self.end_keys:
            return ""
        pressed = list(dict.fromkeys(self.end_keys))
        keys = " and ".join(pressed)
        return (f"; {keys} {'was' if len(pressed) == 1 else 'were'} pressed to close what "
                "covered the board at the game's end: if the game quit at that, start it "
                "again and pass --restart-key KEY (tried before any Escape while something "
                "covers the whole board)")

    def _restart_at(self, point: ScreenPoint) -> tuple[IdGrid, Image] | None:
        """Click the control the user pointed at (never a square of the board)."""
        p = self.map.to_pixel(point)
        rect = control_at(p, self.g, self._last_image_shape())
        if rect is None:
            raise CalibrationError(f"the point ({point.x:.0f}, {point.y:.0f}) is on the "
                                   "board or off the screen: point at the control that "
                                   "starts a new game")
        fresh = self._try_click(rect)
        if fresh is not None:
            # (grown as the shot of it is: the region the skin looks for it in must
            # hold its templates; ItzAleksG's 61 px face gave 109 px shots and an 85 px
            # region, and play never found its face at a win)
            self.restart_rects.append(grow(rect, self._last_image_shape()))
            self.told = rect
            self.restart = {"kind": "click"}
            self.log(f"new game: click at ({point.x:.0f}, {point.y:.0f}), as told")
        return fresh

    def _last_image_shape(self) -> tuple[int, ...]:
        return self._last_image.shape if self._last_image is not None else self.grab().shape

    def _key_restart(self, keys: str) -> tuple[IdGrid, Image] | None:
        """Press ``keys``; if no new game comes, click the ended game's board (a
        dialog closed may have taken the keyboard focus with it: kmines' under
        openbox) and press them again."""
        fresh = self._try_keys(keys)
        if fresh is None:
            self.click_cell((0, 0))
            self.park()
            fresh = self._try_keys(keys)
        return fresh

    def _fresh(self, image: Image | None = None) -> tuple[IdGrid, Image] | None:
        """The board's looks and ``image`` (else a new frame) if it shows a new game."""
        image = self.grab() if image is None else image
        ids = self.ids(image)
        codes = self.knowledge(ids)
        covered = float((codes == COVERED).mean())
        if np.isin(codes, (MINE, EXPLODED, WRONG_FLAG, FLAG)).any() or \
                window_over(ids, self.L.known()).any():
            return None  # (a dialog over a lost game's board is no fresh game)
        if self._covers_again(codes) or covered >= 0.5 and self._nothing_to_tell(codes):
            return ids, image
        return None

    def _covers_again(self, codes: np.ndarray) -> bool:
        """Does the board cover again a square the ended board showed open, or a mine
        or a flag on? Then it is a new game, however much of it is open: xdemineur
        opens a region of its own at the start, over half of a 16x16 board with 40
        mines about once in 80 games (and a region that takes in all a game lost at
        its first click showed open about as often: its mines are covered again)."""
        if self.ended_codes is None:
            return False
        shown = np.isin(self.ended_codes, (*range(0, 9), MINE, EXPLODED, WRONG_FLAG, FLAG))
        return bool((shown & (codes == COVERED)).any())

    def _nothing_to_tell(self, codes: np.ndarray) -> bool:
        """Whether the ended board gives nothing to tell a new game by, when it covers
        no square again (:meth:`_covers_again`): no ended board, no number shown now,
        or no square the ended board showed open (a dialog over it). Else the board is
        the ended one kept (a restart key that went nowhere; its mines perhaps in looks
        not named yet)."""
        return self.ended_codes is None or not np.isin(codes, range(1, 9)).any() or \
            not np.isin(self.ended_codes, range(0, 9)).any()

    def _try_click(self, rect: PixelRect) -> tuple[IdGrid, Image] | None:
        """Click the middle of ``rect``; the fresh game if that started one (and then
        what ``rect``, grown to the whole control, showed joins the restart templates)."""
        before = self.grab()
        shot = crop(before, grow(rect, before.shape))
        self._last_click = (rect, shot)
        self._last_click_at = time.monotonic()
        fresh = self._click_rect(rect, before)
        if fresh is not None:
            self._note_control(rect, shot)
        return fresh

    def _note_control(self, rect: PixelRect, shot: Image) -> None:
        """A click on ``rect``, which showed ``shot``, started a game."""
        self.clicked_alone.append(self._in_board_place(rect))
        if not any(s.shape == shot.shape and np.array_equal(s, shot)
                   for s in self.restart_shots):
            self.restart_shots.append(shot)

    def _learn_click(self, rect: PixelRect, fresh: tuple[IdGrid, Image]) -> tuple[IdGrid, Image]:
        """From now on a new game is started by a click on ``rect``."""
        self.restart_rects.append(grow(rect, fresh[1].shape))
        self.restart = {"kind": "click"}
        self.log(f"new game: click at ({rect.left + rect.width // 2}, "
                 f"{rect.top + rect.height // 2})")
        return fresh

    def _late_game(self, tried: list[PixelRect],
                   wait: float = 0.0) -> tuple[IdGrid, Image] | None:
        """A new game on the screen before the next control is tried: the last one
        tried started it, but it was seen only after the wait for it had ended (a
        loaded machine: minesweeper-mvc's board came a second after the click on its
        MEDIUM button, but reading the frames took seconds each; the control clicked
        next, a patch of grass below the menu, was learned as the new-game control,
        and the next restart found none). The last control tried is learned. With
        ``wait``, the game is looked for until ``wait`` s after that click (a game drawn
        1.6 s after the click on its face came during the wait after a click on the
        clock beside it, and the clock was learned)."""
        if not tried or self._last_click is None or self._last_click[0] != tried[-1]:
            return None
        deadline = self._last_click_at + wait
        while (fresh := self._fresh(image := self.grab())) is None:
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.05)
        time.sleep(0.1)
        if not self._unchanged(image):
            return None  # (still being drawn: the next look tells)
        rect, shot = self._last_click
        self._note_control(rect, shot)
        self.log("the last control tried started a game, drawn late")
        return self._learn_click(rect, fresh)

    def _in_board_place(self, rect: PixelRect) -> bool:
        """Is the middle of ``rect`` where the board's squares are? A control there
        shows with no board (a menu in the board's place, or a dialog over it)."""
        return self.g.bounds().contains(rect.centre())

    def _click_rect(self, rect: PixelRect, before: Image) -> tuple[IdGrid, Image] | None:
        """Click the middle of ``rect`` (the screen was ``before``); the fresh game if
        that started one."""
        self.control_clicks += 1
        p = self.point(rect.centre())
        a = self.point(PixelPoint(rect.left, rect.top))
        b = self.point(PixelPoint(rect.left + rect.width, rect.top + rect.height))
        self.mouse.allow([ScreenRect(a.x, a.y, b.x - a.x, b.y - a.y)])
        try:
            self.mouse.click(p)
        finally:
            self.mouse.allow([self.board_rect()])
        self.park()
        return self._wait_fresh(before)

    def _try_keys(self, keys: str) -> tuple[IdGrid, Image] | None:
        before = self.grab()
        self.mouse.key(keys)
        return self._wait_fresh(before)

    def _wait_fresh(self, before: Image, settle: float = 0.1) -> tuple[IdGrid, Image] | None:
        """The new game's first frame, once its board has not changed for ``settle``
        seconds: a game that redraws every square one by one (ace-minesweeper takes
        30 ms for 32x32) shows a half-drawn board, the rest read as opened squares.
        Waits :data:`FRESH_TIMEOUT` s for it, or :data:`FRESH_SLOW_TIMEOUT` s once the
        board differs from ``before`` (the screen before the key or click): on a loaded
        machine a new game can take longer to draw than a control takes to do nothing."""
        b = self.g.bounds()
        start = time.monotonic()
        deadline = start + FRESH_TIMEOUT
        while time.monotonic() < deadline:
            time.sleep(0.05)
            image = self.grab()
            fresh = self._fresh(image)
            if fresh is not None:
                time.sleep(settle)
                if self._unchanged(image):
                    return fresh
            elif image.shape == before.shape and \
                    not np.array_equal(crop(image, b), crop(before, b)):
                deadline = start + FRESH_SLOW_TIMEOUT
        return None

    # ------------------------------------------------------------------ main
    def run(self) -> Learned:
        """Calibrate; raises :class:`CalibrationError` on bad input, after which
        nothing more is clicked."""
        try:
            return self._run()
        except MouseStopped as exc:
            error = CalibrationError(f"stopped: {exc}")
            if isinstance(exc, WindowClosed):  # (the games before it taught what they did)
                error.partial = self._partial()
            raise error from None

    def _run(self) -> Learned:
        ids = self.find_board()
        image = self._last_image
        assert image is not None
        ids = self.learn_marks(ids)
        image = self._last_image
        assert image is not None
        began, waited = time.monotonic(), self.user_seconds
        while True:
            ids, image = self._game_in_place(ids, image)
            self._rejudge()
            self.game_seconds.append(time.monotonic() - began - (self.user_seconds - waited))
            both = {"won", "lost"} <= set(self.results) or self._no_win_possible()
            done = len(self.results) >= self.opts.games and both and \
                self._seen_common_states() and not self._want_marked_loss() and \
                not self._opening_unproved()  # (a few games more prove it or not)
            if done or len(self.results) >= self.opts.max_games or not self._time_for_a_game():
                break
            began, waited = time.monotonic(), self.user_seconds
            ids, image = self._next_game()
        if "won" not in self.results:
            self.notes.append("no game was won: the win display is not learned")
        # leave a fresh game on the screen; first, as the last game's end may be the
        # only one of its kind, what closing a window over it shows is learned too
        ids, image = self._next_game()
        if self.keeps_unseen_marks:
            self._clear_kept_marks(ids, image)
        return self._learned()

    def _game_in_place(self, ids: IdGrid, image: Image) -> tuple[IdGrid, Image]:
        """:meth:`play_game` until a game ends with its squares where they were found;
        a game whose squares moved is left unread (:meth:`_leave_moved_game`)."""
        while True:
            try:
                ended = self.play_game(ids, image)
            except SquaresMoved as exc:
                ids, image = self._leave_moved_game(exc)
                continue
            self.moved_in_a_row = 0
            return ended

    def _leave_moved_game(self, exc: SquaresMoved) -> tuple[IdGrid, Image]:
        """Start a new game past one whose squares moved, unread: DangerUXB (Tk) draws
        a row of numbers alone 8 px shorter and shares the height out to the other
        rows, as at a loss that shows the whole board; its next game is laid out as
        the first. Only with a known way to start a game (learned, or the user's:
        :meth:`_restart_by_user`; the controls changed at an end are not known here),
        and not in :data:`MOVED_GAMES` games in a row (a game whose every square grows
        with its text): else ``exc`` stops calibration."""
        self.moved_in_a_row += 1
        if self.moved_in_a_row >= MOVED_GAMES:
            raise exc
        self.ended_codes = self.knowledge(self.ids(self.grab()))
        try:
            fresh = self._known_restart() or self._restart_by_user()
        except CalibrationError as err:
            raise SquaresMoved(f"{exc}; {err}") from None
        self.log(f"game {len(self.results) + 1}: the board's squares moved (at its end, "
                 "or in it): the game is left unread, and a new one started")
        return fresh

    def _next_game(self) -> tuple[IdGrid, Image]:
        """:meth:`new_game` after the last end; when it cannot start one, the error
        carries what the games so far taught (:attr:`CalibrationError.partial`), if a
        game's end showed its mines and numbers were named: a skin of covered looks
        alone, from an end read as lost with no mine shown, is no skin (cave-sweeper's
        message box over its board gave covered and mine looks of its pieces)."""
        try:
            fresh = self.new_game(self.endings[-1])
        except CalibrationError as exc:
            if exc.partial is None:
                exc.partial = self._partial()
            raise
        closed = self.mouse.close_new_windows([self.board_rect()])
        if closed:  # (as a player would: MineGrid's end windows piled up over the board)
            self.log(f"closed {closed} window(s) the game opened beside its board")
        return fresh

    def _partial(self) -> Learned | None:
        try:
            learned = self._learned()
        except Exception:  # noqa: BLE001 (the error that stopped calibration is the one)
            return None
        numbers = any(0 <= code <= 8 for code in learned.cells)
        return learned if numbers and learned.mine_counts else None

    def _clear_kept_marks(self, ids: IdGrid, image: Image) -> None:
        """Take off, on the fresh board left for play, every mark the game may keep
        unseen from calibration's games (PyMines: a square flagged when a game ended
        ignores left clicks in every later game, and its flood passes over it). Each
        square ever marked is right-clicked: where nothing shows, the unseen mark went;
        where a mark shows, there was none, and it is right-clicked back through the
        game's mark cycle."""
        board = self.knowledge(ids)
        cells = sorted(c for c in self.marked_cells if board[c] == COVERED)
        if not cells:
            return
        shown, cleared = image, 0
        for round_ in range(3):  # none -> flag; flag -> (question mark ->) none
            for cell in cells:
                self.click_cell(cell, self.flag_button)
            self.park()
            shown = self._settled(shown, settle=0.3)
            now = self.knowledge(self.ids(shown))
            if round_ == 0:
                cleared = sum(1 for c in cells if now[c] == COVERED)
            cells = [c for c in cells if now[c] in (FLAG, QUESTION)]
            if not cells:
                break
        self.log(f"{cleared} squares held a mark the game kept unseen: taken off for play")
        if cells:
            self.notes.append(f"{len(cells)} squares still show a mark: take them off "
                              "before play")

    def _time_for_a_game(self) -> bool:
        """Is there time left for another game: 15 s, and as long as the longest game
        so far took with its restart? A game the time limit cuts off stops calibration
        with nothing written (kmines' graveyard-mayhem at 16x16/40: 6 games in 75 s,
        the 7th started with 15 s left: "the game did not end within 90 s")."""
        return self.time_left() >= max(15.0, max(self.game_seconds, default=0.0))

    def _no_win_possible(self) -> bool:
        """A board so dense that a win is not to be waited for (more than half mines)."""
        g = self.g
        return self.mines is not None and self.mines > 0.5 * g.rows * g.cols

    def _seen_common_states(self) -> bool:
        """Numbers 0-5 and a wrong flag seen (6-8 are rare: warned about, and learned
        by later runs that extend the skin); the time limit ends the search anyway."""
        names = set(self.L.known().values())
        want = set(self.opts.want) - (set() if self.places_flags else
                                      {FLAG, QUESTION, WRONG_FLAG})
        return want <= names

    def _learned(self) -> Learned:
        status = self.learn_status()
        restart = dict(self.restart)
        end = self.endings[-1]
        if restart.get("kind") == "click" and self.restart_rects:
            b = self.g.bounds()
            union = _union(self.restart_rects)
            shots: list[Image] = []
            ends = (next((e for e in self.endings if e.outcome == outcome), None)
                    for outcome in ("lost", "won"))
            # the control as each ending shows it first (kept within the cap of 4: a
            # face after a win looks unlike after a loss; not what a window over a win
            # never closed shows there), then as it was clicked
            r = self.restart_rects[0]
            clicked = self.restart_shots[:1]
            for shot in [crop(e.shown_end, r) for e in ends if e and not (
                    e.outcome == "won" and e.closed is None and self._window_over_end(e, e.after)
                    and not any(same_control(crop(e.after, r), c) for c in clicked))] \
                    + self.restart_shots:
                if not any(x.shape == shot.shape and np.array_equal(x, shot) for x in shots):
                    shots.append(shot)
            restart["templates"] = shots[:4]
            restart["region"] = side_region(union, b, 12)
            if self.told is not None:
                restart["told"] = told_point(self.told, self.g)
            if self.clicked_alone and all(self.clicked_alone):  # (play clicks it when
                restart["alone"] = [  # it finds no board): the looks clicked, not an end's
                    i for i, shot in enumerate(restart["templates"])
                    if any(x.shape == shot.shape and np.array_equal(x, shot)
                           for x in self.restart_shots)]
        if restart.get("keys") == ["Return"]:  # a dialog's default button (above)
            restart["dismiss_keys"] = ["Return"]
        elif self.dismissed:
            restart["dismiss_keys"] = ["Escape"]
        elif not restart:
            self.notes.append("how to start a new game is not learned")
        del end
        cells = self.L.templates()
        g = self.g
        return Learned(dict(cells), (g.pitch_x, g.pitch_y), status, restart, self.notes,
                       self.results, self.seen_mine_counts())

    def seen_mine_counts(self) -> tuple[tuple[tuple[int, int], int], ...]:
        """The mine count each game's end proved (:func:`vision.calibrate.seen_mine_count`),
        read with every look named so far: a loss's last frame, or a win's last frame
        or the one before its last move (only mines left hidden)."""
        out = []
        for e in self.endings:
            n = self._proved_count(e)
            if n is not None:
                out.append(((self.g.rows, self.g.cols), n))
        self.log("mines seen at the games' ends: "
                 + (", ".join(str(n) for _, n in out) or "none"))
        return tuple(out)

    def _proved_count(self, e: Ending) -> int | None:
        frames = (e.after, e.before) if e.outcome == "won" else \
            (e.after,) if e.shown is None else (e.after, e.shown)
        return next((n for n in (seen_mine_count(self.knowledge(self.ids(f))) for f in frames)
                     if n is not None), None)

    def learn_status(self) -> dict[str, Any]:
        """How a win and a loss show: a face-like control that changes at both, or the
        board itself (mines shown) plus what covers it at a win."""
        b = self.g.bounds()
        status: dict[str, Any] = {"win_needs_flags": self.win_needs_flags,
                                  "first_click_rule": self._rule()}
        if not self.places_flags:
            status["flag_button"] = "none"
        elif self.flag_button != "right":
            status["flag_button"] = self.flag_button
        if self.mouse.hold:
            status["click_hold"] = self.mouse.hold
            self.notes.append(f"the game takes a click only once the pointer stayed on the "
                              f"square: play holds it there {self.mouse.hold:.2f} s")
        if self.side_floods >= SIDE_FLOODS:
            status["zero_opens"] = "sides"
            self.notes.append(f"an opened 0 opens only the squares beside it (seen after "
                              f"{self.side_floods} moves)")
        note = first_click_note(self.first_clicks, status["first_click_rule"])
        if note:
            self.notes.append(note)
        lost = next((e for e in self.endings if e.outcome == "lost"), None)
        wins = [e for e in self.endings if e.outcome == "won"]
        # a win that covered the board (a dialog) shows the most
        won = next((e for e in wins if self._board_gone(self.ids(e.before), self.ids(e.after))),
                   wins[0] if wins else None)
        face = None
        fresh = self.start_image if self.start_image is not None else None
        if lost is not None and fresh is not None:
            face = self._changed_control(fresh, lost)
        if face is not None and lost is not None and fresh is not None:
            tpl = {"playing": [crop(fresh, face)], "lost": [crop(lost.after, face)]}
            distinct = True
            # a win as the game itself shows it: not under a window never closed
            # (minegauler's high-scores table over its face at a new best time)
            shown = [e for e in self.endings if e.outcome == "lost" or e.closed is not None
                     or not self._window_over_end(e, e.after)
                     or same_control(crop(e.after, face), tpl["playing"][0])]
            shown_won = [e for e in shown if e.outcome == "won"]
            if shown_won:
                w = crop(shown_won[0].shown_end, face)
                distinct = look_distance(w, tpl["lost"][0]) > 1.0 and \
                    look_distance(w, tpl["playing"][0]) > 1.0
                tpl["won"] = [w]
            steady = all(face_steady([crop(e.shown_end, face) for e in shown
                                      if e.outcome == kind and e.after.shape == fresh.shape],
                                     tpl[kind][0]) for kind in ("lost", "won") if kind in tpl)
            if distinct and steady and self._face_resets(face, tpl["playing"][0], lost):
                status.update({"method": "face", "region": relative_region(face, b, 12),
                               "templates": tpl})
                return status
        status["method"] = "board"
        self._learn_loss_display(status)
        if won is None:
            return status
        face_won = self._win_face(wins, fresh)
        if face_won is not None:
            rect, face_look = face_won
            status.setdefault("templates", {})["won"] = [face_look]
            self._widen_region(status, _reach_box(rect, b))
            self.log(f"win display: a control above the board that changes at a win alone, "
                     f"at ({rect.left}, {rect.top}) {rect.width}x{rect.height}, learned")
            return status
        covered = [e for e in wins if self._board_gone(self.ids(e.before), self.ids(e.after))]
        for ending in covered or [won]:
            why = self._learn_win_display(ending, status)
            if "won" in status.get("templates", {}):
                break
        self.log(f"win display: {why}")
        if "won" not in status.get("templates", {}):
            self.notes.append(f"the win is told by the board alone ({why})")
        return status

    def _changed_control(self, fresh: Image, end: Ending) -> PixelRect | None:
        """The control (grown from its changed part) that changed first at ``end`` but
        had not changed since the start (``fresh``: a clock had): a face or button above
        the board, not a strip wider than the board (a window's title bar that turns
        grey when a dialog takes the focus); None if none."""
        if fresh.shape != end.before.shape:
            return None
        b = self.g.bounds()
        ignore = cv2.dilate(changed_pixels(fresh, end.before).astype(np.uint8),
                            np.ones((5, 5), np.uint8)).astype(bool)
        blobs = changed_blobs(end.before, end.after, b, ignore, buttons_first=False)
        if not blobs or blobs[0].top + blobs[0].height > b.top or blobs[0].width > b.width:
            return None
        return grow(blobs[0], fresh.shape)

    def _win_face(self, wins: list[Ending], fresh: Image | None,
                  ) -> tuple[PixelRect, Image] | None:
        """A control above the board that changed at a win, shows the same at every
        win, and shows so in no frame of play and at no loss: ItzAleksG's Tk game puts
        a sunglasses face on its button at a win, where its face at play and at a loss
        are the same blank box (emoji missing from the font). Its board at a win (every
        opened square redrawn light blue, the numbers gone) differs from one win to the
        next: taken for a window over the board, a patch of it matched no other win.
        The control's place and its look at the win, or None."""
        shown = [e for e in wins if fresh is not None and e.before.shape == fresh.shape
                 and e.after.shape == fresh.shape]
        if fresh is None or not shown:
            return None
        first = shown[0]
        face = self._changed_control(fresh, first)
        if face is None:
            return None
        won = crop(first.shown_end, face)
        if not face_steady([crop(e.shown_end, face) for e in shown], won):
            return None
        play = [e.before for e in self.endings] + \
            [e.after for e in self.endings if e.outcome == "lost"] + [fresh]
        return (face, won) if _absent(won, play) else None

    def _learn_loss_display(self, status: dict[str, Any]) -> None:
        """A message that fills the whole board at a loss and shows no mine
        (minesweeper-mvc's "YOU LOSE!"): a detailed patch of it as the "lost" template
        (in ``status``), one found in no frame of play and in no win's last frame."""
        for e in self.endings:
            if e.outcome != "lost" or e.before.shape != e.after.shape or \
                    not self._covered_whole(self.ids(e.before), self.ids(e.after)):
                continue
            box = self._hidden_patch(e.after)
            patch = None if box is None else distinctive_patch(e.after, box, top=1.0)
            if box is None or patch is None:
                continue
            b = self.g.bounds()  # (a win taken for one at a final guess looks as a loss)
            others = [f.before for f in self.endings] + \
                [f.after for f in self.endings if f.outcome == "won"
                 and nearest_end(crop(f.after, b), self.cover_ends) != "lost"]
            if self.start_image is not None:
                others.append(self.start_image)
            if not _absent(crop(e.after, patch), others):
                continue
            status.setdefault("templates", {})["lost"] = [crop(e.after, patch)]
            self._widen_region(status, box)
            self.log(f"loss display: a message over the board, its patch at "
                     f"({patch.left}, {patch.top}) learned")
            return

    @staticmethod
    def _widen_region(status: dict[str, Any], box: PixelRect) -> None:
        """Let ``status["region"]`` (where its templates are looked for) reach ``box``'s
        size round the board (a dialog keeps its size when the window changes)."""
        dw, dh = float(box.width), float(box.height)
        if "region" in status:
            (_, x0, _, y0), (_, x1, _, y1) = status["region"]
            dw, dh = max(dw, -x0, x1), max(dh, -y0, y1)
        status["region"] = [[0.0, -dw, 0.0, -dh], [1.0, dw, 1.0, dh]]

    def _face_resets(self, face: PixelRect, playing: Image, lost: Ending) -> bool:
        """Does ``face`` look more as at the start than as at the loss ``lost`` just
        before the end of every later game? A picture that changes at each game's end
        and stays so into the next game is no face: the window's title where a page
        counts its games ("Minesweeper (won 0, lost 1: L)"), taken for the face, read
        every new game after a loss as lost, and play found no new game."""
        shown = crop(lost.after, face)
        for e in self.endings[self.endings.index(lost) + 1:]:
            if e.before.shape != lost.after.shape:
                continue
            now = crop(e.before, face)
            if look_distance(now, playing) > look_distance(now, shown):
                return False
        return True

    def _hidden_patch(self, image: Image) -> PixelRect | None:
        """The box of the biggest connected patch of squares of no known look."""
        unknown = (self.knowledge(self.ids(image)) == UNKNOWN).astype(np.uint8)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(unknown, connectivity=8)
        if n < 2:
            return None
        biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        rows, cols = np.nonzero(labels == biggest)
        a = self.g.cell_rect((int(rows.min()), int(cols.min())))
        z = self.g.cell_rect((int(rows.max()), int(cols.max())))
        return PixelRect(a.left, a.top, z.left + z.width - a.left, z.top + z.height - a.top)

    def _unread(self, image: Image) -> np.ndarray:
        """Pixels of ``image`` off the board or in a square of no known look."""
        keep = np.ones(image.shape[:2], bool)
        known = self.knowledge(self.ids(image)) != UNKNOWN
        for r, c in np.argwhere(known):
            rect = self.g.cell_rect((int(r), int(c)))
            keep[rect.top:rect.top + rect.height, rect.left:rect.left + rect.width] = False
        return keep

    def _learn_win_display(self, won: Ending, status: dict[str, Any]) -> str:
        """A dialog that covers the board at a win: its title as the "won" template
        (in ``status``). Says what was found."""
        if not self._board_gone(self.ids(won.before), self.ids(won.after)):
            return "nothing covered the board"
        found = board_again(won.after, self.g)
        if found is not None and squares_moved(found, self.g):
            return "the board's squares moved, no window came over them"  # (DangerUXB)
        keep = self._unread(won.after)
        box = dialog_box(won.before, won.after, self.g.pitch_x, keep)
        # the biggest patch of squares it hides, too (a dialog drawn in steps may show
        # in both frames)
        cells = self._hidden_patch(won.after)
        if box is None or (cells is not None and not _contains(box, cells)):
            box = cells
        elif cells is not None:
            box = _union([box, cells])
        if box is None:
            return "no solid box came over the board"
        whole = won.before.shape == won.after.shape and \
            self._covered_whole(self.ids(won.before), self.ids(won.after))
        patch = distinctive_patch(won.after, box, top=1.0 if whole else 1 / 3)
        if patch is None:
            return "the box that came over the board has no detail"
        during_play = [e.before for e in self.endings if e.outcome == "lost"]
        if self.start_image is not None:
            during_play.append(self.start_image)
        if whole:  # (a message at a loss in the same place: the win's own words)
            during_play += [e.after for e in self.endings if e.outcome == "lost"]
        if not _absent(crop(won.after, patch), during_play):
            return "the box's title also shows during play"
        lost = status.get("templates", {}).get("lost")
        if lost and not _absent(lost[0], [won.after]):
            return "the loss's message shows at the win too"
        status.setdefault("templates", {})["won"] = [crop(won.after, patch)]
        # a dialog keeps its size when the window changes: look for it anywhere
        # within its own size around the board
        self._widen_region(status, box)
        return f"a dialog, its title at ({patch.left}, {patch.top}) learned"


def _line_changed(before: IdGrid, after: IdGrid) -> bool:
    """Has every square of a row or a column changed its look? (Squares that moved, cut
    at their old places; a quick test before :func:`vision.moved_squares.board_again`.)

    >>> a = np.zeros((3, 3), np.int32)
    >>> _line_changed(a, a), _line_changed(a, a + np.eye(3, dtype=np.int32))
    (False, False)
    >>> b = a.copy(); b[1] = 5; _line_changed(a, b)
    True
    """
    changed = before != after
    return bool(changed.all(axis=1).any() or changed.all(axis=0).any())


SIDE_FLOODS = 2
"""Moves that must leave a 0 with a covered square only diagonal to it before the skin
says the game's 0s open only the squares beside them (``status.zero_opens: sides``)."""


def one_region_open(ids: IdGrid) -> bool:
    """Whether the board shows one zero region open and nothing else, as xdemineur's
    start does (it opens one by itself; 5 of 4000 real starts on 16x16/40 left no
    look on 40 % of the squares): for two of the three commonest looks, taken for
    covered and 0, the squares not covered are one 8-connected region, no 0 is next to
    a covered square and every other open square is next to a 0.

    >>> region = np.array([[0, 0, 1, 2], [0, 0, 1, 2], [1, 1, 1, 2], [2, 2, 2, 2]])
    >>> one_region_open(region)
    True
    >>> two = np.array([[0, 1, 2, 1, 0], [0, 1, 2, 1, 0], [1, 1, 2, 1, 1]])
    >>> one_region_open(two)  # two regions, the covered column between them
    False
    """
    looks, counts = np.unique(ids, return_counts=True)
    common = [int(lk) for lk in looks[np.argsort(-counts, kind="stable")][:3]]
    for covered_look in common:
        covered = ids == covered_look
        regions, _ = cv2.connectedComponents((~covered).astype(np.uint8), connectivity=8)
        if regions != 2:
            continue
        by_covered = neighbour_sum(covered) > 0
        for zero_look in common:
            zero = ids == zero_look
            if zero_look == covered_look or (zero & by_covered).any():
                continue
            if not (~covered & ~zero & (neighbour_sum(zero) == 0)).any():
                return True
    return False


def checkerboard(ids: IdGrid, a: int, b: int, share: float = 0.95) -> bool:
    """Do looks ``a`` and ``b`` alternate like a checkerboard's squares (each on its
    own parity of row + column) on ``share`` of the squares that show either?

    >>> ids = np.array([[1, 2, 1], [2, 1, 2]])
    >>> checkerboard(ids, 1, 2), checkerboard(ids, 1, 3)
    (True, False)
    >>> checkerboard(np.array([[1, 1, 2], [1, 1, 2]]), 1, 2)  # a region, not a checkerboard
    False
    """
    if not (ids == a).any() or not (ids == b).any():
        return False
    odd = (np.add.outer(np.arange(ids.shape[0]), np.arange(ids.shape[1])) % 2).astype(bool)
    either = int(((ids == a) | (ids == b)).sum())
    one = int(((ids == a) & ~odd).sum() + ((ids == b) & odd).sum())
    two = int(((ids == a) & odd).sum() + ((ids == b) & ~odd).sum())
    return max(one, two) >= share * either


def side_flood_shown(board: Board) -> bool:
    """Does ``board`` (named squares; the rest UNKNOWN) show a 0 with a covered square
    diagonal to it and none beside any 0, as a game whose 0s open only the four squares
    beside them leaves it (react-minesweeper)?

    >>> side_flood_shown(np.array([[0, 1], [1, -1]], np.int8))
    True
    >>> side_flood_shown(np.array([[0, -1], [0, 1]], np.int8))  # beside: a redraw half-way
    False
    """
    return bool(zero_beside_covered(board).any() and not zero_beside_covered(board, True).any())


def face_steady(shown: Sequence[Image], template: Image) -> bool:
    """Does every game's end of one kind show ``template`` (a face shows the same at
    every loss; a clock that stops at a game's end shows another time at each, and
    was taken for a face: Google's header clock read "1" as lost in play)?

    >>> one, two = np.zeros((8, 6, 3), np.uint8), np.zeros((8, 6, 3), np.uint8)
    >>> one[2:6, 3] = 255; two[2, 1:5] = two[5, 1:5] = 255
    >>> face_steady([one, one], one), face_steady([one, two, one], one)
    (True, False)
    """
    return all(look_distance(img, template) <= 1.0 for img in shown)


def same_control(a: Image, b: Image, tol: int = 40, share: float = 0.5) -> bool:
    """Could ``a`` and ``b`` (crops of one place) show one control in two looks: at
    least ``share`` of their pixels alike within ``tol`` (a face's button and disc stay
    when its expression changes; a window over it has none of them)?

    >>> a = np.zeros((4, 4, 3), np.uint8); b = a.copy(); b[:2] = 255
    >>> same_control(a, b), same_control(a, 255 - a)
    (True, False)
    """
    if a.shape != b.shape:
        return False
    alike = np.abs(a.astype(np.int16) - b.astype(np.int16)).max(axis=2) <= tol
    return bool(alike.mean() >= share)


def another_count_reading(ids: IdGrid, clicked: Sequence[Cell], known: dict[int, int],
                          marked: np.ndarray) -> dict[int, int] | None:
    """New names for a frame showing every square that no reading of the count kept so
    far fits (a game that lays another count each game: react-minesweeper shows the
    whole board at a loss), read with no count: taken only when a mine look is known
    already and the reading names every known look the same (a flag may read as a
    mine), else None.

    >>> ids = np.array([[7, 1, 0], [1, 1, 0]])  # a mine (7), 1s, 0s
    >>> another_count_reading(ids, [(0, 0)], {7: MINE}, np.zeros((2, 3), bool))
    {0: 0, 1: 1}
    >>> another_count_reading(ids, [(0, 0)], {7: MINE, 1: 2}, np.zeros((2, 3), bool))
    """
    if MINE not in known.values():
        return None  # (xbomb's first loss: new looks could be taken for mines)
    names = label_revealed_frame(ids, clicked, None, marked)
    if names is None:
        return None
    mine_like = (MINE, EXPLODED, FLAG)
    for look in np.unique(ids).tolist():
        was, now = known.get(look), names.get(look)
        if was is not None and now != was and not (was in mine_like and now in mine_like):
            return None
    return {lk: code for lk, code in names.items() if lk not in known}


def proves_safe(board: Board) -> bool:
    """Does a number have more covered and flagged squares around it than it counts
    (so one of its covered squares is safe, whatever the mine count)?

    >>> from solver.textboard import parse_board
    >>> proves_safe(parse_board("1..\\n111")), proves_safe(parse_board("1.\\n11"))
    (True, False)
    """
    numbers = (board >= 0) & (board <= 8)
    hidden = np.isin(board, (COVERED, QUESTION, FLAG)).astype(np.int64)
    return bool((neighbour_sum(hidden)[numbers] > board[numbers]).any())


def rare_number_odds(probs: np.ndarray, wanted: Sequence[int]) -> np.ndarray:
    """For every square, the chance that it is safe and shows one of the ``wanted``
    numbers, from each square's mine probability (NaN for revealed squares: no mine),
    the neighbours taken as independent.

    >>> p = np.full((3, 3), 0.5); p[1, 1] = 0.0
    >>> round(float(rare_number_odds(p, [8])[1, 1]), 5) == round(0.5 ** 8, 5)
    True
    >>> float(rare_number_odds(p, [8])[0, 0])  # a corner has 3 neighbours
    0.0
    """
    p = np.nan_to_num(np.asarray(probs, np.float64), nan=0.0)
    rows, cols = p.shape
    padded = np.pad(p, 1)
    dist = np.zeros((rows, cols, 9))
    dist[..., 0] = 1.0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr or dc:
                q = padded[1 + dr:1 + dr + rows, 1 + dc:1 + dc + cols][..., None]
                shifted = np.concatenate([np.zeros((rows, cols, 1)), dist[..., :-1]], axis=2)
                dist = dist * (1 - q) + shifted * q
    return np.asarray((1 - p) * dist[..., list(wanted)].sum(axis=2))


def window_over(ids: IdGrid, known: dict[int, int], before: IdGrid | None = None,
                min_squares: int = 6, panels: bool = True) -> np.ndarray:
    """Squares a window over the board (a dialog) covers: the box of every 8-connected
    patch of at least ``min_squares`` squares, over two rows and two columns at least,
    each of a look no other square of the frame shows, changed since ``before`` (if
    not given: each of an unnamed look) (a window's edges cut the squares under them
    into pictures of their own; its flat inside may repeat). With ``before`` and
    ``panels``, also a flat panel (:func:`bot.end_panel.panel_over`); not on a board
    that shows every square, where a block of numbers not seen before and mines can
    look like one (xbomb's whole board at a loss).

    >>> ids = np.array([[1, 1, 1, 1, 1, 1],
    ...                 [1, 5, 6, 7, 1, 1],
    ...                 [1, 8, 2, 9, 1, 1],
    ...                 [1, 1, 1, 1, 1, 4]])  # 4: a lone square of its own look
    >>> window_over(ids, {1: COVERED}, min_squares=5).astype(int).tolist()
    [[0, 0, 0, 0, 0, 0], [0, 1, 1, 1, 0, 0], [0, 1, 1, 1, 0, 0], [0, 0, 0, 0, 0, 0]]
    >>> int(window_over(ids, {1: COVERED}, before=ids, min_squares=5).sum())
    0
    """
    looks, counts = np.unique(ids, return_counts=True)
    single = [int(lk) for lk, n in zip(looks, counts, strict=True)
              if n == 1 and (before is not None or lk not in known)]
    odd = np.isin(ids, single)
    if before is not None:
        odd &= ids != before
    n, labels, stats, _ = cv2.connectedComponentsWithStats(odd.astype(np.uint8), connectivity=8)
    out = np.zeros(ids.shape, bool)
    for k in range(1, n):
        x, y, w, h, area = stats[k].tolist()
        if area >= min_squares and w >= 2 and h >= 2:
            out[y:y + h, x:x + w] = True
    if before is not None and panels:  # (a flat panel over the board repeats its look:
        out |= panel_over(ids, known, before)  # Google's)
    return out


def _flat_panel(ids: IdGrid, known: dict[int, int], before: IdGrid,
                mine_looks: list[int]) -> bool:
    """Is a panel over the board (:func:`bot.end_panel.panel_over`) with no square of
    ``mine_looks`` inside its edge? A board that shows every square (xbomb's at a loss)
    can show a block of mines and numbers not seen before, which ``panel_over`` takes
    for a panel; a flat panel over the board has no mines in it.

    >>> before = np.zeros((7, 7), np.int32)
    >>> after = np.full((7, 7), 3); after[1:6, 1:6] = 9; after[3, 3] = 8
    >>> _flat_panel(after, {}, before, [8]), _flat_panel(after, {}, before, [3])
    (False, True)
    """
    panel = panel_over(ids, known, before)
    if not panel.any():
        return False
    inside = cv2.erode(panel.astype(np.uint8), np.ones((3, 3), np.uint8),
                       borderType=cv2.BORDER_CONSTANT, borderValue=0).astype(bool)
    return not bool(np.isin(ids, mine_looks)[inside].any())


def flood_past_window(before: IdGrid, after: IdGrid, clicked: Sequence[Cell],
                      known: dict[int, int]) -> bool:
    """:func:`vision.calibrate.is_flood` with the squares under a window over the
    board (:func:`window_over`) read as unchanged: a dialog that comes over the board
    at a loss (kmines) joins the mines shown far away to the square clicked.

    >>> before = np.zeros((4, 6), int)
    >>> after = np.array([[0, 0, 0, 0, 9, 0],
    ...                   [0, 1, 2, 3, 0, 0],
    ...                   [0, 4, 5, 6, 0, 0],
    ...                   [0, 0, 0, 0, 9, 0]])  # a window, and two mines shown
    >>> is_flood(before, after, [(1, 1)]), flood_past_window(before, after, [(1, 1)], {0: -1})
    (True, False)
    """
    if is_flood(before, after, clicked) and zero_opening(before, after, clicked, known):
        return True  # (a block of 0s not named yet is no panel)
    over = window_over(after, known, before)
    return is_flood(before, np.where(over, before, after), clicked)


def unproved_flags(flagged: npt.NDArray[np.bool_], names: dict[Cell, int]) -> bool:
    """Is a square ``flagged`` before a loss neither named a wrong flag or a mine nor
    next to a square named a number of 1 or more (so nothing tells whether it is a
    mine: a game that draws a wrong flag as a flag at its loss, gamelibgames, or a flag
    on a mine)?

    >>> flagged = np.zeros((2, 4), bool); flagged[0, 0] = True
    >>> unproved_flags(flagged, {(1, 1): 1}), unproved_flags(flagged, {(1, 3): 2})
    (False, True)
    """
    numbers = np.zeros(flagged.shape, bool)
    for cell, code in names.items():
        if 1 <= code <= 8:
            numbers[cell] = True
    told = [cell for cell, code in names.items() if code in (WRONG_FLAG, MINE)]
    kept = flagged.copy()
    for cell in told:
        kept[cell] = False
    return bool((kept & (adjacent_count(numbers) == 0)).any())


def zero_opening(before: IdGrid, after: IdGrid, clicked: Sequence[Cell],
                 known: dict[int, int]) -> bool:
    """Does ``after`` show the squares clicked opening a region of 0s: each clicked
    square shows one look, named 0 or not named, on two squares at least, none of
    them next to a square still covered; and every square that changed was covered
    (or marked: minesweeper-for-web's 0s open flagged squares too)?
    A block of 0s not seen before can look like a flat panel over the board
    (:func:`bot.end_panel.panel_over`), and a move that opens one after a first click
    that showed a number was taken for a loss (minesweeper-for-web). A panel's face
    has covered squares beside it, or covers opened ones; a loss's mines have covered
    squares beside them.

    >>> before = np.zeros((4, 5), int)
    >>> after = np.array([[3, 3, 3, 4, 0], [3, 3, 3, 4, 0], [4, 4, 5, 4, 0], [0, 0, 0, 0, 0]])
    >>> zero_opening(before, after, [(0, 0)], {0: COVERED})
    True
    >>> zero_opening(before, after, [(0, 0)], {0: COVERED, 3: MINE})
    False
    >>> after[1, 2] = 0  # (a 0 next to a covered square)
    >>> zero_opening(before, after, [(0, 0)], {0: COVERED})
    False
    >>> after[1, 2], after[0, 0] = 5, 8  # the square clicked drawn its own way (focused)
    >>> zero_opening(before, after, [(0, 0)], {0: COVERED})
    True
    """
    changed = before != after
    covered = np.isin(before, [lk for lk, code in known.items() if code == COVERED])
    hidden = np.isin(before, [lk for lk, code in known.items()
                              if code in (COVERED, FLAG, QUESTION)])
    looks = {int(after[c]) for c in clicked}
    if not changed.any() or (changed & ~hidden).any() or len(looks) != 1:
        return False
    look = looks.pop()
    if known.get(look, 0) != 0:
        return False
    at = np.zeros(after.shape, bool)
    at[tuple(np.array(clicked).T)] = True
    zeros = after == look
    if not (zeros & ~at).any():
        # the square clicked drawn its own way (Tk's buttons: a focus ring on the last
        # one clicked): the 0s are the look most common around it
        around = around_look(after, changed & ~at, at)
        if around is None or known.get(around, 0) != 0:
            return False
        zeros = (after == around) | at
    return int(zeros.sum()) >= 2 and not (zeros & (adjacent_count(covered & ~changed) > 0)).any()


def around_look(after: IdGrid, changed: npt.NDArray[np.bool_],
                at: npt.NDArray[np.bool_]) -> int | None:
    """The look most common among the ``changed`` squares next to the squares ``at``,
    if any.

    >>> around_look(np.array([[8, 3, 3], [3, 4, 0]]),
    ...             np.array([[0, 1, 1], [1, 1, 0]], bool), np.array([[1, 0, 0], [0, 0, 0]], bool))
    3
    """
    near = (adjacent_count(at) > 0) & changed
    if not near.any():
        return None
    values, counts = np.unique(after[near], return_counts=True)
    return int(values[int(np.argmax(counts))])


def drawn_toward(before: IdGrid, ids: IdGrid, after: IdGrid) -> bool:
    """Is the frame ``ids`` a step of drawing ``after`` from ``before``: every square
    it changed shows its look of ``after``, but one at most (a square caught half
    drawn)? Nothing came over what it shows.

    >>> before = np.zeros((2, 4), int)
    >>> after = np.array([[1, 1, 2, 0], [1, 1, 2, 0]])
    >>> drawn_toward(before, np.array([[1, 0, 0, 0], [0, 9, 2, 0]]), after)
    True
    >>> drawn_toward(before, np.array([[7, 0, 0, 0], [0, 9, 2, 0]]), after)  # (two differ)
    False
    """
    return int(((ids != before) & (ids != after)).sum()) <= 1


def first_loss_shown(before: IdGrid, ids: IdGrid, shown: Sequence[Cell],
                     clicked: Sequence[Cell], known: dict[int, int]) -> bool:
    """With no mine look known yet, does a frame show a loss: a clicked square turned
    into a look no other square shows, of no name or named the hit mine, and the
    squares read as shown mines (two at least), in no known look (a win's flags are
    the flag look), share one look for at least half of them? Windows 7's dialog at a
    loss covers most of a 9x9 board: the board looks gone, as after a win, but the
    frames just before it came show the mines. (A first loss read from the hit square
    alone names the hit look but no mine look: later losses were taken for wins.)

    >>> before = np.zeros((2, 4), int)
    >>> ids = np.array([[7, 3, 3, 0], [0, 0, 3, 0]])
    >>> first_loss_shown(before, ids, [(0, 1), (0, 2), (1, 2)], [(0, 0)], {0: COVERED})
    True
    >>> first_loss_shown(before, ids, [(0, 1), (0, 2), (1, 2)], [(0, 0)], {0: COVERED, 3: FLAG})
    False
    >>> first_loss_shown(before, ids, [(0, 1), (0, 2), (1, 2)], [(0, 0)],
    ...                  {0: COVERED, 7: EXPLODED})
    True
    """
    looks = [int(ids[cell]) for cell in shown]
    if len(looks) < 2 or any(lk in known for lk in looks):
        return False
    hit = any(before[c] != ids[c] and known.get(int(ids[c]), EXPLODED) == EXPLODED
              and int((ids == ids[c]).sum()) == 1 for c in clicked)
    return hit and 2 * max(looks.count(lk) for lk in looks) >= len(looks)


def partial_loss(ids: IdGrid, names: dict[Cell, int], settled: set[Cell],
                 known: dict[int, int], before: IdGrid) -> bool:
    """Does a frame of a loss (read as ``names``) leave out a mine that the settled
    frame after it shows (``settled``), on a square no window over the board hides in
    it? Windows 7 shows a loss's mines a few at a time: a frame from the middle of that
    counts the numbers with some mines missing.

    >>> before = np.zeros((1, 4), int)
    >>> ids = np.array([[5, 0, 0, 0]])
    >>> partial_loss(ids, {(0, 0): MINE, (0, 1): 1}, {(0, 0), (0, 3)}, {0: COVERED}, before)
    True
    >>> partial_loss(ids, {(0, 0): MINE, (0, 1): 1}, {(0, 0)}, {0: COVERED}, before)
    False
    """
    over = window_over(ids, known, before)
    near = over | (adjacent_count(over) > 0)
    return any(names.get(cell) != MINE and not near[cell] for cell in settled)


def loss_clarity(ids: IdGrid, names: dict[Cell, int] | None,
                 same: Callable[[int, int], bool] | None = None) -> float:
    """How clearly a frame shows a loss: squares read as shown mines whose look other
    shown mines share, less those with a look of their own (pieces of a dialog).
    ``same(a, b)``: are two looks one (say but for their background's shade)?

    >>> ids = np.array([[5, 5, 7, 8]])
    >>> loss_clarity(ids, {(0, 0): MINE, (0, 1): MINE, (0, 2): MINE, (0, 3): 1})
    1.0
    >>> loss_clarity(ids, {(0, 0): MINE, (0, 1): MINE, (0, 2): MINE, (0, 3): 1},
    ...              lambda a, b: {a, b} <= {5, 7})
    3.0
    """
    if names is None:
        return float("-inf")
    looks = [int(ids[cell]) for cell, code in names.items() if code == MINE]
    if same is None:
        shared = {lk for lk in looks if looks.count(lk) > 1}
    else:
        shared = {lk for i, lk in enumerate(looks)
                  if any(j != i and same(lk, other) for j, other in enumerate(looks))}
    return float(sum(1 if lk in shared else -1 for lk in looks))


def dialog_box(before: Image, after: Image, pitch: float,
               keep: np.ndarray | None = None) -> PixelRect | None:
    """The box of what came over the screen between two frames (a dialog), leaving
    out changes smaller than a square (flags the game puts on the mines at a win) and
    pixels not in ``keep`` (squares that read as a known look: opened by the last
    click, not covered by the dialog).

    >>> a = np.zeros((200, 300, 3), np.uint8); b = a.copy()
    >>> b[50:150, 100:250] = 200; b[10:20, 10:20] = 255  # a dialog and a flag
    >>> dialog_box(a, b, 20.0)
    PixelRect(left=100, top=50, width=150, height=100)
    """
    k = max(3, int(round(pitch * 0.6)) * 2 + 1)  # odd: the box does not shift
    # the gaps between squares may be the dialog's own colour: close them first
    changed = changed_pixels(before, after) & (True if keep is None else keep)
    mask = cv2.morphologyEx(changed.astype(np.uint8), cv2.MORPH_CLOSE,
                            np.ones((9, 9), np.uint8))
    solid = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    return _bounding_box(solid.astype(bool))


def _bounding_box(mask: np.ndarray) -> PixelRect | None:
    ys, xs = np.nonzero(mask)
    if not len(xs):
        return None
    return PixelRect(int(xs.min()), int(ys.min()), int(xs.max() - xs.min() + 1),
                     int(ys.max() - ys.min() + 1))


def distinctive_patch(image: Image, box: PixelRect, top: float = 1 / 3) -> PixelRect | None:
    """The most detailed strip in the ``top`` part of ``box`` (a third: a dialog's
    title, not its changing body such as a time; all of it for a message that fills
    the board), about a third of the box wide.

    >>> img = np.full((90, 120, 3), 240, np.uint8)
    >>> img[60:70, 50:80] = 0  # a message's text, low in its box
    >>> distinctive_patch(img, PixelRect(0, 0, 120, 90)) is None
    True
    >>> distinctive_patch(img, PixelRect(0, 0, 120, 90), top=1.0)
    PixelRect(left=40, top=60, width=40, height=12)
    """
    w, h = max(24, box.width // 3), max(12, min(box.height // 8, 40))
    gray = cv2.cvtColor(crop(image, box), cv2.COLOR_BGR2GRAY).astype(np.float32)
    edges = np.abs(cv2.Sobel(gray, cv2.CV_32F, 1, 0)) + np.abs(cv2.Sobel(gray, cv2.CV_32F, 0, 1))
    best, where = 0.0, None
    for y in range(0, max(1, int(box.height * top) - h + 1), max(1, h // 2)):
        for x in range(0, max(1, box.width - w + 1), max(1, w // 4)):
            score = float(edges[y:y + h, x:x + w].mean())
            if score > best:
                best, where = score, PixelRect(box.left + x, box.top + y, w, h)
    return where if best > 2.0 else None


def _reach_box(rect: PixelRect, board: PixelRect) -> PixelRect:
    """A box the size of ``rect``'s reach past ``board`` on its furthest side each way
    (for :meth:`LiveCalibrator._widen_region`, which looks that far round the board).

    >>> _reach_box(PixelRect(50, 10, 20, 20), PixelRect(10, 60, 100, 80))
    PixelRect(left=0, top=0, width=0, height=50)
    """
    dw = max(board.left - rect.left, rect.left + rect.width - board.left - board.width, 0)
    dh = max(board.top - rect.top, rect.top + rect.height - board.top - board.height, 0)
    return PixelRect(0, 0, dw, dh)


def _absent(template: Image, frames: Sequence[Image], threshold: float = 25.0) -> bool:
    """``template`` is found in none of ``frames``: nowhere is the root mean squared
    difference (0-255) as low as ``threshold`` (vision.status matches at 10)."""
    for frame in frames:
        if frame.shape[0] < template.shape[0] or frame.shape[1] < template.shape[1]:
            continue
        low = float(cv2.matchTemplate(frame, template, cv2.TM_SQDIFF).min())
        if np.sqrt(max(low, 0.0) / template.size) <= threshold:
            return False
    return True


def grow(r: PixelRect, shape: tuple[int, ...], share: float = 0.4) -> PixelRect:
    """``r`` grown by ``share`` of its size on every side (at least 4 pixels), clipped
    to an image of ``shape``: the changed part of a control (a face's mouth) grown to
    about the whole control.

    >>> grow(PixelRect(10, 10, 10, 20), (100, 100, 3))
    PixelRect(left=6, top=2, width=18, height=36)
    """
    dx, dy = max(4, round(r.width * share)), max(4, round(r.height * share))
    left, top = max(0, r.left - dx), max(0, r.top - dy)
    right = min(shape[1], r.left + r.width + dx)
    bottom = min(shape[0], r.top + r.height + dy)
    return PixelRect(left, top, right - left, bottom - top)


def control_at(p: PixelPoint, g: BoardGeometry, shape: tuple[int, ...]) -> PixelRect | None:
    """A square about one board square wide centred on ``p`` (what the control that
    the user pointed at is remembered by), or None if ``p`` is on the board (with a
    margin of a quarter square) or off the image.

    >>> g = BoardGeometry("s", 100.0, 100.0, 20.0, 20.0, 9, 9)
    >>> control_at(PixelPoint(190, 60), g, (400, 400, 3))
    PixelRect(left=180, top=50, width=21, height=21)
    >>> control_at(PixelPoint(190, 95), g, (400, 400, 3)) is None
    True
    """
    b = g.bounds()
    mx, my = g.pitch_x / 4, g.pitch_y / 4
    near_board = (b.left - mx <= p.x < b.left + b.width + mx
                  and b.top - my <= p.y < b.top + b.height + my)
    if near_board or not (0 <= p.x < shape[1] and 0 <= p.y < shape[0]):
        return None
    half = max(4, round(g.pitch_x / 2))
    x, y = int(round(p.x)), int(round(p.y))
    left, top = max(0, x - half), max(0, y - half)
    return PixelRect(left, top, min(shape[1], x + half + 1) - left,
                     min(shape[0], y + half + 1) - top)


def _contains(a: PixelRect, b: PixelRect) -> bool:
    """Does ``a`` contain the centre of ``b``?"""
    x, y = b.left + b.width / 2, b.top + b.height / 2
    return a.left <= x < a.left + a.width and a.top <= y < a.top + a.height


def nearest_end(shown: Image, ends: Sequence[tuple[str, Image]]) -> str | None:
    """The outcome of the end in ``ends`` whose picture is nearest ``shown`` (root mean
    squared difference), if that one is near (a message is the same each time); the
    other outcome if ``ends`` hold only one kind and none is near; else None.

    >>> lose, win = np.zeros((4, 4, 3), np.uint8), np.full((4, 4, 3), 200, np.uint8)
    >>> nearest_end(lose, [("lost", lose)]), nearest_end(win, [("lost", lose)])
    ('lost', 'won')
    >>> nearest_end(win, []) is None
    True
    """
    near = [(float(np.sqrt(np.mean((shown.astype(np.float32) - im) ** 2))), outcome)
            for outcome, im in ends if im.shape == shown.shape]
    if not near:
        return None
    distance, outcome = min(near)
    if distance <= 12.0:
        return outcome
    kinds = {o for _, o in near}
    if len(kinds) == 1:
        return "won" if kinds == {"lost"} else "lost"
    return None


def _surrounds(a: PixelRect, b: PixelRect) -> bool:
    """Does ``a`` hold all of ``b``?

    >>> box = PixelRect(0, 0, 10, 10)
    >>> _surrounds(box, PixelRect(2, 2, 8, 8)), _surrounds(box, PixelRect(2, 2, 9, 8))
    (True, False)
    """
    return a.left <= b.left and a.top <= b.top and b.left + b.width <= a.left + a.width \
        and b.top + b.height <= a.top + a.height


def _overlap(a: PixelRect, b: PixelRect) -> bool:
    return not (a.left + a.width <= b.left or b.left + b.width <= a.left
                or a.top + a.height <= b.top or b.top + b.height <= a.top)


def adjacent_count_same(ids: IdGrid, look: int) -> np.ndarray:
    """For every square, how many of its neighbours show ``look`` (outside counts as
    not)."""
    from vision.calibrate import adjacent_count

    return adjacent_count(ids == look)


def _union(rects: Sequence[PixelRect]) -> PixelRect:
    left = min(r.left for r in rects)
    top = min(r.top for r in rects)
    right = max(r.left + r.width for r in rects)
    bottom = max(r.top + r.height for r in rects)
    return PixelRect(left, top, right - left, bottom - top)


def told_point(rect: PixelRect, g: BoardGeometry) -> dict[str, Any]:
    """The control the user named with ``--restart-at`` (``rect``, image pixels), as
    the skin keeps it: its centre from the board's top-left corner, for boards of
    ``g``'s size and pitch (:func:`vision.status.locate_told`).

    >>> g = BoardGeometry("", 10.0, 50.0, 20.0, 20.0, 9, 9)
    >>> told_point(PixelRect(90, 10, 30, 30), g)
    {'offset': [95.0, -25.0], 'size': [9, 9], 'pitch': [20.0, 20.0]}
    """
    b = g.bounds()
    return {"offset": [rect.left + rect.width / 2 - b.left, rect.top + rect.height / 2 - b.top],
            "size": [g.rows, g.cols], "pitch": [g.pitch_x, g.pitch_y]}
