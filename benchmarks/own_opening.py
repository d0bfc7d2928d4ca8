"""Restarts of real xdemineur, which opens a zero region of its own at each new game:
how many new games calibration's restart takes for new games.

    python benchmarks/own_opening.py --restarts 400

On a private Xvfb display: xdemineur 16x16 with 40 mines is calibrated from scratch
(``LiveCalibrator``, 3 games), then, ``--restarts`` times, the game in play is lost
by clicking covered squares at random (as calibration's first game is, with no number
known), and a new game is started the way calibration learned (a click on the face),
waiting for it as calibration does after the click that finds the control (one click,
``_click_rect``; later restarts click twice at most). Prints one line per restart not
taken for a new game, and a JSON summary: restarts taken, the new
games that opened over half the board, and those whose region took in every square the
lost board showed open.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.calibrate_live import LiveCalibrator, LiveOptions  # noqa: E402
from bot.mouse import XTestMouse  # noqa: E402
from bot.realgames import VirtualDisplay, launch_xdemineur  # noqa: E402
from bot.screen import MssScreen  # noqa: E402
from solver.cells import COVERED, EXPLODED, MINE  # noqa: E402


def lose(cal: LiveCalibrator, rng: random.Random) -> np.ndarray | None:
    """Click covered squares at random until a mine shows; the lost board's codes."""
    for _ in range(200):
        image = cal.grab()
        codes = cal.knowledge(cal.ids(image))
        if np.isin(codes, (MINE, EXPLODED)).any():
            time.sleep(0.1)
            return cal.knowledge(cal.ids(cal.grab()))
        covered = np.argwhere(codes == COVERED)
        if not len(covered):
            return None
        r, c = covered[rng.randrange(len(covered))]
        cal.click_cell((int(r), int(c)))
        cal.park()
        cal.wait_change(image)
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--restarts", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    taken = big = taken_in = failed = 0
    with VirtualDisplay() as vd:
        launch_xdemineur(vd, 16, 16, 40)
        screen, mouse = MssScreen(vd.display), XTestMouse(vd.display)
        opts = LiveOptions(games=3, max_games=10, time_limit=90.0, seed=args.seed,
                           log=lambda _: None)
        cal = LiveCalibrator(screen, mouse, opts)
        cal.run()
        start = time.monotonic()
        for i in range(args.restarts):
            ended = lose(cal, rng)
            if ended is None:
                print(f"restart {i}: the game was not lost", flush=True)
                continue
            cal.ended_codes = ended
            rect = cal.restart_rects[0]  # the face
            fresh = cal._click_rect(rect, cal.grab())  # one click, as at the first restart
            codes = cal.knowledge(cal.ids(cal.grab()) if fresh is None else fresh[0])
            big += int((codes == COVERED).mean() < 0.5)
            opened = ended >= 0
            taken_in += int(opened.any() and not (opened & (codes == COVERED)).any())
            if fresh is not None:
                taken += 1
                continue
            failed += 1
            print(f"restart {i}: not taken for a new game; covered "
                  f"{(codes == COVERED).mean():.2f}", flush=True)
        print(json.dumps({"restarts": args.restarts, "taken": taken, "not_taken": failed,
                          "opened_over_half": big, "took_in_the_lost_region": taken_in,
                          "seconds": round(time.monotonic() - start, 1)}))
        screen.close()
        mouse.close()


if __name__ == "__main__":
    main()
