"""Try ``sweepbot calibrate`` and ``sweepbot play`` on a game with no shipped skin, as a
new user would, on a private Xvfb display.

    python benchmarks/unseen_games.py --game sgt-mines --size 16x16/40 --play 10
    python benchmarks/unseen_games.py --game xbomb --size intermediate --play 10
    python benchmarks/unseen_games.py --game tkgame --size intermediate --play 10
    python benchmarks/unseen_games.py --game ace-minesweeper --size 16x16/45 --play 10
    python benchmarks/unseen_games.py --game web-checkered --size 18x14/40 --wm --play 10
    python benchmarks/unseen_games.py --game web-win7 --size 16x16/40 --wm --play 10
    python benchmarks/unseen_games.py --game web-online --size 16x16/40 --zoom 1.3 --wm --play 10
    python benchmarks/unseen_games.py --game freesweep --size 9x9/10 --play 10
    python benchmarks/unseen_games.py --game pygame-minesweeper --size 9x9/10 --play 10
    python benchmarks/unseen_games.py --game minegauler --size 16x16/40 --play 10
    python benchmarks/unseen_games.py --game npm-minesweeper-for-web --size 16x16/40 --wm
        --restart-at 200,82 --play 10 (one line)
    python benchmarks/unseen_games.py --game npm-react-minesweeper --size 16x16/40 --wm --play 10
    python benchmarks/unseen_games.py --game kmines --size intermediate --wm --play 3 --runs 3

``npm-*`` games are packages of the npm registry, installed with ``npm`` (first use) into
a folder under the temporary directory (:func:`npm_install_target`) and shown in Chromium
by a host page of ``benchmarks/webgames/npm/`` (its README says what each takes).

The shipped skins are out of sight (SWEEPBOT_TEMPLATES points to a fresh folder), so
calibrate starts from nothing and play uses only what calibrate learned. Both run as
separate ``python -m bot.cli`` processes with the display in DISPLAY; their output is
printed, then one JSON line per step (exit code, seconds, games won/lost, losses on
squares the solver rated safe).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.game import BoardSize  # noqa: E402

GAMES = ("sgt-mines", "xbomb", "kmines", "tkgame", "winmine", "ace-minesweeper",
         "web-checkered", "web-win7", "web-online", "freesweep", "pygame-minesweeper",
         "minegauler", *(f"npm-{name}" for name in ("minesweeper-for-web",
                                                      "react-minesweeper")))

NPM_GAMES = {  # game: (npm packages to install, a file that shows they are, square px)
    "npm-minesweeper-for-web": (("minesweeper-for-web@3.0.4",),
                                "minesweeper-for-web/dist/custom-element.js", 40),
    "npm-react-minesweeper": (("react-minesweeper@1.0.2", "react@16.14.0",
                               "react-dom@16.14.0"),
                              "react-minesweeper/lib/dist/Minesweeper.js", 30),
}
"""The npm games: the packages of each (its host page
``benchmarks/webgames/npm/NAME.html`` loads them from the folder's ``node_modules``)."""


def npm_window(size: BoardSize, square: int) -> tuple[int, int]:
    """A Chromium window that shows the whole board of an npm game's host page (the
    board starts about 150 px from the window's left and 210 px from its top).

    >>> npm_window(BoardSize(16, 16, 40), 30), npm_window(BoardSize(16, 30, 99), 30)
    ((820, 860), (1120, 860))
    """
    return max(820, square * size.cols + 220), max(860, square * size.rows + 300)


def npm_install_target(packages: tuple[str, ...], ready: str,
                       timeout: float = 600.0) -> Path:
    """``npm install`` ``packages`` into a folder of their own under the temporary
    directory (beside it first, then renamed) unless ``node_modules/<ready>`` is there
    already; the folder's ``node_modules``. Raises LaunchError when npm fails."""
    import re
    import shutil

    from bot.realgames import LaunchError

    name = "sweepbot-npm-" + re.sub(r"[^A-Za-z0-9.-]+", "-", packages[0]).strip("-")
    target = Path(tempfile.gettempdir()) / name
    if (target / "node_modules" / ready).exists():
        return target / "node_modules"
    if shutil.which("npm") is None:
        raise LaunchError("missing programs: npm (apt: npm)")
    partial = Path(tempfile.mkdtemp(prefix=name + "-", dir=target.parent))
    (partial / "package.json").write_text('{"name": "sweepbot-host", "private": true}\n')
    out = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--ignore-scripts",
                          "--prefix", str(partial), *packages],
                         capture_output=True, text=True, timeout=timeout)
    if out.returncode != 0 or not (partial / "node_modules" / ready).exists():
        raise LaunchError(f"npm install {' '.join(packages)} failed: "
                          f"{(out.stderr or out.stdout).strip()[-400:]}")
    try:
        partial.rename(target)
    except OSError:  # another run installed it meanwhile
        shutil.rmtree(partial, ignore_errors=True)
    return target / "node_modules"


