"""Growing a lattice over a board half hidden by a dialog compared the same squares with
the same looks again and again: gnome-mines' "top ten" dialog over a won board took
4.6 s to locate (10 s on a loaded machine, in the middle of play). Each pair is now
compared once per lattice and a line stops being compared once its answer is known;
the lattice found must be the one the plain rule finds."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.calibrate
import vision.lattice as lattice
from vision.geometry import BoardGeometry

WON = Path(__file__).parent / "gnome_won_dialog" / "won_16x16_top_ten.png"


def plain_is_known(image: np.ndarray, g: BoardGeometry, cell: tuple[int, int],
                   inside: list[lattice.InsideLook], axis: int) -> bool:
    """:func:`vision.lattice._is_known` as first written: the square compared with
    every look near it by signature, then the shares of those alike."""
    from vision.locate import BLANK_SHARE, EDGED_SHARE, STRUCTURE, edge_spans, is_blank

    img = lattice.cut(image, g, cell)
    sig = lattice._signature(image, g, cell)
    alike = [look for look in inside if float(np.abs(sig - look.sig).mean()) <= 20.0
             and img.shape == look.image.shape
             and vision.calibrate.look_distance(img, look.image) <= 1.0]
    total = sum(look.count for look in alike)
    if is_blank(img):
        return bool(total) and sum(look.count for look in alike if look.blank) >= \
            BLANK_SHARE * total
    if not alike or edge_spans(img)[axis] >= STRUCTURE:
        return bool(alike)
    return sum(look.count for look in alike if look.edged[axis]) < EDGED_SHARE * max(1, total)


def plain_extend(image: np.ndarray, g: BoardGeometry, share: float = 0.6) -> BoardGeometry:
    """The rule of :func:`vision.lattice.extend_lattice` as first written: every square
    of every line compared with every look, nothing kept."""
    while True:
        inside = lattice._inside_looks(image, g)
        for side in ("left", "right", "top", "bottom"):
            cand, line = lattice._grown(g, side)
            axis = 1 if side in ("left", "right") else 0
            if lattice._fits_image(cand, image) and sum(
                    plain_is_known(image, cand, cell, inside, axis) for cell in line
            ) >= max(2, share * len(line)):
                g = cand
                break
        else:
            return g


def located(monkeypatch: pytest.MonkeyPatch, plain: bool) -> tuple[BoardGeometry, int]:
    """The lattice found on the won board, and how many looks were compared."""
    calls = []
    compare = vision.calibrate.look_distance

    def counted(a: np.ndarray, b: np.ndarray) -> float:
        calls.append(1)
        return compare(a, b)

    with monkeypatch.context() as m:
        m.setattr(vision.calibrate, "look_distance", counted)
        if plain:
            m.setattr(lattice, "extend_lattice", plain_extend)
        g = lattice.find_lattice(np.asarray(cv2.imread(str(WON)), np.uint8))
    return g, len(calls)


def test_the_lattice_is_the_plain_rules_with_a_fifth_of_the_comparisons(
        monkeypatch: pytest.MonkeyPatch) -> None:
    plain, plain_calls = located(monkeypatch, plain=True)
    fast, fast_calls = located(monkeypatch, plain=False)
    assert fast == plain
    assert (fast.lefts, fast.tops) == (plain.lefts, plain.tops)
    assert fast_calls * 5 < plain_calls, (fast_calls, plain_calls)
