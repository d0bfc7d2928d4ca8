"""The mouse (and keyboard): real backends, a recording fake, and the safety guard.

Every point here is a :class:`bot.screen.ScreenPoint`. pyautogui is imported lazily,
only when a :class:`PyAutoGuiMouse` is made, because importing it opens the display.

:class:`GuardedMouse` is what the play loop clicks through. It refuses a click outside
the areas it was told are clickable (the board's squares and the restart control),
stops when the pointer is pushed into a screen corner (pyautogui's fail-safe, kept on
for every backend), and stops when someone else moved the pointer since its last move.

>>> rec = RecordingMouse(size=(800, 600))
>>> guard = GuardedMouse(rec)
>>> guard.allow([ScreenRect(10, 10, 100, 100)])
>>> guard.click(ScreenPoint(50, 50))
>>> guard.click(ScreenPoint(300, 50))  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
...
bot.mouse.ClickRefused: refused a click at (300, 50): outside the board
>>> [a.kind for a in rec.actions]
['click']
"""

from __future__ import annotations

import contextlib
import math
import struct
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, Protocol

from bot.screen import PlatformError, ScreenPoint
from bot.windows import GameWindow, overlap, x11_window_at

Button = Literal["left", "right", "middle", "ctrl+left"]
"""A click: a mouse button, or a button with a key held ("ctrl+left": how some games
place a flag, where a right-click opens the browser's menu)."""


def held_key(button: Button) -> tuple[str | None, Literal["left", "right", "middle"]]:
    """The key held during a click of ``button`` (None: no key), and the mouse button.

    >>> held_key("ctrl+left"), held_key("right")
    (('ctrl', 'left'), (None, 'right'))
    """
    if button == "ctrl+left":
        return "ctrl", "left"
    return None, button


class MouseStopped(RuntimeError):
    """Play must stop now (reason in the message); nothing more is clicked."""


class FailSafe(MouseStopped):
    """The pointer was pushed into a screen corner."""


class ClickRefused(MouseStopped):
    """A click outside the allowed areas was attempted."""


class PointerMoved(MouseStopped):
    """Someone else moved the pointer while the bot was playing."""


class WindowClosed(MouseStopped):
    """The game's window closed (or was hidden): what shows there now is not the game."""


class ScreenRect(NamedTuple):
    """A rectangle in screen points (left, top, width, height)."""

    left: float
    top: float
    width: float
    height: float

    def contains(self, p: ScreenPoint) -> bool:
        return (self.left <= p.x < self.left + self.width
                and self.top <= p.y < self.top + self.height)


class Mouse(Protocol):
    """Pointer and keyboard in screen points."""

    def size(self) -> tuple[int, int]:
        """The screen's (width, height) in points."""
        ...

    def position(self) -> ScreenPoint: ...

    def move(self, p: ScreenPoint) -> None: ...

    def click(self, p: ScreenPoint, button: Button = "left") -> None: ...

    def key(self, keys: str) -> None:
        """Press a key or a combination such as ``"F2"`` or ``"ctrl+n"``."""
        ...


def in_corner(p: ScreenPoint, size: tuple[int, int], margin: float = 1.0) -> bool:
    """Is ``p`` on (or within ``margin`` of) a screen corner?

    >>> in_corner(ScreenPoint(0, 0), (800, 600)), in_corner(ScreenPoint(799, 300), (800, 600))
    (True, False)
    """
    w, h = size
    near_x = p.x <= margin or p.x >= w - 1 - margin
    near_y = p.y <= margin or p.y >= h - 1 - margin
    return near_x and near_y


CLICK_HOLD = 0.1
"""Seconds the pointer stays on a clicked square (:attr:`GuardedMouse.hold`) for a game
that takes a click whose pointer left at once for another square: a pygame game looks
where the pointer is once a frame; 0.1 s is six frames at 60 a second, two at 20.
Calibrate tries it when quick marks do nothing, play when a game's first click does."""
POLL_SECONDS = 0.0001
"""How long to sleep between two looks at the pointer while waiting for our own input to
arrive: a look is one X round trip (~0.05 ms), and a 1 ms sleep made each gnome-mines
click cost about 1 ms."""


