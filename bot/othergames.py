"""Start more Minesweeper programs on a :class:`bot.realgames.VirtualDisplay`: games the
reader has no shipped skin for, used to try ``sweepbot calibrate`` as a new user would
(``benchmarks/unseen_games.py``, ``tests/bot/test_other_games.py``).

- ``sgt-mines`` (Simon Tatham's Portable Puzzle Collection, apt ``sgt-puzzles``, GTK3):
  size and mines from a parameter string ``COLSxROWSnMINES``, tile size from the
  environment variable ``MINES_TILESIZE``. Boards are generated solvable and the first
  click always opens an area. New game: the ``n`` key. No question marks.
- ``xbomb`` (apt ``xbomb``, Xaw): ``-square`` grid at level 1/2/3 (8x8/10, 16x16/40,
  30x16/99). New game: its Restart button or the ``s`` key.
- ``kmines`` (KDE, apt ``kmines``, Qt): a level of :data:`KMINES_LEVELS` (Easy 9x9/10
  by default) and a theme of ``/usr/share/kmines/themes`` (:data:`KMINES_THEMES`), with
  private settings (``kminesrc``: ``[KgDifficulty] Level``, ``[KgTheme] Theme=
  themes/NAME.desktop``); the Qt plugin path opencv-python puts in the environment is
  removed, or kmines finds no platform plugin. New game: the New button, or F2 / ctrl+n.
- ``ace-minesweeper`` (the Ace of Penguins, apt ``ace-of-penguins``, Xlib): four levels
  chosen by the keys 1-4 (:data:`ACE_LEVELS`). New game: the penguin or F2.
- ``freesweep`` (apt ``freesweep``, ncurses) in an ``xterm`` (apt ``xterm``): any size,
  from a private ``~/.sweeprc`` (:func:`sweeprc`; ``-m`` alone loses to the global
  ``percent=20`` of ``/etc/sweeprc``). Squares are three character cells wide (`` - ``
  covered). It plays by keyboard only: it asks ncurses for mouse events (``mousemask``,
  so xterm reports clicks) but never reads them (no ``getmouse``), so clicks do nothing.
  New game: the ``n`` key; a loss ("BOOM!") or a win waits for a key first.
- ``pygame-minesweeper`` (PyPI ``pygame-minesweeper``, Andreas Isnes, MIT, pygame): not
  ours and not in Debian; pip installs it (and pygame) into a folder under the temporary
  directory the first time (:func:`install_pygame_minesweeper`), nothing of it is kept in
  this repository. Any size (``custom --rows --cols --mines``), 16 px squares drawn from
  one of its tile sheets (:data:`PGMS_TILE_SHEETS`, Windows 2000's by default). The first
  click opens a zero (no mine in its 3x3); no chording; a right click cycles flag,
  question mark, covered. A loss shows every mine, the hit one on red, wrong flags
  crossed; a win shows nothing on the board. The face (dead, sunglasses) starts a new game.
- the built-in demo window (:mod:`bot.tkgame`), any size.

Every process is started through the display and stopped with it (by PID).

Example (needs Xvfb and sgt-puzzles)::

    with VirtualDisplay() as vd:
        game = launch_sgt_mines(vd, 9, 9, 10)
        image = game.screenshot()
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bot.realgames import (
    GameWindow,
    LaunchError,
    VirtualDisplay,
    key,
    missing_programs,
    move_pointer,
    visible_windows,
    wait_for_window,
)
from solver.game import BoardSize

SGT_MINES = "/usr/games/sgt-mines"
XBOMB = "/usr/games/xbomb"
KMINES = "/usr/games/kmines"
XBOMB_LEVELS: dict[tuple[int, int, int], int] = {(8, 8, 10): 1, (16, 16, 40): 2,
                                                  (30, 16, 99): 3}
"""xbomb's three levels, keyed by (cols, rows, mines)."""


def sgt_params(cols: int, rows: int, mines: int) -> str:
    """sgt-mines' parameter string for a board.

    >>> sgt_params(16, 9, 20)
    '16x9n20'
    """
    return f"{cols}x{rows}n{mines}"


