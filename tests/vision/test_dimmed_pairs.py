""":func:`vision.calibrate.dimmed_pairs` on the looks of a real kivy-mines-package loss
(``tests/fixtures/kivy-mines``): every pair of looks but the shown mines is a button
dimmed, including a dimmed 5 that the cell bank sorted into the look of a dimmed 3.
Before, that pair did not fit the dimming glyph by glyph, and its square was taken for a
shown mine: the 5 was named covered and the dimmed 3 mine."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.calibrate import dimmed_pairs

HERE = Path(__file__).resolve().parent.parent / "fixtures" / "kivy-mines" / "dimmed_loss"


def _pairs() -> dict[tuple[int, int], int]:
    out = {}
    for line in (HERE / "pairs.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            a, b, n = (int(v) for v in line.split())
            out[(a, b)] = n
    return out


def _looks() -> list[np.ndarray]:
    files = {int(p.stem.split("_")[1]): p for p in HERE.glob("look_*.png")}
    images = {n: cv2.imread(str(p)) for n, p in files.items()}
    blank = np.zeros_like(next(iter(images.values())))
    return [images.get(n, blank) for n in range(max(images) + 1)]


def test_every_dimmed_button_of_a_kivy_loss_is_a_dimming() -> None:
    pairs = _pairs()
    dimmed = dimmed_pairs(_looks(), pairs, tol=1.0)
    assert sorted(set(pairs) - set(dimmed)) == [(0, 10)]  # the mines, shown
    assert dimmed[(15, 13)] == 1


def test_the_bank_tolerance_bounds_what_a_dimming_explains() -> None:
    """With no tolerance for the bank's sorting, the dimmed 5 in the 3's look is no
    dimming (the glyphs differ): the pair is explained by the bank's sorting alone."""
    assert (15, 13) not in dimmed_pairs(_looks(), _pairs(), tol=0.0)
