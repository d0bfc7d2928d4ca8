"""Fixture screenshots saved as JPEG captures, for the tests of reading JPEGs."""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np


def as_jpegs(folder: Path, quality: int, pngs: Iterable[Path]) -> list[Path]:
    """Each PNG fixture saved as a JPEG of ``quality`` in ``folder``, its hand-checked
    .board beside it."""
    out = []
    for png in pngs:
        ok, data = cv2.imencode(".jpg", np.asarray(cv2.imread(str(png)), np.uint8),
                                [cv2.IMWRITE_JPEG_QUALITY, quality])
        assert ok
        path = folder / f"{png.stem}.jpg"
        path.write_bytes(data.tobytes())
        shutil.copy(png.with_suffix(".board"), path.with_suffix(".board"))
        out.append(path)
    return out