def launch(vd: Any, game: str, size: BoardSize, tile: int | None, log: Path,
           theme: str | None = None, browser_tabs: bool = False, query: str = "",
           scores_window: bool = True) -> Any:
    from bot import othergames

    if game == "web-checkered":  # benchmarks/webgames/checkered.html in Chromium
        url = othergames.webgame_url("checkered.html", size.rows, size.cols, size.mines,
                                     tile, query)
        return othergames.launch_chromium(vd, url, "^Checkered", app=not browser_tabs)
    if game == "web-win7":  # benchmarks/webgames/win7.html: Windows 7's look, in Chromium
        url = othergames.webgame_url("win7.html", size.rows, size.cols, size.mines, tile,
                                     query)
        return othergames.launch_chromium(vd, url, "^Minesweeper", app=not browser_tabs)
    if game == "web-online":  # benchmarks/webgames/online.html: classic look, zoomed
        url = othergames.webgame_url("online.html", size.rows, size.cols, size.mines, None,
                                     query)
        return othergames.launch_chromium(vd, url, "^Minesweeper Online",
                                          app=not browser_tabs, size=online_window(size, query))
    if game in NPM_GAMES:  # an npm package on a host page of benchmarks/webgames/npm
        packages, ready, square = NPM_GAMES[game]
        lib = npm_install_target(packages, ready)
        more = "&".join(filter(None, [f"lib={lib.as_uri()}", query]))
        url = othergames.webgame_url(f"npm/{game[4:]}.html", size.rows, size.cols,
                                     size.mines, None, more)
        return othergames.launch_chromium(vd, url, f"^npm {game[4:]}",
                                          app=not browser_tabs,
                                          size=npm_window(size, square))
    if game == "sgt-mines":
        return othergames.launch_sgt_mines(vd, size.cols, size.rows, size.mines, tile)
    if game == "xbomb":
        return othergames.launch_xbomb(vd, size.cols, size.rows, size.mines)
    if game == "kmines":
        level = othergames.KMINES_LEVELS.get((size.cols, size.rows, size.mines))
        if level is None:
            raise ValueError("kmines plays only 9x9/10, 16x16/40 and 30x16/99")
        return othergames.launch_kmines(vd, level=level, theme=theme or "default")
    if game == "freesweep":  # ncurses, in an xterm (it takes no mouse clicks)
        return othergames.launch_freesweep(vd, size.cols, size.rows, size.mines)
    if game == "pygame-minesweeper":  # PyPI's, pip-installed under /tmp on first use
        return othergames.launch_pygame_minesweeper(vd, size.cols, size.rows, size.mines,
                                                    tiles=theme or "2000")
    if game == "minegauler":  # PyPI's (PyQt6), pip-installed under /tmp on first use
        return othergames.launch_minegauler(vd, size.cols, size.rows, size.mines,
                                            tile or 16, scores_window=scores_window)
    if game == "ace-minesweeper":
        return othergames.launch_ace_minesweeper(vd, size.cols, size.rows, size.mines)
    if game == "winmine":  # wine's WineMine (bot/winegames.py)
        from bot.winegames import launch_winmine

        return launch_winmine(vd, size.cols, size.rows, size.mines)
    return othergames.launch_tkgame(vd, size, log=log, seed=7)