def wait_for_pointer(mouse: Mouse, p: ScreenPoint, timeout: float = 0.5) -> None:
    """Wait until ``mouse`` reports the pointer at ``p`` (our own move has arrived);
    after ``timeout`` the caller goes on and the guard's checks decide."""
    target = (round(p.x), round(p.y))
    deadline = time.monotonic() + timeout
    while math.dist(mouse.position(), target) > 1.0 and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)


class PyAutoGuiMouse:
    """The real pointer through pyautogui (Windows, macOS, X11). PAUSE=0, fail-safe on."""

    def __init__(self) -> None:
        try:
            import pyautogui
        except Exception as exc:  # pyautogui raises many kinds when no display is reachable
            raise PlatformError(f"cannot use the mouse: {exc}") from exc
        pyautogui.PAUSE = 0
        pyautogui.FAILSAFE = True
        self._pg = pyautogui
        self._x: Any = None  # an X display connection, for window_at

    def size(self) -> tuple[int, int]:
        w, h = self._pg.size()
        return int(w), int(h)

    def position(self) -> ScreenPoint:
        x, y = self._pg.position()
        return ScreenPoint(float(x), float(y))

    def move(self, p: ScreenPoint) -> None:
        with self._translate():
            self._pg.moveTo(round(p.x), round(p.y))

    def click(self, p: ScreenPoint, button: Button = "left") -> None:
        with self._translate():
            self._pg.moveTo(round(p.x), round(p.y))
            wait_for_pointer(self, p)  # see XTestMouse.click
            key, plain = held_key(button)
            with self._pg.hold(key) if key else contextlib.nullcontext():
                self._pg.click(round(p.x), round(p.y), button=plain)

    def key(self, keys: str) -> None:
        with self._translate():
            self._pg.hotkey(*keys.lower().split("+"))

    def window_at(self, p: ScreenPoint) -> GameWindow | None:
        """On X11, the top-level window shown at ``p`` (:mod:`bot.windows`); elsewhere
        None (not watched)."""
        if sys.platform in ("win32", "darwin"):
            return None
        if self._x is None:  # (no python-xlib or no display: GuardedMouse.watch_window
            from Xlib.display import Display  # catches the error; nothing is watched)

            self._x = Display()
        return x11_window_at(self._x, p)

    def _translate(self) -> _FailSafeTranslator:
        return _FailSafeTranslator(self._pg.FailSafeException)


@dataclass
class _FailSafeTranslator:
    exc_type: type[BaseException]

    def __enter__(self) -> None:
        return None

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None,
                 tb: Any) -> Literal[False]:
        if et is not None and issubclass(et, self.exc_type):
            raise FailSafe("fail-safe: the pointer was pushed into a screen corner") from ev
        return False


_KEY_ALIASES = {"ctrl": "Control_L", "alt": "Alt_L", "shift": "Shift_L", "enter": "Return"}


