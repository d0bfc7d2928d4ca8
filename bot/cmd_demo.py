"""``sweepbot demo``: the bot plays the built-in Minesweeper window.

The window (:mod:`bot.tkgame`, the classic look, standard rules) runs as its own
process; the bot plays it through the same screen-and-mouse path as any other game
(mss screenshots, the ``classic`` skin, the solver, real pointer clicks). With no
display ($DISPLAY unset) it starts a private virtual display (Xvfb) and saves an
animated recording of the games to watch afterwards.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bot.loop import Observer, PlayConfig, Player, PlayStopped
from bot.reader import NotFound
from bot.recording import Recording
from bot.results import GameResult, summary, write_jsonl
from bot.screen import Image
from solver.cells import Board
from solver.game import BoardSize
from solver.strategy import Decision
from vision.geometry import BoardGeometry, PixelRect

HELP = "play the built-in Minesweeper window (starts a virtual display if needed)"
DEFAULT_RECORDING = Path("sweepbot-demo.gif")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=3, metavar="N", help="games to play (3)")
    parser.add_argument("--size", default="beginner",
                        help="beginner, intermediate, expert or COLSxROWS/MINES (beginner)")
    parser.add_argument("--record", type=Path, metavar="FILE",
                        help="save an animated recording (.gif or .mp4); default "
                             f"{DEFAULT_RECORDING} when no display is available")
    parser.add_argument("--no-record", action="store_true", help="do not record")
    parser.add_argument("--seed", type=int, default=None, help="seed for the games' mines")
    parser.add_argument("--delay", type=float, default=0.0, metavar="S",
                        help="pause S seconds before each move, to watch (0)")
    parser.add_argument("--strategy", default="exact", help="solver strategy (exact)")
    parser.add_argument("--mouse", default="auto", choices=("auto", "pyautogui", "xtest"))
    parser.add_argument("--log", type=Path, metavar="FILE.jsonl",
                        help="append one JSON line per game")
    parser.add_argument("--headless", action="store_true",
                        help="use a private virtual display even when $DISPLAY is set")


class DemoObserver(Observer):
    """Prints progress; records the window after every move and at each game's end."""

    def __init__(self, recording: Recording | None, delay: float, log: Any = None) -> None:
        self.recording, self.delay, self.log = recording, delay, log

    def window_rect(self, player: Player) -> PixelRect:
        from bot.tkgame import Layout

        g = player.geometry
        assert g is not None
        lay = Layout(g.rows, g.cols)
        b = g.bounds()
        return PixelRect(b.left - lay.board_x, b.top - lay.board_y, lay.width, lay.height)

    def snap(self, player: Player, ms: int, decision: Decision | None = None) -> None:
        """Add the window to the recording; mark the squares about to be opened
        (green: certainly safe, orange: a guess)."""
        if self.recording is None:
            return
        rect = self.window_rect(player)
        frame = player.screen.grab(rect)
        if decision is not None and player.geometry is not None:
            frame = mark_cells(frame, player.geometry.shifted(-rect.left, -rect.top), decision)
        self.recording.add(frame, ms)

    def on_turn(self, player: Player, image: Image, board: Board, decision: Decision) -> None:
        self.snap(player, 150, decision)
        if self.delay > 0:
            time.sleep(self.delay)

    def on_game(self, player: Player, result: GameResult) -> None:
        if player.geometry is not None:
            time.sleep(0.05)
            self.snap(player, 1500)
        n = len(player.results)
        extra = f" ({result.reason})" if result.reason else ""
        print(f"game {n}: {result.outcome} in {result.seconds:.2f} s "
              f"({result.bot_seconds:.2f} s thinking), {result.clicks} clicks{extra}", flush=True)
        if self.log is not None:
            write_jsonl(result, self.log)


def mark_cells(frame: Image, geometry: BoardGeometry, decision: Decision) -> Image:
    """``frame`` with a box around every square ``decision`` opens.

    >>> import numpy as np
    >>> g = BoardGeometry("classic", 0.0, 0.0, 20.0, 20.0, 1, 2)
    >>> out = mark_cells(np.zeros((20, 40, 3), np.uint8), g, Decision(open=((0, 1),)))
    >>> tuple(int(v) for v in out[0, 25]), int(out[10, 10].sum())
    ((0, 160, 0), 0)
    """
    import cv2

    out = frame.copy()
    colour = (0, 140, 255) if decision.is_guess else (0, 160, 0)
    for cell in decision.open:
        r = geometry.cell_rect(cell)
        cv2.rectangle(out, (r.left, r.top), (r.left + r.width - 1, r.top + r.height - 1),
                      colour, 2)
    return out


