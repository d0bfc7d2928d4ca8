"""Live calibration of the rippling test game with slow screen grabs, as on a busy machine.

    python benchmarks/ripple_stress.py --runs 2 --latency-ms 0,20,-1 --load 1

The game is ``RippleGame`` of tests/bot/test_calibrate_ripple.py (a square ripples
for 0.2 s at any click, pausing mid-way; a loss shows only the mine hit). Each grab
first sleeps ``--latency-ms`` (-1: a random 0-100 ms, 3 grabs in 10), which moves
where the waits for the board to settle end. ``--load N`` keeps N busy processes
running alongside. Each run calibrates from scratch (as the test does) and is
checked twice: the games' outcomes as calibration judged them against the game's own,
and a flag and a question mark drawn on a fresh board read as such with the skin
learned. Prints one line a run and a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
for sub in ("", "tests/bot", "tests/vision"):
    sys.path.insert(0, str(ROOT / sub))

from calib_synth import Look, SynthMouse, SynthScreen  # noqa: E402
from test_calibrate_ripple import RippleGame, misread_marks  # noqa: E402

from bot.calibrate_live import LiveCalibrator, LiveOptions  # noqa: E402
from bot.screen import PixelRect  # noqa: E402
from solver.game import BoardSize  # noqa: E402


class SlowScreen(SynthScreen):
    """A :class:`SynthScreen` whose every grab waits first."""

    def __init__(self, game: RippleGame, latency: float, rng: random.Random) -> None:
        super().__init__(game)
        self.latency, self.rng = latency, rng

    def grab(self, region: PixelRect | None = None) -> np.ndarray:
        if self.latency >= 0:
            time.sleep(self.latency)
        elif self.rng.random() < 0.3:
            time.sleep(self.rng.random() * 0.1)
        return super().grab(region)


def one_run(seed: int, latency: float, rng: random.Random) -> str:
    """'' if calibration judged every game as it ended and reads marks right, else why."""
    game = RippleGame(BoardSize(9, 9, 10), Look(), rule="none", seed=seed)
    game.pause = True
    opts = LiveOptions(games=2, max_games=8, time_limit=60.0, mines=10, want=(0, 1, 2),
                       log=lambda _: None)
    calibrator = LiveCalibrator(SlowScreen(game, latency, rng), SynthMouse(game), opts)
    try:
        calibrator.run()
    except Exception as exc:  # any stop is a failed run, reported
        return repr(exc)[:160]
    truth = [*game.outcomes, game.game.status][:len(calibrator.results)]
    if calibrator.results != truth or "lost" not in truth:
        return f"judged {calibrator.results}, the game's own {truth}"
    return misread_marks(calibrator)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=2)
    p.add_argument("--latency-ms", default="0,20,-1")
    p.add_argument("--seeds", default="3,4")
    p.add_argument("--load", type=int, default=0, help="busy processes alongside")
    args = p.parse_args(argv)
    rng = random.Random(1)
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(args.load)]
    failures: list[str] = []
    count = 0
    try:
        for run in range(args.runs):
            for ms in (float(x) for x in args.latency_ms.split(",")):
                for seed in (int(x) for x in args.seeds.split(",")):
                    started = time.monotonic()
                    why = one_run(seed, ms / 1000 if ms >= 0 else -1.0, rng)
                    count += 1
                    print(run, ms, seed, why or "ok", f"{time.monotonic() - started:.1f} s",
                          flush=True)
                    if why:
                        failures.append(f"{ms} ms, seed {seed}: {why}")
    finally:
        for proc in busy:
            proc.kill()
    print(json.dumps({"runs": count, "ok": count - len(failures), "failures": failures}))
    return 0 if not failures else 1


if __name__ == "__main__":
    raise SystemExit(main())
