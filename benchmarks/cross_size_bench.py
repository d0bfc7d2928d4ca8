"""Cross-size reading: a gnome-mines skin of ONE window size reads every recorded
gnome-mines fixture (all window sizes) through ``vision.read.read_board``, whose squares
still unknown after the template reader go to ``vision.glyph``.

Usage::

    python benchmarks/cross_size_bench.py --size 43 [--size 30 ...]   # shipped templates
    python benchmarks/cross_size_bench.py --skin /path/to/calibrated/skin [--no-fallback]
    SWEEPBOT_TEMPLATES=DIR python benchmarks/cross_size_bench.py --play 900x480 \\
        [--no-fallback] -- --game gnome-mines --size expert --games 8 --sim-games 0

(``DIR`` holds the skin to play with as ``DIR/gnome-mines``, e.g. a calibrated one.)

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
import re
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


def run(skin: Skin, cases: list[tuple[Any, Any, Any]], timer: Timer, timed: bool) -> None:
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
    for mode in () if not timed else ("cold", "warm", "seen"):
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


def no_fallback(image: Any, geometry: Any, skin: Skin, board: Any) -> Any:
    """read_board's fallback replaced: squares stay as the template reader left them."""
    return board


def play(window: str, rest: list[str], fallback: bool) -> int:
    """``benchmarks/play_bench.py REST`` with every gnome-mines window opened at
    ``window`` (WIDTHxHEIGHT); the skins are those of SWEEPBOT_TEMPLATES."""
    import runpy

    from bot import realgames

    width, height = (int(v) for v in window.lower().split("x"))
    launch = realgames.launch_gnome_mines

    def sized(vd: Any, cols: int, rows: int, mines: int, *_: Any, **__: Any) -> Any:
        return launch(vd, cols, rows, mines, width, height)

    realgames.launch_gnome_mines = sized
    if not fallback:
        reader.fill_unknown = no_fallback
    sys.argv = ["play_bench.py", *rest]
    runpy.run_path(str(ROOT / "benchmarks" / "play_bench.py"), run_name="__main__")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, action="append", default=[],
                    help="shipped gnome-mines templates of this size (px)")
    ap.add_argument("--skin", action="append", default=[], help="a skin folder")
    ap.add_argument("--no-fallback", action="store_true",
                    help="read without vision.glyph (for comparison)")
    ap.add_argument("--play", metavar="WxH",
                    help="instead: run play_bench.py with the arguments after -- and every "
                         "gnome-mines window at WxH (skins from SWEEPBOT_TEMPLATES)")
    args, rest = ap.parse_known_args()
    if args.play:
        if not re.fullmatch(r"\d+x\d+", args.play):
            print(f"cross_size_bench: --play wants WIDTHxHEIGHT, not {args.play!r}",
                  file=sys.stderr)
            return 2
        return play(args.play, [a for a in rest if a != "--"], not args.no_fallback)
    if rest:
        print(f"cross_size_bench: unexpected arguments {' '.join(rest)}", file=sys.stderr)
        return 2
    shipped = load_skin(ROOT / "templates" / "gnome-mines")
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
    reader.fill_unknown = no_fallback if args.no_fallback else timer
    for skin in skins:
        run(skin, cases, timer, timed=not args.no_fallback)
    return 0


if __name__ == "__main__":
    sys.exit(main())