class XTestMouse:
    """X11 only: the pointer through the XTEST extension (python-xlib, which pyautogui
    itself uses on Linux): 0.2-0.3 ms a click (two round trips) against pyautogui's
    1.6 ms; ``display`` picks an X display (default ``$DISPLAY``)."""

    _BUTTONS = {"left": 1, "middle": 2, "right": 3}

    def __init__(self, display: str | None = None) -> None:
        if sys.platform in ("win32", "darwin"):
            raise PlatformError("the xtest mouse works only on X11")
        try:
            from Xlib import XK, X
            from Xlib.display import Display
            from Xlib.ext import xtest
        except ImportError as exc:
            raise PlatformError("the xtest mouse needs python-xlib") from exc
        try:
            self._d = Display(display)
        except Exception as exc:  # Xlib raises DisplayError and friends
            raise PlatformError(f"cannot open X display {display or '$DISPLAY'}: {exc}") from exc
        self._X, self._XK, self._xtest = X, XK, xtest
        self._root = self._d.screen().root
        self.careful = window_manager_running(self._d)
        """Wait for every step of a click (needed only under a window manager)."""
        self.holding = False
        """Keep quick clicks and looks in the send buffer until :meth:`flush` (one write
        to the server for a whole batch: each write may hand the CPU to the server)."""
        self._fake = _raw_fake_input(self._d) or self._fake_input

    def _fake_input(self, event_type: int, detail: int = 0, x: int = 0, y: int = 0) -> None:
        self._xtest.fake_input(self._d, event_type, detail, x=x, y=y)

    def size(self) -> tuple[int, int]:
        s = self._d.screen()
        return int(s.width_in_pixels), int(s.height_in_pixels)

    def position(self) -> ScreenPoint:
        q = self._root.query_pointer()
        return ScreenPoint(float(q.root_x), float(q.root_y))

    def move(self, p: ScreenPoint) -> None:
        self._fake(self._X.MotionNotify, 0, round(p.x), round(p.y))
        self._d.sync()

    def look(self) -> Callable[[], ScreenPoint]:
        """Ask where the pointer is without waiting for the answer (no round trip).
        Returns a function giving the position when the server took the question (it
        waits for the answer only if that has not come yet). The server handles this
        connection's requests in order: the answer reflects every move sent before."""
        answer = self._query()
        if not self.holding:
            self._d.flush()
        return answer

    def flush(self) -> None:
        """Send whatever is buffered."""
        self._d.flush()

    def look_then_move(self, p: ScreenPoint) -> Callable[[], ScreenPoint]:
        """Ask where the pointer is, then move it, without waiting for the server (no
        round trip). Returns a function giving the pointer's position just before the
        move (it waits for the server's answer only if that has not come yet)."""
        before = self._query()
        self._fake(self._X.MotionNotify, 0, round(p.x), round(p.y))
        self._d.flush()
        return before

    def _query(self) -> Callable[[], ScreenPoint]:
        """Queue a QueryPointer (not yet sent); returns the function that reads its answer."""
        from Xlib.protocol import request

        query = request.QueryPointer(display=self._d.display, defer=True, window=self._root)

        def answer() -> ScreenPoint:
            query.reply()
            return ScreenPoint(float(query.root_x), float(query.root_y))

        return answer

    def click(self, p: ScreenPoint, button: Button = "left") -> None:
        """Move, wait until the pointer is there, press and release, wait until the
        button is up.

        A window manager may freeze input while it handles a click (focus, raise);
        meanwhile a fake motion still moves the pointer but button events wait, so a
        release sent before the next move could arrive after it, away from the square
        (and games act on the release). Waiting for each step keeps every click in
        place. With no window manager running nothing freezes input, so the three
        events are only sent (the next look at the pointer waits for them)."""
        key, plain = held_key(button)
        b = self._BUTTONS[plain]
        held = self._keycode(key) if key else None
        if not self.careful:  # nothing can freeze input: the server keeps our order
            self._fake(self._X.MotionNotify, 0, round(p.x), round(p.y))
            self._press(b, held)
            if not self.holding:
                self._d.flush()
            return
        mask = (self._X.Button1Mask, self._X.Button2Mask, self._X.Button3Mask)[b - 1]
        self.move(p)
        wait_for_pointer(self, p)
        self._press(b, held)
        self._wait_buttons(lambda m: not m & mask)  # the release (so the press) is done

    def _press(self, b: int, held: int | None) -> None:
        """Press and release button ``b``, with the key of keycode ``held`` down."""
        if held is not None:
            self._fake(self._X.KeyPress, held)
        self._fake(self._X.ButtonPress, b)
        self._fake(self._X.ButtonRelease, b)
        if held is not None:
            self._fake(self._X.KeyRelease, held)

    def _wait_buttons(self, done: Callable[[int], bool], timeout: float = 0.5) -> None:
        """Poll the pointer's button state until ``done(mask)`` (or the timeout)."""
        deadline = time.monotonic() + timeout
        while not done(int(self._root.query_pointer().mask)) and time.monotonic() < deadline:
            time.sleep(POLL_SECONDS)

    def key(self, keys: str) -> None:
        codes = [self._keycode(name) for name in keys.split("+")]
        for code in codes:
            self._xtest.fake_input(self._d, self._X.KeyPress, code)
        for code in reversed(codes):
            self._xtest.fake_input(self._d, self._X.KeyRelease, code)
        self._d.sync()

    def _keycode(self, name: str) -> int:
        sym = self._XK.string_to_keysym(_KEY_ALIASES.get(name.lower(), name))
        if not sym:
            raise ValueError(f"unknown key {name!r}")
        return int(self._d.keysym_to_keycode(sym))

    def window_at(self, p: ScreenPoint) -> GameWindow | None:
        """The top-level window shown at ``p`` (:mod:`bot.windows`)."""
        return x11_window_at(self._d, p)

    def close(self) -> None:
        self._d.close()


