"""Cross-size reading: a gnome-mines skin of ONE window size reads every recorded
gnome-mines fixture (all window sizes) through ``vision.read.read_board``, whose squares
still unknown after the template reader go to ``vision.glyph``.

Usage::

    python benchmarks/cross_size_bench.py --size 43 [--size 30 ...]   # shipped templates
    python benchmarks/cross_size_bench.py --skin /path/to/calibrated/skin

``--size PX``: the shipped templates cut at PX px plus the flat covered / open-0 tiles.
For each skin: squares right / unknown / misread over all fixtures (squares whose state
the skin has no template of are counted apart as "absent"), then the cost of the glyph
fallback per square it is given: "cold" (the skin's glyph bank rebuilt before every
read), "warm" (bank built, its memory of squares emptied before every read) and
"seen" (squares met before), wall and process CPU time (the machine is shared).
Geometry: ``locate_board`` with the full shipped skin.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from types import MappingProxyType
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import vision.read as reader  # noqa: E402
from solver.cells import COVERED, UNKNOWN  # noqa: E402
from solver.textboard import parse_board  # noqa: E402
from vision import glyph  # noqa: E402
from vision.locate import locate_board  # noqa: E402
from vision.skin import Skin, SkinError, load_skin  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "gnome-mines"


def one_size(shipped: Skin, px: int) -> Skin:
    cells = {k: tuple(i for i in v if i.shape[0] == px) for k, v in shipped.cells.items()}
    for flat in (COVERED, 0):
        cells[flat] = tuple(shipped.cells[flat])
    kept = MappingProxyType({k: v for k, v in cells.items() if v})
    return Skin(f"{px}px", "", shipped.cell_size, kept, shipped.status, shipped.restart)


class Timer:
    """Wraps the fallback read_board calls: seconds spent and squares given."""

    def __init__(self) -> None:
        self.seconds, self.cpu, self.squares, self.mode = 0.0, 0.0, 0, "warm"

    def __call__(self, image: Any, geometry: Any, skin: Skin, board: Any) -> Any:
        if self.mode == "cold":
            glyph._BANKS.clear()
        elif self.mode == "warm":
            glyph.glyph_bank(skin).memo.clear()
        n = int((board == UNKNOWN).sum())
        t, c = time.perf_counter(), time.process_time()
        out = glyph.fill_unknown(image, geometry, skin, board)
        self.seconds += time.perf_counter() - t
        self.cpu += time.process_time() - c
        self.squares += n
        return out


def run(skin: Skin, cases: list[tuple[Any, Any, Any]], timer: Timer) -> None:
    counts: Counter[str] = Counter()
    for image, truth, g in cases:
        board = reader.read_board(image, g, skin)
        known = truth != UNKNOWN
        absent = known & ~np.isin(truth, list(skin.cells))
        counts["right"] += int(((board == truth) & known & ~absent).sum())
        counts["unknown"] += int(((board == UNKNOWN) & known & ~absent).sum())
        counts["misread"] += int(((board != truth) & (board != UNKNOWN) & known).sum())
        counts["absent"] += int(absent.sum())
    print(f"{skin.name}: right {counts['right']}, unknown {counts['unknown']}, misread "
          f"{counts['misread']} (+ {counts['absent']} squares of states it has no template of)")
    for mode in ("cold", "warm", "seen"):
        wall, cpu = [], []
        for _ in range(3):
            timer.seconds, timer.cpu, timer.squares, timer.mode = 0.0, 0.0, 0, mode
            for image, _, g in cases:
                reader.read_board(image, g, skin)
            wall.append(1e6 * timer.seconds / max(timer.squares, 1))
            cpu.append(1e6 * timer.cpu / max(timer.squares, 1))
        print(f"  fallback {mode}: {statistics.median(wall):.0f} us wall, "
              f"{statistics.median(cpu):.0f} us CPU per square "
              f"({timer.squares} squares per pass over the fixtures)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, action="append", default=[],
                    help="shipped gnome-mines templates of this size (px)")
    ap.add_argument("--skin", action="append", default=[], help="a skin folder")
    args = ap.parse_args()
    shipped = load_skin("gnome-mines")
    try:
        skins = [one_size(shipped, px) for px in args.size]
        skins += [load_skin(p) for p in args.skin]
    except SkinError as exc:
        print(f"cross_size_bench: {exc}", file=sys.stderr)
        return 2
    if not skins:
        print("cross_size_bench: give --size PX or --skin PATH", file=sys.stderr)
        return 2
    cases = []
    for png in sorted(FIXTURES.glob("*.png")):
        image = np.asarray(cv2.imread(str(png), cv2.IMREAD_COLOR), np.uint8)
        truth = parse_board(png.with_suffix(".board").read_text())
        cases.append((image, truth, locate_board(image, [shipped])))
    timer = Timer()
    reader.fill_unknown = timer
    for skin in skins:
        run(skin, cases, timer)
    return 0


if __name__ == "__main__":
    sys.exit(main())