def launch_sgt_mines(vd: VirtualDisplay, cols: int, rows: int, mines: int,
                     tile: int | None = None, timeout: float = 15.0) -> GameWindow:
    """Start sgt-mines with a cols x rows board (``tile``: its tile size in pixels) and
    wait until its window is drawn."""
    if missing := missing_programs(SGT_MINES):
        raise LaunchError(f"missing programs: {', '.join(missing)} (apt: sgt-puzzles)")
    env = {**vd.env, "DBUS_SESSION_BUS_ADDRESS": vd.new_bus()}
    if tile is not None:
        env["MINES_TILESIZE"] = str(tile)
    before = set(visible_windows(vd, "Mines"))
    proc = vd.spawn([SGT_MINES, sgt_params(cols, rows, mines)], env=env)
    wid = wait_for_window(vd, proc, "^Mines$", before, timeout)
    time.sleep(0.6)  # GTK draws the puzzle after mapping
    return GameWindow(vd, proc, wid, "sgt-mines")


def launch_xbomb(vd: VirtualDisplay, cols: int, rows: int, mines: int,
                 timeout: float = 10.0) -> GameWindow:
    """Start xbomb with square tiles at the level of that size (one of
    :data:`XBOMB_LEVELS`)."""
    level = XBOMB_LEVELS.get((cols, rows, mines))
    if level is None:
        raise ValueError(f"xbomb plays only 8x8/10, 16x16/40 and 30x16/99, not "
                         f"{cols}x{rows}/{mines}")
    if missing := missing_programs(XBOMB):
        raise LaunchError(f"missing programs: {', '.join(missing)} (apt: xbomb)")
    before = set(visible_windows(vd, "XBomb"))
    proc = vd.spawn([XBOMB, "-square", f"-{level}"])
    wid = wait_for_window(vd, proc, "XBomb", before, timeout)
    time.sleep(0.4)
    return GameWindow(vd, proc, wid, "xbomb")


FREESWEEP = "/usr/games/freesweep"
XTERM = "xterm"
FREESWEEP_FONT = ("DejaVu Sans Mono", 14)
"""The xterm font for freesweep (``-fa``, ``-fs``): 11 x 23 px character cells on a
:class:`VirtualDisplay` (96 dpi), so squares (three cells) are 33 x 23 px."""


def sweeprc(cols: int, rows: int, mines: int) -> str:
    """freesweep's preferences (``~/.sweeprc``) for a board, with no beeps.

    >>> print(sweeprc(9, 9, 10), end="")
    height=9
    width=9
    mines=10
    alert=none
    """
    return f"height={rows}\nwidth={cols}\nmines={mines}\nalert=none\n"


def freesweep_terminal(cols: int, rows: int) -> tuple[int, int]:
    """An xterm size (columns, lines) that holds freesweep's whole board (three
    character cells a square, a border each side) beside its 22-column side panel,
    above its message line, so it never scrolls the board.

    >>> freesweep_terminal(9, 9)
    (80, 24)
    >>> freesweep_terminal(30, 16)
    (118, 24)
    """
    return max(80, 3 * cols + 2 + 26), max(24, rows + 8)


def launch_freesweep(vd: VirtualDisplay, cols: int, rows: int, mines: int,
                     font: tuple[str, int] = FREESWEEP_FONT,
                     timeout: float = 10.0) -> GameWindow:
    """Start freesweep in an xterm with a cols x rows board and ``mines`` mines, its
    preferences in a private HOME (the user's ``~/.sweeprc`` is never read)."""
    if missing := missing_programs(FREESWEEP, XTERM):
        raise LaunchError(f"missing programs: {', '.join(missing)} (apt: freesweep xterm)")
    home = Path(tempfile.mkdtemp(prefix="freesweep-", dir=vd.tmpdir))
    (home / ".sweeprc").write_text(sweeprc(cols, rows, mines))
    width, height = freesweep_terminal(cols, rows)
    title = f"freesweep-{home.name}"
    cmd = [XTERM, "-T", title, "-geometry", f"{width}x{height}+0+0", "-fa", font[0],
           "-fs", str(font[1]), "-e", FREESWEEP, "--fast"]
    before = set(visible_windows(vd, title))
    proc = vd.spawn(cmd, env={**vd.env, "HOME": str(home), "TERM": "xterm"})
    wid = wait_for_window(vd, proc, f"^{title}$", before, timeout)
    time.sleep(0.8)  # freesweep draws after the terminal maps
    return GameWindow(vd, proc, wid, "freesweep")