def online_window(size: BoardSize, query: str) -> tuple[int, int]:
    """A Chromium window big enough for online.html's game at its ``zoom=`` (the page's
    frame is 24 + 16 * cols by 67 + 16 * rows pixels at zoom 1; its menu bar and side
    panel take about 260 by 70 more).

    >>> online_window(BoardSize(16, 30, 99), "zoom=2")
    (1300, 820)
    """
    zoom = 1.0
    for part in query.split("&"):
        if part.startswith("zoom="):
            zoom = float(part[5:])
    return (max(900, int((24 + 16 * size.cols) * zoom) + 292),
            max(760, int((67 + 16 * size.rows) * zoom) + 174))


def sweepbot(vd: Any, templates: Path, args: list[str], timeout: float) -> dict[str, Any]:
    """Run one sweepbot command on the display; exit code, seconds, output."""
    env = {**os.environ, "DISPLAY": vd.display, "SWEEPBOT_TEMPLATES": str(templates),
           "PYTHONPATH": str(ROOT)}
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "bot.cli", *args], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=timeout)
    sys.stdout.write(out.stdout + out.stderr)
    return {"rc": out.returncode, "seconds": round(time.perf_counter() - t0, 1)}


def summarise(log: Path) -> dict[str, Any]:
    """Outcomes in a ``play --log`` file."""
    rows = [json.loads(line) for line in log.read_text().splitlines() if line.strip()] \
        if log.exists() else []
    lost = [r for r in rows if r.get("outcome") == "lost"]
    return {"played": len(rows), "won": sum(r.get("outcome") == "won" for r in rows),
            "lost": len(lost),
            "aborted": [r.get("reason") for r in rows if r.get("outcome") == "aborted"],
            "lost_on_safe": sum(1 for r in lost if r.get("death_p") is not None
                                and r["death_p"] < 0.001)}


