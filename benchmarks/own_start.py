"""Starts of real xdemineur, which opens a zero region of its own at each new game:
how many leave no look on 40 % of the board, and whether calibration takes them for
the start of a game.

    python benchmarks/own_start.py --starts 3000

On a private Xvfb display: xdemineur 16x16 with 40 mines is calibrated from scratch
(``LiveCalibrator``, 3 games, to learn where the face is), then, ``--starts`` times, a
new game is started by a click on the face. For each start whose commonest look
covers under 40 % of the squares, a new calibrator looks for the board on that screen
(``find_board``, no click); the first ``--calibrate`` of them are calibrated from
there to the end (3 games). Prints a line per such start and a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.calibrate_live import CalibrationError, LiveCalibrator, LiveOptions  # noqa: E402
from bot.mouse import XTestMouse  # noqa: E402
from bot.realgames import VirtualDisplay, launch_xdemineur  # noqa: E402
from bot.screen import MssScreen, ScreenPoint  # noqa: E402


def options(seed: int) -> LiveOptions:
    return LiveOptions(games=3, max_games=10, time_limit=120.0, seed=seed, log=lambda _: None)


def face_point(cal: LiveCalibrator) -> ScreenPoint:
    """Where on the screen the new-game control calibration found is."""
    return cal.point(cal.restart_rects[0].centre())


def try_start(screen: MssScreen, mouse: XTestMouse, run: bool, seed: int) -> str:
    """What a calibration begun on this screen does: found, calibrated, or its error."""
    cal = LiveCalibrator(screen, mouse, options(seed))
    try:
        if not run:
            cal.find_board()
            return "found"
        learned = cal.run()
        return f"calibrated ({len(learned.games)} games)"
    except CalibrationError as exc:
        return f"error: {exc}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--starts", type=int, default=1000)
    ap.add_argument("--calibrate", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    outcomes: dict[str, int] = {}
    sparse = calibrated = 0
    start = time.monotonic()
    with VirtualDisplay() as vd:
        launch_xdemineur(vd, 16, 16, 40)
        screen, mouse = MssScreen(vd.display), XTestMouse(vd.display)
        cal = LiveCalibrator(screen, mouse, options(args.seed))
        cal.run()
        face = face_point(cal)
        for i in range(args.starts):
            mouse.click(face)
            time.sleep(0.15)
            cal._steady()
            _, counts = np.unique(cal.ids(cal.grab()), return_counts=True)
            if counts.max() >= 0.4 * 256:
                continue
            sparse += 1
            run = calibrated < args.calibrate
            calibrated += int(run)
            said = try_start(screen, mouse, run, args.seed + i)
            key = said.split(":")[0].split(" (")[0]
            outcomes[key] = outcomes.get(key, 0) + 1
            print(f"start {i}: commonest look {counts.max() / 256:.2f}: {said}", flush=True)
            if run:
                cal = LiveCalibrator(screen, mouse, options(args.seed))
                cal.run()
                face = face_point(cal)
        print(json.dumps({"starts": args.starts, "under_40_percent": sparse, **outcomes,
                          "seconds": round(time.monotonic() - start, 1)}))
        screen.close()
        mouse.close()


if __name__ == "__main__":
    main()