def launch_tkgame(vd: VirtualDisplay, size: BoardSize, log: Path | None = None,
                  seed: int | None = None, timeout: float = 15.0) -> GameWindow:
    """Start the built-in demo window (``python -m bot.tkgame``); ``log`` receives one
    JSON line per finished game (the true outcome)."""
    root = str(Path(__file__).resolve().parent.parent)
    cmd = [sys.executable, "-m", "bot.tkgame", "--size",
           f"{size.cols}x{size.rows}/{size.mines}"]
    if log is not None:
        cmd += ["--log", str(log)]
    if seed is not None:
        cmd += ["--seed", str(seed)]
    env = {**vd.env, "PYTHONPATH": os.pathsep.join(filter(None, [root,
                                                                  vd.env.get("PYTHONPATH")]))}
    before = set(visible_windows(vd, "sweepbot demo"))
    proc = vd.spawn(cmd, env=env)
    wid = wait_for_window(vd, proc, "sweepbot demo", before, timeout)
    time.sleep(0.4)
    return GameWindow(vd, proc, wid, "tkgame")


KMINES_LEVELS: dict[tuple[int, int, int], str] = {(9, 9, 10): "Easy", (16, 16, 40): "Medium",
                                                  (30, 16, 99): "Hard"}
"""kmines' levels (its ``[KgDifficulty] Level``), keyed by (cols, rows, mines)."""
KMINES_THEMES = ("default", "classic", "green", "graveyard-mayhem")
"""kmines' themes (``/usr/share/kmines/themes/NAME.desktop``)."""


def kmines_settings(level: str = "Easy", theme: str = "default") -> str:
    """kmines' ``kminesrc`` for a level and a theme.

    >>> print(kmines_settings("Medium", "green"), end="")
    [KgDifficulty]
    Level=Medium
    [KgTheme]
    Theme=themes/green.desktop
    """
    return f"[KgDifficulty]\nLevel={level}\n[KgTheme]\nTheme=themes/{theme}.desktop\n"


def launch_kmines(vd: VirtualDisplay, timeout: float = 20.0, level: str = "Easy",
                  theme: str = "default") -> GameWindow:
    """Start kmines (``level``: one of :data:`KMINES_LEVELS`' names; ``theme``: one of
    :data:`KMINES_THEMES`) with its own settings and D-Bus session."""
    if missing := missing_programs(KMINES):
        raise LaunchError(f"missing programs: {', '.join(missing)} (apt: kmines)")
    if theme not in KMINES_THEMES:
        raise ValueError(f"kmines has no theme {theme!r} (one of {', '.join(KMINES_THEMES)})")
    (Path(vd.env["XDG_CONFIG_HOME"]) / "kminesrc").write_text(kmines_settings(level, theme))
    env = {k: v for k, v in vd.env.items() if not k.startswith("QT_")}
    env.update(QT_QPA_PLATFORM="xcb", DBUS_SESSION_BUS_ADDRESS=vd.new_bus())
    proc = vd.spawn([KMINES], env=env)
    deadline = time.monotonic() + timeout
    while not (found := vd.xdotool("search", "--onlyvisible", "--class", "kmines").split()):
        # (by class: xdotool's title search misses the window Qt maps)
        if proc.poll() is not None:
            raise LaunchError(vd.ended(proc, "before opening its window"))
        if time.monotonic() > deadline:
            raise LaunchError("kmines did not open its window")
        time.sleep(0.1)
    time.sleep(1.5)  # Qt Quick draws the board after mapping
    return GameWindow(vd, proc, int(found[0]), "kmines")


