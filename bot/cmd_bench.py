"""``sweepbot bench``: play simulated games and report win rate and speed.

Example: ``sweepbot bench --size expert --rule safe --games 20000 --strategy exact
--workers 2 --seed 1``. ``--strategy`` takes a comma list (one table row, or one JSON
line with ``--json``, per strategy). Bad arguments: one line on stderr, exit code 2.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from typing import cast

HELP = "simulate games and measure win rate and speed"

PREFIX = "sweepbot bench: "


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", default="expert",
                        help="beginner, intermediate, expert or COLSxROWS/MINES (default expert)")
    parser.add_argument("--rule", default="safe",
                        help="first-click rule: none, safe, opening, winxp (default safe)")
    parser.add_argument("--games", default="1000", help="games per strategy (default 1000)")
    parser.add_argument("--strategy", default="exact",
                        help="strategy name or comma list, e.g. exact,single (default exact)")
    parser.add_argument("--workers", default=str(os.cpu_count() or 1),
                        help="worker processes (default: all cores)")
    parser.add_argument("--seed", default="1", help="run seed; game i uses (seed, i)")
    parser.add_argument("--json", action="store_true", help="one JSON object per strategy")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


class BadArgument(ValueError):
    """A command-line value that cannot be used."""


def _int(name: str, text: str, low: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise BadArgument(f"--{name} must be a whole number, got {text!r}") from None
    if value < low:
        raise BadArgument(f"--{name} must be at least {low}, got {value}")
    return value


def _strategies(text: str, rule: str) -> list[str]:
    from solver.strategies import STRATEGY_NAMES
    from solver.strategy import FIRST_CLICK_RULES

    if rule not in FIRST_CLICK_RULES:
        raise BadArgument(f"unknown rule {rule!r}: use one of {', '.join(FIRST_CLICK_RULES)}")
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise BadArgument("--strategy needs at least one name")
    for name in names:
        if name not in STRATEGY_NAMES:
            raise BadArgument(f"unknown strategy {name!r}: use {', '.join(STRATEGY_NAMES)}")
        if importlib.util.find_spec(f"solver.strategies.{name}") is None:
            raise BadArgument(f"strategy {name!r} is not available yet (no module)")
    return names


def _progress_bar(label: str) -> object:
    start = time.perf_counter()

    def show(done: int, total: int, wins: int) -> None:
        width = 30
        filled = width * done // total
        rate = done / max(time.perf_counter() - start, 1e-9)
        sys.stderr.write(f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}"
                         f"  win {wins / done:6.2%}  {rate:6.1f} games/s")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def format_table(rows: list[dict[str, object]]) -> str:
    """The plain-text result table, one line per strategy."""
    head = ("strategy", "size", "rule", "games", "wins", "win rate", "95% CI",
            "games/s", "solve ms median", "solve ms p99", "games/cpu-s", "cpu ms p99")
    lines = [head]
    for r in rows:
        lo, hi = cast("list[float]", r["ci95"])
        lines.append((str(r["strategy"]), str(r["size"]), str(r["rule"]), str(r["games"]),
                      str(r["wins"]), f"{r['win_rate']:.2%}", f"{lo:.2%}-{hi:.2%}",
                      f"{r['games_per_s']:.1f}", f"{r['solve_ms_median']:.2f}",
                      f"{r['solve_ms_p99']:.1f}", f"{r['games_per_cpu_s']:.1f}",
                      f"{r['cpu_ms_p99']:.1f}"))
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip()
                     for line in lines) + "\n"


def run(args: argparse.Namespace) -> int:
    from solver.bench import run_bench
    from solver.game import BoardSize

    try:
        size = BoardSize.parse(args.size)
        games = _int("games", args.games, 1)
        workers = _int("workers", args.workers, 1)
        seed = _int("seed", args.seed, 0)
        names = _strategies(args.strategy, args.rule)
    except ValueError as exc:
        print(PREFIX + str(exc), file=sys.stderr)
        return 2
    rows = []
    for name in names:
        show = None if args.no_progress else _progress_bar(f"{name} {size}/{args.rule}")
        result = run_bench(size, args.rule, name, games, seed=seed, workers=workers,
                           progress=show)  # type: ignore[arg-type]
        rows.append(result.as_dict())
        if args.json:
            print(json.dumps(rows[-1]), flush=True)
    if not args.json:
        sys.stdout.write(format_table(rows))
    return 0
