"""Start Windows Minesweeper programs under wine on a :class:`bot.realgames.VirtualDisplay`.

The program is WineMine, the Win32 Minesweeper that ships inside Debian's ``wine``
package (``winemine.exe``; ReactOS's ``winmine`` is the same code with grey bitmaps):
16 px squares with a bevel, LED mine and time counters, a face button, first click
always safe, F2 or the face for a new game, right click cycles flag / question / none.
Any other Windows Minesweeper that keeps its settings in ``HKCU\\Software\\Microsoft\\
WinMine`` (``Width``, ``Height``, ``Mines``, ``Difficulty``: Windows XP's ``winmine.exe``
and ReactOS's do) can be passed as ``exe``.

A wine prefix is made on first use under ``~/.cache/sweepbot/wine`` (about 15 s, once;
``SWEEPBOT_WINEPREFIX`` overrides the place); the board size goes into its registry
before every start.

Example (needs Xvfb and wine)::

    with VirtualDisplay() as vd:
        game = launch_winmine(vd, 16, 16, 40)
        image = game.screenshot()
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

from bot.realgames import (
    GameWindow,
    LaunchError,
    VirtualDisplay,
    missing_programs,
    visible_windows,
    wait_for_window,
)

WINMINE_KEY = r"HKEY_CURRENT_USER\Software\Microsoft\WinMine"
WINMINE_LEVELS: dict[tuple[int, int, int], int] = {(9, 9, 10): 0, (16, 16, 40): 1,
                                                   (30, 16, 99): 2}
"""The three built-in levels' ``Difficulty`` values, keyed by (cols, rows, mines);
any other size is 3 (custom)."""
WINMINE_LIMITS = (9, 30, 9, 24)
"""WineMine's (min cols, max cols, min rows, max rows); it clamps other sizes."""
_WINE_ENV = {"WINEDEBUG": "-all", "WINEDLLOVERRIDES": "mscoree,mshtml="}
# (no Mono / Gecko install dialogs; no debug chatter)


def winmine_registry(cols: int, rows: int, mines: int, marks: bool = True,
                     record_dialogs: bool = False) -> str:
    """The ``.reg`` text that sets WinMine's board (window at 0, 0). Unless
    ``record_dialogs``, the best times are set to 0 s so that no win beats them: a
    win that beats one opens a modal "enter your name" dialog, then a best-times
    dialog, over the game (at the three built-in levels; Windows' own Minesweeper
    does the same), and no click on the face starts a new game until they are closed.

    >>> print(winmine_registry(16, 16, 40).splitlines()[3])
    "Difficulty"=dword:00000001
    >>> '"Width"=dword:0000001e' in winmine_registry(30, 16, 99)
    True
    """
    level = WINMINE_LEVELS.get((cols, rows, mines), 3)
    values = {"Difficulty": level, "Width": cols, "Height": rows, "Mines": mines,
              "Mark": int(marks), "Xpos": 0, "Ypos": 0}
    if not record_dialogs:
        values.update(Time1=0, Time2=0, Time3=0)
    lines = ["REGEDIT4", "", f"[{WINMINE_KEY}]"]
    lines += [f'"{k}"=dword:{v:08x}' for k, v in values.items()]
    return "\n".join(lines) + "\n"


def check_winmine_size(cols: int, rows: int, mines: int) -> None:
    """Raise ValueError for a board WineMine would silently change.

    >>> check_winmine_size(16, 16, 40)
    >>> check_winmine_size(8, 8, 10)
    Traceback (most recent call last):
    ...
    ValueError: WineMine plays 9-30 x 9-24 squares, 10 to (cols-1)*(rows-1) mines: not 8x8/10
    """
    c0, c1, r0, r1 = WINMINE_LIMITS
    if not (c0 <= cols <= c1 and r0 <= rows <= r1 and 10 <= mines <= (cols - 1) * (rows - 1)):
        raise ValueError(f"WineMine plays {c0}-{c1} x {r0}-{r1} squares, 10 to "
                         f"(cols-1)*(rows-1) mines: not {cols}x{rows}/{mines}")