ACE_MINESWEEPER = "/usr/games/ace-minesweeper"
ACE_LEVELS: dict[tuple[int, int, int], str] = {(8, 8, 6): "1", (11, 11, 20): "2",
                                                (16, 16, 45): "3", (32, 32, 200): "4"}
"""ace-minesweeper's four skill levels (its keys 1-4), keyed by (cols, rows, mines). Its
window stays 401x427, so the squares shrink as the board grows (48, 36, 24, 12 px);
it starts at level 4 and keeps no settings."""


def launch_ace_minesweeper(vd: VirtualDisplay, cols: int, rows: int, mines: int,
                           timeout: float = 10.0) -> GameWindow:
    """Start the Ace of Penguins' minesweeper (apt ``ace-of-penguins``, plain Xlib) and
    choose the level of that size (one of :data:`ACE_LEVELS`) with its key, the pointer
    over the window (with no window manager the focus follows it)."""
    level = ACE_LEVELS.get((cols, rows, mines))
    if level is None:
        raise ValueError("ace-minesweeper plays only 8x8/6, 11x11/20, 16x16/45 and "
                         f"32x32/200, not {cols}x{rows}/{mines}")
    if missing := missing_programs(ACE_MINESWEEPER):
        raise LaunchError(f"missing programs: {', '.join(missing)} (apt: ace-of-penguins)")
    before = set(visible_windows(vd, "ace-minesweeper"))
    proc = vd.spawn([ACE_MINESWEEPER])
    wid = wait_for_window(vd, proc, "ace-minesweeper", before, timeout)
    time.sleep(0.4)
    game = GameWindow(vd, proc, wid, "ace-minesweeper")
    left, top, width, height = game.rect()
    move_pointer(vd, left + width // 2, top + height // 2)
    key(vd, level)
    move_pointer(vd, left + width // 2, min(vd.height - 1, top + height + 40))
    time.sleep(0.3)
    return game


CHROMIUM = "chromium"
WEBGAMES = Path(__file__).resolve().parent.parent / "benchmarks" / "webgames"


def webgame_url(page: str, rows: int, cols: int, mines: int, cell: int | None = None,
                more: str = "") -> str:
    """The ``file://`` address of a test page of ``benchmarks/webgames`` for a board
    (``cell``: its squares' side in CSS pixels, else the page's default; ``more``: more
    of the query, say ``edges=1``).

    >>> webgame_url("checkered.html", 14, 18, 40).endswith("?rows=14&cols=18&mines=40")
    True
    >>> webgame_url("checkered.html", 8, 10, 10, 45).endswith("&cell=45")
    True
    """
    query = f"?rows={rows}&cols={cols}&mines={mines}" + (f"&cell={cell}" if cell else "") \
        + (f"&{more}" if more else "")
    return (WEBGAMES / page).as_uri() + query


def launch_chromium(vd: VirtualDisplay, url: str, title: str, app: bool = True,
                    size: tuple[int, int] = (900, 760), timeout: float = 30.0) -> GameWindow:
    """Open ``url`` in Chromium (apt ``chromium``) with a private profile: ``app``, a
    window of the page alone (``--app``); else a normal window with its tab strip and
    address bar. Waits for a window whose title matches ``title`` (a regex, the page's
    title), then a second for the page to draw."""
    if missing := missing_programs(CHROMIUM):
        raise LaunchError(f"missing programs: {', '.join(missing)} (apt: chromium)")
    profile = Path(tempfile.mkdtemp(prefix="chromium-", dir=vd.tmpdir))
    cmd = [CHROMIUM, "--no-sandbox", f"--user-data-dir={profile}", "--no-first-run",
           "--no-default-browser-check", "--password-store=basic", "--disable-gpu",
           "--disable-features=Translate,MediaRouter", "--disable-background-networking",
           f"--window-size={size[0]},{size[1]}", "--window-position=0,0",
           f"--app={url}" if app else url]
    env = {**vd.env, "DBUS_SESSION_BUS_ADDRESS": vd.new_bus()}
    before = set(visible_windows(vd, title))
    proc = vd.spawn(cmd, env=env)
    wid = wait_for_window(vd, proc, title, before, timeout)
    time.sleep(1.0)
    return GameWindow(vd, proc, wid, "chromium")


PGMS_PACKAGE = "pygame-minesweeper==1.0.11"
"""The PyPI release :func:`launch_pygame_minesweeper` installs (it pulls pygame,
pygame-minesweeper-core and pygame-minesweeper-sprites)."""
PGMS_TILE_SHEETS = ("2000", "2.0", "2.9", "95", "fiorito-2000", "fiorito-monochrome",
                    "fiorito-xp", "monochrome")
"""pygame-minesweeper's tile sheets (its ``--tile-sprite``)."""
PGMS_FACE_SHEETS = ("2000", "monochrome")
"""Its face and counter sheets (``--face-sprite``, ``--score-sprite``)."""


def pgms_folder(package: str = PGMS_PACKAGE) -> Path:
    """Where :func:`install_pygame_minesweeper` puts ``package``: one folder per release
    under the temporary directory, so a second run installs nothing.

    >>> pgms_folder("pygame-minesweeper==1.0.11").name
    'sweepbot-pygame-minesweeper-1.0.11'
    """
    return Path(tempfile.gettempdir()) / f"sweepbot-{package.replace('==', '-')}"


def install_pygame_minesweeper(package: str = PGMS_PACKAGE, timeout: float = 600.0) -> Path:
    """pip-install ``package`` (with its dependencies) into :func:`pgms_folder` unless it
    is there already; the folder (for ``PYTHONPATH``). Raises :class:`LaunchError` when
    pip fails (no network, no such release)."""
    return pip_install_target(package, ("minesweeper/__main__.py", "pygame"), timeout)


def pip_install_target(package: str, ready: tuple[str, ...], timeout: float = 600.0) -> Path:
    """pip-install ``package`` (with its dependencies) into :func:`pgms_folder` (``pip
    install --target``, beside it first, then renamed) unless every path of ``ready``
    is there already; the folder (for ``PYTHONPATH``). Raises :class:`LaunchError` when
    pip fails (no network, no such release)."""
    target = pgms_folder(package)
    if all((target / path).exists() for path in ready):
        return target
    partial = Path(tempfile.mkdtemp(prefix=target.name + "-", dir=target.parent))
    out = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet",
                          "--disable-pip-version-check", "--target", str(partial), package],
                         capture_output=True, text=True, timeout=timeout)
    if out.returncode != 0:
        raise LaunchError(f"pip install {package} failed: {out.stderr.strip()[-400:]}")
    try:
        partial.rename(target)
    except OSError:  # another run installed it meanwhile
        pass
    return target


