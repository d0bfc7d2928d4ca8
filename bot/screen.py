"""Screen capture: the real screen (mss) and a file-backed fake, behind one Protocol.

Images are numpy BGR arrays in *image pixels*. The mouse works in *screen points*
(:class:`ScreenPoint`). On a HiDPI screen one point is several pixels; the
:class:`ScreenMap` measured at start converts between the two, so the two kinds of
coordinate are never mixed.

>>> m = ScreenMap(scale_x=2.0, scale_y=2.0)
>>> m.to_screen(PixelPoint(200.0, 100.0))
ScreenPoint(x=100.0, y=50.0)
>>> m.to_pixel(ScreenPoint(100.0, 50.0))
PixelPoint(x=200.0, y=100.0)
>>> screen = FileScreen([np.zeros((4, 6, 3), np.uint8)])
>>> screen.grab(PixelRect(1, 1, 2, 3)).shape
(3, 2, 3)
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import PixelPoint, PixelRect

Image = npt.NDArray[np.uint8]
"""A BGR image, shape (height, width, 3), in image pixels."""


class ScreenPoint(NamedTuple):
    """A point in the mouse's coordinates (screen points). Not an image pixel."""

    x: float
    y: float


class PlatformError(RuntimeError):
    """The screen or the mouse cannot be used in this session (reason in the message)."""


@dataclass(frozen=True)
class ScreenMap:
    """Image pixels <-> screen points: ``point = origin + pixel / scale``."""

    scale_x: float = 1.0
    scale_y: float = 1.0
    origin_x: float = 0.0
    origin_y: float = 0.0

    def to_screen(self, p: PixelPoint) -> ScreenPoint:
        return ScreenPoint(self.origin_x + p.x / self.scale_x, self.origin_y + p.y / self.scale_y)

    def to_pixel(self, p: ScreenPoint) -> PixelPoint:
        return PixelPoint((p.x - self.origin_x) * self.scale_x,
                          (p.y - self.origin_y) * self.scale_y)

    @classmethod
    def measure(cls, image_size: tuple[int, int], screen_size: tuple[int, int],
                origin: tuple[float, float] = (0.0, 0.0)) -> ScreenMap:
        """From a full screenshot's (width, height) and the mouse's screen (width, height).

        >>> ScreenMap.measure((2880, 1800), (1440, 900)).scale_x
        2.0
        """
        (iw, ih), (sw, sh) = image_size, screen_size
        if min(iw, ih, sw, sh) <= 0:
            raise PlatformError(f"bad screen size: image {iw}x{ih}, screen {sw}x{sh}")
        return cls(iw / sw, ih / sh, float(origin[0]), float(origin[1]))


class Screen(Protocol):
    """Something that gives screenshots of the (primary) screen."""

    def size(self) -> tuple[int, int]:
        """(width, height) of a full screenshot in image pixels."""
        ...

    def grab(self, region: PixelRect | None = None) -> Image:
        """The full screen, or ``region`` of it (clipped to the screen), as BGR."""
        ...

    def close(self) -> None: ...


def clip_rect(region: PixelRect, width: int, height: int) -> PixelRect:
    """``region`` clipped to a width x height image (may become empty).

    >>> clip_rect(PixelRect(-5, 10, 20, 100), 12, 50)
    PixelRect(left=0, top=10, width=12, height=40)
    """
    left, top = max(0, region.left), max(0, region.top)
    right = min(width, region.left + region.width)
    bottom = min(height, region.top + region.height)
    return PixelRect(left, top, max(0, right - left), max(0, bottom - top))


def prepare_platform() -> None:
    """Check the session can be captured and clicked; on Windows switch on per-monitor-v2
    DPI awareness. Call before importing mss or pyautogui anywhere."""
    if sys.platform == "win32":
        _windows_dpi_awareness()
        return
    if sys.platform == "darwin":
        return
    if os.environ.get("DISPLAY"):
        return
    if os.environ.get("WAYLAND_DISPLAY"):
        raise PlatformError(
            "this is a Wayland session without X11 access: sweepbot cannot read the screen or "
            "move the mouse there. Log in to an X11 session (\"Ubuntu on Xorg\" at the login "
            "screen), or run the game under XWayland with DISPLAY set, or try `sweepbot demo`, "
            "which starts its own virtual display")
    raise PlatformError("no display: $DISPLAY is not set. Run sweepbot inside a desktop "
                        "session, or try `sweepbot demo`, which starts its own virtual display")


def _windows_dpi_awareness() -> None:
    import ctypes

    try:
        # DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2 == -4
        ctypes.windll.user32.SetProcessDpiAwarenessContext(ctypes.c_void_p(-4))  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        try:
            ctypes.windll.shcore.SetProcessDpiAwareness(2)  # type: ignore[attr-defined]
        except (AttributeError, OSError):
            pass


