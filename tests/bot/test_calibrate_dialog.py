"""A kmines loss under its "Reset the Game?" dialog, on real captures
(``tests/bot/kmines_dialog/``, the board of a live calibration, 22 Nov, checked by eye):

- ``move_before.png``: a game under way, a flag at (7, 6);
- ``move_after.png``: the click on (4, 2) opened one square (a 1);
- ``loss_after.png``: the click on (2, 1) hit a mine; kmines shows the hit square
  (orange), the mines and the wrong flag, and a dialog over rows 1-5, columns 1-7,
  part of the hit square under it.

The dialog joins every mine shown to the square clicked, so the change read as an
opened region and the loss went unread; then the board took no click and calibration
stopped ("the game stopped responding").
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from bot.calibrate_live import flood_past_window, window_over
from solver.cells import COVERED, FLAG
from vision.calibrate import CellBank, Learner, is_flood, whole_pixel
from vision.lattice import find_lattice, template_size

HERE = Path(__file__).resolve().parent / "kmines_dialog"


def _frames() -> tuple[list[np.ndarray], dict[int, int]]:
    images = [np.asarray(cv2.imread(str(HERE / f"{name}.png")), np.uint8)
              for name in ("move_before", "move_after", "loss_after")]
    g = find_lattice(images[0])
    assert (g.rows, g.cols) == (9, 9)
    learner = Learner(template_size(g), CellBank(strict=whole_pixel(g)))
    ids = [learner.ids(image, g) for image in images]
    looks, counts = np.unique(ids[0], return_counts=True)
    learner.name(int(looks[np.argmax(counts)]), COVERED, weight=100)
    learner.name(int(ids[0][7, 6]), FLAG, weight=100)
    return ids, learner.known()


def test_a_dialog_at_a_loss_is_no_opened_region() -> None:
    (before, opened, lost), known = _frames()
    assert is_flood(before, opened, [(4, 2)])  # (the square opened alone)
    assert flood_past_window(before, opened, [(4, 2)], known)
    over = window_over(lost, known, opened)
    assert over[1:6, 1:8].all() and not over[6:].any() and not over[:, 0].any()
    assert is_flood(opened, lost, [(2, 1)])  # how it read before
    assert not flood_past_window(opened, lost, [(2, 1)], known)
