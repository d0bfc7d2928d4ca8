"""Learn a skin from saved screenshots alone (what ``sweepbot calibrate --from`` does),
then read every screenshot back with it and count squares against its ``.board``.

    python benchmarks/offline_readback.py tests/fixtures/winmine/*.png
    python benchmarks/offline_readback.py tests/fixtures/gnome-mines/*.png

No skin is loaded (``vision.calibrate.learn_from_images`` with no base). Each screenshot
is read with ``vision.calibrate.read_cells`` on the board the learner found in it;
screenshots whose board is not the size of their ``.board`` (a screen showing two
games) are skipped. JPEG captures are restored first (``vision.lossy.restore_lossy``),
as ``calibrate --from`` does. Prints one line per screenshot with its misread squares (expected
-> read), then one JSON line: states learned, squares, wrong, unknown, seconds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.cells import STATE_NAMES, UNKNOWN  # noqa: E402
from solver.textboard import parse_board  # noqa: E402
from vision.calibrate import learn_from_images, read_cells  # noqa: E402
from vision.lossy import is_jpeg, restore_lossy  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pngs", nargs="+", type=Path, help="screenshots, each with a .board")
    args = parser.parse_args(argv)
    images = [np.asarray(cv2.imread(str(p)), np.uint8) for p in args.pngs]
    # JPEGs restored to their dominant colours, as ``calibrate --from`` does
    images = restore_lossy(images, [is_jpeg(p.read_bytes()[:3]) for p in args.pngs])
    t0 = time.perf_counter()
    learned = learn_from_images(images)
    seconds = time.perf_counter() - t0
    totals = {"squares": 0, "wrong": 0, "unknown": 0, "skipped": 0}
    for path, image, g in zip(args.pngs, images, learned.boards, strict=True):
        expected = parse_board(path.with_suffix(".board").read_text())
        if g is None or (g.rows, g.cols) != expected.shape:
            totals["skipped"] += 1
            print(f"{path.name}: skipped (board {g and (g.rows, g.cols)})")
            continue
        read = read_cells(image, g, learned.cells)
        wrong = np.argwhere((read != expected) & (read != UNKNOWN))
        totals["squares"] += read.size
        totals["wrong"] += len(wrong)
        totals["unknown"] += int((read == UNKNOWN).sum())
        shown = ", ".join(f"{tuple(int(v) for v in rc)} {STATE_NAMES[int(expected[tuple(rc)])]}"
                          f"->{STATE_NAMES[int(read[tuple(rc)])]}" for rc in wrong[:6])
        print(f"{path.name}: {len(wrong)} wrong, {int((read == UNKNOWN).sum())} unknown"
              + (f" ({shown})" if shown else ""))
    states = sorted(STATE_NAMES[c] for c in learned.cells)
    print(json.dumps({"states": states, **totals, "seconds": round(seconds, 1)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