class _Raw:
    """A request already in wire form, for python-xlib's send queue."""

    __slots__ = ("_binary", "_serial")

    def __init__(self, binary: bytes) -> None:
        self._binary = binary
        self._serial = 0


def xtest_fake_input_bytes(major: int, event_type: int, detail: int, x: int, y: int) -> bytes:
    """The XTEST FakeInput request (36 bytes, the client's byte order, time CurrentTime,
    root None), as python-xlib's ``xtest.fake_input`` would send it.

    >>> from Xlib.ext import xtest
    >>> xtest.FakeInput._request.to_binary(opcode=140, event_type=6, detail=0, time=0,
    ...     root=0, x=700, y=-5) == xtest_fake_input_bytes(140, 6, 0, 700, -5)
    True
    """
    return _FAKE_INPUT.pack(major, 2, 9, event_type, detail, 0, 0, x, y)


_FAKE_INPUT = struct.Struct("=BBHBBxxII8xhh8x")


def _raw_fake_input(display: Any) -> Callable[..., None] | None:
    """A fake_input that queues ready-made request bytes (about ten times less CPU than
    python-xlib building each request: 30 a batch of ten clicks); None where
    python-xlib's send queue is not as expected (then python-xlib's own is used)."""
    inner: Any = getattr(display, "display", None)
    send = getattr(inner, "send_request", None)
    if send is None or not hasattr(inner, "request_queue"):
        return None
    try:
        major = int(inner.get_extension_major("XTEST"))
    except Exception:  # noqa: BLE001  (no XTEST: python-xlib's path reports it)
        return None

    def fake(event_type: int, detail: int = 0, x: int = 0, y: int = 0) -> None:
        send(_Raw(xtest_fake_input_bytes(major, event_type, detail, x, y)), False)

    return fake


@dataclass(frozen=True)
class Action:
    """One recorded mouse or keyboard action."""

    kind: Literal["move", "click", "key"]
    point: ScreenPoint | None = None
    button: Button | None = None
    keys: str | None = None


class RecordingMouse:
    """A fake mouse for tests: records every action; ``on_click`` / ``on_key`` let a
    fake screen react (e.g. :meth:`bot.screen.FileScreen.advance`)."""

    def __init__(self, size: tuple[int, int] = (1920, 1080),
                 on_click: Callable[[ScreenPoint, Button], None] | None = None,
                 on_key: Callable[[str], None] | None = None) -> None:
        self.size_, self.on_click, self.on_key = size, on_click, on_key
        self.actions: list[Action] = []
        self.pointer = ScreenPoint(size[0] / 2, size[1] / 2)

    def size(self) -> tuple[int, int]:
        return self.size_

    def position(self) -> ScreenPoint:
        return self.pointer

    def move(self, p: ScreenPoint) -> None:
        self.pointer = p
        self.actions.append(Action("move", p))

    def click(self, p: ScreenPoint, button: Button = "left") -> None:
        self.pointer = p
        self.actions.append(Action("click", p, button))
        if self.on_click is not None:
            self.on_click(p, button)

    def key(self, keys: str) -> None:
        self.actions.append(Action("key", keys=keys))
        if self.on_key is not None:
            self.on_key(keys)

    @property
    def clicks(self) -> list[Action]:
        return [a for a in self.actions if a.kind == "click"]


Look = Callable[[], ScreenPoint]
"""A question sent to the pointer: calling it gives the answer (waiting if need be)."""


