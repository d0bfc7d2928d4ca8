"""Live check that ``sweepbot play`` without ``--mines`` takes the mine count from the
game's LED counter (vision/counter.py): xdemineur, WineMine or sweepbot's own tk game
at any size on a private Xvfb display, the shipped skins, the window at (120, 90).

    python benchmarks/counter_live.py --game xdemineur --size 20x12/50 --games 5
    python benchmarks/counter_live.py --game winmine --size 20x12/50 --games 5 --flags 3

``--flags K`` starts play mid-game: ``play --dry-run --mines M`` reads the board and
names its safe squares, which this script opens until the exact solver
(solver.probability) finds squares that are certainly mines; K of them are flagged with
right clicks, so the counter shows M - K
while the clock runs. Prints play's output and one JSON line: the count play found, the
source it named, the games' outcomes.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from unseen_games import summarise, sweepbot  # noqa: E402

from solver.game import BoardSize  # noqa: E402

MOVE = re.compile(r"^(open|flag) row (\d+) col (\d+) at screen \((\d+), (\d+)\)"
                  r"(?:  risk ([\d.]+))?")
FOUND = re.compile(r"board with (\d+) mines \(([^)]*)\)")
PITCH = {"xdemineur": 21, "winmine": 16, "tkgame": 20}
"""Square pitch in screen pixels (no scaling on Xvfb)."""


def launch(vd: Any, game: str, size: BoardSize) -> Any:
    """Start the game with this board."""
    if game == "winmine":
        from bot.winegames import launch_winmine

        return launch_winmine(vd, size.cols, size.rows, size.mines)
    if game == "tkgame":  # sweepbot's own tk window (the classic skin)
        from bot.othergames import launch_tkgame

        return launch_tkgame(vd, size, log=Path(vd.tmpdir) / "tkgame.jsonl", seed=7)
    from bot.realgames import launch_xdemineur

    return launch_xdemineur(vd, size.cols, size.rows, size.mines)


def dry_run(vd: Any, templates: Path, mines: int) -> tuple[Any, list[tuple[int, ...]]]:
    """The board ``play --dry-run`` reads and its moves: (is_flag, row, col, x, y,
    risk in thousandths)."""
    import os
    import subprocess

    from solver.textboard import parse_board

    env = {**os.environ, "DISPLAY": vd.display, "SWEEPBOT_TEMPLATES": str(templates),
           "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "bot.cli", "play", "--dry-run", "--mines",
                          str(mines)], env=env, cwd=ROOT, capture_output=True, text=True,
                         timeout=60).stdout.splitlines()
    rows = [line for line in out[1:] if line.strip()]
    board = parse_board("\n".join(rows[:next((i for i, r in enumerate(rows)
                                              if not re.fullmatch(r"[.0-9F?*XW]+", r)),
                                             len(rows))]))
    moves: list[tuple[int, ...]] = [
        (int(m[1] == "flag"), int(m[2]), int(m[3]), int(m[4]), int(m[5]),
         round(1000 * float(m[6] or 1.0))) for m in map(MOVE.match, out) if m]
    return board, moves


def flag_some(vd: Any, game: str, templates: Path, mines: int, flags: int) -> int:
    """Open certainly safe squares (any square for the first click) until squares are
    certain mines, then right-click ``flags`` of them; how many were flagged."""
    import numpy as np

    from bot.realgames import click
    from solver.cells import COVERED
    from solver.probability import mine_probabilities

    pitch = PITCH[game]
    for step in range(8):
        board, moves = dry_run(vd, templates, mines)
        if not moves:
            return 0
        _, r0, c0, x0, y0, _ = moves[0]
        certain = np.argwhere((board == COVERED) & (mine_probabilities(board, mines) > 0.999))
        for r, c in certain[:flags]:
            click(vd, x0 + (int(c) - c0) * pitch, y0 + (int(r) - r0) * pitch, button=3)
            time.sleep(0.2)
        if len(certain):
            return min(flags, len(certain))
        safe = [(x, y) for _, _, _, x, y, risk in moves if risk == 0 or not step]
        for x, y in safe[:1] if not step else safe:
            click(vd, x, y)
            time.sleep(0.2)
    return 0


def counters_seen(vd: Any) -> list[list[str]]:
    """The LED panels' texts on two screenshots 1.1 s apart (what play will see)."""
    from bot.reader import SkinReader
    from vision.counter import read_counters

    reader = SkinReader.from_names()
    seen = []
    for n in range(2):
        time.sleep(1.1 * n)
        image = vd.screenshot()
        seen.append([c.text for c in read_counters(image, reader.locate(image))])
    return seen


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", choices=("xdemineur", "winmine", "tkgame"), required=True)
    p.add_argument("--size", default="20x12/50")
    p.add_argument("--games", type=int, default=5)
    p.add_argument("--flags", type=int, default=0, help="flags placed before play")
    args = p.parse_args(argv)

    from bot.realgames import VirtualDisplay, move_pointer

    size = BoardSize.parse(args.size)
    templates = ROOT / "templates"
    with tempfile.TemporaryDirectory() as tmp, VirtualDisplay() as vd:
        win = launch(vd, args.game, size)
        win.move(120, 90)
        time.sleep(0.5)
        flagged = flag_some(vd, args.game, templates, size.mines, args.flags) if args.flags else 0
        move_pointer(vd, 5, vd.height - 5)
        time.sleep(0.2)
        seen = counters_seen(vd)
        log = Path(tmp) / "play.jsonl"
        out = Path(tmp) / "out.txt"
        t0 = time.perf_counter()
        stdout = sys.stdout
        with out.open("w") as sink:
            sys.stdout = sink
            try:
                step = sweepbot(vd, templates, ["play", "--games", str(args.games), "--log",
                                                str(log), "--bug-dir", str(Path(tmp) / "bugs")],
                                60 + 40 * args.games)
            finally:
                sys.stdout = stdout
        text = out.read_text()
        print(text, end="")
        found = FOUND.search(text)
        print(json.dumps({"game": args.game, "size": args.size, "flags_before": flagged,
                          "counters_before": seen,
                          "mines_found": int(found[1]) if found else None,
                          "source": found[2] if found else None, **step, **summarise(log),
                          "wall_s": round(time.perf_counter() - t0, 1)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
