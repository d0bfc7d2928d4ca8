"""Live calibration of a made-up game that draws every move square by square, in no
order, a frame catching a square half drawn (a loaded machine: ace-minesweeper draws
square by square, Chromium paints in tiles). Counts the calibrations in which a game
was called won or lost other than it ended in the game itself, or that stopped.

    python benchmarks/slow_drawing.py --seeds 12

The game is ``tests/bot/test_calibrate_slow_opening.py``'s ``SlowDrawing`` (16x16, 30
mines, the first click not protected), the square clicked drawn ``--clicked-at``-th;
``--square-ms`` per square, each move within ``--move-ms``. Prints one line per seed
and a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "bot"), str(ROOT / "tests" / "vision")]

import test_calibrate_slow_opening as slow  # noqa: E402
from calib_synth import Look, SynthMouse, SynthScreen  # noqa: E402

from bot.calibrate_live import CalibrationError, LiveCalibrator, LiveOptions  # noqa: E402
from solver.game import BoardSize  # noqa: E402


def calibrate(seed: int) -> tuple[str, list[str], list[str], float]:
    """One calibration: "ok", "wrong" or "stopped", what it called each game, how
    each ended in the game, seconds."""
    game = slow.SlowDrawing(BoardSize(16, 16, 30), Look(), rule="none", seed=seed)
    opts = LiveOptions(games=2, max_games=5, time_limit=90.0, seed=seed)
    start = time.monotonic()
    try:
        called = LiveCalibrator(SynthScreen(game), SynthMouse(game), opts).run().games
    except CalibrationError as exc:
        return f"stopped: {exc}"[:60], [], game.outcomes, time.monotonic() - start
    verdict = "ok" if called[:len(game.outcomes)] == game.outcomes else "wrong"
    return verdict, called, game.outcomes, time.monotonic() - start


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=12)
    ap.add_argument("--square-ms", type=float, default=1000 * slow.SQUARE_SECONDS)
    ap.add_argument("--move-ms", type=float, default=1000 * slow.MOVE_SECONDS)
    ap.add_argument("--clicked-at", type=int, default=slow.CLICKED_AT)
    args = ap.parse_args(argv)
    slow.SQUARE_SECONDS, slow.MOVE_SECONDS = args.square_ms / 1000, args.move_ms / 1000
    slow.CLICKED_AT = args.clicked_at
    verdicts = []
    for seed in range(args.seeds):
        verdict, called, ended, seconds = calibrate(seed)
        verdicts.append(verdict.split(":")[0])
        print(f"seed {seed}: {verdict} ({seconds:.1f} s) called {called} ended {ended}",
              flush=True)
    print(json.dumps({v: verdicts.count(v) for v in sorted(set(verdicts))}))
    return 0 if set(verdicts) == {"ok"} else 1


if __name__ == "__main__":
    sys.exit(main())