def pgms_command(cols: int, rows: int, mines: int, tiles: str = "2000",
                 faces: str = "2000") -> list[str]:
    """pygame-minesweeper's command line for a board (run with its folder on PYTHONPATH).

    >>> pgms_command(9, 9, 10, "2.0")[2:]
    ['custom', '--rows', '9', '--cols', '9', '--mines', '10', '--tile-sprite', '2.0', \
'--face-sprite', '2000', '--score-sprite', '2000']
    """
    if tiles not in PGMS_TILE_SHEETS:
        raise ValueError(f"pygame-minesweeper has no tile sheet {tiles!r} "
                         f"(one of {', '.join(PGMS_TILE_SHEETS)})")
    if faces not in PGMS_FACE_SHEETS:
        raise ValueError(f"pygame-minesweeper has no face sheet {faces!r} "
                         f"(one of {', '.join(PGMS_FACE_SHEETS)})")
    return ["-m", "minesweeper", "custom", "--rows", str(rows), "--cols", str(cols),
            "--mines", str(mines), "--tile-sprite", tiles, "--face-sprite", faces,
            "--score-sprite", faces]


def wait_for_pid_window(vd: VirtualDisplay, proc: subprocess.Popen[bytes],
                        timeout: float = 20.0, settle: float = 1.0) -> int:
    """The mapped window of ``proc`` (by its ``_NET_WM_PID``) once the set of its
    windows has stayed the same for ``settle`` seconds. For SDL 2's windows: their title
    is a ``WM_NAME`` of type UTF-8, which xdotool's title search cannot read, and a
    second ``set_mode`` may replace the first window (pygame-minesweeper opens a 10x10
    one, then its real one)."""
    deadline = time.monotonic() + timeout
    last: list[int] = []
    since = time.monotonic()
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise LaunchError(vd.ended(proc, "before mapping a window"))
        found = sorted(int(w) for w in
                       vd.xdotool("search", "--onlyvisible", "--pid", str(proc.pid)).split())
        if found != last:
            last, since = found, time.monotonic()
        elif found and time.monotonic() - since >= settle:
            return found[-1]
        time.sleep(0.05)
    raise LaunchError(f"process {proc.pid} mapped no window within {timeout:.0f} s")


