"""Learn a skin from saved screenshots alone (what ``sweepbot calibrate --from`` does),
then read every screenshot back with it and count squares against its ``.board``.

    python benchmarks/offline_readback.py tests/fixtures/winmine/*.png
    python benchmarks/offline_readback.py tests/fixtures/gnome-mines/*.png

No skin is loaded (``vision.calibrate.learn_from_images`` with no base). Each screenshot
is read with ``vision.calibrate.read_cells`` on the board the learner found in it;
screenshots whose board is not the size of their ``.board``, or far off its pitch (a
screen showing two games), are skipped. The learning has calibrate --from's time limit
(``--seconds``); the JSON line says what it left out (``left_out``). JPEG captures are
restored first (``vision.lossy.restore_lossy``) and their boards found in them denoised
(``vision.lossy.board_views``), as ``calibrate --from`` does. Prints one line per
screenshot with its misread squares (expected -> read), then one JSON line: states
learned, squares, wrong, unknown, seconds, left_out, and window_over: the screenshots
with a window over part of their board, learned from beside the window only.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.cells import STATE_NAMES, UNKNOWN  # noqa: E402
from solver.textboard import parse_board, parse_comments  # noqa: E402
from vision.calibrate import OFFLINE_SECONDS, learn_from_images, read_cells  # noqa: E402
from vision.geometry import BoardGeometry  # noqa: E402
from vision.lossy import board_views, is_jpeg, restore_lossy  # noqa: E402

PITCH_OFF = 0.3
"""Most share a board's pitch may be off its ``.board``'s ``# pitch`` and still be that
board (captures resized by 0.8 or 1.25 are within it; xdemineur's
``screen_beside_gnome`` also shows a gnome-mines board of the same size at 46 % more)."""


def same_pitch(g: BoardGeometry, board_text: str) -> bool:
    """Is board ``g`` the one its ``.board`` describes: at about its ``# pitch`` and,
    scaled by the pitches' ratio, within two squares of its ``# cells`` box's corner
    (a capture resized keeps its ``.board``)? A comment not given passes."""
    notes = parse_comments(board_text)
    if not notes.get("pitch"):
        return True
    px, _, py = notes["pitch"].partition("x")
    want = (float(px), float(py or px))
    if not all(abs(got - w) <= PITCH_OFF * w
               for got, w in zip((g.pitch_x, g.pitch_y), want, strict=True)):
        return False
    box = re.fullmatch(r"x=(\d+)\.\.\d+ y=(\d+)\.\.\d+", notes.get("cells", ""))
    if box is None:
        return True
    x, y = (int(v) for v in box.groups())
    return abs(g.x0 - x * g.pitch_x / want[0]) <= 2 * g.pitch_x and \
        abs(g.y0 - y * g.pitch_y / want[1]) <= 2 * g.pitch_y


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pngs", nargs="+", type=Path, help="screenshots, each with a .board")
    parser.add_argument("--seconds", type=float, default=OFFLINE_SECONDS,
                        help="time limit of the learning, as calibrate --from's "
                             "(default %(default)s; 0: none)")
    args = parser.parse_args(argv)
    images = [np.asarray(cv2.imread(str(p)), np.uint8) for p in args.pngs]
    # JPEGs restored to their dominant colours, their boards found in them denoised,
    # as ``calibrate --from`` does
    lossy = [is_jpeg(p.read_bytes()[:3]) for p in args.pngs]
    find_in = board_views(images, lossy)
    images = restore_lossy(images, lossy)
    t0 = time.perf_counter()
    learned = learn_from_images(images, seconds=args.seconds or None, find_in=find_in,
                                lossy=lossy)
    seconds = time.perf_counter() - t0
    totals = {"squares": 0, "wrong": 0, "unknown": 0, "skipped": 0}
    for path, image, g in zip(args.pngs, images, learned.boards, strict=True):
        text = path.with_suffix(".board").read_text()
        expected = parse_board(text)
        if g is None or (g.rows, g.cols) != expected.shape or not same_pitch(g, text):
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
    print(json.dumps({"states": states, **totals, "seconds": round(seconds, 1),
                      "left_out": dict(learned.left_out),
                      "window_over": len(learned.window_images)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
