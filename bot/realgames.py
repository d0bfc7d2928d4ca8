"""Start real Minesweeper games on a private virtual display (Xvfb).

Used by fixture recording, by the end-to-end tests and by calibration. Everything
started here is stopped again by its PID when the :class:`VirtualDisplay` context
exits. The display number is chosen by Xvfb itself (``-displayfd``), so several
people can run this at the same time on one machine.

These are tools for tests and recording: input goes through XTEST (python-xlib), windows
are found and moved with ``xdotool``; the product's own mouse lives elsewhere.

Example (needs Xvfb and xdemineur)::

    with VirtualDisplay() as vd:
        game = launch_xdemineur(vd, 12, 9, 10)
        image = vd.screenshot()          # 1080 x 1920 x 3 BGR
        left, top, width, height = game.rect()
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

import cv2
import mss
import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    import Xlib.display

Image = npt.NDArray[np.uint8]
"""A BGR image, shape (height, width, 3)."""

XDEMINEUR = "/usr/games/xdemineur"
GNOME_MINES = "/usr/games/gnome-mines"

XDEMINEUR_ORIGIN = (15, 80)
"""Top-left pixel (the black grid line) of cell (0, 0) from the top-left of an xdemineur
window's inside (:meth:`GameWindow.rect`); (16, 81) from the outer corner of its 1 px
X border, which a window manager removes."""
XDEMINEUR_PITCH = 21
"""xdemineur's cell pitch in pixels."""
XDEMINEUR_MIN_COLS = 12

GNOME_PRESETS: dict[tuple[int, int, int], str] = {
    (8, 8, 10): "--small",
    (16, 16, 40): "--medium",
    (30, 16, 99): "--big",
}
"""gnome-mines' command-line presets, keyed by (cols, rows, mines)."""

_DBUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir={dir}</listen>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


class LaunchError(RuntimeError):
    """A program needed for the virtual display or a game could not be started."""


def missing_programs(*names: str) -> list[str]:
    """The programs among ``names`` that are not installed (path or PATH name).

    >>> missing_programs("sh", "/no/such/program")
    ['/no/such/program']
    """
    return [n for n in names if shutil.which(n) is None]


def _stop(proc: subprocess.Popen[bytes], timeout: float = 3.0) -> None:
    """Terminate one child by its PID, killing it if it does not exit in time."""
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout)


def _read_line(fd: int, timeout: float, what: str) -> str:
    """Read one newline-terminated line from a pipe, failing after ``timeout`` s."""
    import select

    data = b""
    deadline = time.monotonic() + timeout
    while not data.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise LaunchError(f"{what} did not report in {timeout:.0f} s")
        chunk = os.read(fd, 256)
        if not chunk:
            raise LaunchError(f"{what} exited before reporting")
        data += chunk
    return data.decode().strip()