def play_apart(vd: Any, win: Any, templates: Path, play: list[str],
               args: argparse.Namespace) -> dict[str, Any]:
    """Play args.play games, one ``play --games 1`` each, args.apart seconds apart; a
    new game between them by args.restart_key (the pointer over the window, so the
    key goes there, then parked below it)."""
    from bot.realgames import key, move_pointer

    rcs, seconds = [], 0.0
    for n in range(args.play):
        if n:
            time.sleep(args.apart)
            left, top, width, height = win.rect()
            move_pointer(vd, left + width // 2, top + height // 2)
            key(vd, args.restart_key)
            move_pointer(vd, left + width // 2, min(vd.height - 1, top + height + 40))
            time.sleep(0.3)
        step = sweepbot(vd, templates, [*play, "--games", "1"], 90)
        rcs.append(step["rc"])
        seconds += step["seconds"]
    return {"rc": max(rcs, default=0), "seconds": round(seconds, 1)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", choices=GAMES, required=True)
    p.add_argument("--size", default="intermediate")
    p.add_argument("--tile", type=int, help="sgt-mines tile size in pixels (minegauler: its "
                   "button size, 16 by default; web games: the "
                   "squares' side, Google's are 45, 30 and 25 at 10x8, 18x14 and 24x20)")
    p.add_argument("--theme", help="kmines' theme (bot.othergames.KMINES_THEMES); "
                   "pygame-minesweeper's tile sheet (bot.othergames.PGMS_TILE_SHEETS)")
    p.add_argument("--name", help="the skin's name (default: the game's)")
    p.add_argument("--browser-tabs", action="store_true",
                   help="web games: a normal browser window (tabs, address bar), not --app")
    p.add_argument("--query", default="", help="web games: more of the page's query, "
                   "e.g. edges=1 (benchmarks/webgames/checkered.html says what it takes)")
    p.add_argument("--zoom", type=float, help="web-online: the page's zoom (its squares are "
                   "16 * zoom screen pixels, smoothed), added to --query")
    p.add_argument("--no-scores-window", action="store_true",
                   help="minegauler: never open its high-scores table at a win (it opens "
                        "it over the game at a new best at 8x8/10, 16x16/40, 30x16/99)")
    p.add_argument("--restart-key", help="passed to calibrate")
    p.add_argument("--restart-at", metavar="X,Y", help="the new-game control's point in the "
                   "window (as a user reads it off the screen), passed to calibrate as a "
                   "screen point")
    p.add_argument("--mines", type=int, help="passed to calibrate and play")
    p.add_argument("--wm", action="store_true", help="run openbox on the display")
    p.add_argument("--calibrate-games", type=int, default=2)
    p.add_argument("--play", type=int, default=5, help="games to play with the new skin")
    p.add_argument("--keep", metavar="DIR", help="keep the templates folder here")
    p.add_argument("--at", default="120,90", help="window position X,Y")
    p.add_argument("--desktop", metavar="R,G,B",
                   help="paint the desktop this colour (Xvfb's is black)")
    p.add_argument("--apart", type=float, metavar="S",
                   help="play each game in its own `play --games 1`, S seconds apart, this "
                        "script pressing --restart-key over the window between them (games "
                        "that lay mines from the clock, like WineMine, repeat a board "
                        "within one second)")
    p.add_argument("--bug-dir", metavar="DIR", help="keep play's unreadable boards here")
    p.add_argument("--runs", type=int, default=1, metavar="N",
                   help="play in N `play` runs one after another, --play games each: each "
                        "run after the first meets the board the last one left, won or lost")
    args = p.parse_args(argv)
    if args.apart is not None and not args.restart_key:
        p.error("--apart needs --restart-key")
    if args.zoom is not None:
        args.query = "&".join(filter(None, [args.query, f"zoom={args.zoom:g}"]))

    from bot.realgames import VirtualDisplay

    size = BoardSize.parse(args.size)
    with tempfile.TemporaryDirectory() as tmp:
        templates = Path(args.keep) if args.keep else Path(tmp) / "templates"
        templates.mkdir(parents=True, exist_ok=True)
        truth, log = Path(tmp) / "truth.jsonl", Path(tmp) / "play.jsonl"
        with VirtualDisplay(window_manager=args.wm) as vd:
            if args.desktop:
                from bot.winegames import set_desktop_colour

                r, g, b = (int(v) for v in args.desktop.split(","))
                set_desktop_colour(vd, (r, g, b))
            win = launch(vd, args.game, size, args.tile, truth, args.theme,
                         args.browser_tabs, args.query, not args.no_scores_window)
            x, y = (int(v) for v in args.at.split(","))
            win.move(x, y)
            time.sleep(0.5)
            name = args.name or args.game
            cmd = ["calibrate", "--name", name, "--games", str(args.calibrate_games)]
            if args.restart_key:
                cmd += ["--restart-key", args.restart_key]
            if args.restart_at:
                rx, ry = (int(v) for v in args.restart_at.split(","))
                left, top, _, _ = win.rect()
                cmd += ["--restart-at", f"{left + rx},{top + ry}"]
            mines = ["--mines", str(args.mines)] if args.mines else []
            cmd += mines
            step = sweepbot(vd, templates, cmd, 300)
            if args.game.startswith(("web-", "npm-")):  # the page counts its games in its title
                time.sleep(1.0)  # (the browser passes a new title on to X a little later)
                step["title"] = vd.xdotool("getwindowname", str(win.wid)).strip()
            print(json.dumps({"step": "calibrate", "game": args.game, "size": str(size),
                              **step}), flush=True)
            if step["rc"] != 0 or not args.play:
                return 1 if step["rc"] else 0
            if args.game == "minegauler":  # the game logs its outcomes: the truth
                from bot.othergames import minegauler_outcomes

                before = len(minegauler_outcomes(vd))
            play = ["play", "--skin", name, "--log", str(log), "--bug-dir",
                    args.bug_dir or str(Path(tmp) / "bugs"), *mines]
            if args.apart is None:
                steps = [sweepbot(vd, templates, [*play, "--games", str(args.play)],
                                  60 + 30 * args.play) for _ in range(args.runs)]
                step = {"rc": max(s["rc"] for s in steps),
                        "seconds": round(sum(s["seconds"] for s in steps), 1)}
            else:
                step = play_apart(vd, win, templates, play, args)
            result = {"step": "play", **step, **summarise(log)}
            if truth.exists():
                result["truth"] = [json.loads(x).get("outcome")
                                   for x in truth.read_text().splitlines() if x.strip()]
            if args.game == "minegauler":
                result["truth"] = minegauler_outcomes(vd)[before:]
            if win.proc.poll() is not None:  # (the game ended itself: a crash)
                result["game_exit"] = win.proc.returncode
            if args.game.startswith(("web-", "npm-")):  # the page counts its games in its title
                time.sleep(1.0)  # (the browser passes a new title on to X a little later)
                result["title"] = vd.xdotool("getwindowname", str(win.wid)).strip()
            print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