class GuardedMouse:
    """Wraps a :class:`Mouse`; every click must fall inside an allowed rectangle.

    The guard also stops play (raising :class:`MouseStopped`) when the pointer sits in
    a screen corner (fail-safe) or is not where the guard last put it (someone took
    the mouse), when ``stop_requested()`` says so (Ctrl+C between moves), and when the
    game's window, once :meth:`watch_window` was told where the board is, has closed
    (:class:`WindowClosed`; where the backend can tell: ``window_at``). Nor does it
    click a square of the board (``square``) where a window stacked above the game's
    covers it (a dialog over the board takes the click: its OK button starts the next
    game), asked at every check and before every click but clicks held back together
    (:class:`ClickRefused`).

    Where the backend can ask where the pointer is without waiting (``look``, as
    :class:`XTestMouse`), no look costs a round trip: :meth:`look_ahead` asks early
    (the loop does so when a turn starts) and :meth:`check` uses that answer, asks
    again without waiting, and checks the new answer at the next check, before any
    further click. Every position the pointer had between two of our moves is still
    seen by a look; a hand on the mouse in the milliseconds of a turn stops play at
    the next batch instead of this one.
    """

    def __init__(self, inner: Mouse, tolerance: float = 3.0,
                 stop_requested: Callable[[], bool] | None = None) -> None:
        self.inner = inner
        self.allowed: list[ScreenRect] = []
        self.tolerance = tolerance
        self.stop_requested = stop_requested or (lambda: False)
        self._size = inner.size()
        self._last: ScreenPoint | None = None
        self._trail: list[ScreenPoint] = []  # points sent since the last check
        self._looks: list[tuple[Look, list[ScreenPoint]]] = []  # unchecked: (look, allowed)
        self._ahead: tuple[Look, int, Callable[[], Look]] | None = None  # (look, sends
        # before it, how to look)
        self._sent = 0  # moves and clicks sent so far
        self.window: GameWindow | None = None
        self.hold = 0.0
        """Seconds the pointer stays on a square it clicked before it moves on: a game
        that asks where the pointer is when it gets to a click, once a frame (a pygame
        game's ``mouse.get_pos()``), takes a click for the square the pointer moved to
        next (set from the skin's ``click_hold``, learned by calibrate)."""
        self._clicked: tuple[ScreenPoint, float] | None = None  # (where, when) last click
        self._covering: list[ScreenRect] = []  # windows over the allowed rectangles

    def size(self) -> tuple[int, int]:
        return self._size

    def watch_window(self, p: ScreenPoint) -> None:
        """From now on, stop before any click or key once the window shown at ``p``
        (the board's) has closed; nothing is watched where the backend cannot tell
        which window that is (no ``window_at``)."""
        window_at = getattr(self.inner, "window_at", None)
        try:
            self.window = window_at(p) if window_at is not None else None
        except Exception:  # noqa: BLE001 (the window system would not say: not watched)
            self.window = None

    def _check_window(self) -> None:
        if self.window is not None and not self.window.present():
            raise WindowClosed("the game's window has closed (or was hidden), so what "
                               "shows there now is not the game: nothing more is clicked")
        self._covering = self._windows_over_allowed()

    def _windows_over_allowed(self) -> list[ScreenRect]:
        """The windows stacked above the game's over the allowed rectangles (one query,
        for the box round them all); none where that is not known."""
        if self.window is None or not self.allowed:
            return []
        left = min(r.left for r in self.allowed)
        top = min(r.top for r in self.allowed)
        right = max(r.left + r.width for r in self.allowed)
        bottom = max(r.top + r.height for r in self.allowed)
        return self.windows_over(ScreenRect(left, top, right - left, bottom - top)) or []

    def allow(self, rects: Sequence[ScreenRect]) -> None:
        """Replace the set of clickable rectangles."""
        self.allowed = list(rects)

    def position(self) -> ScreenPoint:
        return self.inner.position()

    def hand_back(self) -> ScreenPoint:
        """Where the user left the pointer, after asking them to point at something:
        that position counts as ours from now on (no "moved by someone else" stop)."""
        pos = self.inner.position()
        if in_corner(pos, self._size):
            raise FailSafe("fail-safe: the pointer was pushed into a screen corner")
        self._looks, self._ahead = [], None
        self._last, self._trail = pos, [pos]
        return pos

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Clicks and looks inside are sent to the server together when the block ends
        (or fails), where the backend can hold them (``holding``, as :class:`XTestMouse`
        when no window manager needs each click waited for)."""
        inner: Any = self.inner
        if not hasattr(inner, "holding") or getattr(inner, "careful", False) or self.hold:
            yield
            return
        inner.holding = True
        try:
            yield
        finally:
            inner.holding = False
            inner.flush()

    def look_ahead(self, renew: bool = False) -> None:
        """Ask where the pointer is now without waiting (when the backend can), for the
        next :meth:`check`; nothing happens otherwise. A look asked before is kept,
        unless ``renew``: then it is checked at the next check like any other."""
        look = getattr(self.inner, "look", None)
        if look is None or (self._ahead is not None and not renew):
            return
        if self._ahead is not None:
            self._looks.append((self._ahead[0], list(self._trail)))
        self._ahead = (look(), self._sent, look)

    def check(self) -> None:
        """Raise :class:`MouseStopped` if play must stop before the next action."""
        if self.stop_requested():
            raise MouseStopped("stopped by Ctrl+C")
        self._check_window()
        looks, self._looks = self._looks, []
        for look, trail in looks:  # first the looks taken before earlier moves
            self._verify(look(), trail)
        ahead, self._ahead = self._ahead, None
        fresh = False
        if ahead is not None:  # asked since the last check: its answer is (nearly) here
            pos = ahead[0]()
            self._verify(pos, self._trail)
            fresh = ahead[1] == self._sent and (self._last is None or self._near(pos, self._last))
        if ahead is not None and fresh:  # nothing sent since the look: it stands for a
            self._looks.append((ahead[2](), list(self._trail)))  # look now; a new look
            # covers the time since (checked at the next check)
        else:
            self._verify(self._settled_position(), self._trail)
        self._trail = [self._last] if self._last is not None else []

    def _verify(self, pos: ScreenPoint, trail: list[ScreenPoint]) -> None:
        """Raise unless ``pos`` is out of the corners and one of ``trail`` (when the
        guard has put the pointer anywhere yet)."""
        if in_corner(pos, self._size):
            raise FailSafe("fail-safe: the pointer was pushed into a screen corner")
        if self._last is not None and not any(self._near(pos, p) for p in trail):
            raise PointerMoved("the pointer was moved by someone else "
                               f"(to {pos.x:.0f}, {pos.y:.0f}); stopping")

    def _near(self, pos: ScreenPoint, p: ScreenPoint) -> bool:
        return math.dist(pos, (round(p.x), round(p.y))) <= self.tolerance

    def _ours(self, pos: ScreenPoint) -> bool:
        """Is ``pos`` a point the guard itself sent the pointer to since the last check?"""
        return any(self._near(pos, p) for p in self._trail)

    def _settled_position(self, timeout: float = 0.25) -> ScreenPoint:
        """The pointer's position once our own events have been processed. A window
        manager may freeze input while it handles a click, so the server can still be
        on an earlier point of ours: wait (briefly) for it to reach the last one."""
        pos = self.inner.position()
        deadline = time.monotonic() + timeout
        while (self._last is not None and not self._near(pos, self._last) and self._ours(pos)
               and time.monotonic() < deadline):
            time.sleep(0.002)
            pos = self.inner.position()
        return pos

    def move(self, p: ScreenPoint, wait: bool = True) -> None:
        """Check the pointer, then move it. ``wait=False``, where the backend can
        (``look_then_move``), sends the look and the move without waiting for either:
        the look is checked by the next :meth:`check` (before any further click), so a
        hand on the mouse before this move still stops play."""
        look_then_move = None if wait else getattr(self.inner, "look_then_move", None)
        if look_then_move is None:
            self.check()
        elif self.stop_requested():
            raise MouseStopped("stopped by Ctrl+C")
        if in_corner(p, self._size, margin=3.0):
            raise ClickRefused(f"refused to move onto a screen corner at ({p.x:.0f}, {p.y:.0f})")
        self._wait_hold(p)
        if look_then_move is None:
            self.inner.move(p)
        else:
            self._looks.append((look_then_move(p), list(self._trail)))
        self._sent += 1
        self._last = p
        self._trail.append(p)

    def click(self, p: ScreenPoint, button: Button = "left", square: bool = False) -> None:
        """Click inside an allowed rectangle. The pointer itself is checked (corner,
        foreign moves) by :meth:`check` before each batch of clicks and on every move;
        a stop request is honoured before every click. ``square``: a click on a square
        of the board, for the game (not on a window over it)."""
        if not any(r.contains(p) for r in self.allowed):
            raise ClickRefused(f"refused a click at ({p.x:.0f}, {p.y:.0f}): outside the board")
        if self.stop_requested():
            raise MouseStopped("stopped by Ctrl+C")
        if self._last is None:
            self.check()
        elif not getattr(self.inner, "holding", False):  # (held clicks go out at once,
            self._check_window()  # before the game could close at any: check() looked)
        if square and any(r.contains(p) for r in self._covering):
            raise ClickRefused(f"refused a click at ({p.x:.0f}, {p.y:.0f}): a window over "
                               "the board is there (a dialog takes the click)")
        self._wait_hold(p)
        self.inner.click(p, button)
        if self.hold:
            self._clicked = (p, time.monotonic())
        self._sent += 1
        self._last = p
        self._trail.append(p)

    def key(self, keys: str) -> None:
        self.check()
        self.inner.key(keys)

    def close_new_windows(self, keep: Sequence[ScreenRect]) -> int:
        """Close the windows the game opened since :meth:`watch_window` (as their close
        button would: :meth:`bot.windows.X11Window.close_new`) but those over any of
        ``keep`` (the board: a dialog there is the game's way of ending, read as
        such); how many. Tk MineGrid opens a "You lose!" window beside its board at
        every end and nothing else closes them: some 60 of them came over the board.
        Nothing happens where the backend cannot tell the game's windows."""
        close_new = getattr(self.window, "close_new", None)
        if close_new is None:
            return 0

        return int(close_new(lambda rect: any(overlap(rect, (k.left, k.top, k.width, k.height))
                                              for k in keep)))

    def windows_over(self, area: ScreenRect) -> list[ScreenRect] | None:
        """The windows stacked above the game's that overlap ``area`` (a dialog over
        the board hides the squares under it, whatever it looks like); None where the
        backend cannot tell the game's window (not X11, not watched: see
        :meth:`watch_window`) or the window system would not say."""
        over = getattr(self.window, "over", None)
        if over is None:
            return None
        try:
            rects = over((area.left, area.top, area.width, area.height))
        except Exception:  # noqa: BLE001 (any X error: not known)
            return None
        return None if rects is None else [ScreenRect(*map(float, r)) for r in rects]

    def _wait_hold(self, p: ScreenPoint) -> None:
        """Before the pointer leaves the square clicked last: wait out :attr:`hold`."""
        if self._clicked is None or self._near(p, self._clicked[0]):
            return
        left = self.hold - (time.monotonic() - self._clicked[1])
        self._clicked = None
        if left > 0:
            time.sleep(left)


def window_manager_running(display: Any) -> bool:
    """Does an EWMH window manager run on this X display (``_NET_SUPPORTING_WM_CHECK``
    on the root window)? Unknown counts as yes: then clicks wait for every step."""
    try:
        atom = display.intern_atom("_NET_SUPPORTING_WM_CHECK", only_if_exists=True)
        if not atom:
            return False
        prop = display.screen().root.get_full_property(atom, 0)
        return prop is not None and len(prop.value) > 0
    except Exception:  # any X error: assume a window manager
        return True


def make_mouse(kind: str = "auto", display: str | None = None) -> Mouse:
    """The real mouse: ``pyautogui``, ``xtest`` (X11) or ``auto`` (xtest on X11 when
    python-xlib is there, else pyautogui)."""
    if kind not in ("auto", "pyautogui", "xtest"):
        raise ValueError(f"unknown mouse {kind!r}: use auto, pyautogui or xtest")
    if kind == "xtest" or (kind == "auto" and sys.platform.startswith("linux")):
        try:
            return XTestMouse(display)
        except PlatformError:
            if kind == "xtest":
                raise
    return PyAutoGuiMouse()