class VirtualDisplay:
    """A private Xvfb display with its own D-Bus session and settings directory.

    ``.display`` is ":N", ``.env`` the environment for programs on it,
    ``.tmpdir`` a private temporary directory removed on exit.
    """

    def __init__(self, width: int = 1920, height: int = 1080, window_manager: bool = False,
                 timeout: float = 10.0) -> None:
        self.width, self.height = width, height
        self.window_manager = window_manager
        self.timeout = timeout
        self.display = ""
        self.env: dict[str, str] = {}
        self.tmpdir = Path()
        self._procs: list[subprocess.Popen[bytes]] = []
        self._stderr: dict[int, Path] = {}  # pid: what the program wrote to stderr
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self._grabber: mss.base.MSSBase | None = None
        self._x11: Xlib.display.Display | None = None

    def __enter__(self) -> VirtualDisplay:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def start(self) -> None:
        """Start Xvfb, then a D-Bus session, then (optionally) openbox."""
        needed = ["Xvfb", "dbus-daemon", "xdotool"] + (["openbox"] if self.window_manager else [])
        if missing := missing_programs(*needed):
            raise LaunchError(f"missing programs: {', '.join(missing)}")
        self._tmp = tempfile.TemporaryDirectory(prefix="sweepbot-vd-")
        self.tmpdir = Path(self._tmp.name)
        self.display = self._start_xvfb()
        bus = self.new_bus()
        self.env = self._child_env(bus)
        if self.window_manager:
            self.spawn(["openbox", "--sm-disable"])
            time.sleep(0.3)

    def _start_xvfb(self) -> str:
        read_fd, write_fd = os.pipe()
        try:
            cmd = ["Xvfb", "-displayfd", str(write_fd), "-screen", "0",
                   f"{self.width}x{self.height}x24", "-nolisten", "tcp", "-noreset", "-dpi", "96"]
            self._procs.append(subprocess.Popen(cmd, pass_fds=(write_fd,),
                                                stdout=subprocess.DEVNULL,
                                                stderr=subprocess.DEVNULL))
            os.close(write_fd)
            write_fd = -1
            return ":" + _read_line(read_fd, self.timeout, "Xvfb")
        finally:
            os.close(read_fd)
            if write_fd >= 0:
                os.close(write_fd)

    def new_bus(self) -> str:
        """Start one more private D-Bus session (stopped on exit); its address.
        GTK games are single-instance per bus: each gnome-mines gets its own."""
        folder = Path(tempfile.mkdtemp(prefix="bus-", dir=self.tmpdir))
        config = folder / "dbus.conf"
        config.write_text(_DBUS_CONFIG.format(dir=folder))
        proc = subprocess.Popen(["dbus-daemon", f"--config-file={config}", "--nofork",
                                 "--print-address"], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL)
        self._procs.append(proc)
        assert proc.stdout is not None
        return _read_line(proc.stdout.fileno(), self.timeout, "dbus-daemon")

    def _child_env(self, bus: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("DBUS_", "XDG_", "WAYLAND", "GTK_", "GDK_"))}
        config = self.tmpdir / "config"
        config.mkdir(exist_ok=True)
        env.update(DISPLAY=self.display, DBUS_SESSION_BUS_ADDRESS=bus,
                   GSETTINGS_BACKEND="keyfile", XDG_CONFIG_HOME=str(config),
                   XDG_DATA_HOME=str(self.tmpdir / "data"),
                   XDG_CACHE_HOME=str(self.tmpdir / "cache"),
                   XDG_RUNTIME_DIR=str(self.tmpdir), GDK_BACKEND="x11", NO_AT_BRIDGE="1",
                   GTK_A11Y="none", LC_ALL="C.UTF-8")
        return env

    def spawn(self, cmd: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        """Start a program on this display; it is stopped (by PID) on exit. What it
        writes to stderr is kept, to say why it ended (:meth:`ended`)."""
        fd, log = tempfile.mkstemp(prefix="stderr-", suffix=".log", dir=self.tmpdir)
        with os.fdopen(fd, "wb") as err:
            proc = subprocess.Popen(cmd, env=env or self.env, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=err)
        self._procs.append(proc)
        self._stderr[proc.pid] = Path(log)
        return proc

    def ended(self, proc: subprocess.Popen[bytes], when: str, lines: int = 4) -> str:
        """Why ``proc`` (started by :meth:`spawn`) ended ``when``, for an error: its
        exit code and the last ``lines`` lines it wrote to stderr (a Qt program that
        lacks a library of its xcb plugin says so there, and exits with -6)."""
        said = ""
        log = self._stderr.get(proc.pid)
        if log is not None and log.exists():
            tail = log.read_text(errors="replace").strip().splitlines()[-lines:]
            said = ": " + " | ".join(line.strip() for line in tail) if tail else ""
        name = Path(str(proc.args[0] if isinstance(proc.args, list) else proc.args)).name
        return f"{name} (pid {proc.pid}) exited with code {proc.returncode} {when}{said}"

    def screenshot(self, region: tuple[int, int, int, int] | None = None) -> Image:
        """The full screen (or ``region`` = (left, top, width, height)) as BGR."""
        if self._grabber is None:
            factory = getattr(mss, "MSS", None) or mss.mss  # mss >= 10 renamed it
            self._grabber = factory(display=self.display)
        if region is None:
            monitor = self._grabber.monitors[1]
        else:
            left, top, width, height = region
            if left < 0 or top < 0 or width <= 0 or height <= 0 \
                    or left + width > self.width or top + height > self.height:
                raise ValueError(f"region {region} is not inside the "
                                 f"{self.width}x{self.height} screen")
            monitor = {"left": left, "top": top, "width": width, "height": height}
        shot = self._grabber.grab(monitor)
        raw = np.frombuffer(shot.raw, np.uint8).reshape(shot.height, shot.width, 4)
        return np.asarray(cv2.cvtColor(raw, cv2.COLOR_BGRA2BGR), np.uint8)  # fast, contiguous

    def x11(self) -> Xlib.display.Display:
        """This display's python-xlib connection (opened on first use) for XTEST input."""
        if self._x11 is None:
            import Xlib.display

            self._x11 = Xlib.display.Display(self.display)
        return self._x11

    def xdotool(self, *args: str) -> str:
        """Run xdotool on this display and return its stdout."""
        out = subprocess.run(["xdotool", *args], env=self.env, capture_output=True,
                             text=True, errors="replace", timeout=self.timeout)
        return out.stdout

    def close(self) -> None:
        """Stop every process this display started (newest first) and clean up."""
        if self._grabber is not None:
            self._grabber.close()
            self._grabber = None
        if self._x11 is not None:
            self._x11.close()
            self._x11 = None
        for proc in reversed(self._procs):
            _stop(proc)
        self._procs.clear()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None


_MODIFIERS = {"ctrl": "Control_L", "shift": "Shift_L", "alt": "Alt_L", "super": "Super_L"}


def move_pointer(vd: VirtualDisplay, x: int, y: int) -> None:
    """Move the pointer to screen point (x, y) (XTEST; returns once the server has it)."""
    from Xlib import X
    from Xlib.ext import xtest

    conn = vd.x11()
    xtest.fake_input(conn, X.MotionNotify, x=x, y=y)
    conn.sync()


def click(vd: VirtualDisplay, x: int, y: int, button: int = 1) -> None:
    """Click ``button`` (1 left, 2 middle, 3 right) at screen point (x, y)."""
    from Xlib import X
    from Xlib.ext import xtest

    conn = vd.x11()
    xtest.fake_input(conn, X.MotionNotify, x=x, y=y)
    xtest.fake_input(conn, X.ButtonPress, button)
    xtest.fake_input(conn, X.ButtonRelease, button)
    conn.sync()


def _keycodes(conn: object, combo: str) -> list[int]:
    from Xlib import XK

    codes = []
    for part in combo.split("+"):
        sym = XK.string_to_keysym(_MODIFIERS.get(part.lower(), part))
        code = conn.keysym_to_keycode(sym) if sym else 0  # type: ignore[attr-defined]
        if not code:
            raise ValueError(f"unknown key name {part!r} in {combo!r}")
        codes.append(code)
    return codes


def key(vd: VirtualDisplay, *keys: str, pause: float = 0.02) -> None:
    """Press and release keys in order (X keysym names, "Tab", "space", "ctrl+n")."""
    from Xlib import X
    from Xlib.ext import xtest

    conn = vd.x11()
    for combo in keys:
        codes = _keycodes(conn, combo)
        for code in codes:
            xtest.fake_input(conn, X.KeyPress, code)
        for code in reversed(codes):
            xtest.fake_input(conn, X.KeyRelease, code)
        conn.sync()
        time.sleep(pause)


def visible_windows(vd: VirtualDisplay, name: str = ".") -> list[int]:
    """Ids of mapped windows whose title matches the regular expression ``name``."""
    out = vd.xdotool("search", "--onlyvisible", "--name", name)
    return [int(w) for w in out.split()]


@dataclass
class GameWindow:
    """A running game: its process, top-level window id and kind ("xdemineur", ...)."""

    vd: VirtualDisplay
    proc: subprocess.Popen[bytes]
    wid: int
    kind: str

    def rect(self) -> tuple[int, int, int, int]:
        """The window's inside (left, top, width, height) on the screen, in screen
        points: without its X border and without any window manager's frame."""
        from Xlib.error import XError

        conn = self.vd.x11()
        try:
            window = conn.create_resource_object("window", self.wid)
            geometry = window.get_geometry()
            origin = conn.screen().root.translate_coords(window, 0, 0)
        except XError as exc:
            raise LaunchError(f"window {self.wid} has gone") from exc
        return int(origin.x), int(origin.y), int(geometry.width), int(geometry.height)

    def move(self, x: int, y: int, timeout: float = 3.0) -> None:
        """Move the window to (x, y) and wait until it has settled there. With no
        window manager the window lands exactly at (x, y); a window manager places
        its frame there, so the window itself ends up offset by the decoration."""
        self.vd.xdotool("windowmove", str(self.wid), str(x), str(y))
        last = None

        def settled() -> bool:
            nonlocal last
            now = self.rect()[:2]
            done = now == last and abs(now[0] - x) <= 64 and abs(now[1] - y) <= 64
            last = now
            return done
        _wait_for(settled, timeout, f"window move to {x},{y}")

    def screenshot(self, margin: int = 0) -> Image:
        """The window (plus ``margin`` pixels around, clipped to the screen) as BGR."""
        left, top, width, height = self.rect()
        l0, t0 = max(0, left - margin), max(0, top - margin)
        r0 = min(self.vd.width, left + width + margin)
        b0 = min(self.vd.height, top + height + margin)
        return self.vd.screenshot((l0, t0, r0 - l0, b0 - t0))

    def close(self) -> None:
        """Stop the game process."""
        _stop(self.proc)


def _wait_for(cond: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if callable(cond) and cond():
            return
        if time.monotonic() > deadline:
            raise LaunchError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.05)


def wait_for_window(vd: VirtualDisplay, proc: subprocess.Popen[bytes], name: str,
                    before: set[int], timeout: float = 10.0) -> int:
    """Wait until a new mapped window titled ``name`` (regex) appears; its id."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise LaunchError(vd.ended(proc, f"before mapping a window titled {name!r}"))
        new = [w for w in visible_windows(vd, name) if w not in before]
        if new:
            return min(new)
        time.sleep(0.05)
    raise LaunchError(f"no window titled {name!r} appeared within {timeout:.0f} s")


def launch_xdemineur(vd: VirtualDisplay, cols: int, rows: int, mines: int,
                     timeout: float = 10.0) -> GameWindow:
    """Start xdemineur with a cols x rows board (cols >= 12) and wait for its window."""
    if cols < XDEMINEUR_MIN_COLS:
        raise ValueError(f"xdemineur needs at least {XDEMINEUR_MIN_COLS} columns, got {cols}")
    if missing := missing_programs(XDEMINEUR):
        raise LaunchError(f"missing programs: {', '.join(missing)}")
    before = set(visible_windows(vd, "mineur"))
    proc = vd.spawn([XDEMINEUR, "-geometry", f"{cols}x{rows}", "-m", str(mines)])
    wid = wait_for_window(vd, proc, "mineur", before, timeout)
    time.sleep(0.2)  # first expose
    return GameWindow(vd, proc, wid, "xdemineur")


def gnome_keyfile(cols: int, rows: int, mines: int, width: int, height: int,
                  mode: int, theme: str | None = None) -> str:
    """The gnome-mines settings keyfile for one launch; ``theme`` names a folder of
    /usr/share/gnome-mines/themes (None: the schema's default, 'bgcolors').

    >>> print(gnome_keyfile(9, 9, 10, 600, 420, 3).splitlines()[1])
    mode=3
    >>> gnome_keyfile(9, 9, 10, 600, 420, 3, "classic").splitlines()[-1]
    "theme='classic'"
    """
    return (
        "[org/gnome/Mines]\n"
        f"mode={mode}\nxsize={cols}\nysize={rows}\nnmines={mines}\n"
        f"window-width={width}\nwindow-height={height}\n"
        "window-is-maximized=false\nuse-animations=false\nuse-question-marks=true\n"
        + (f"theme='{theme}'\n" if theme else "")
    )


def launch_gnome_mines(vd: VirtualDisplay, cols: int, rows: int, mines: int,
                       width: int = 600, height: int = 400,
                       timeout: float = 15.0, theme: str | None = None) -> GameWindow:
    """Start gnome-mines with its own settings (and its own D-Bus session); presets by
    flag, any other size via the size screen (Custom, then Play Game) driven from the
    keyboard. Returns once covered tiles are on the screen. The pointer is left where
    it was: move it off the board before reading (the tile under it is highlighted)."""
    if missing := missing_programs(GNOME_MINES):
        raise LaunchError(f"missing programs: {', '.join(missing)}")
    preset = GNOME_PRESETS.get((cols, rows, mines))
    config = Path(tempfile.mkdtemp(prefix="mines-", dir=vd.tmpdir))
    keyfile = config / "glib-2.0" / "settings" / "keyfile"
    keyfile.parent.mkdir(parents=True)
    keyfile.write_text(gnome_keyfile(cols, rows, mines, width, height, 0 if preset else 3,
                                  theme))
    env = {**vd.env, "XDG_CONFIG_HOME": str(config), "DBUS_SESSION_BUS_ADDRESS": vd.new_bus()}
    before = set(visible_windows(vd, "Mines"))
    proc = vd.spawn([GNOME_MINES, *([preset] if preset else [])], env=env)
    wid = wait_for_window(vd, proc, "^Mines$", before, timeout)
    game = GameWindow(vd, proc, wid, "gnome-mines")
    if not preset:
        _wait_for(lambda: game.rect()[2] > 1, timeout, "the gnome-mines window")
        time.sleep(0.3)  # the size screen takes keys only once it is drawn
        _choose_custom_size(game)
    _wait_for(lambda: _covered_pixels(game) > 1000, timeout, "the gnome-mines board")
    return game


GNOME_COVERED_BGR = (182, 189, 186)
"""gnome-mines' covered tile colour #babdb6, in BGR."""


def _covered_pixels(game: GameWindow) -> int:
    """How many pixels of the window show gnome-mines' covered-tile colour."""
    return int(np.all(game.screenshot() == GNOME_COVERED_BGR, axis=2).sum())


def _choose_custom_size(game: GameWindow) -> None:
    """On the size screen: Custom (Tab x3, space), then Play Game (Tab x4, space)."""
    vd = game.vd
    vd.xdotool("windowfocus", str(game.wid))
    time.sleep(0.1)
    key(vd, "Tab", "Tab", "Tab", "space")
    time.sleep(0.4)
    key(vd, "Tab", "Tab", "Tab", "Tab", "space")


def _timed(label: str, fn: object, repeat: int = 1) -> object:
    start = time.perf_counter()
    for _ in range(repeat):
        result = fn() if callable(fn) else None
    print(f"{label}: {(time.perf_counter() - start) / repeat * 1000:.1f} ms")
    return result


def measure() -> None:
    """Print how long the launcher's steps take here (``python -m bot.realgames``)."""
    vd = _timed("start display (Xvfb + dbus)", VirtualDisplay().__enter__)
    assert isinstance(vd, VirtualDisplay)
    try:
        xd = _timed("launch xdemineur 30x16 (until mapped)",
                    lambda: launch_xdemineur(vd, 30, 16, 99))
        _timed("launch gnome-mines --medium (until mapped)",
               lambda: launch_gnome_mines(vd, 16, 16, 40, 800, 700))
        _timed("launch gnome-mines custom 9x9 (incl. size screen)",
               lambda: launch_gnome_mines(vd, 9, 9, 10, 600, 420))
        _timed("screenshot 1920x1080 (BGR array)", vd.screenshot, 50)
        _timed("screenshot 640x440 region", lambda: vd.screenshot((0, 0, 640, 440)), 200)
        _timed("click (XTEST, synced)", lambda: click(vd, 1900, 1000, 3), 200)
        assert isinstance(xd, GameWindow)
        _timed("window rect", xd.rect, 200)
    finally:
        vd.close()


if __name__ == "__main__":
    measure()
