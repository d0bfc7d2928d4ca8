"""The game's window watched on a real X server (Xvfb, with and without a window
manager): there while mapped, gone once destroyed or hidden, and a new window of the
same program at the board's place is the same game. Windows are made here with
python-xlib, each with its own ``WM_CLASS`` and ``_NET_WM_PID``, as programs set them."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from bot.mouse import ClickRefused, GuardedMouse, ScreenRect, WindowClosed, XTestMouse
from bot.realgames import VirtualDisplay
from bot.screen import ScreenPoint

Xlib_display = pytest.importorskip("Xlib.display")
X = pytest.importorskip("Xlib.X")

BOARD = ScreenPoint(250, 200)  # inside every window made here


@pytest.fixture(params=[False, True], ids=["bare", "openbox"], scope="module")
def display(request: pytest.FixtureRequest) -> Iterator[tuple[Any, XTestMouse]]:
    with VirtualDisplay(1024, 768, window_manager=request.param) as vd:
        d = Xlib_display.Display(vd.display)
        mouse = XTestMouse(vd.display)
        try:
            yield d, mouse
        finally:
            mouse.close()
            d.close()


def make_window(d: Any, name: str, pid: int | None, popup: bool = False,
                at: tuple[int, int, int, int] = (100, 100, 300, 200)) -> Any:
    """A 300x200 window at (100, 100) (or ``at``: x, y, width, height), mapped, that
    takes the window manager's close request; returns once it is viewable. ``popup``:
    override-redirect, as menus and tooltips are (no window manager frames it)."""
    root = d.screen().root
    x, y, width, height = at
    w = root.create_window(x, y, width, height, 0, d.screen().root_depth,
                           background_pixel=d.screen().white_pixel, override_redirect=popup)
    w.set_wm_class(name, name.title())
    w.set_wm_normal_hints(flags=1 | 2, x=x, y=y)  # USPosition | USSize: stay put
    if pid is not None:
        w.change_property(d.intern_atom("_NET_WM_PID"), d.intern_atom("CARDINAL"), 32, [pid])
    w.set_wm_protocols([d.intern_atom("WM_DELETE_WINDOW")])
    w.map()
    d.sync()
    wait_until(lambda: w.get_attributes().map_state == X.IsViewable)
    return w


def wait_until(done: Any, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the X server did not get there in time"
        time.sleep(0.02)


def gone(d: Any, w: Any) -> None:
    w.destroy()
    d.sync()
    time.sleep(0.2)  # (a window manager takes its frame down after the client)


def test_a_destroyed_window_is_gone_and_a_new_one_of_the_same_program_is_not(
        display: tuple[Any, XTestMouse]) -> None:
    d, mouse = display
    game = make_window(d, "mines", 4242)
    window = mouse.window_at(BOARD)
    assert window is not None and window.present()
    gone(d, game)
    assert not window.present()
    again = make_window(d, "mines", 4242)  # the game's next window, at the same place
    assert window.present()
    other = make_window(d, "xterm", 5151)  # another program's over it
    gone(d, again)
    assert not window.present()
    gone(d, other)


def test_a_hidden_window_is_gone(display: tuple[Any, XTestMouse]) -> None:
    d, mouse = display
    game = make_window(d, "mines", 4343)
    window = mouse.window_at(BOARD)
    assert window is not None and window.present()
    game.unmap()
    d.sync()
    wait_until(lambda: game.get_attributes().map_state != X.IsViewable)
    time.sleep(0.2)
    assert not window.present()
    gone(d, game)


def test_no_window_at_a_point_of_the_bare_root(display: tuple[Any, XTestMouse]) -> None:
    d, mouse = display
    if mouse.careful:  # (a window manager may keep windows of its own anywhere)
        pytest.skip("only the bare display has nothing but the root window")
    assert mouse.window_at(BOARD) is None


def test_the_guard_clicks_nothing_once_the_game_window_has_gone(
        display: tuple[Any, XTestMouse]) -> None:
    d, mouse = display
    game = make_window(d, "mines", 4444)
    guard = GuardedMouse(mouse)
    guard.allow([ScreenRect(100, 100, 300, 200)])
    guard.watch_window(BOARD)
    guard.click(ScreenPoint(150, 150))
    guard.click(ScreenPoint(160, 150))
    gone(d, game)
    with pytest.raises(WindowClosed):
        guard.click(ScreenPoint(170, 150))
    with pytest.raises(WindowClosed):
        guard.key("Escape")
    assert mouse.position() == ScreenPoint(160, 150)  # (the pointer never went there)


def test_a_menu_over_the_board_is_not_taken_for_the_game(
        display: tuple[Any, XTestMouse]) -> None:
    d, mouse = display
    game = make_window(d, "mines", 4545)
    menu = make_window(d, "menu", 4545 + 1, popup=True)  # over the board when it is found
    window = mouse.window_at(BOARD)
    gone(d, menu)
    assert window is not None and window.present()  # (the game's, not the menu's)
    gone(d, game)
    assert not window.present()


def close_requests(d: Any, wait: float = 0.5) -> set[int]:
    """The windows of ours asked to close (``WM_DELETE_WINDOW``) by now."""
    delete = d.intern_atom("WM_DELETE_WINDOW")
    asked: set[int] = set()
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        while d.pending_events():
            e = d.next_event()
            if e.type == X.ClientMessage and e.data[1][0] == delete:
                asked.add(e.window.id)
        time.sleep(0.02)
    return asked


def test_only_the_windows_the_game_opened_beside_its_board_are_closed(
        display: tuple[Any, XTestMouse]) -> None:
    """Tk MineGrid's way: a "You lose!" window of the game's own at every end, beside
    the board. A window of the game's shown when the board was found, one over the
    board, and another program's are left alone."""
    d, mouse = display
    game = make_window(d, "mines", 4646)
    toolbox = make_window(d, "mines", 4646, at=(500, 500, 100, 80))  # there from the start
    guard = GuardedMouse(mouse)
    guard.watch_window(BOARD)
    close_requests(d, 0.1)  # (nothing asked yet)
    you_lose = make_window(d, "mines", 4646, at=(600, 100, 200, 100))
    dialog = make_window(d, "mines", 4646, at=(150, 150, 200, 100))  # over the board
    other = make_window(d, "xterm", 5252, at=(600, 300, 200, 100))
    assert guard.close_new_windows([ScreenRect(100, 100, 300, 200)]) == 1
    assert close_requests(d) == {you_lose.id}
    for w in (you_lose, dialog, other, toolbox, game):
        gone(d, w)


