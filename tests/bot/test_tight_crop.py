"""Screenshots cropped to the board's very edge (a user's crop of just the squares):
``replay`` and ``calibrate --from`` find and read them like whole screenshots.

The WineMine captures' board (16x16 squares of 16 px) lies at x 5-261, y 52-308 of the
screenshot, found by eye (the 3D frame around it is 3 px): the crop keeps the squares
and nothing else. Before :mod:`vision.margin`, neither command found a board in it.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.cli import main
from solver.textboard import parse_board
from vision.calibrate import read_cells
from vision.margin import with_margin
from vision.skin import load_skin

WINMINE = Path(__file__).resolve().parent.parent / "fixtures" / "winmine"
BOARD = (slice(52, 52 + 256), slice(5, 5 + 256))


def tight_crop(stem: str, tmp: Path) -> Path:
    image = cv2.imread(str(WINMINE / f"{stem}.png"))
    assert image is not None
    crop = image[BOARD]
    assert crop.shape == (256, 256, 3)
    path = tmp / f"{stem}.png"
    cv2.imwrite(str(path), crop)
    path.with_suffix(".board").write_text((WINMINE / f"{stem}.board").read_text())
    return path


def test_replay_reads_a_board_cropped_to_its_squares(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    crop = tight_crop("intermediate_lost", tmp_path)
    heat = tmp_path / "heat.png"
    assert main(["replay", "--skin", "winmine", "--heatmap", str(heat), str(crop)]) == 0
    assert "matches the .board" in capsys.readouterr().out
    drawn = cv2.imread(str(heat))
    assert drawn is not None and drawn.shape == (256, 256, 3)  # the crop's size, no margin


def test_calibrate_from_crops_learns_a_skin_that_reads_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    crops = [tight_crop(stem, tmp_path) for stem in ("intermediate_lost",
                                                     "intermediate_playing")]
    out = tmp_path / "skin"
    assert main(["calibrate", "--name", "cropped", "--from", *map(str, crops),
                 "--out", str(out)]) == 0
    assert "no board found" not in capsys.readouterr().out
    skin = load_skin(out)
    from vision.lattice import find_lattice

    for crop in crops:
        image = with_margin(cv2.imread(str(crop)))
        expected = parse_board(crop.with_suffix(".board").read_text())
        read = read_cells(image, find_lattice(image), skin.cells)
        known = read != -7  # UNKNOWN: a look no screenshot could name
        assert known.sum() >= 250
        assert np.array_equal(read[known], expected[known])
