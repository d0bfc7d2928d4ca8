"""Learn a skin offline from gnome-mines fixtures drawn at another size, and read the
same captures back with it, for the offline calibrate tests."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from solver.cells import UNKNOWN
from solver.textboard import parse_board
from vision.calibrate import learn_from_images, read_cells

GNOME = Path(__file__).resolve().parent.parent / "fixtures" / "gnome-mines"


def scaled_read_back(globs: list[str], scale: float, interpolation: int,
                     seconds: float | None = None) -> tuple[int, int, int, int]:
    """The captures matching ``globs``, resized by ``scale``, learned from (with a time
    limit of ``seconds``, None: none) and each read back against its ``.board``: (captures, wrong,
    unknown, all squares)."""
    paths = sorted(p for g in globs for p in GNOME.glob(g))
    images = [np.asarray(cv2.resize(np.asarray(cv2.imread(str(p)), np.uint8), None,
                                    fx=scale, fy=scale, interpolation=interpolation),
                         np.uint8) for p in paths]
    learned = learn_from_images(images, seconds=seconds)
    wrong = unknown = total = 0
    for path, image, g in zip(paths, images, learned.boards, strict=True):
        expected = parse_board(path.with_suffix(".board").read_text())
        assert g is not None and (g.rows, g.cols) == expected.shape, path.name
        read = read_cells(image, g, learned.cells)
        wrong += int(((read != expected) & (read != UNKNOWN)).sum())
        unknown += int((read == UNKNOWN).sum())
        total += read.size
    return len(paths), wrong, unknown, total