def test_a_tk_program_s_windows_are_told_by_their_connection(
        display: tuple[Any, XTestMouse]) -> None:
    """Tk sets no pid and names each window's class apart ("Tk", then "Toplevel"):
    under a window manager, the X connection that made them tells they are one
    program's; another program's window of no pid is not closed. With no window
    manager nothing tells, and nothing is closed."""
    d, mouse = display
    other_program = Xlib_display.Display(d.get_display_name())
    try:
        game = make_window(d, "tk", None)
        guard = GuardedMouse(mouse)
        guard.watch_window(BOARD)
        you_win = make_window(d, "!toplevel", None, at=(600, 100, 200, 100))
        other = make_window(other_program, "xterm", None, at=(600, 300, 200, 100))
        closed = guard.close_new_windows([ScreenRect(100, 100, 300, 200)])
        assert closed == (1 if mouse.careful else 0)
        assert close_requests(d) == ({you_win.id} if mouse.careful else set())
        assert close_requests(other_program, 0.1) == set()
        gone(other_program, other)
        for w in (you_win, game):
            gone(d, w)
    finally:
        other_program.close()


def test_the_windows_over_the_board_are_those_stacked_above_the_game_s(
        display: tuple[Any, XTestMouse]) -> None:
    """A dialog over the board (the Java game's "Game Over"), a menu over it, and a
    window beside the board; a window under the game's hides nothing."""
    d, mouse = display
    below = make_window(d, "xterm", 5353, at=(120, 120, 100, 80))  # the game maps over it
    game = make_window(d, "mines", 4747)
    guard = GuardedMouse(mouse)
    board = ScreenRect(100, 100, 300, 200)
    assert guard.windows_over(board) is None  # (nothing watched yet)
    guard.watch_window(BOARD)
    assert guard.windows_over(board) == []
    beside = make_window(d, "mines", 4747, at=(600, 100, 200, 100))
    dialog = make_window(d, "mines", 4747, at=(150, 150, 200, 100))
    over = guard.windows_over(board)
    assert over is not None and len(over) == 1
    left, top, width, height = over[0]
    assert 145 <= left <= 150 and 130 <= top <= 150 and 200 <= width <= 210
    menu = make_window(d, "menu", 4848, popup=True, at=(300, 250, 80, 120))
    assert len(guard.windows_over(board) or []) == 2
    for w in (menu, dialog):
        gone(d, w)
    assert guard.windows_over(board) == []
    for w in (beside, game, below):
        gone(d, w)


def test_no_square_is_clicked_under_a_window_over_the_board(
        display: tuple[Any, XTestMouse]) -> None:
    """A dialog over the board takes a click meant for a square under it (the Java
    game's "Game Over" OK button started the next game under play's clicks). A click
    meant for the dialog itself (to give it the keyboard focus) still goes."""
    d, mouse = display
    game = make_window(d, "mines", 4949)
    guard = GuardedMouse(mouse)
    guard.allow([ScreenRect(100, 100, 300, 200)])
    guard.watch_window(BOARD)
    guard.click(ScreenPoint(300, 250), square=True)  # (nothing over it yet)
    dialog = make_window(d, "mines", 4949, at=(150, 150, 100, 60))
    with pytest.raises(ClickRefused):
        guard.click(ScreenPoint(170, 170), square=True)
    guard.click(ScreenPoint(300, 250), square=True)  # beside the dialog
    guard.click(ScreenPoint(170, 170))  # on the dialog, meant for it
    for w in (dialog, game):
        gone(d, w)
