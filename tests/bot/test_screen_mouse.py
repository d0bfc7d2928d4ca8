"""Screen and mouse layers: coordinate mapping, fakes, the guard, and (live) the real
mss capture and XTEST pointer on a private virtual display."""

from __future__ import annotations

import doctest
import importlib
import shutil
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from bot.mouse import (
    ClickRefused,
    FailSafe,
    GuardedMouse,
    MouseStopped,
    PointerMoved,
    RecordingMouse,
    ScreenRect,
    in_corner,
)
from bot.screen import FileScreen, ScreenMap, ScreenPoint, clip_rect
from vision.geometry import PixelPoint, PixelRect

DOCTEST_MODULES = ["bot.screen", "bot.mouse", "bot.metrics", "bot.results", "bot.heatmap",
                   "bot.recording", "bot.loop", "bot.reader", "bot.cmd_demo", "bot.chord",
                   "bot.frames", "bot.consistency"]


@pytest.mark.parametrize("name", DOCTEST_MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0


def test_screen_map_round_trip_on_hidpi() -> None:
    m = ScreenMap.measure((3840, 2160), (1920, 1080), origin=(100, 0))
    p = PixelPoint(1001.0, 503.0)
    s = m.to_screen(p)
    assert s == ScreenPoint(100 + 500.5, 251.5)
    assert m.to_pixel(s) == p


def test_clip_rect_inside_and_outside() -> None:
    assert clip_rect(PixelRect(5, 5, 10, 10), 100, 100) == PixelRect(5, 5, 10, 10)
    assert clip_rect(PixelRect(200, 5, 10, 10), 100, 100).width == 0


def test_file_screen_crops_and_advances() -> None:
    a = np.zeros((20, 30, 3), np.uint8)
    b = np.full((20, 30, 3), 9, np.uint8)
    a[2, 3] = (1, 2, 3)
    screen = FileScreen([a, b])
    assert screen.size() == (30, 20)
    assert tuple(screen.grab(PixelRect(3, 2, 4, 4))[0, 0]) == (1, 2, 3)
    screen.advance()
    screen.advance()  # stays on the last frame
    assert int(screen.grab()[0, 0, 0]) == 9


def test_guard_refuses_clicks_outside_allowed_rects() -> None:
    rec = RecordingMouse(size=(800, 600))
    guard = GuardedMouse(rec)
    with pytest.raises(ClickRefused):
        guard.click(ScreenPoint(50, 50))  # nothing allowed yet
    guard.allow([ScreenRect(10, 10, 100, 100), ScreenRect(300, 10, 20, 20)])
    guard.click(ScreenPoint(109.5, 10))
    guard.click(ScreenPoint(310, 20), "right")
    with pytest.raises(ClickRefused):
        guard.click(ScreenPoint(110, 50))
    assert [(a.point, a.button) for a in rec.clicks] == [
        (ScreenPoint(109.5, 10), "left"), (ScreenPoint(310, 20), "right")]


def test_guard_failsafe_corner_and_foreign_moves() -> None:
    rec = RecordingMouse(size=(800, 600))
    guard = GuardedMouse(rec)
    guard.allow([ScreenRect(0, 0, 800, 600)])
    with pytest.raises(ClickRefused):
        guard.move(ScreenPoint(0, 599))  # never park on a corner
    guard.move(ScreenPoint(400, 300))
    rec.pointer = ScreenPoint(799, 0)
    with pytest.raises(FailSafe):
        guard.check()  # the loop checks before every batch of clicks
    with pytest.raises(FailSafe):
        guard.move(ScreenPoint(100, 100))
    rec.pointer = ScreenPoint(420, 300)
    with pytest.raises(PointerMoved):
        guard.check()
    with pytest.raises(PointerMoved):
        guard.move(ScreenPoint(100, 100))
    assert not rec.clicks and len(rec.actions) == 1


class DeferredMouse(RecordingMouse):
    """A recording mouse that asks where the pointer is without waiting, as XTestMouse
    does: a look's answer is the position when the look was sent (the X server takes a
    connection's requests in order); ``holding`` and ``flush`` count the writes."""

    careful = False

    def __init__(self) -> None:
        super().__init__(size=(800, 600))
        self.holding = False
        self.flushes = 0
        self.looks = 0

    def look(self) -> Callable[[], ScreenPoint]:
        self.looks += 1
        pos = self.pointer
        return lambda: pos

    def look_then_move(self, p: ScreenPoint) -> Callable[[], ScreenPoint]:
        before = self.look()
        self.move(p)
        return before

    def flush(self) -> None:
        self.flushes += 1


def test_guard_looks_ahead_and_still_sees_every_hand_move() -> None:
    rec = DeferredMouse()
    guard = GuardedMouse(rec)
    guard.allow([ScreenRect(0, 0, 800, 600)])
    guard.move(ScreenPoint(400, 300))
    guard.look_ahead()  # a turn starts: the answer comes while it reads and solves
    rec.pointer = ScreenPoint(420, 300)  # a hand moves during the turn, after the look
    guard.check()  # uses that answer, and asks again without waiting
    assert rec.looks == 2
    guard.click(ScreenPoint(100, 100))  # this batch goes on ...
    guard.move(ScreenPoint(400, 300), wait=False)
    with pytest.raises(PointerMoved):
        guard.check()  # ... the next one does not
    guard = GuardedMouse(rec)
    guard.allow([ScreenRect(0, 0, 800, 600)])
    guard.move(ScreenPoint(400, 300))
    rec.pointer = ScreenPoint(420, 300)  # a hand moves before the turn starts
    guard.look_ahead()
    with pytest.raises(PointerMoved):
        guard.check()
    guard = GuardedMouse(rec)
    guard.move(ScreenPoint(400, 300))
    guard.look_ahead()
    rec.pointer = ScreenPoint(0, 0)  # pushed into a corner after the look
    guard.move(ScreenPoint(300, 300), wait=False)
    with pytest.raises(FailSafe):
        guard.check()


def test_guard_renewed_look_ahead_keeps_the_old_look() -> None:
    rec = DeferredMouse()
    guard = GuardedMouse(rec)
    guard.move(ScreenPoint(400, 300))
    rec.pointer = ScreenPoint(420, 300)  # a hand, seen by the first look only:
    guard.look_ahead()
    rec.pointer = ScreenPoint(400, 300)  # it went back before the newer look
    guard.look_ahead(renew=True)
    with pytest.raises(PointerMoved):
        guard.check()  # the newer look does not hide the older one


def test_guard_batch_sends_clicks_and_looks_in_one_write() -> None:
    rec = DeferredMouse()
    guard = GuardedMouse(rec)
    guard.allow([ScreenRect(0, 0, 800, 600)])
    guard.move(ScreenPoint(400, 300))
    with guard.batch():
        assert rec.holding
        guard.check()
        guard.click(ScreenPoint(100, 100))
        guard.click(ScreenPoint(120, 100), "right")
        guard.move(ScreenPoint(400, 300), wait=False)
    assert not rec.holding and rec.flushes == 1 and len(rec.clicks) == 2
    with pytest.raises(ClickRefused), guard.batch():  # a refused click still flushes
        guard.click(ScreenPoint(900, 100))
    assert not rec.holding and rec.flushes == 2
    rec.careful = True  # a window manager: every click is waited for, nothing is held
    with guard.batch():
        assert not rec.holding
    assert rec.flushes == 2


def test_guard_honours_stop_request() -> None:
    stop = {"now": False}
    guard = GuardedMouse(RecordingMouse(), stop_requested=lambda: stop["now"])
    guard.allow([ScreenRect(0, 0, 100, 100)])
    guard.click(ScreenPoint(5, 5))
    stop["now"] = True
    with pytest.raises(MouseStopped, match="Ctrl"):
        guard.click(ScreenPoint(5, 5))


def test_in_corner() -> None:
    assert in_corner(ScreenPoint(1, 598), (800, 600))
    assert not in_corner(ScreenPoint(1, 300), (800, 600))


needs_xvfb = pytest.mark.skipif(shutil.which("Xvfb") is None or shutil.which("dbus-daemon") is None,
                                reason="Xvfb (apt: xvfb) and dbus-daemon are needed")


def paint_root(d: Any) -> None:
    """Coloured stripes on an X display's root window (so captures can be compared)."""
    root = d.screen().root
    for i, pixel in enumerate((0xFF0000, 0x00FF00, 0x0000FF, 0x808080, 0xFFFFFF)):
        gc = root.create_gc(foreground=pixel)
        root.fill_rectangle(gc, 0, 15 + 9 * i, 640, 9)
        root.fill_rectangle(gc, 7 * i, 0, 3, 480)
    d.sync()


@pytest.mark.live
@needs_xvfb
def test_live_mss_region_grab_and_xtest_pointer() -> None:
    from bot.mouse import XTestMouse
    from bot.realgames import VirtualDisplay
    from bot.screen import MssScreen

    with VirtualDisplay(width=640, height=480) as vd:
        screen = MssScreen(vd.display)
        mouse = XTestMouse(vd.display)
        try:
            paint_root(vd.x11())
            assert screen.size() == (640, 480) == mouse.size()
            full = screen.grab()
            assert len({tuple(px) for px in full[15:70:5, 5:45:5].reshape(-1, 3)}) >= 3
            assert full.shape == (480, 640, 3) and full.dtype == np.uint8
            region = screen.grab(PixelRect(10, 20, 30, 40))
            assert region.shape == (40, 30, 3)
            assert np.array_equal(region, full[20:60, 10:40])
            assert screen._shm is not None  # the shared-memory path, same pixels as mss:
            shot = screen._sct.grab({"left": 10, "top": 20, "width": 30, "height": 40})
            assert np.array_equal(region, np.asarray(shot)[..., :3])
            assert mouse._fake != mouse._fake_input  # requests queued as ready-made bytes
            mouse.move(ScreenPoint(123, 45))
            assert mouse.position() == ScreenPoint(123, 45)
            mouse.click(ScreenPoint(200, 100), "right")
            assert mouse.position() == ScreenPoint(200, 100)
        finally:
            screen.close()
            mouse.close()


def test_screen_map_measured_from_the_mouse_or_the_monitor() -> None:
    from bot.loop import screen_map

    retina = FileScreen([np.zeros((1800, 2880, 3), np.uint8)])
    m = screen_map(retina, RecordingMouse(size=(1440, 900)))
    assert (m.scale_x, m.scale_y) == (2.0, 2.0)

    class SecondMonitor(FileScreen):
        def origin(self) -> tuple[int, int]:
            return (1920, 0)

        def points_size(self) -> tuple[int, int]:
            return (1280, 1024)

    second = SecondMonitor([np.zeros((1024, 1280, 3), np.uint8)])
    m = screen_map(second, RecordingMouse(size=(3200, 1080)))  # the mouse spans both
    assert m.to_screen(PixelPoint(10, 20)) == ScreenPoint(1930, 20)
