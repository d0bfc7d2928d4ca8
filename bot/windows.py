"""Which window shows the board, and is it still there?

A game may close its window at its end (cave-sweeper does at every loss) or be closed
by the user; what shows in its place then is the desktop or another program's window,
and a click there is a click outside the game. The mouse backends that can ask the
window system (X11 here: :class:`bot.mouse.XTestMouse`, and pyautogui's mouse on X11)
give a :class:`GameWindow` for the window at a screen point; :class:`bot.mouse.GuardedMouse`
checks it before every click and key.

A window counts as still there while it is mapped, or while the top-level window now
at the board's point belongs to the same program (the same ``_NET_WM_PID``, or with no
pid the same ``WM_CLASS``): a game that makes a new window for its next game is the
same game.
"""

from __future__ import annotations

from collections.abc import Sequence
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
    """What tells a program's windows apart: its process id (``_NET_WM_PID``) and its
    ``WM_CLASS``; either may be unknown (None).

    >>> WindowOwner(12, ("mines", "Mines")).same(WindowOwner(12, None))
    True
    >>> WindowOwner(None, ("mines", "Mines")).same(WindowOwner(13, ("xterm", "XTerm")))
    False
    >>> WindowOwner(None, None).same(WindowOwner(None, None))
    False
    """

    pid: int | None
    wm_class: tuple[str, ...] | None

    def same(self, other: WindowOwner) -> bool:
        if self.pid is not None and other.pid is not None:
            return self.pid == other.pid
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


def frame_at(display: Any, p: ScreenPoint) -> Any | None:
    """The top-level window (a child of the root: a window manager's frame, or the
    program's own window with none) that is mapped and holds ``p``; None if none.
    Override-redirect windows (menus, tooltips, notifications: they come and go over
    any program) are passed over."""
    from Xlib import X
    from Xlib.error import XError

    frames = []
    try:
        children = display.screen().root.query_tree().children
    except XError:
        return None
    for child in children:
        try:
            attributes = child.get_attributes()
            if attributes.map_state != X.IsViewable or attributes.override_redirect:
                continue
            g = child.get_geometry()
        except XError:  # gone meanwhile
            continue
        edge = 2 * int(g.border_width)
        frames.append((child, (int(g.x), int(g.y), int(g.width) + edge, int(g.height) + edge)))
    return topmost_at(p, frames)


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
    return WindowOwner(pid, tuple(wm_class) if wm_class else None)


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


def x11_window_at(display: Any, p: ScreenPoint) -> X11Window | None:
    """The top-level window shown at ``p`` on ``display`` (python-xlib); None where
    there is none (the root window alone)."""
    frame = frame_at(display, p)
    return None if frame is None else X11Window(display, frame, p)
