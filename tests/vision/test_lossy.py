"""vision.lossy on JPEG copies of the fixture captures (made here with cv2.imencode; the
expected boards are the fixtures' hand-checked .board files)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from solver.cells import UNKNOWN
from solver.textboard import parse_board
from vision.calibrate import learn_from_images, read_cells
from vision.lossy import dominant_colours, restore_lossy, skin_palette, snap_to_palette
from vision.skin import load_skin

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)


def fixture(skin: str, stem: str) -> np.ndarray:
    return np.asarray(cv2.imread(str(FIXTURES / skin / f"{stem}.png")), np.uint8)


def test_the_flat_colours_of_a_jpeg_are_found_again() -> None:
    png = fixture("xdemineur", "expert_lost")
    found = dominant_colours(jpeg(png, 75))
    # the colours covering most of the capture (covered grey, opened light grey, black...)
    colours, counts = np.unique(png.reshape(-1, 3), axis=0, return_counts=True)
    for colour in colours[np.argsort(-counts)[:4]].astype(np.float32):
        assert np.abs(found - colour).max(axis=1).min() <= 3, colour


def test_snapping_to_the_skin_palette_gives_back_the_exact_pixels_of_flat_areas() -> None:
    png = fixture("winmine", "intermediate_playing")
    restored = snap_to_palette(jpeg(png, 90), skin_palette(load_skin("winmine")))
    # away from edges (a pixel whose 5x5 neighbourhood is one colour) the JPEG's noise
    # is gone: the very colour of the PNG
    k = np.ones((5, 5), np.uint8)
    flat = (cv2.dilate(png, k) == cv2.erode(png, k)).all(axis=2)
    assert flat.mean() > 0.3
    assert (restored[flat] == png[flat]).all(axis=1).mean() > 0.99


def test_calibrate_from_jpegs_learns_a_skin_that_reads_them_back_right() -> None:
    stems = ["beginner_won", "dense_lost", "dense_playing", "expert_lost",
             "expert_playing", "intermediate_lost", "intermediate_playing"]
    images = restore_lossy([jpeg(fixture("winmine", s), 90) for s in stems],
                           [True] * len(stems))
    learned = learn_from_images(images)
    wrong = unknown = 0
    for stem, image, g in zip(stems, images, learned.boards, strict=True):
        expected = parse_board((FIXTURES / "winmine" / f"{stem}.board").read_text())
        assert g is not None and (g.rows, g.cols) == expected.shape, stem
        read = read_cells(image, g, learned.cells)
        wrong += int(((read != expected) & (read != UNKNOWN)).sum())
        unknown += int((read == UNKNOWN).sum())
    assert wrong == 0  # before vision.lossy: 158 wrong, 416 unknown
    assert unknown <= 20
