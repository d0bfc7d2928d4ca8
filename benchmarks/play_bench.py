"""Benchmark the whole loop on real game windows under a private Xvfb display.

    python benchmarks/play_bench.py --game xdemineur --size intermediate --games 50
    python benchmarks/play_bench.py --game gnome-mines --size intermediate --games 50
    python benchmarks/play_bench.py --game xdemineur --size expert --games 1
    python benchmarks/play_bench.py --game classic --size beginner --games 20

Prints the win rate with its 95 % Wilson interval next to the simulator's for the same
game rule (xdemineur opens a random zero region itself; gnome-mines protects the first
click's neighbourhood: rule ``opening``; the built-in classic window: ``safe``), the
number of losses on a square the solver thought safe (death_p < 0.001), the median
turn time (grab -> read -> solve -> click, without the redraw wait) and the median
CPU time of this process's thread per turn (less sensitive to other load), the median game's
wall time and bot time (wall time minus redraw waits) and 3BV/s of won games.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.loop import PlayConfig, Player  # noqa: E402
from bot.mouse import XTestMouse  # noqa: E402
from bot.reader import SkinReader  # noqa: E402
from bot.results import GameResult, write_jsonl  # noqa: E402
from bot.screen import MssScreen  # noqa: E402
from solver.bench import run_bench, wilson_interval  # noqa: E402
from solver.game import BoardSize, Game  # noqa: E402
from solver.strategies import get_strategy  # noqa: E402

SIM_RULES = {"gnome-mines": "opening", "classic": "safe"}


def start_game(vd: Any, game: str, size: BoardSize, seed: int) -> Any:
    """Open the game window on the virtual display; returns something with close()."""
    from bot import realgames

    if game == "xdemineur":
        return realgames.launch_xdemineur(vd, max(size.cols, 12), size.rows, size.mines)
    if game == "gnome-mines":
        width, height = 36 * size.cols + 260, 36 * size.rows + 110
        return realgames.launch_gnome_mines(vd, size.cols, size.rows, size.mines, width, height)
    proc = vd.spawn([sys.executable, "-m", "bot.tkgame", "--size",
                     f"{size.cols}x{size.rows}/{size.mines}", "--seed", str(seed)],
                    env={**vd.env, "PYTHONPATH": str(ROOT)})
    time.sleep(1.0)
    return proc


def play_real(game: str, size: BoardSize, games: int, strategy: str, seed: int,
              log: Path | None, keep_going: int = 0,
              turn_cpu_ms: list[float] | None = None) -> list[GameResult]:
    """Play ``games`` finished games. Play stops at an aborted game (as ``sweepbot
    play`` does); with ``keep_going`` > 0 the window is then closed and opened anew, up
    to that many times, and the aborted games are counted in the report. The CPU time
    of every turn is appended to ``turn_cpu_ms``."""
    from bot.realgames import VirtualDisplay

    results: list[GameResult] = []
    with VirtualDisplay() as vd:
        screen, mouse = MssScreen(vd.display), XTestMouse(vd.display)
        reader = SkinReader.from_names([game])
        restarts = 0
        while sum(r.outcome != "aborted" for r in results) < games:
            window = start_game(vd, game, size, seed + restarts)
            left = games - sum(r.outcome != "aborted" for r in results)
            config = PlayConfig(games=left, mines=size.mines, seed=seed + restarts)
            player = Player(screen, mouse, reader, strategy, config)
            results += player.play()
            if turn_cpu_ms is not None:
                turn_cpu_ms += player.turn_cpu_ms
            if results[-1].outcome != "aborted" or restarts >= keep_going:
                break
            restarts += 1
            print(f"aborted ({results[-1].reason}); opening a new window", file=sys.stderr)
            getattr(window, "close", getattr(window, "terminate", lambda: None))()
            time.sleep(0.5)
        screen.close()
        mouse.close()
    if log is not None:
        with log.open("a") as fh:
            for r in results:
                write_jsonl(r, fh)
    return results


def sim_xdemineur(size: BoardSize, strategy: str, games: int, seed: int) -> tuple[int, int]:
    """Simulated games with xdemineur's start: random mines, then the game itself opens
    a random zero square's region; the player's clicks are unprotected."""
    wins = 0
    for i in range(games):
        rng = np.random.default_rng([seed, i])
        g = Game(size, "none", seed=int(rng.integers(2**31)))
        g.lay_mines((0, 0))
        assert g.mines is not None
        zeros = np.argwhere((g.counts == 0) & ~g.mines)
        safe = zeros if len(zeros) else np.argwhere(~g.mines)
        r, c = safe[rng.integers(len(safe))]
        g.open((int(r), int(c)))
        s = get_strategy(strategy, "none")
        while g.status == "playing":
            d = s.decide(g.board.copy(), size.mines, rng)
            for cell in d.open:
                if g.open(cell) != "playing":
                    break
        wins += g.status == "won"
    return wins, games


def simulate(game: str, size: BoardSize, strategy: str, games: int, seed: int) -> tuple[int, int]:
    if game == "xdemineur":
        return sim_xdemineur(BoardSize(size.rows, max(size.cols, 12), size.mines), strategy,
                             games, seed)
    r = run_bench(size, SIM_RULES[game], strategy, games, seed=seed, workers=2)
    return r.wins, r.games


def report(game: str, size: BoardSize, results: list[GameResult],
           sim: tuple[int, int] | None, turn_cpu_ms: list[float] | None = None) -> dict[str, Any]:
    finished = [r for r in results if r.outcome in ("won", "lost")]
    wins = sum(r.outcome == "won" for r in results)
    turns = [t for r in results for t in r.turn_ms]
    won = [r for r in results if r.outcome == "won"]
    out: dict[str, Any] = {
        "game": game, "size": str(size), "games": len(results),
        "aborted": len(results) - len(finished), "wins": wins,
        "win_rate": round(wins / len(finished), 4) if finished else None,
        "ci95": wilson_interval(wins, len(finished)),
        "deaths_below_0.001": sum(1 for r in results if r.outcome == "lost"
                                  and r.death_p is not None and r.death_p < 0.001),
        "turn_ms_median": round(statistics.median(turns), 3) if turns else None,
        "turn_ms_p90": round(float(np.percentile(turns, 90)), 3) if turns else None,
        "turn_cpu_ms_median": round(statistics.median(turn_cpu_ms), 3) if turn_cpu_ms else None,
        "seconds_median": round(statistics.median(r.seconds for r in results), 3),
        "bot_seconds_median": round(statistics.median(r.bot_seconds for r in results), 3),
        "bv_per_s_median": round(statistics.median(r.bv / r.seconds for r in won
                                                   if r.bv), 2) if won else None,
    }
    if sim is not None:
        out["sim_wins"], out["sim_games"] = sim
        out["sim_win_rate"] = round(sim[0] / sim[1], 4)
        out["sim_ci95"] = wilson_interval(*sim)
        lo, hi = out["ci95"]
        out["sim_rate_inside_real_ci"] = bool(lo <= out["sim_win_rate"] <= hi)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", choices=("xdemineur", "gnome-mines", "classic"), required=True)
    p.add_argument("--size", default="intermediate")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--sim-games", type=int, default=1000,
                   help="simulated games for the comparison (0: none)")
    p.add_argument("--strategy", default="exact")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--log", type=Path, help="append each game's JSON line here")
    p.add_argument("--keep-going", type=int, default=0, metavar="K",
                   help="after an aborted game, open a new window (at most K times)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    args = p.parse_args(argv)
    size = BoardSize.parse(args.size)
    cpu: list[float] = []
    results = play_real(args.game, size, args.games, args.strategy, args.seed, args.log,
                        args.keep_going, cpu)
    sim = simulate(args.game, size, args.strategy, args.sim_games, args.seed) \
        if args.sim_games > 0 else None
    out = report(args.game, size, results, sim, cpu)
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k:>24}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