class MssScreen:
    """The real screen through mss: one monitor (1 = the primary). ``display`` picks an
    X display."""

    def __init__(self, display: str | None = None, monitor: int = 1) -> None:
        import mss

        kwargs: dict[str, Any] = {"display": display} if display else {}
        factory = getattr(mss, "MSS", None) or mss.mss
        try:
            self._sct = factory(**kwargs)
        except Exception as exc:  # mss raises its own ScreenShotError and plain errors
            raise PlatformError(f"cannot open the screen for capture: {exc}") from exc
        count = len(self._sct.monitors) - 1
        if not 1 <= monitor <= count:
            self._sct.close()
            raise PlatformError(f"there is no monitor {monitor} (this session has {count})")
        mon = self._sct.monitors[monitor]
        self._monitor = {k: int(mon[k]) for k in ("left", "top", "width", "height")}
        first = self._sct.grab(self._monitor)
        self._size = (int(first.width), int(first.height))
        self._shm = _ShmGrab.of(self._sct)

    def size(self) -> tuple[int, int]:
        return self._size

    def origin(self) -> tuple[int, int]:
        """The monitor's top-left corner in screen points."""
        return self._monitor["left"], self._monitor["top"]

    def points_size(self) -> tuple[int, int]:
        """The monitor's (width, height) in screen points (mss reports monitors in the
        mouse's coordinates: points on macOS, pixels where the process is DPI-aware)."""
        return self._monitor["width"], self._monitor["height"]

    def grab(self, region: PixelRect | None = None) -> Image:
        mon = self._monitor
        if region is None:
            box = dict(mon)
        else:
            r = clip_rect(region, *self._size)
            if r.width == 0 or r.height == 0:
                raise ValueError(f"region {region} lies outside the screen")
            sx = mon["width"] / self._size[0]  # mss takes regions in monitor units
            sy = mon["height"] / self._size[1]
            box = {"left": mon["left"] + round(r.left * sx), "top": mon["top"] + round(r.top * sy),
                   "width": max(1, round(r.width * sx)), "height": max(1, round(r.height * sy))}
        if self._shm is not None:
            image = self._shm.grab(box)
            if image is not None:
                return image
            self._shm = None  # (the shared memory path failed once: mss from now on)
        shot = self._sct.grab(box)
        raw = np.frombuffer(shot.raw, np.uint8).reshape(shot.height, shot.width, 4)
        return cv2.cvtColor(raw, cv2.COLOR_BGRA2BGR)  # type: ignore[return-value]

    def close(self) -> None:
        self._sct.close()


class _ShmGrab:
    """X11 captures straight from mss's shared memory segment (XShmGetImage): mss
    itself copies every capture into a new bytearray and wraps it in a ScreenShot
    before we convert it; converting from the segment halves a capture's CPU time.
    Uses mss internals (mss 10 on X11): :meth:`of` gives None where they are not as
    expected, and :meth:`grab` gives None on any surprise (then plain mss is used)."""

    def __init__(self, sct: Any, impl: Any, xcb: Any) -> None:
        self._sct, self._impl, self._xcb = sct, impl, xcb

    @classmethod
    def of(cls, sct: Any) -> _ShmGrab | None:
        impl = getattr(sct, "_impl", None)
        try:
            from mss.linux import xcb
            from mss.linux.xshmgetimage import ShmStatus
        except ImportError:
            return None
        needed = ("conn", "drawable", "drawable_depth", "_shmseg", "_buf", "_bufsize")
        if impl is None or not all(hasattr(impl, a) for a in needed) or getattr(
                impl, "shm_status", None) != ShmStatus.AVAILABLE:
            return None
        return cls(sct, impl, xcb)

    def grab(self, box: dict[str, int]) -> Image | None:
        impl, xcb = self._impl, self._xcb
        w, h = box["width"], box["height"]
        try:
            with self._sct._lock:
                if impl.conn is None or impl._buf is None or w * h * 4 > impl._bufsize:
                    return None
                reply = xcb.shm_get_image(impl.conn, impl.drawable, box["left"], box["top"],
                                          w, h, 0xFFFFFFFF, xcb.ImageFormat.ZPixmap,
                                          impl._shmseg, 0)
                if reply.depth != impl.drawable_depth:
                    return None
                raw = np.frombuffer(impl._buf, np.uint8, w * h * 4).reshape(h, w, 4)
                image = cv2.cvtColor(raw, cv2.COLOR_BGRA2BGR)
                del raw  # no view of the segment may outlive the lock
                return image  # type: ignore[return-value]
        except Exception:  # noqa: BLE001  (any failure: fall back to mss's own path)
            return None


def load_image(source: str | Path | Image) -> Image:
    """A BGR image from a PNG path or an array (copied)."""
    if isinstance(source, np.ndarray):
        return np.ascontiguousarray(source[..., :3]).astype(np.uint8)
    image = cv2.imread(str(source), cv2.IMREAD_COLOR)
    if image is None:
        raise FileNotFoundError(f"cannot read image {source}")
    return image  # type: ignore[return-value]


class FileScreen:
    """A fake screen that shows a sequence of images (PNG paths or arrays).

    It shows the first image until ``advance()`` moves it to the next (a
    :class:`bot.mouse.RecordingMouse` can call it on every click); after the last image
    it keeps showing the last, so a loop run against it sees a still screen.
    """

    def __init__(self, frames: Sequence[str | Path | Image]) -> None:
        if not frames:
            raise ValueError("FileScreen needs at least one frame")
        self._frames = [load_image(f) for f in frames]
        self.index = 0
        self.grabs = 0

    def advance(self) -> None:
        self.index = min(self.index + 1, len(self._frames) - 1)

    def size(self) -> tuple[int, int]:
        h, w = self._frames[0].shape[:2]
        return w, h

    def grab(self, region: PixelRect | None = None) -> Image:
        self.grabs += 1
        frame = self._frames[self.index]
        if region is None:
            return frame.copy()
        h, w = frame.shape[:2]
        r = clip_rect(region, w, h)
        return frame[r.top:r.top + r.height, r.left:r.left + r.width].copy()

    def close(self) -> None:
        pass
