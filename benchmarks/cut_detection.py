"""How often :func:`vision.cut.cut_sides` finds a board cut through a line of squares,
and whether it names a whole board cut: every recorded fixture (xdemineur, gnome-mines,
winmine, minegauler, pygame-minesweeper), each side, the last line cut at a share of a
pitch, the rest of the image a flat colour (a window's edge).

    python benchmarks/cut_detection.py [--shares 0.3,0.6,0.75,0.9] [--fills 0,128]

Prints, per share: cases, found (the cut side named, alone), another side named, none
named; and the fixtures (uncut) that read as cut.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.cut import cut_sides  # noqa: E402
from vision.lattice import NoBoardError, find_lattice  # noqa: E402

GAMES = ("xdemineur", "gnome-mines", "winmine", "minegauler", "pygame-minesweeper")


def turned(image: np.ndarray, side: str) -> np.ndarray:
    """The image turned so that ``side`` is on the right."""
    return {"right": image, "left": image[:, ::-1], "bottom": image.transpose(1, 0, 2),
            "top": image.transpose(1, 0, 2)[:, ::-1]}[side].copy()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--shares", default="0.3,0.6,0.75,0.9")
    p.add_argument("--fills", default="0,128")
    args = p.parse_args(argv)
    shares = [float(v) for v in args.shares.split(",")]
    fills = [int(v) for v in args.fills.split(",")]
    fixtures = sorted(f for game in GAMES for f in (ROOT / "tests" / "fixtures" / game).rglob(
        "*.png") if "skin" not in f.parts)
    tally: Counter[tuple[float, str]] = Counter()
    whole_cut = []
    for path in fixtures:
        original = cv2.imread(str(path))
        if cut_sides(original, find_lattice(original)):
            whole_cut.append(path.name)
        for side in ("right", "left", "bottom", "top"):
            image = turned(original, side)  # the cut side on the right
            g = find_lattice(image)
            for share in shares:
                for fill in fills:
                    cut = image.copy()
                    cut[:, round(g.col_left(g.cols - 1) + share * g.pitch_x):] = fill
                    try:
                        found = cut_sides(cut, find_lattice(cut))
                    except NoBoardError:
                        found = ("no board",)
                    kind = "found" if found == ("right",) else "other" if found else "none"
                    tally[share, kind] += 1
    print(f"{len(fixtures)} fixtures; whole boards read as cut: {whole_cut or 'none'}")
    for share in shares:
        n = sum(tally[share, k] for k in ("found", "other", "none"))
        print(f"cut {share:.2f} of a pitch in: {n} cases, found {tally[share, 'found']}, "
              f"another side {tally[share, 'other']}, none {tally[share, 'none']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
