"""How often ``calibrate --from``'s cut check (:func:`vision.cut.cut_sides`, on the
restored capture, the board found in the denoised view as calibrate finds it) calls a
JPEG capture's board cut: every fixture board whole, and cut at its right or bottom
side 0.4 or 0.6 of a pitch in (the rest painted grey 160), at each JPEG quality.

    python benchmarks/jpeg_cut.py --quality 60 75 90

Prints each whole board read as cut, then the counts: whole read cut (false), cut read
cut (found), cut not read cut (missed).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.calibrate import find_boards  # noqa: E402
from vision.cut import cut_sides  # noqa: E402
from vision.lattice import find_lattice  # noqa: E402
from vision.lossy import board_views, restore_lossy  # noqa: E402
from vision.margin import with_margin  # noqa: E402

Image = np.ndarray


def fixtures() -> list[Path]:
    """Every fixture capture of one game window (not the full-screen ones)."""
    found = sorted((ROOT / "tests" / "fixtures").glob("*/*.png")) + \
        sorted((ROOT / "tests" / "fixtures").glob("*/*/*.png"))
    return [p for p in found if not p.name.startswith("screen_")]


def cut(image: Image, side: str, share: float) -> Image:
    g = find_lattice(image)
    out = image.copy()
    if side == "right":
        out[:, round(g.col_left(g.cols - 1) + share * g.pitch_x):] = 160
    else:
        out[round(g.row_top(g.rows - 1) + share * g.pitch_y):] = 160
    return out


def cases(path: Path) -> Iterator[tuple[str, Image, bool]]:
    """(name, image, cut?): the capture, and unless it is cut already, four cuts."""
    image = cv2.imread(str(path))
    whole = "cut_" not in path.name
    yield "as captured", image, not whole
    if whole:
        for side in ("right", "bottom"):
            for share in (0.4, 0.6):
                yield f"cut {side} {share}", cut(image, side, share), True


def reads_cut(image: Image, quality: int) -> bool | None:
    """Whether the JPEG of ``image`` reads cut as ``calibrate --from`` reads it (None:
    no board found)."""
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    raw = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    restored = with_margin(restore_lossy([raw], [True])[0])
    g = find_boards([with_margin(board_views([raw], [True])[0])], [True])[0][0]
    return None if g is None else bool(cut_sides(restored, g))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quality", type=int, nargs="+", default=[60, 75, 90])
    args = ap.parse_args(argv)
    false = found = missed = whole = 0
    for quality in args.quality:
        for path in fixtures():
            for name, image, is_cut in cases(path):
                got = reads_cut(image, quality)
                if got is None:
                    continue
                whole += not is_cut
                if got and not is_cut:
                    false += 1
                    print(f"read cut: quality {quality} {path.relative_to(ROOT)} ({name})")
                found += got and is_cut
                missed += is_cut and not got
    print(f"whole boards {whole}: read cut {false}; cut boards {found + missed}: "
          f"found {found}, missed {missed}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