def launch_pygame_minesweeper(vd: VirtualDisplay, cols: int, rows: int, mines: int,
                              tiles: str = "2000", faces: str = "2000",
                              timeout: float = 20.0) -> GameWindow:
    """Install (first time) and start pygame-minesweeper with a cols x rows board, its
    high scores in a private HOME, no sound device (SDL's dummy audio driver)."""
    folder = install_pygame_minesweeper()
    home = Path(tempfile.mkdtemp(prefix="pgms-", dir=vd.tmpdir))
    env = {**vd.env, "HOME": str(home), "PYTHONPATH": str(folder),
           "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    env.pop("XDG_DATA_HOME", None)  # appdirs: high scores under the private HOME
    proc = vd.spawn([sys.executable, *pgms_command(cols, rows, mines, tiles, faces)],
                    env=env)
    wid = wait_for_pid_window(vd, proc, timeout)
    time.sleep(0.8)  # pygame draws its first frame after mapping
    return GameWindow(vd, proc, wid, "pygame-minesweeper")


MINEGAULER_PACKAGE = "minegauler==4.2.0"
"""The PyPI release :func:`launch_minegauler` installs (it pulls PyQt6, its Qt 6 and
zig-minesolver, about 200 MB)."""
MINEGAULER_BOOT = """\
import faulthandler, os, pathlib, sys
home = pathlib.Path(sys.argv[1])
os.chdir(home)  # its runtime.log goes to the working directory
os.dup2(os.open("stderr.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND), 2)
faulthandler.enable()
import minegauler.app.paths as paths
paths.SETTINGS_FILE = home / "settings.cfg"
paths.HIGHSCORES_FILE = home / "highscores.db"
import minegauler.app.highscores as highscores
highscores._post_highscore_to_remote = lambda highscore: None
if "fix-scores-table" in sys.argv[2:]:
    from PyQt6.QtCore import QSize
    from PyQt6.QtWidgets import QTableView
    import minegauler.app.frontend.highscores as table
    def size_hint(self):  # the same, in whole pixels (it gave QSize a float: abort)
        width = QTableView.sizeHint(self).width()
        return QSize(width, int(width / 1.61))
    table.HighscoresTable.sizeHint = size_hint
if "no-scores-window" in sys.argv[2:]:
    highscores.is_highscore_new_best = lambda *args, **kwargs: None
from minegauler.app.__main__ import main
sys.exit(main())
"""
"""How :func:`launch_minegauler` starts minegauler (``python -c``, the private folder as
its argument): settings, high scores, its log and its stderr (``stderr.log``, with a
Python trace if it crashes) in that folder, not in the installed package (its own
default), and no win posted to its author's server (it posts every win at a standard
size by HTTP, as it does for any user). With ``fix-scores-table`` after the folder, its
high-scores table's ``sizeHint`` is mended: 4.2.0 passes ``QSize`` a float height, which
today's PyQt6 (6.11, Python 3.11) refuses, and an exception in a Qt virtual aborts the
process, so the game died at its first win at a standard size (8x8/10, 16x16/40,
30x16/99: a new best time opens that table). With ``no-scores-window``, no win is a new
best: that table never opens over the game (it still stores the scores)."""


def minegauler_settings(cols: int, rows: int, mines: int, cell: int = 16) -> str:
    """minegauler's ``settings.cfg`` (JSON) for a board: the classic game (one mine a
    square at most, one life, 8 neighbours, the first click opening an area, no drag
    select), its standard look, ``cell`` px squares (its "Button size").

    >>> import json
    >>> s = json.loads(minegauler_settings(30, 16, 99))
    >>> s["x_size"], s["y_size"], s["mines"], s["per_cell"], s["lives"], s["btn_size"]
    (30, 16, 99, 1, 1, 16)
    """
    return json.dumps({
        "x_size": cols, "y_size": rows, "mines": mines, "first_success": True,
        "per_cell": 1, "reach": 8, "lives": 1, "mode": "REGULAR", "btn_size": cell,
        "drag_select": False, "name": "",
        "styles": {"BUTTONS": "Standard", "NUMBERS": "Standard", "MARKERS": "Standard"},
    }, indent=2) + "\n"


def install_minegauler(package: str = MINEGAULER_PACKAGE, timeout: float = 900.0) -> Path:
    """pip-install minegauler (with PyQt6) into a folder under the temporary directory
    unless it is there already (:func:`pip_install_target`); the folder."""
    return pip_install_target(package, ("minegauler/app/__main__.py", "PyQt6/QtWidgets.abi3.so",
                                        "zig_minesolver"), timeout)


def launch_minegauler(vd: VirtualDisplay, cols: int, rows: int, mines: int, cell: int = 16,
                      fix_scores_table: bool = True, scores_window: bool = True,
                      timeout: float = 30.0) -> GameWindow:
    """Install (first time) and start minegauler with a cols x rows board and ``mines``
    mines (:func:`minegauler_settings`), its settings, high scores and log in a private
    folder (:data:`MINEGAULER_BOOT`), Qt on xcb; ``fix_scores_table``: mend the crash of
    its high-scores table (else it aborts at its first win at a standard size);
    ``scores_window``: let it open that table over the game at a win that is a new best
    (as it does for any user; every first win of a run at a standard size)."""
    folder = install_minegauler()
    home = Path(tempfile.mkdtemp(prefix="minegauler-", dir=vd.tmpdir))
    (home / "settings.cfg").write_text(minegauler_settings(cols, rows, mines, cell))
    env = {k: v for k, v in vd.env.items() if not k.startswith("QT_")}
    env.update(PYTHONPATH=str(folder), QT_QPA_PLATFORM="xcb", HOME=str(home))
    proc = vd.spawn([sys.executable, "-c", MINEGAULER_BOOT, str(home),
                     *(["fix-scores-table"] if fix_scores_table else []),
                     *([] if scores_window else ["no-scores-window"])], env=env)
    wid = wait_for_pid_window(vd, proc, timeout)
    time.sleep(0.8)  # Qt draws after mapping
    return GameWindow(vd, proc, wid, "minegauler")


def minegauler_outcomes(vd: VirtualDisplay) -> list[str]:
    """The outcomes (``won``/``lost``) of every game the minegaulers on ``vd`` finished,
    in order, from their own logs (``runtime.log``: "Game won", "Game lost"): the truth
    to hold sweepbot's count against."""
    outcomes = []
    for log in sorted(vd.tmpdir.glob("minegauler-*/runtime.log")):
        for line in log.read_text(errors="replace").splitlines():
            if line.endswith((" Game won", " Game lost")):
                outcomes.append(line.rsplit(" ", 1)[1])
    return outcomes
