"""Vision speed: reading a located board, and finding the board in a full-screen capture.

Usage: ``python benchmarks/vision_bench.py [--repeat N] [--rounds K] [--reads-only] [--json]``

- *read*: ``read_board`` on every fixture whose board is 30x16 (expert), geometry
  already known (it is what the play loop does every move). Median over 5N runs, with
  the reader's memory of already classified squares emptied first ("cold"), and without
  ("seen before": what a re-read of an unchanged board costs).
- *locate*: every fixture pasted at a fixed offset into a 1920x1080 desktop (a dark
  gradient with a few window-like rectangles), then ``locate_board`` with every shipped
  skin. Median over N runs; the located board must equal the expected one.

``--rounds K`` measures the reads in K rounds over all fixtures (each round ``5N`` reads of
each) and pools them, so that a minute when the shared machine runs slow weighs on every
fixture alike instead of on the few measured then.

Wall-clock and process CPU time are both reported (OpenCV runs some steps on two threads,
so CPU can exceed wall), and the load average before and after: the machine is shared.
``--reads-only`` skips the locate timings; ``--threads N`` sets OpenCV's thread count.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bot  # noqa: E402, F401  (the bot's settings: numpy's BLAS on one thread)
from solver.textboard import diff_boards, parse_board  # noqa: E402
from vision.locate import locate_board  # noqa: E402
from vision.read import forget_samples, read_board  # noqa: E402
from vision.skin import Skin, available_skins, load_skin  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"
OFFSET = (311, 197)


def desktop(shot: np.ndarray) -> np.ndarray:
    """``shot`` pasted at OFFSET (or as far as it fits) into a 1920x1080 desktop with
    other furniture."""
    h, w = 1080, 1920
    ramp = np.linspace(30, 90, w, dtype=np.float32)[None, :, None]
    canvas = np.broadcast_to(ramp, (h, w, 3)).astype(np.uint8).copy()
    cv2.rectangle(canvas, (1500, 60), (1880, 400), (236, 236, 236), -1)
    cv2.putText(canvas, "Terminal", (1520, 100), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (40, 40, 40), 2)
    sh, sw = shot.shape[:2]
    x, y = min(OFFSET[0], w - sw), min(OFFSET[1], h - sh)
    canvas[y:y + sh, x:x + sw] = shot
    return canvas


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds of ``fn``."""
    walls, cpus = [], []
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    return statistics.median(walls) * 1000, statistics.median(cpus) * 1000


def _cold(read: Callable[[], object]) -> None:
    """``read`` with the reader's memory of classified squares emptied first."""
    forget_samples()
    read()


def _read_rows(cases: list[tuple[str, Callable[[], object]]], repeat: int,
               rounds: int) -> dict[str, dict[str, float]]:
    """Median cold and seen-before read times of every case, over ``rounds`` rounds of
    ``5 * repeat`` reads each (the cases take turns round by round)."""
    walls: dict[str, list[float]] = {name: [] for name, _ in cases}
    cpus: dict[str, list[float]] = {name: [] for name, _ in cases}
    warms: dict[str, list[float]] = {name: [] for name, _ in cases}
    for _ in range(rounds):
        for name, read in cases:
            for _ in range(repeat * 5):
                w0, c0 = time.perf_counter(), time.process_time()
                _cold(read)
                walls[name].append(time.perf_counter() - w0)
                cpus[name].append(time.process_time() - c0)
            for _ in range(repeat * 5):
                w0 = time.perf_counter()
                read()
                warms[name].append(time.perf_counter() - w0)
    return {name: {"read_ms": round(statistics.median(walls[name]) * 1000, 3),
                   "read_cpu_ms": round(statistics.median(cpus[name]) * 1000, 3),
                   "read_warm_ms": round(statistics.median(warms[name]) * 1000, 3)}
            for name, _ in cases}


def bench(repeat: int, reads_only: bool = False, rounds: int = 1) -> list[dict[str, object]]:
    skins = [load_skin(n) for n in available_skins()]
    by_name: dict[str, Skin] = {s.name: s for s in skins}
    rows: list[dict[str, object]] = []
    reads: list[tuple[str, Callable[[], object]]] = []
    for png in sorted(FIXTURES.glob("*/*.png")):
        board_file = png.with_suffix(".board")
        if not board_file.is_file():
            continue
        shot = np.asarray(cv2.imread(str(png), cv2.IMREAD_COLOR), dtype=np.uint8)
        expected = parse_board(board_file.read_text())
        full = desktop(shot)
        if png.stem.startswith("screen_beside_"):  # two games: the folder names the board
            skins_here = [by_name[png.parent.name]]
        else:
            skins_here = skins
        if reads_only and expected.shape != (16, 30):
            continue
        g = locate_board(full, skins_here)
        ok = not diff_boards(expected, read_board(full, g, by_name[g.skin]))
        row: dict[str, object] = {"case": f"{png.parent.name}/{png.stem}", "correct": ok}
        if not reads_only:
            loc_wall, loc_cpu = timed(partial(locate_board, full, skins_here), repeat)
            row.update(locate_ms=round(loc_wall, 2), locate_cpu_ms=round(loc_cpu, 2))
        if expected.shape == (16, 30):
            reads.append((str(row["case"]), partial(read_board, full, g, by_name[g.skin])))
        rows.append(row)
    timings = _read_rows(reads, repeat, rounds)
    for row in rows:
        row.update(timings.get(str(row["case"]), {}))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--reads-only", action="store_true")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    if args.threads is not None:
        cv2.setNumThreads(args.threads)
    load_before = os.getloadavg()[0]
    rows = bench(args.repeat, args.reads_only, args.rounds)
    load = f"load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after"
    if args.json:
        for row in rows:
            print(json.dumps(row))
    else:
        for row in rows:
            locate = (f" locate {row['locate_ms']:6.1f} ms (cpu {row['locate_cpu_ms']:5.1f})"
                      if "locate_ms" in row else "")
            read = (f"  read {row['read_ms']:.3f} ms (cpu {row['read_cpu_ms']:.3f}, "
                    f"seen before {row['read_warm_ms']:.3f})" if "read_ms" in row else "")
            print(f"{row['case']:<42}{locate}{read}{'' if row['correct'] else '  WRONG'}")
    locs = [float(r["locate_ms"]) for r in rows if "locate_ms" in r]  # type: ignore[arg-type]
    reads = [float(r["read_ms"]) for r in rows if "read_ms" in r]  # type: ignore[arg-type]
    located = f"locate {statistics.median(locs):.1f} ms in 1920x1080, " if locs else ""
    print(f"median over fixtures: {located}read 30x16 {statistics.median(reads):.3f} ms; "
          f"{sum(bool(r['correct']) for r in rows)}/{len(rows)} read exactly; {load}",
          file=sys.stderr)
    return 0 if all(r["correct"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
