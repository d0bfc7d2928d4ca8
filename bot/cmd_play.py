"""``sweepbot play``: play the Minesweeper window on the screen, game after game.

Safety: every click goes through a guard that refuses points outside the board's
squares (and the restart control); pushing the pointer into a screen corner, moving
the mouse yourself, or pressing Ctrl+C stops play between two moves; if the board
disappears, play stops without clicking. ``--dry-run`` reads and decides but never
moves the pointer.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from bot.loop import Move, Observer, PlayConfig, Player, PlayStopped, Preview
from bot.results import GameResult, summary, write_jsonl
from solver.cells import NUMBERS, Board

HELP = "play a Minesweeper window on the screen"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--skin", action="append", metavar="NAME",
                        help="skin(s) to look for (default: every installed skin)")
    parser.add_argument("--games", type=int, default=1, metavar="N", help="games to play (1)")
    parser.add_argument("--log", type=Path, metavar="FILE.jsonl",
                        help="append one JSON line per game")
    parser.add_argument("--dry-run", action="store_true",
                        help="read the board and print the next moves without clicking")
    parser.add_argument("--heatmap", type=Path, metavar="FILE.png",
                        help="with --dry-run: write the mine probabilities as a picture")
    parser.add_argument("--mines", type=int, metavar="N",
                        help="mines in the game (default: the game's LED mine counter "
                             "plus the flags shown, else the count the skin learned for "
                             "this board size, else the size's usual count)")
    parser.add_argument("--mine-chance", type=float, metavar="P",
                        help="for a game of no fixed mine count (calibrate saw different "
                             "counts on one board size): each square is a mine with chance "
                             "P (default: the share calibrate saw)")
    parser.add_argument("--rule", choices=("none", "safe", "opening", "winxp"),
                        help="the game's first-click rule (default: known per game)")
    parser.add_argument("--strategy", default="exact", help="solver strategy (exact)")
    parser.add_argument("--mouse", default="auto", choices=("auto", "pyautogui", "xtest"),
                        help="mouse backend (auto: xtest on X11, else pyautogui)")
    parser.add_argument("--no-chord", action="store_true",
                        help="never chord (by default: where flagging and chording saves clicks)")
    parser.add_argument("--monitor", type=int, default=1, metavar="N",
                        help="which monitor to look at (1 = the primary)")
    parser.add_argument("--bug-dir", type=Path, default=Path("sweepbot-bugs"),
                        help="where an unreadable board's picture is saved")
    parser.add_argument("--no-learn", action="store_true",
                        help="do not learn numbers the skin lacks (by default a number look "
                             "named in play is added to the skin's templates)")


def check_args(args: argparse.Namespace) -> str:
    """The first problem with the arguments, or ""."""
    if args.games < 1:
        return f"--games must be at least 1, got {args.games}"
    if args.mines is not None and args.mines < 1:
        return f"--mines must be at least 1, got {args.mines}"
    if args.mine_chance is not None and not 0 < args.mine_chance < 1:
        return f"--mine-chance must lie strictly between 0 and 1, got {args.mine_chance}"
    if args.heatmap is not None and not args.dry_run:
        return "--heatmap works only with --dry-run"
    from solver.strategies import STRATEGY_NAMES

    if args.strategy not in STRATEGY_NAMES:
        return f"unknown strategy {args.strategy!r}: use one of {', '.join(STRATEGY_NAMES)}"
    return ""


class PrintObserver(Observer):
    """One line per game on stdout and, with ``log``, one JSON line per game."""

    def __init__(self, log: TextIO | None, out: TextIO = sys.stdout) -> None:
        self.log, self.out = log, out

    def on_board(self, player: Player) -> None:
        g = player.geometry
        assert g is not None
        b = g.bounds()
        mines = f"{player.mines} mines" if player.mines is not None else "no fixed count"
        print(f"found a {g.cols}x{g.rows} {g.skin} board with {mines} "
              f"({player.mines_from}) at ({b.left}, {b.top}); move the mouse, push it into "
              "a screen corner or press Ctrl+C to stop", file=self.out, flush=True)

    def on_note(self, player: Player, message: str) -> None:
        print(message, file=self.out, flush=True)

    def on_game(self, player: Player, result: GameResult) -> None:
        n = len(player.results)
        extra = f" ({result.reason})" if result.reason else ""
        death = f", death p={result.death_p:.3f}" if result.death_p is not None else ""
        print(f"game {n}: {result.outcome} {result.cols}x{result.rows}/{result.mines} in "
              f"{result.seconds:.2f} s, {result.clicks} clicks{death}{extra}", file=self.out,
              flush=True)
        if self.log is not None:
            write_jsonl(result, self.log)


def make_player(args: argparse.Namespace, observer: Observer, dry: bool = False,
                display: str | None = None) -> Player:
    """The real screen, mouse and skins (raises PlatformError / skin errors)."""
    from bot.screen import prepare_platform

    prepare_platform()
    from bot.mouse import RecordingMouse, make_mouse
    from bot.reader import SkinReader
    from bot.screen import MssScreen

    reader = SkinReader.from_names(args.skin)
    screen = MssScreen(display, args.monitor)
    mouse = make_mouse(args.mouse, display)
    if dry:  # never touch the real pointer; keep its screen size for the scale
        mouse = RecordingMouse(size=mouse.size())
    config = PlayConfig(games=args.games, mines=args.mines, mine_chance=args.mine_chance,
                        rule=args.rule,
                        bug_dir=args.bug_dir, chord=not args.no_chord,
                        learn=not (args.no_learn or dry))
    return Player(screen, mouse, reader, args.strategy, config, observer)


def move_verb(move: Move, board: Board) -> str:
    """What a planned click does: "flag" (right button), "chord" (on a shown number:
    opens its unflagged neighbours) or "open" (a covered square).

    >>> import numpy as np
    >>> from bot.screen import ScreenPoint
    >>> board = np.array([[1, -1]], np.int8)
    >>> move_verb(Move((0, 0), "middle", ScreenPoint(5, 5), 0.0), board)
    'chord'
    >>> move_verb(Move((0, 1), "left", ScreenPoint(9, 5), 0.0), board)
    'open'
    """
    if move.button == "right":
        return "flag"
    return "chord" if int(board[move.cell]) in NUMBERS else "open"


def print_preview(p: Preview, heatmap_path: Path | None) -> None:
    from solver.textboard import format_board

    mines = f"{p.mines} mines" if p.mines is not None else \
        f"no fixed count (each square a mine with chance {p.mine_share:.3f})"
    print(f"board {p.geometry.cols}x{p.geometry.rows}, {mines}, "
          f"skin {p.geometry.skin}, status {p.status}")
    print(format_board(p.board))
    if p.decision is not None and p.decision.note:
        print(f"solver: {p.decision.note}")
    for m in p.moves:
        what = move_verb(m, p.board)
        print(f"{what} row {m.cell[0]} col {m.cell[1]} at screen ({m.point.x:.0f}, "
              f"{m.point.y:.0f})" + (f"  risk {m.risk:.3f}" if what == "open" else ""))
    if not p.moves:
        print("no move: the game is over" if p.status in ("won", "lost") else "no move")
    if heatmap_path is not None:
        import cv2

        from bot.heatmap import heatmap
        from solver.density import analyse_density
        from solver.probability import mine_probabilities

        probs = mine_probabilities(p.board, p.mines) if p.mines is not None else \
            analyse_density(p.board, p.mine_share).probabilities
        cv2.imwrite(str(heatmap_path), heatmap(p.image, p.geometry, p.board, probs))
        print(f"heat map written to {heatmap_path}")


def run(args: argparse.Namespace) -> int:
    problem = check_args(args)
    if problem:
        print(f"sweepbot play: {problem}", file=sys.stderr)
        return 2
    log = args.log.open("a") if args.log else None
    try:
        observer = Observer() if args.dry_run else PrintObserver(log)
        player = make_player(args, observer, dry=args.dry_run)
        if args.dry_run:
            print_preview(player.preview(), args.heatmap)
            return 0
        results = player.play()
    except PlayStopped as exc:
        print(f"sweepbot play: {exc}", file=sys.stderr)
        return 1
    except (RuntimeError, ValueError, OSError) as exc:  # platform, skins, files
        print(f"sweepbot play: {exc}", file=sys.stderr)
        return 2
    finally:
        if log is not None:
            log.close()
    print(summary(results))
    return 1 if any(r.outcome == "aborted" for r in results) else 0