@contextlib.contextmanager
def display_for_demo(headless: bool) -> Iterator[tuple[str | None, dict[str, str]]]:
    """The X display to use and the environment for the game window: the user's own,
    or a private virtual display started here (and stopped on exit)."""
    if not headless:
        yield None, dict(os.environ)
        return
    from bot.realgames import LaunchError, VirtualDisplay

    try:
        vd = VirtualDisplay(width=1024, height=768)
        vd.start()
    except LaunchError as exc:
        raise PlayStopped(f"cannot start a virtual display ({exc}); install it with "
                          "`sudo apt-get install xvfb dbus xdotool` or run ./dev demo") from exc
    try:
        yield vd.display, vd.env
    finally:
        vd.close()


def start_window(size: BoardSize, seed: int | None, env: dict[str, str], log: Path,
                 topmost: bool) -> subprocess.Popen[bytes]:
    root = str(Path(__file__).resolve().parent.parent)
    cmd = [sys.executable, "-m", "bot.tkgame", "--size", _size_arg(size), "--log", str(log)]
    if seed is not None:
        cmd += ["--seed", str(seed)]
    if topmost:
        cmd.append("--topmost")
    child_env = {**env, "PYTHONPATH": os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))}
    return subprocess.Popen(cmd, env=child_env, stdin=subprocess.DEVNULL)


def _size_arg(size: BoardSize) -> str:
    return f"{size.cols}x{size.rows}/{size.mines}"


def wait_for_board(player: Player, proc: subprocess.Popen[bytes], timeout: float = 15.0) -> None:
    """Wait until the demo window's board is visible on the screen."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise PlayStopped(f"the demo window exited (code {proc.returncode})")
        try:
            player.reader.locate(player.screen.grab())
            return
        except NotFound:  # while the window maps
            time.sleep(0.1)
    raise PlayStopped("the demo window did not appear on the screen")


def check_args(args: argparse.Namespace) -> tuple[str, BoardSize | None]:
    if args.games < 1:
        return f"--games must be at least 1, got {args.games}", None
    if args.delay < 0:
        return "--delay must not be negative", None
    try:
        size = BoardSize.parse(args.size)
    except ValueError as exc:
        return str(exc), None
    if args.record is not None and args.record.suffix.lower() not in (".gif", ".mp4", ".avi"):
        return f"--record must end in .gif or .mp4, got {args.record}", None
    return "", size


def play_demo(args: argparse.Namespace, size: BoardSize) -> tuple[list[GameResult],
                                                                 list[dict[str, Any]], Path | None]:
    """Run the window and the bot; the bot's results, the window's own truth, and the
    recording's path (if any)."""
    headless = args.headless or (sys.platform.startswith("linux") and not os.environ.get("DISPLAY"))
    record_path = None if args.no_record else (args.record or
                                                (DEFAULT_RECORDING if headless else None))
    recording = Recording() if record_path else None
    log = args.log.open("a") if args.log else None
    with tempfile.TemporaryDirectory(prefix="sweepbot-demo-") as tmp, \
            display_for_demo(headless) as (display, env):
        truth_log = Path(tmp) / "truth.jsonl"
        proc = start_window(size, args.seed, env, truth_log, topmost=not headless)
        try:
            player = _player(args, size, display, DemoObserver(recording, args.delay, log))
            wait_for_board(player, proc)
            if not headless:
                print("sweepbot demo: the bot is using your mouse; push the pointer into a "
                      "screen corner or press Ctrl+C to stop", flush=True)
            results = player.play()
            time.sleep(0.2)
        finally:
            proc.terminate()
            proc.wait(5)
            if log is not None:
                log.close()
        truth = [json.loads(line) for line in truth_log.read_text().splitlines()] \
            if truth_log.exists() else []
    if recording is not None and record_path is not None and recording.frames:
        recording.save(record_path)
    else:
        record_path = None
    return results, truth, record_path


def _player(args: argparse.Namespace, size: BoardSize, display: str | None,
            observer: Observer) -> Player:
    from bot.screen import prepare_platform

    if display is None:
        prepare_platform()
    from bot.mouse import make_mouse
    from bot.reader import SkinReader
    from bot.screen import MssScreen

    config = PlayConfig(games=args.games, mines=size.mines, rule="safe")
    return Player(MssScreen(display), make_mouse(args.mouse, display),
                  SkinReader.from_names(["classic"]), args.strategy, config, observer)


def run(args: argparse.Namespace) -> int:
    problem, size = check_args(args)
    if problem or size is None:
        print(f"sweepbot demo: {problem}", file=sys.stderr)
        return 2
    try:
        results, truth, record_path = play_demo(args, size)
    except PlayStopped as exc:
        print(f"sweepbot demo: {exc}", file=sys.stderr)
        return 1
    except (RuntimeError, ValueError, OSError) as exc:
        print(f"sweepbot demo: {exc}", file=sys.stderr)
        return 2
    print(summary(results))
    seen = [r.outcome for r in results if r.outcome != "aborted"]
    true = [t["outcome"] for t in truth]
    if seen != true:
        print(f"sweepbot demo: warning: the window reports {true}, the bot saw {seen}",
              file=sys.stderr)
    if record_path is not None:
        print(f"recording saved to {record_path}")
    return 1 if any(r.outcome == "aborted" for r in results) or seen != true else 0
