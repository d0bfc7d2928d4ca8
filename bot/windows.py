"""Which window shows the board, and is it still there?

A game may close its window at its end (cave-sweeper does at every loss) or be closed
by the user; what shows in its place then is the desktop or another program's window,
and a click there is a click outside the game. The mouse backends that can ask the
window system (X11 here: :class:`bot.mouse.XTestMouse`, and pyautogui's mouse on X11)
give a :class:`GameWindow` for the window at a screen point; :class:`bot.mouse.GuardedMouse`
checks it before every click and key.

A window counts as still there while it is mapped, or while the top-level window now
at the board's point belongs to the same program (the same ``_NET_WM_PID``, or with no
pid the same X connection or ``WM_CLASS``): a game that makes a new window for its next
game is the same game. The windows a game opens beside its board at its end (Tk
MineGrid's "You lose!") are closed as their close button would
(:meth:`X11Window.close_new`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.screen import ScreenPoint


class GameWindow(Protocol):
    """The window that showed the board when it was located."""

    def present(self) -> bool:
        """Is that window (or a new one of the same program at its place) still shown?"""
        ...


@dataclass(frozen=True)
class WindowOwner:
    """What tells a program's windows apart: its process id (``_NET_WM_PID``), its
    ``WM_CLASS`` and the X connection that made its window (``connection``: the
    window id's client bits); any may be unknown (None). Tk sets no pid, and gives
    each of its windows a class of its own ("Tk" the first, "Toplevel" a window it
    opens later): those share one connection.

    >>> WindowOwner(12, ("mines", "Mines")).same(WindowOwner(12, None))
    True
    >>> WindowOwner(None, ("mines", "Mines")).same(WindowOwner(13, ("xterm", "XTerm")))
    False
    >>> WindowOwner(None, None).same(WindowOwner(None, None))
    False
    >>> WindowOwner(None, ("tk", "Tk"), 0x400000).same(
    ...     WindowOwner(None, ("!toplevel", "Toplevel"), 0x400000))
    True
    """

    pid: int | None
    wm_class: tuple[str, ...] | None
    connection: int | None = None

    def same(self, other: WindowOwner) -> bool:
        if self.pid is not None and other.pid is not None:
            return self.pid == other.pid
        if self.connection is not None and self.connection == other.connection:
            return True
        return self.wm_class is not None and self.wm_class == other.wm_class


def topmost_at(p: ScreenPoint, frames: Sequence[tuple[Any, tuple[int, int, int, int]]]
               ) -> Any | None:
    """The last of ``frames`` (bottom to top, as X lists a window's children), each
    (window, (x, y, width, height)), whose rectangle holds ``p``; None if none does.

    >>> topmost_at(ScreenPoint(5, 5), [("desk", (0, 0, 99, 99)), ("game", (0, 0, 9, 9)),
    ...                                ("menu", (20, 20, 9, 9))])
    'game'
    """
    for window, (x, y, w, h) in reversed(frames):
        if x <= p.x < x + w and y <= p.y < y + h:
            return window
    return None


Rect = tuple[int, int, int, int]
"""A window's rectangle on the screen: x, y, width, height."""


def frame_at(display: Any, p: ScreenPoint) -> Any | None:
    """The top-level window (a child of the root: a window manager's frame, or the
    program's own window with none) that is mapped and holds ``p``; None if none.
    Override-redirect windows (menus, tooltips, notifications: they come and go over
    any program) are passed over."""
    return topmost_at(p, top_frames(display))


def top_frames(display: Any, popups: bool = False,
               children: Sequence[Any] | None = None) -> list[tuple[Any, Rect]]:
    """The mapped top-level windows, bottom to top, each with its rectangle; no
    override-redirect window (see :func:`frame_at`) unless ``popups``. ``children``:
    the root's children to look at (default: all of them)."""
    from Xlib import X
    from Xlib.error import XError

    frames: list[tuple[Any, Rect]] = []
    if children is None:
        try:
            children = display.screen().root.query_tree().children
        except XError:
            return frames
    for child in children:
        try:
            attributes = child.get_attributes()
            if attributes.map_state != X.IsViewable or \
                    (attributes.override_redirect and not popups):
                continue
            g = child.get_geometry()
        except XError:  # gone meanwhile
            continue
        edge = 2 * int(g.border_width)
        frames.append((child, (int(g.x), int(g.y), int(g.width) + edge, int(g.height) + edge)))
    return frames


def owner_of(display: Any, frame: Any) -> WindowOwner:
    """The program that shows ``frame``: read off its client window (the one with
    ``WM_STATE``, which a window manager sets; with none, ``frame`` itself)."""
    from Xlib import X
    from Xlib.error import XError

    client = client_window(display, frame)
    try:
        prop = client.get_full_property(display.intern_atom("_NET_WM_PID"), X.AnyPropertyType)
        pid = int(prop.value[0]) if prop is not None and len(prop.value) else None
        wm_class = client.get_wm_class()
    except XError:
        return WindowOwner(None, None)
    return WindowOwner(pid, tuple(wm_class) if wm_class else None,
                       connection_of(display, client))


def connection_of(display: Any, client: Any) -> int | None:
    """The X connection that made ``client``, a program's window that a window manager
    manages (``WM_STATE`` set): its id's client bits (the mask is the same for every
    client of a server). None for another window (a window manager's frame is of
    the manager's connection)."""
    from Xlib import X
    from Xlib.error import XError

    mask = getattr(getattr(getattr(display, "display", None), "info", None),
                   "resource_id_mask", None)
    try:
        managed = client.get_full_property(display.intern_atom("WM_STATE"),
                                           X.AnyPropertyType) is not None
    except XError:
        return None
    return int(client.id) & ~int(mask) if managed and mask is not None else None


def client_window(display: Any, window: Any, depth: int = 3) -> Any:
    """The window in ``window`` (itself or a descendant, ``depth`` levels down) that
    has ``WM_STATE``; ``window`` itself if none has."""
    from Xlib import X
    from Xlib.error import XError

    state = display.intern_atom("WM_STATE")
    todo = [(window, 0)]
    try:
        while todo:
            w, level = todo.pop(0)
            if w.get_full_property(state, X.AnyPropertyType) is not None:
                return w
            if level < depth:
                todo.extend((c, level + 1) for c in w.query_tree().children)
    except XError:
        pass
    return window


class X11Window:
    """The top-level window that showed the board at ``point`` (python-xlib)."""

    def __init__(self, display: Any, frame: Any, point: ScreenPoint) -> None:
        self._d, self.frame, self.point = display, frame, point
        self.owner = owner_of(display, frame)
        self.known = {f.id for f, _ in self._own_frames()}
        """The program's windows shown when the board was found (never closed here)."""

    def _own_frames(self) -> list[tuple[Any, Rect]]:
        return [(f, rect) for f, rect in top_frames(self._d)
                if owner_of(self._d, f).same(self.owner)]

    def close_new(self, keep: Callable[[Rect], bool]) -> int:
        """Close, as their own close button would (``WM_DELETE_WINDOW``, where the
        window takes it), the program's windows opened since the board was found but
        those ``keep`` says to leave (one over the board); how many."""
        closed = 0
        for frame, rect in self._own_frames():
            if frame.id in self.known or frame.id == self.frame.id or keep(rect):
                continue
            closed += ask_to_close(self._d, client_window(self._d, frame))
        return closed

    def over(self, area: tuple[float, float, float, float]) -> list[Rect] | None:
        """The rectangles of the windows stacked above the game's (any program's: a
        dialog, a menu, a tooltip) that overlap ``area``; None when the game's window
        is no longer among the top-level ones (stacking unknown). One round trip for
        the stacking order, two per window above the game's (usually none)."""
        from Xlib.error import XError

        try:
            children = self._d.screen().root.query_tree().children
        except XError:
            return None
        ids = [child.id for child in children]
        if self.frame.id not in ids:
            return None
        above = children[ids.index(self.frame.id) + 1:]
        return [rect for _, rect in top_frames(self._d, popups=True, children=above)
                if overlap(rect, area)]

    def present(self) -> bool:
        from Xlib import X
        from Xlib.error import XError

        try:
            if self.frame.get_attributes().map_state == X.IsViewable:
                return True
        except XError:  # BadWindow: destroyed
            pass
        frame = frame_at(self._d, self.point)
        if frame is None or not owner_of(self._d, frame).same(self.owner):
            return False
        self.frame = frame  # (the game's new window: watched from now on)
        return True


def overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Do rectangles ``a`` and ``b`` (x, y, width, height) share any area?

    >>> overlap((0, 0, 10, 10), (9, 9, 5, 5)), overlap((0, 0, 10, 10), (10, 0, 5, 5))
    (True, False)
    """
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and \
        a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def ask_to_close(display: Any, window: Any) -> bool:
    """Send ``window`` the window manager's close request (``WM_DELETE_WINDOW``), if it
    lists that protocol; never destroy it. Whether it was sent."""
    from Xlib import X
    from Xlib.error import XError
    from Xlib.protocol import event

    delete = display.intern_atom("WM_DELETE_WINDOW")
    try:
        if delete not in (window.get_wm_protocols() or ()):
            return False
        message = event.ClientMessage(window=window,
                                      client_type=display.intern_atom("WM_PROTOCOLS"),
                                      data=(32, [delete, X.CurrentTime, 0, 0, 0]))
        window.send_event(message, event_mask=X.NoEventMask)
        display.flush()
    except XError:
        return False
    return True


def x11_window_at(display: Any, p: ScreenPoint) -> X11Window | None:
    """The top-level window shown at ``p`` on ``display`` (python-xlib); None where
    there is none (the root window alone)."""
    frame = frame_at(display, p)
    return None if frame is None else X11Window(display, frame, p)