def wine_prefix() -> Path:
    """Where the wine prefix lives (``SWEEPBOT_WINEPREFIX`` or the user's cache)."""
    if path := os.environ.get("SWEEPBOT_WINEPREFIX"):
        return Path(path)
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "sweepbot" / "wine"


def wine_env(vd: VirtualDisplay, prefix: Path) -> dict[str, str]:
    """The environment for wine programs on ``vd`` with ``prefix``."""
    return {**vd.env, **_WINE_ENV, "WINEPREFIX": str(prefix)}


def ensure_prefix(vd: VirtualDisplay, prefix: Path, timeout: float = 180.0) -> None:
    """Make the wine prefix if it is not there yet (``wineboot -i``, once)."""
    if (prefix / "system.reg").exists():
        return
    prefix.parent.mkdir(parents=True, exist_ok=True)
    try:
        subprocess.run(["wineboot", "-i"], env=wine_env(vd, prefix), timeout=timeout,
                       stdin=subprocess.DEVNULL, capture_output=True, check=True)
        subprocess.run(["wineserver", "-w"], env=wine_env(vd, prefix), timeout=timeout,
                       capture_output=True)
    except (subprocess.SubprocessError, OSError) as exc:
        shutil.rmtree(prefix, ignore_errors=True)
        raise LaunchError(f"could not make a wine prefix in {prefix}: {exc}") from exc
    if not (prefix / "system.reg").exists():
        raise LaunchError(f"wineboot made no prefix in {prefix}")


def set_registry(vd: VirtualDisplay, prefix: Path, text: str, timeout: float = 60.0) -> None:
    """Import ``.reg`` text into the prefix's registry (``wine regedit /S``)."""
    reg = vd.tmpdir / "sweepbot-winmine.reg"
    reg.write_text(text)
    out = subprocess.run(["wine", "regedit", "/S", str(reg)], env=wine_env(vd, prefix),
                         timeout=timeout, stdin=subprocess.DEVNULL, capture_output=True)
    if out.returncode != 0:
        raise LaunchError(f"wine regedit failed with code {out.returncode}")


def launch_winmine(vd: VirtualDisplay, cols: int, rows: int, mines: int,
                   exe: str = "winemine", marks: bool = True,
                   record_dialogs: bool = False, timeout: float = 30.0) -> GameWindow:
    """Start a Windows Minesweeper (``exe``: wine's WineMine by default, or the path of
    a ``winmine.exe``) with a cols x rows board and wait until its window is drawn.
    ``marks``: right click offers question marks (the program's default);
    ``record_dialogs``: see :func:`winmine_registry`."""
    check_winmine_size(cols, rows, mines)
    if missing := missing_programs("wine", "wineboot", "wineserver"):
        raise LaunchError(f"missing programs: {', '.join(missing)} (apt: wine)")
    if exe != "winemine" and not Path(exe).is_file():
        raise LaunchError(f"no such program: {exe}")
    prefix = wine_prefix()
    ensure_prefix(vd, prefix)
    set_registry(vd, prefix, winmine_registry(cols, rows, mines, marks, record_dialogs))
    before = set(visible_windows(vd, "[Mm]ine"))
    proc = vd.spawn(["wine", exe], env=wine_env(vd, prefix))
    wid = wait_for_window(vd, proc, "[Mm]ine", before, timeout)
    time.sleep(0.8)  # the board is painted after mapping
    return GameWindow(vd, proc, wid, "winmine")


def set_desktop_colour(vd: VirtualDisplay, rgb: tuple[int, int, int]) -> None:
    """Paint the display's root window (the desktop around the windows) one colour.
    Xvfb's desktop is black, and so is WineMine's opened empty square: a desktop
    of another colour is what most users have."""
    conn = vd.x11()
    root = conn.screen().root
    r, g, b = rgb
    pixel = conn.screen().default_colormap.alloc_color(r * 257, g * 257, b * 257).pixel
    root.change_attributes(background_pixel=pixel)
    root.clear_area(0, 0, 0, 0)
    conn.sync()
